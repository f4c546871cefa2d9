AT_CHECK(1, "never read: a virtualenv");
