/* test_plan.c - fix/plan: a buffer's findings fixed, left or hidden,
 * the floor, the check after fixing and its revert
 * SPDX-License-Identifier: MIT
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "lib/audit/engine.h"
#include "lib/fix/plan.h"

/* An entry: id, introduced, deprecated (or null), fix (JSON). */
static const char entry_fmt[] =
    "{\"id\": \"%s\", \"language\": \"python\", \"kind\": \"function\", "
    "\"private\": false, "
    "\"introduced\": {\"version\": \"%s\", \"bound\": \"exact\", "
    "\"status\": \"verified\", \"note\": \"\"}, "
    "\"deprecated\": {\"version\": %s, \"bound\": \"exact\", "
    "\"status\": \"verified\", \"note\": \"\", \"withdrawn\": null, "
    "\"announced_by\": null}, "
    "\"removed\": {\"version\": null, \"bound\": \"exact\", \"status\": "
    "\"verified\", \"note\": \"\"}, "
    "\"replacement\": {\"id\": null, \"text\": null, \"since\": null, "
    "\"status\": \"verified\"}, "
    "\"fix\": %s, "
    "\"warning\": {\"category\": null, \"message\": null, \"since\": null, "
    "\"status\": \"verified\"}, "
    "\"evidence\": {\"files\": [], \"presence\": null, \"deprecation\": "
    "null, \"removal\": null}, "
    "\"usage\": [], \"references\": [], \"notes\": \"\"}";

#define RENAME(to)                                                             \
	"{\"applicability\": \"safe\", \"to\": \"" to "\", \"replace\": "      \
	"null, \"insert\": null, \"bare\": null, \"note\": null}"

static const char *const entries[][4] = {
    {"torch.a", "1.0", "\"1.5\"",
     "{\"applicability\": \"safe\", \"to\": \"torch.b\", \"replace\": null, "
     "\"insert\": "
     "{\"at\": 0, \"text\": \"\\\"k\\\"\", \"max_positional\": null}, "
     "\"bare\": null, \"note\": null}"},
    {"torch.b", "2.0", "null", "null"},
    /* an insertion that keeps the name: the fixed text still uses it,
     * and the check reverts the file */
    {"torch.c", "1.0", "\"1.5\"",
     "{\"applicability\": \"safe\", \"to\": null, \"replace\": null, "
     "\"insert\": "
     "{\"at\": null, \"text\": \"k=1\", \"max_positional\": null}, "
     "\"bare\": null, \"note\": null}"},
    {"torch.d", "1.0", "\"1.5\"",
     "{\"applicability\": \"unsafe\", \"to\": \"torch.e\", \"replace\": null, "
     "\"insert\": "
     "null, \"bare\": null, \"note\": \"n\"}"},
    {"torch.e", "1.0", "null", "null"},
    /* unsafe, its replacement newer than 1.6, no insertion */
    {"torch.u", "1.0", "\"1.5\"",
     "{\"applicability\": \"unsafe\", \"to\": \"torch.b\", \"replace\": null, "
     "\"insert\": "
     "null, \"bare\": null, \"note\": \"n\"}"},
    /* a chain: torch.f's replacement has a fix of its own (two
     * passes), and one longer than TG_PLAN_PASSES */
    {"torch.f", "1.0", "\"1.5\"", RENAME("torch.g")},
    {"torch.g", "1.0", "\"1.5\"", RENAME("torch.h")},
    {"torch.h", "1.0", "null", "null"},
    {"torch.l1", "1.0", "\"1.5\"", RENAME("torch.l2")},
    {"torch.l2", "1.0", "\"1.5\"", RENAME("torch.l3")},
    {"torch.l3", "1.0", "\"1.5\"", RENAME("torch.l4")},
    {"torch.l4", "1.0", "\"1.5\"", RENAME("torch.l5")},
    {"torch.l5", "1.0", "\"1.5\"", RENAME("torch.l6")},
    {"torch.l6", "1.0", "null", "null"},
};

static char *
table_json(void)
{
	size_t k, n = 64;
	char *s, *p;

	for (k = 0; k < sizeof(entries) / sizeof(entries[0]); k++)
		n += sizeof(entry_fmt) + strlen(entries[k][0]) +
		     strlen(entries[k][1]) + strlen(entries[k][2]) +
		     strlen(entries[k][3]) + 2;
	s = p = malloc(n);
	p += sprintf(p, "{\"schema_version\": 1, \"entries\": [");
	for (k = 0; k < sizeof(entries) / sizeof(entries[0]); k++) {
		p += sprintf(p, k ? ", " : "");
		p += sprintf(p, entry_fmt, entries[k][0], entries[k][1],
			     entries[k][2], entries[k][3]);
	}
	sprintf(p, "]}");
	return s;
}

