/* test_edit.c - fix/edit: normalizing, applying, and the unified diff
 * SPDX-License-Identifier: MIT
 *
 * The diff is checked against the real thing: for random texts and
 * random edits, GNU patch applies it to the original and must produce
 * exactly what tg_edit_apply produced (patch is in every Debian build
 * environment: dpkg-dev depends on it).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "lib/fix/edit.h"

#define E(s, e, t)                                                             \
	{                                                                      \
		(s), (e), (t), sizeof(t) - 1                                   \
	}

static void
test_normalize(void)
{
	struct tg_err err = TG_ERR_INIT;
	struct tg_edit a[] = {E(5, 6, "x"), E(0, 0, "b"), E(0, 0, "a"),
			      E(0, 2, "r"), E(5, 6, "x")};
	size_t n = 5;
	struct tg_edit c1[] = {E(0, 4, "x"), E(2, 3, "y")};
	struct tg_edit c2[] = {E(1, 3, "x"), E(1, 2, "y")};
	struct tg_edit c3[] = {E(1, 3, "x"), E(2, 2, "y")};
	struct tg_edit ok[] = {E(1, 3, "x"), E(3, 3, "y"), E(3, 4, "z")};
	struct tg_edit out[] = {E(1, 9, "x")};
	size_t m;

	CHECK(tg_edit_normalize(a, &n, 10, &err) == 0, "%s", err.msg);
	CHECK(n == 4, "duplicate dropped: %zu", n);
	/* insertions first at a tie, in their given order */
	CHECK(a[0].start == 0 && a[0].len == 1 && a[0].text[0] == 'b', "b");
	CHECK(a[1].start == 0 && a[1].text[0] == 'a', "a");
	CHECK(a[2].end == 2 && a[2].text[0] == 'r', "r");
	CHECK(a[3].start == 5, "x");

	m = 2;
	CHECK(tg_edit_normalize(c1, &m, 10, &err) == TG_EINVAL, "inside");
	CHECK_STR(err.msg, "edits [0, 4) and [2, 3) overlap", "message");
	m = 2;
	CHECK(tg_edit_normalize(c2, &m, 10, &err) == TG_EINVAL, "same start");
	m = 2;
	CHECK(tg_edit_normalize(c3, &m, 10, &err) == TG_EINVAL,
	      "insertion inside a replacement");
	m = 3;
	CHECK(tg_edit_normalize(ok, &m, 10, &err) == 0 && m == 3,
	      "touching: %s", err.msg);
	m = 1;
	CHECK(tg_edit_normalize(out, &m, 5, &err) == TG_EINVAL, "outside");
	CHECK_STR(err.msg, "edit [1, 9) outside the text (5 bytes)", "msg");
}

static void
test_apply(void)
{
	const char *src = "import torch\nx = torch.cuda.amp.autocast()\n";
	struct tg_edit e[] = {E(17, 31, "torch.amp"), E(41, 41, "\"cuda\"")};
	struct tg_buf b = TG_BUF_INIT;
	size_t n = 2;

	CHECK(tg_edit_normalize(e, &n, strlen(src), NULL) == 0, "normalize");
	CHECK(tg_edit_apply(src, strlen(src), e, n, &b) == 0, "apply");
	CHECK_STR(b.data, "import torch\nx = torch.amp.autocast(\"cuda\")\n",
		  "applied");
	tg_buf_release(&b);
}

struct dcase {
	const char *src;
	struct tg_edit e[3];
	size_t n;
	const char *want; /* `diff -u` of the two, with a/ and b/ names */
};

static const struct dcase dcases[] = {
    {"a\nb\nc\n",
     {E(2, 3, "B")},
     1,
     "--- a/f.py\n+++ b/f.py\n@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n"},
    /* an inserted line: no old line is changed */
    {"a\nb\n",
     {E(2, 2, "x\n")},
     1,
     "--- a/f.py\n+++ b/f.py\n@@ -1,2 +1,3 @@\n a\n+x\n b\n"},
    /* no newline at the end, on both sides */
    {"a\nb",
     {E(2, 3, "c")},
     1,
     "--- a/f.py\n+++ b/f.py\n@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at "
     "end of file\n+c\n\\ No newline at end of file\n"},
    /* far apart: two hunks */
    {"1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n",
     {E(0, 1, "one"), E(24, 26, "twelve")},
     2,
     "--- a/f.py\n+++ b/f.py\n@@ -1,4 +1,4 @@\n-1\n+one\n 2\n 3\n 4\n"
     "@@ -9,4 +9,4 @@\n 9\n 10\n 11\n-12\n+twelve\n"},
    /* an edit that changes nothing gives no diff */
    {"a\n", {E(0, 1, "a")}, 1, ""},
    /* into an empty file */
    {"", {E(0, 0, "x\n")}, 1, "--- a/f.py\n+++ b/f.py\n@@ -0,0 +1 @@\n+x\n"},
    /* CRLF stays part of the line */
    {"a\r\nb\r\n",
     {E(3, 4, "c")},
     1,
     "--- a/f.py\n+++ b/f.py\n@@ -1,2 +1,2 @@\n a\r\n-b\r\n+c\r\n"},
};

