"""never closed
@deprecated("x")
