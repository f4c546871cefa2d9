/* test_cache.c - table/cache: a file and its validators as one step
 * SPDX-License-Identifier: MIT
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "lib/table/cache.h"
#include "lib/util/file.h"

static char dir[] = "/tmp/test_cache.XXXXXX";

#define SHA_A "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"

static const char *
at(const char *name)
{
	static char p[2][128];
	static int k;

	k ^= 1;
	snprintf(p[k], sizeof(p[k]), "%s/%s", dir, name);
	return p[k];
}

static void
put(const char *name, const char *s)
{
	FILE *f = fopen(at(name), "wb");

	if (f) {
		fputs(s, f);
		fclose(f);
	}
}

/* name holds exactly s ("" also when it is missing) */
static int
holds(const char *name, const char *s)
{
	char *text = NULL;
	size_t len = 0;
	int absent = 0, ok;

	if (tg_file_read(at(name), 1 << 20, &text, &len, &absent, NULL))
		return 0;
	ok = absent ? !*s : len == strlen(s) && memcmp(text, s, len) == 0;
	free(text);
	return ok;
}

static int calls;

static int
say(const char *path, void *ud)
{
	calls++;
	CHECK(strstr(path, "/apis.json") != NULL, "newer got '%s'", path);
	return *(int *)ud;
}

static struct tg_cache_validators
val(const char *etag, const char *lm, const char *sha)
{
	struct tg_cache_validators v;

	snprintf(v.etag, sizeof(v.etag), "%s", etag);
	snprintf(v.last_modified, sizeof(v.last_modified), "%s", lm);
	snprintf(v.sha256, sizeof(v.sha256), "%s", sha);
	return v;
}

int
main(void)
{
	struct tg_err err = TG_ERR_INIT;
	struct tg_cache_validators v = val("\"e1\"", "Mon", SHA_A), got;
	const char *url = "http://h/apis.json";
	int yes = 1, no = 0, nomem = TG_ENOMEM;

	if (!mkdtemp(dir))
		return 1;

	/* a file and its meta; the lock file is left */
	CHECK(tg_cache_store(dir, "apis.json", "one", 3, url, &v, say, &yes,
			     &err) == 0,
	      "store: %s", err.msg);
	CHECK(calls == 1, "newer asked once: %d", calls);
	CHECK(holds("apis.json", "one"), "the file");
	CHECK(holds("apis.json.meta", "url: http://h/apis.json\nsha256: " SHA_A
				      "\netag: \"e1\"\nlast-modified: Mon\n"),
	      "the meta");
	CHECK(access(at(".lock"), F_OK) == 0, "the lock file");

	/* read back for its URL only */
	tg_cache_validators(dir, "apis.json", url, &got);
	CHECK_STR(got.etag, "\"e1\"", "etag");
	CHECK_STR(got.last_modified, "Mon", "last-modified");
	CHECK_STR(got.sha256, SHA_A, "sha256");
	tg_cache_validators(dir, "apis.json", "http://other/apis.json", &got);
	CHECK(!got.etag[0] && !got.last_modified[0] && !got.sha256[0],
	      "another URL: none");
	tg_cache_validators(dir, "apis.json", NULL, &got);
	CHECK(!got.etag[0] && !got.sha256[0], "no URL: none");

	/* odd metas are no validators */
	put("x.meta", "url: http://h/x\netag: \"e\"\n");
	tg_cache_validators(dir, "x", "http://h/x", &got);
	CHECK(!got.etag[0], "no sha256: none");
	put("x.meta",
	    "url: http://h/x\nsha256: " SHA_A "\netag: \"a\"\rX: y\n");
	tg_cache_validators(dir, "x", "http://h/x", &got);
	CHECK(!got.etag[0] && !got.sha256[0], "a CR: none");
	put("x.meta", "url: http://h/x\nsha256: " SHA_A "\n");
	tg_cache_validators(dir, "x", "http://h/x", &got);
	CHECK(!got.sha256[0], "no validator: none");
	put("x.meta", "url: http://h/x\nsha256: " SHA_A "\netag: \"e\"\n");
	tg_cache_validators(dir, "x", "http://h/x", &got);
	CHECK_STR(got.etag, "\"e\"", "a good one");

	/* newer says no: nothing changes; an error is one */
	CHECK(tg_cache_store(dir, "apis.json", "two", 3, url, &v, say, &no,
			     &err) == 1,
	      "not newer");
	CHECK(holds("apis.json", "one"), "the file stays");
	CHECK(tg_cache_store(dir, "apis.json", "two", 3, url, &v, say, &nomem,
			     &err) == TG_ENOMEM,
	      "newer's error");
	CHECK(holds("apis.json", "one"), "the file stays after an error");

	/* a meta that cannot be written: neither file changes */
	CHECK(unlink(at("apis.json.meta")) == 0 &&
		  mkdir(at("apis.json.meta"), 0700) == 0,
	      "a directory for the meta");
	CHECK(tg_cache_store(dir, "apis.json", "two", 3, url, &v, NULL, NULL,
			     &err) == TG_EIO,
	      "meta unwritable");
	CHECK(strstr(err.msg, "apis.json.meta': it is a directory") != NULL,
	      "message: %s", err.msg);
	CHECK(holds("apis.json", "one"), "the file stays with its meta");
	CHECK(rmdir(at("apis.json.meta")) == 0, "rmdir");

	/* validators that cannot be kept: the old meta goes */
	put("apis.json.meta",
	    "url: http://h/apis.json\nsha256: " SHA_A "\netag: \"old\"\n");
	v = val("\"a\"\rX-Injected: yes", "", SHA_A);
	CHECK(tg_cache_store(dir, "apis.json", "three", 5, url, &v, NULL, NULL,
			     &err) == 0,
	      "store: %s", err.msg);
	CHECK(holds("apis.json", "three") && holds("apis.json.meta", ""),
	      "a CR in the ETag: no meta");
	v = val("\"e\"", "", "not hex");
	put("apis.json.meta", "old\n");
	CHECK(tg_cache_store(dir, "apis.json", "four", 4, url, &v, NULL, NULL,
			     &err) == 0 &&
		  holds("apis.json.meta", ""),
	      "no SHA-256: no meta");
	v = val("\"e\"", "", SHA_A);
	put("apis.json.meta", "old\n");
	CHECK(tg_cache_store(dir, "apis.json", "five", 4, "http://h/\n", &v,
			     NULL, NULL, &err) == 0 &&
		  holds("apis.json.meta", ""),
	      "a URL with a newline: no meta");
	CHECK(tg_cache_store(dir, "apis.json", "six", 3, NULL, NULL, NULL, NULL,
			     &err) == 0 &&
		  holds("apis.json", "six"),
	      "no validators at all");

	unlink(at("apis.json"));
	unlink(at("x.meta"));
	unlink(at(".lock"));
	rmdir(dir);
	return check_result("test_cache");
}
