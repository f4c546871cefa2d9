/* never closed
#define TORCH_VERSION_MINOR 11
