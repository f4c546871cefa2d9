// a C++ use of an entry that bounds nothing: listed under "other APIs"
int f() { return at::testonly::macro_thing; }
