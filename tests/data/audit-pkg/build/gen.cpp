AT_CHECK(1, "never read: build/ is not entered");