static void
test_diff_cases(void)
{
	size_t i;

	for (i = 0; i < sizeof(dcases) / sizeof(dcases[0]); i++) {
		struct tg_edit e[3];
		struct tg_buf b = TG_BUF_INIT;
		size_t n = dcases[i].n;

		memcpy(e, dcases[i].e, sizeof(e));
		CHECK(tg_edit_normalize(e, &n, strlen(dcases[i].src), NULL) ==
			  0,
		      "case %zu", i);
		CHECK(tg_edit_diff("f.py", dcases[i].src, strlen(dcases[i].src),
				   e, n, &b) == 0,
		      "case %zu", i);
		CHECK_STR(b.data ? b.data : "", dcases[i].want, "diff case");
		tg_buf_release(&b);
	}
}

static unsigned long rnd_state = 12345;

static unsigned
rnd(unsigned n)
{
	rnd_state = rnd_state * 6364136223846793005UL + 1442695040888963407UL;
	return (unsigned)(rnd_state >> 33) % n;
}

static int
write_file(const char *path, const char *d, size_t n)
{
	FILE *f = fopen(path, "wb");
	int ok = f && fwrite(d, 1, n, f) == n;

	return (f && fclose(f) == 0 && ok) ? 0 : -1;
}

static char *
read_file(const char *path, size_t *n)
{
	FILE *f = fopen(path, "rb");
	char *d = malloc(1 << 16);

	*n = f && d ? fread(d, 1, 1 << 16, f) : 0;
	if (f)
		fclose(f);
	return d;
}

/* Random texts of short lines (some CRLF, some without a final
 * newline), random edits (replacing, inserting, deleting, adding
 * lines), the diff applied by GNU patch. */
static void
test_diff_patch(void)
{
	char dir[] = "/tmp/test_edit.XXXXXX", path[64], cmd[160];
	static const char *words[] = {"a",  "torch", "x\n", "\r\n",
				      "\n", "bb",    " ",   "\n\n"};
	int round, fails = 0;

	if (!mkdtemp(dir)) {
		CHECK(0, "mkdtemp");
		return;
	}
	for (round = 0; round < 300; round++) {
		char src[512], ins[8][16];
		struct tg_edit e[8];
		struct tg_buf want = TG_BUF_INIT, diff = TG_BUF_INIT;
		size_t len = 0, n = 0, got_n, k;
		unsigned lines = rnd(40), l;
		char *got;

		for (l = 0; l < lines; l++) {
			len += (size_t)snprintf(src + len, sizeof(src) - len,
						"%s%u", l % 5 ? "ln" : "x",
						rnd(4));
			if (l + 1 < lines || rnd(3))
				len += (size_t)snprintf(src + len,
							sizeof(src) - len, "%s",
							rnd(5) ? "\n" : "\r\n");
		}
		for (k = 0; k < 1 + rnd(6); k++) {
			size_t s = len ? rnd((unsigned)len + 1) : 0;
			size_t w = rnd(3) && s < len ? rnd(4) : 0;
			struct tg_edit cand;
			size_t j, bad = 0;

			if (s + w > len)
				w = len - s;
			snprintf(ins[n], sizeof(ins[n]), "%s%s", words[rnd(8)],
				 rnd(2) ? words[rnd(8)] : "");
			cand = (struct tg_edit){s, s + w, ins[n],
						rnd(5) ? strlen(ins[n]) : 0};
			for (j = 0; j < n; j++)
				bad |= (size_t)tg_edit_conflict(&e[j], &cand);
			if (!bad)
				e[n++] = cand;
		}
		if (tg_edit_normalize(e, &n, len, NULL) ||
		    tg_edit_apply(src, len, e, n, &want) ||
		    tg_edit_diff("f", src, len, e, n, &diff)) {
			CHECK(0, "round %d: edits refused", round);
			fails++;
			goto next;
		}
		snprintf(path, sizeof(path), "%s/f", dir);
		if (write_file(path, src, len) ||
		    (snprintf(path, sizeof(path), "%s/p", dir),
		     write_file(path, diff.data ? diff.data : "", diff.len))) {
			CHECK(0, "cannot write in %s", dir);
			goto next;
		}
		if (diff.len) {
			snprintf(cmd, sizeof(cmd),
				 "cd %s && patch -s -p1 --binary "
				 "--no-backup-if-mismatch <p >/dev/null 2>&1",
				 dir);
			CHECK(system(cmd) == 0, "round %d: patch refused:\n%s",
			      round, diff.data);
		} else {
			CHECK(want.len == len &&
				  (len == 0 || !memcmp(want.data, src, len)),
			      "round %d: no diff but a change", round);
		}
		snprintf(path, sizeof(path), "%s/f", dir);
		got = read_file(path, &got_n);
		CHECK(got && got_n == want.len &&
			  (got_n == 0 || !memcmp(got, want.data, got_n)),
		      "round %d: patched text differs; diff:\n%s", round,
		      diff.data ? diff.data : "");
		free(got);
	next:
		tg_buf_release(&want);
		tg_buf_release(&diff);
	}
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	CHECK(system(cmd) == 0 && fails == 0, "cleanup");
}

