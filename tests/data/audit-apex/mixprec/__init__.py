"""mixprec: mixed precision helpers."""