/* Plan src at floor (NULL: none) with unsafe; the fixed text (or the
 * original when nothing is fixed) and each use's outcome into *what. */
static char *
plan(const struct tg_engine *e, const struct tg_table *t, const char *src,
     const char *floor, int unsafe, char *what, size_t whatsz, char **reverted)
{
	struct tg_plan p = TG_PLAN_INIT;
	struct tg_plan_opts o = {e, t, NULL, unsafe};
	struct tg_version f = TG_VERSION_INIT;
	struct tg_err err = TG_ERR_INIT;
	char *out;
	size_t k, n = 0;
	int rc;

	if (floor) {
		tg_version_parse(&f, floor, strlen(floor), NULL);
		o.floor = &f;
	}
	rc = tg_plan_file(&p, &o, tg_lang_find("python"), src, strlen(src),
			  "m.py", &err);
	CHECK(rc == 0, "plan: %s", err.msg);
	what[0] = '\0';
	for (k = 0; k < p.before.r.nfindings; k++)
		n += (size_t)snprintf(
		    what + n, n < whatsz ? whatsz - n : 0, "%s%s:%s",
		    k ? "; " : "", p.before.r.findings[k].api->id,
		    p.uses[k].outcome == TG_PLAN_FIXED	  ? "fixed"
		    : p.uses[k].outcome == TG_PLAN_HIDDEN ? "hidden"
							  : p.uses[k].why);
	/* planned from the engine's own analysis (what audit's bytes hook
	 * does): the same plan */
	{
		const struct tg_lang *py = tg_lang_find("python");
		struct tg_plan q = TG_PLAN_INIT;
		struct tg_engine_file a = TG_ENGINE_FILE_INIT;
		int same;

		rc =
		    tg_engine_buffer(e, py, src, strlen(src), "m.py", &a, &err);
		if (!rc)
			rc = tg_plan_bytes(&q, &o, py, src, strlen(src), &a,
					   &err);
		same = rc == 0 && q.nedits == p.nedits &&
		       q.nfixed == p.nfixed && q.nleft == p.nleft &&
		       q.nhidden == p.nhidden && q.fixed.len == p.fixed.len &&
		       (!p.fixed.len ||
			memcmp(q.fixed.data, p.fixed.data, p.fixed.len) == 0) &&
		       !q.reverted == !p.reverted &&
		       q.before.r.nfindings == p.before.r.nfindings;
		for (k = 0; same && k < p.before.r.nfindings; k++)
			same = q.uses[k].outcome == p.uses[k].outcome &&
			       !q.uses[k].why == !p.uses[k].why &&
			       (!p.uses[k].why ||
				strcmp(q.uses[k].why, p.uses[k].why) == 0);
		CHECK(same, "tg_plan_bytes plans '%s' as tg_plan_file", src);
		tg_engine_file_release(&a);
		tg_plan_release(&q);
	}
	out = p.nedits ? strndup(p.fixed.data, p.fixed.len) : strdup(src);
	*reverted = p.reverted ? strdup(p.reverted) : NULL;
	tg_plan_release(&p);
	tg_version_release(&f);
	return out;
}