/* Random normalized edits of a text of len bytes into e (at most max),
 * their texts from pool. */
static size_t
random_edits(unsigned *seed, size_t len, struct tg_edit *e, size_t max)
{
	static const char pool[] = "xyz\nab\n\nq";
	size_t n = 0, at = 0;

	while (n < max && at <= len) {
		size_t gap, del;

		*seed = *seed * 1103515245u + 12345u;
		gap = (*seed >> 16) % 5;
		if (at + gap > len)
			break;
		at += gap;
		*seed = *seed * 1103515245u + 12345u;
		del = (*seed >> 16) % 4;
		if (at + del > len)
			del = len - at;
		e[n].start = at;
		e[n].end = at + del;
		*seed = *seed * 1103515245u + 12345u;
		e[n].text = pool + (*seed >> 16) % 5;
		e[n].len = (*seed >> 20) % 5;
		if (e[n].start == e[n].end && !e[n].len)
			e[n].len = 1;
		n++;
		/* a replacement is followed by a gap: no two at one start */
		at += del + (del ? 0 : 1);
	}
	return n;
}

/* tg_edit_compose: two passes of random edits as one set, applied to
 * the original, give the second pass's text, and normalize cleanly. */
static void
test_compose(void)
{
	static const char src[] = "abc\ndef\nghij\nk\n\nlmnop\nqr";
	unsigned seed = 7;
	int round, bad = 0;

	for (round = 0; round < 2000 && !bad; round++) {
		struct tg_edit a[16], b[16], *c = NULL;
		struct tg_buf mid = TG_BUF_INIT, fin = TG_BUF_INIT,
			      got = TG_BUF_INIT;
		struct tg_err err = TG_ERR_INIT;
		size_t na, nb, nc = 0, n;

		na = random_edits(&seed, sizeof(src) - 1, a, 16);
		tg_edit_apply(src, sizeof(src) - 1, a, na, &mid);
		nb = random_edits(&seed, mid.len, b, 16);
		tg_edit_apply(mid.data, mid.len, b, nb, &fin);
		if (tg_edit_compose(a, na, b, nb, fin.data, fin.len, &c, &nc)) {
			bad = 1;
			CHECK(0, "compose %d: failed", round);
		} else {
			n = nc;
			if (tg_edit_normalize(c, &n, sizeof(src) - 1, &err) ||
			    n != nc) {
				bad = 1;
				CHECK(0, "compose %d: not normalized: %s",
				      round, err.msg);
			}
			tg_edit_apply(src, sizeof(src) - 1, c, nc, &got);
			if (got.len != fin.len ||
			    memcmp(got.data, fin.data, fin.len) != 0) {
				bad = 1;
				CHECK(0, "compose %d: applied, not the text",
				      round);
			}
		}
		free(c);
		tg_buf_release(&mid);
		tg_buf_release(&fin);
		tg_buf_release(&got);
	}
	CHECK(!bad, "compose: 2000 random pairs of passes");
	{
		/* one pass only: its own edits back */
		struct tg_edit a[] = {E(2, 3, "XY")}, *c = NULL;
		size_t nc = 0;

		CHECK(tg_edit_compose(a, 1, NULL, 0, "abXYd", 5, &c, &nc) ==
			      0 &&
			  nc == 1 && c[0].start == 2 && c[0].end == 3 &&
			  c[0].len == 2 && memcmp(c[0].text, "XY", 2) == 0,
		      "compose: a single pass");
		free(c);
	}
}

int
main(void)
{
	test_compose();
	test_normalize();
	test_apply();
	test_diff_cases();
	test_diff_patch();
	return check_result("test_edit");
}
