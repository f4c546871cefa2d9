/* test_offer.c - fix/offer: the fixes a plan offers, by line and column
 * SPDX-License-Identifier: MIT
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "lib/audit/engine.h"
#include "lib/fix/offer.h"
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

static const char *const entries[][4] = {
    {"torch.a", "1.0", "\"1.5\"",
     "{\"applicability\": \"safe\", \"to\": \"torch.b\", \"replace\": null, "
     "\"insert\": "
     "{\"at\": 0, \"text\": \"\\\"k\\\"\", \"max_positional\": null}, "
     "\"bare\": null, \"note\": null}"},
    {"torch.b", "2.0", "null", "null"},
    /* an insertion that keeps the name: the fixed text still uses it,
     * and the check reverts the file (the table admits no insertion
     * that leaves a string open) */
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

/* Plan src at floor "2.0" without unsafe and write what each finding
 * offers into what: "ID:-" for none, else "ID:safe|unsafe:L.C-L.C=TEXT,..."
 * (then " MESSAGE" for the first). */
static void
offers(const struct tg_engine *e, const struct tg_table *t, const char *src,
       char *what, size_t whatsz)
{
	struct tg_plan p = TG_PLAN_INIT;
	struct tg_plan_opts o = {e, t, NULL, 0};
	struct tg_version f = TG_VERSION_INIT;
	struct tg_err err = TG_ERR_INIT;
	struct tg_audit_fix *x = NULL;
	const struct tg_lang *L = tg_lang_find("python");
	size_t k, j, n = 0, nf;
	int rc;

	tg_version_parse(&f, "2.0", 3, NULL);
	o.floor = &f;
	what[0] = '\0';
	rc = tg_plan_file(&p, &o, L, src, strlen(src), "m.py", &err);
	CHECK(rc == 0, "plan: %s", err.msg);
	nf = p.before.r.nfindings;
	x = calloc(nf + 1, sizeof(*x));
	rc = tg_offer_plan(x, &p, L, src, strlen(src));
	CHECK(rc == 0, "offer: %d", rc);
	for (k = 0; k < nf; k++) {
		n += (size_t)snprintf(what + n, n < whatsz ? whatsz - n : 0,
				      "%s%s:", k ? "; " : "",
				      p.before.r.findings[k].api->id);
		if (!x[k].nedits) {
			n += (size_t)snprintf(what + n,
					      n < whatsz ? whatsz - n : 0, "-");
			continue;
		}
		n += (size_t)snprintf(what + n, n < whatsz ? whatsz - n : 0,
				      "%s", x[k].unsafe ? "unsafe" : "safe");
		for (j = 0; j < x[k].nedits; j++) {
			const struct tg_audit_edit *d = &x[k].edits[j];

			n += (size_t)snprintf(
			    what + n, n < whatsz ? whatsz - n : 0,
			    "%s%zu.%zu-%zu.%zu=%s", j ? "," : ":", d->line,
			    d->column, d->end_line, d->end_column, d->text);
		}
		if (k == 0)
			n += (size_t)snprintf(what + n,
					      n < whatsz ? whatsz - n : 0,
					      " %s", x[k].message);
	}
	for (k = 0; k < nf; k++)
		tg_audit_fix_release(&x[k]);
	free(x);
	tg_plan_release(&p);
	tg_version_release(&f);
}

int
main(void)
{
	struct tg_table t = TG_TABLE_INIT;
	struct tg_err err = TG_ERR_INIT;
	struct tg_version v = TG_VERSION_INIT;
	struct tg_engine_opts o;
	struct tg_engine *e = NULL;
	char *json = table_json(), what[2048];

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
		return check_result("test_offer");

	/* a safe fix: the name and the inserted argument, on a later line
	 * than the name, after CRLF lines and a UTF-8 comment (columns in
	 * bytes); a mention offers none */
	offers(e, &t,
	       "import torch\r\n# \xc3\xa9t\xc3\xa9\r\ny = (torch.a(\r\n    1, "
	       "x=2))  # torch.a()\r\n",
	       what, sizeof(what));
	CHECK_STR(what,
		  "torch.a:safe:3.6-3.13=torch.b,4.5-4.5=\"k\",  replace "
		  "torch.a with torch.b and insert \"k\"; torch.a:-",
		  "lines and columns");

	/* an unsafe fix hidden from the plan is offered as unsafe */
	offers(e, &t, "import torch\nv = torch.d\n", what, sizeof(what));
	CHECK_STR(what,
		  "torch.d:unsafe:2.5-2.12=torch.e replace torch.d with "
		  "torch.e (n)",
		  "unsafe, with its note");

	/* uses through a from-import (the file-level step): one fix,
	 * every edit of the step (the import rewritten, each use) on each
	 * finding it fixes, the same edits in each */
	offers(e, &t, "from torch import a\nb = a(1)\nc = a(2)\n", what,
	       sizeof(what));
	CHECK_STR(what,
		  "torch.a:safe:1.1-2.1=import torch\n,2.5-2.6=torch.b,"
		  "2.7-2.7=\"k\", ,3.5-3.6=torch.b,3.7-3.7=\"k\",  replace "
		  "torch.a with torch.b and insert \"k\", with the import "
		  "rewrite it shares with 2 other findings (one fix: the same "
		  "edits); "
		  "torch.a:safe:1.1-2.1=import torch\n,2.5-2.6=torch.b,"
		  "2.7-2.7=\"k\", ,3.5-3.6=torch.b,3.7-3.7=\"k\", ; "
		  "torch.a:safe:1.1-2.1=import torch\n,2.5-2.6=torch.b,"
		  "2.7-2.7=\"k\", ,3.5-3.6=torch.b,3.7-3.7=\"k\", ",
		  "the file-level step: one fix on each finding");

	/* a file whose fixes are reverted offers none */
	offers(e, &t, "import torch\ntorch.c()\ntorch.a()\ntorch.d\n", what,
	       sizeof(what));
	CHECK_STR(what, "torch.c:-; torch.a:-; torch.d:-", "reverted: none");

	tg_engine_free(e);
	tg_version_release(&v);
	tg_table_release(&t);
	free(json);
	return check_result("test_offer");
}
