char c = '\''; const char *s = "a\
b"; int x = 1'000'000; ?? ` @
#if 0
[[deprecated("x"