int
main(void)
{
	struct tg_table t = TG_TABLE_INIT;
	struct tg_err err = TG_ERR_INIT;
	struct tg_version v = TG_VERSION_INIT;
	struct tg_engine_opts o;
	struct tg_engine *e = NULL;
	char *json = table_json(), *got, *rev, what[1024];

	CHECK(tg_table_parse(&t, json, strlen(json), "T", &err) == 0, "%s",
	      err.msg);
	tg_version_parse(&v, "2.0", 3, NULL);
	memset(&o, 0, sizeof(o));
	o.table = &t;
	o.torch = &v;
	o.min = TG_AUDIT_RANK_PRIVATE;
	o.threads = 1;
	CHECK(tg_engine_new(&e, &o, &err) == 0, "engine: %s", err.msg);
	if (!e)
		return check_result("test_plan");

	/* fixed at a floor that has the replacement; the rest kept */
	got =
	    plan(e, &t, "import torch\r\ny = torch.a(1, x=2)  # torch.a()\r\n",
		 "2.0", 0, what, sizeof(what), &rev);
	CHECK_STR(got,
		  "import torch\r\ny = torch.b(\"k\", 1, x=2)  # torch.a()\r\n",
		  "fixed, CRLF and the comment kept");
	CHECK_STR(what,
		  "torch.a:fixed; torch.a:a mention in a comment or string: "
		  "never rewritten",
		  "outcomes");
	CHECK(rev == NULL, "not reverted");
	free(got);
	free(rev);

	/* the floor lacks the replacement: the guarded form, a compat name
	 * and its block after the leading imports (a docstring first) */
	got = plan(e, &t,
		   "\"\"\"d\"\"\"\nimport torch\n\ntorch.a(1)\ntorch.a(2)\n",
		   "1.6", 0, what, sizeof(what), &rev);
	CHECK_STR(got,
		  "\"\"\"d\"\"\"\nimport torch\n"
		  "\ntry:  # torchgate: compat for torch < 2.0\n"
		  "    from torch import b as _torchgate_new_a\n"
		  "except ImportError:\n"
		  "    from torch import a as _torchgate_a\n"
		  "else:\n"
		  "    def _torchgate_a(*args, **kwargs):\n"
		  "        return _torchgate_new_a(\"k\", *args, **kwargs)\n"
		  "\n_torchgate_a(1)\n_torchgate_a(2)\n",
		  "guarded at 1.6: one block");
	CHECK_STR(what, "torch.a:fixed; torch.a:fixed", "guarded: outcomes");
	CHECK(rev == NULL, "guarded: not reverted (%s)", rev ? rev : "");
	free(rev);
	/* again: the block's old name is guarded, nothing changes */
	{
		char *again =
		    plan(e, &t, got, "1.6", 0, what, sizeof(what), &rev);

		CHECK_STR(again, got, "guarded, again: unchanged");
		CHECK(strstr(what, "torch.a:guarded: left as written") &&
			  !strstr(what, "fixed"),
		      "guarded, again: %s", what);
		free(again);
		free(rev);
	}
	/* a use added since: the block reused, not added twice */
	{
		size_t n = strlen(got);
		char *more = malloc(n + sizeof "_torchgate_a(3)\n"), *again;

		memcpy(more, got, n);
		strcpy(more + n, "torch.a(3)\n");
		again = plan(e, &t, more, "1.6", 0, what, sizeof(what), &rev);
		more[n] = '\0';
		strcat(more, "_torchgate_a(3)\n");
		CHECK_STR(again, more, "a block reused");
		free(again);
		free(more);
		free(rev);
	}
	free(got);
	/* the block's name taken; no leading import; not a call */
	got = plan(e, &t, "import torch\n_torchgate_a = 1\ntorch.a()\n", "1.6",
		   0, what, sizeof(what), &rev);
	CHECK_STR(got, "import torch\n_torchgate_a = 1\ntorch.a()\n",
		  "a name taken: kept");
	CHECK_STR(what,
		  "torch.a:the replacement is newer than the floor (2.0 > "
		  "1.6) and its guarded form cannot be written: the compat "
		  "block's name is taken in this file",
		  "a name taken: the reason");
	free(got);
	free(rev);
	got = plan(e, &t, "x = 1\nimport torch\ntorch.a()\n", "1.6", 0, what,
		   sizeof(what), &rev);
	CHECK(strstr(what, "the file does not start with imports") != NULL,
	      "no leading import: %s", what);
	free(got);
	free(rev);
	got = plan(e, &t, "import torch\nS = torch.a\n", "1.6", 0, what,
		   sizeof(what), &rev);
	CHECK(strstr(what, "cannot be written: not a call") != NULL,
	      "not a call: %s", what);
	free(got);
	free(rev);
	/* unsafe, guarded: hidden, then the object itself bound */
	got = plan(e, &t, "import torch\ntorch.u.x\n", "1.6", 0, what,
		   sizeof(what), &rev);
	CHECK_STR(what, "torch.u:hidden", "guarded unsafe: hidden");
	free(got);
	free(rev);
	got = plan(e, &t, "import torch\ntorch.u.x\n", "1.6", 1, what,
		   sizeof(what), &rev);
	CHECK_STR(got,
		  "import torch\n"
		  "\ntry:  # torchgate: compat for torch < 2.0\n"
		  "    from torch import b as _torchgate_u\n"
		  "except ImportError:\n"
		  "    from torch import u as _torchgate_u\n"
		  "_torchgate_u.x\n",
		  "guarded unsafe: no insertion, no def");
	free(got);
	free(rev);

	/* an alias of torch keeps its name (the file-level step); a
	 * guarded use is left */
	got = plan(e, &t,
		   "import torch as T\nT.a()\ntry:\n    import torch\n    "
		   "torch.a()\nexcept AttributeError:\n    pass\n",
		   NULL, 0, what, sizeof(what), &rev);
	CHECK_STR(got,
		  "import torch as T\nT.b(\"k\")\ntry:\n    import torch\n    "
		  "torch.a()\nexcept AttributeError:\n    pass\n",
		  "alias fixed, guarded use kept");
	CHECK_STR(what, "torch.a:fixed; torch.a:guarded: left as written",
		  "alias and guard");
	free(got);
	free(rev);

	/* a from-import: the use becomes the whole name, `import torch`
	 * takes the import's place; a second name keeps its import */
	got = plan(e, &t,
		   "import os\nfrom torch import a, c\n\n\ndef f():\n    "
		   "return a(1), c\n",
		   NULL, 0, what, sizeof(what), &rev);
	CHECK_STR(got,
		  "import os\nfrom torch import c\nimport torch\n\n\ndef "
		  "f():\n    return torch.b(\"k\", 1), c\n",
		  "from-import fixed");
	CHECK(strstr(what, "torch.a:fixed; torch.c:") &&
		  strstr(what, "import kept: a use of the name is left"),
	      "from-import: %s", what);
	free(got);
	free(rev);
	got = plan(e, &t, "from torch import a\ntorch = 1\na()\n", NULL, 0,
		   what, sizeof(what), &rev);
	CHECK_STR(got, "from torch import a\ntorch = 1\na()\n",
		  "torch rebound: nothing fixed");
	CHECK(strstr(what, "torch is bound otherwise in this file") != NULL,
	      "torch rebound: %s", what);
	free(got);
	free(rev);

	/* the check after fixing: a use left reverts the file */
	got = plan(e, &t, "import torch\ntorch.c()\ntorch.a()\n", NULL, 0, what,
		   sizeof(what), &rev);
	CHECK_STR(got, "import torch\ntorch.c()\ntorch.a()\n",
		  "reverted: the original");
	CHECK_STR(rev, "the fixed text still uses torch.c", "why");
	CHECK_STR(what,
		  "torch.c:the fixed text still uses torch.c; "
		  "torch.a:the fixed text still uses torch.c",
		  "every fix of the file dropped");
	free(got);
	free(rev);

	/* the language's check after fixing, per use: where a rewrite's
	 * name and call do not read back (a '(' of the next statement
	 * taken for the call, an argument lost), the fixes are dropped */
	{
		const struct tg_lang *py = tg_lang_find("python");
		const char *src = "import torch\nS = torch.a\n(a, b) = 1, 2\n";
		const char *bad = "import torch\nS = torch.b\n(\"k\", a, b) "
				  "= 1, 2\n";
		const char *call = "import torch\nS = torch.a(a)\n";
		const char *good = "import torch\nS = torch.b(\"k\", a)\n";
		const char *lost = "import torch\nS = torch.b(\"k\")\n";
		const char *name = "import torch\nS = torch. b(\"k\", a)\n";
		struct tg_audit_finding f;
		const char *why;

		memset(&f, 0, sizeof(f));
		f.api = tg_table_find(&t, "torch.a");
		f.in = TG_AUDIT_IN_CODE;
		f.kind = "attribute";
		f.start = 17;
		f.end = 24;
		why = py->fix->check(src, strlen(src), &f, bad, strlen(bad), 17,
				     24);
		CHECK(why && strcmp(why, "an argument inserted into a use that "
					 "is no call") == 0,
		      "a name alone, the next line's '(' taken: %s",
		      why ? why : "(null)");
		f.kind = "call";
		why = py->fix->check(call, strlen(call), &f, good, strlen(good),
				     17, 24);
		CHECK(why == NULL, "a right rewrite passes: %s",
		      why ? why : "(null)");
		why = py->fix->check(call, strlen(call), &f, lost, strlen(lost),
				     17, 24);
		CHECK(why && strcmp(why, "a rewritten call's arguments do not "
					 "read back") == 0,
		      "an argument lost: %s", why ? why : "(null)");
		why = py->fix->check(call, strlen(call), &f, name, strlen(name),
				     17, 25);
		CHECK(why && strcmp(why, "a rewritten name does not read "
					 "back") == 0,
		      "no dotted name: %s", why ? why : "(null)");
		/* a fix that keeps the name (torch.c: k=1 inserted): the
		 * use's own text must read back, whatever the entry's id (a
		 * behaviour's pseudo-entry is named otherwise) */
		f.api = tg_table_find(&t, "torch.c");
		f.end = 25;
		why = py->fix->check("import torch\nS = torch.cc(a)\n", 29, &f,
				     "import torch\nS = torch.cc(a, k=1)\n", 34,
				     17, 25);
		CHECK(why == NULL, "the name kept: %s", why ? why : "(null)");
		/* an import statement is rewritten whole: its name may go */
		f.kind = "import";
		why = py->fix->check(call, strlen(call), &f, name, strlen(name),
				     17, 17);
		CHECK(why == NULL, "an import: %s", why ? why : "(null)");
	}

	/* the fixed point: a fix whose replacement has a fix of its own
	 * takes two passes, through a from-import too (its rewrite exposes
	 * the chain); a chain longer than TG_PLAN_PASSES stops there */
	{
		const struct tg_lang *py = tg_lang_find("python");
		struct tg_plan_opts po = {e, &t, NULL, 0};
		static const struct {
			const char *src, *want, *what, *unsettled;
			size_t passes, nfixed;
		} cases[] = {
		    {"import torch\ny = torch.f(1) + torch.a(2)\n",
		     "import torch\ny = torch.h(1) + torch.b(\"k\", 2)\n",
		     "torch.f:fixed:torch.g; torch.a:fixed:torch.b", NULL, 2,
		     3},
		    {"from torch import f\n\n\ndef r():\n    return f(1)\n",
		     "import torch\n\n\ndef r():\n    return torch.h(1)\n",
		     "torch.f:fixed:torch.g; torch.f:fixed:torch.g", NULL, 2,
		     3},
		    {"import torch\ntorch.l1()\n", "import torch\ntorch.l5()\n",
		     "torch.l1:fixed:torch.l2",
		     "still changing after 4 passes: left as after pass 4 (run "
		     "--fix again)",
		     4, 4},
		    {"import torch\ntorch.l3()\n", "import torch\ntorch.l6()\n",
		     "torch.l3:fixed:torch.l4", NULL, 3, 3},
		};
		size_t c;

		for (c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
			struct tg_plan p = TG_PLAN_INIT;
			struct tg_buf b = TG_BUF_INIT;
			size_t k;

			CHECK(tg_plan_file(&p, &po, py, cases[c].src,
					   strlen(cases[c].src), "m.py",
					   &err) == 0,
			      "chain %zu: %s", c, err.msg);
			tg_buf_add(&b, "", 0);
			for (k = 0; k < p.before.r.nfindings; k++)
				tg_buf_addf(&b, "%s%s:%s:%s", k ? "; " : "",
					    p.before.r.findings[k].api->id,
					    p.uses[k].outcome == TG_PLAN_FIXED
						? "fixed"
						: "not fixed",
					    p.uses[k].to ? p.uses[k].to : "-");
			CHECK_STR(b.data, cases[c].what, "chain: outcomes");
			CHECK(p.fixed.len == strlen(cases[c].want) &&
				  memcmp(p.fixed.data, cases[c].want,
					 p.fixed.len) == 0,
			      "chain %zu: the text '%.*s'", c, (int)p.fixed.len,
			      p.fixed.data);
			CHECK(p.passes == cases[c].passes,
			      "chain %zu: %zu passes", c, p.passes);
			CHECK(p.nfixed == cases[c].nfixed,
			      "chain %zu: %zu fixed", c, p.nfixed);
			CHECK(
			    (!p.unsettled && !cases[c].unsettled) ||
				(p.unsettled && cases[c].unsettled &&
				 strcmp(p.unsettled, cases[c].unsettled) == 0),
			    "chain %zu: unsettled %s", c,
			    p.unsettled ? p.unsettled : "(null)");
			/* the composed edits give the text in one pass */
			tg_buf_clear(&b);
			tg_edit_apply(cases[c].src, strlen(cases[c].src),
				      p.edits, p.nedits, &b);
			CHECK(b.len == p.fixed.len &&
				  memcmp(b.data, p.fixed.data, b.len) == 0,
			      "chain %zu: the edits applied", c);
			tg_buf_release(&b);
			tg_plan_release(&p);
		}
	}

	/* unsafe: hidden, then applied */
	got = plan(e, &t, "import torch\ntorch.d\n", NULL, 0, what,
		   sizeof(what), &rev);
	CHECK_STR(what, "torch.d:hidden", "hidden");
	free(got);
	free(rev);
	got = plan(e, &t, "import torch\ntorch.d\n", NULL, 1, what,
		   sizeof(what), &rev);
	CHECK_STR(got, "import torch\ntorch.e\n", "unsafe applied");
	free(got);
	free(rev);

	tg_engine_free(e);
	tg_version_release(&v);
	tg_table_release(&t);
	free(json);
	return check_result("test_plan");
}
