/* test_builtin.c - the built-in table (generated C) against data/apis.json
 * SPDX-License-Identifier: MIT
 *
 * src/tools/gentable writes the table it loaded as static initializers;
 * a bug there (a member left out, a version's parse cut short, a string
 * escaped wrongly) would change every command's output without failing
 * anything else. Here data/apis.json is loaded by the run-time loader
 * and compared with tg_table_default, every entry, every member: each
 * string byte for byte, each parsed version segment by segment, each
 * list, the fix members and the patterns.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "lib/table/table.h"

#ifndef TG_TEST_TABLE
#error "TG_TEST_TABLE: the path of data/apis.json"
#endif

static const char *where;

static void
same_str(const char *a, const char *b, const char *what)
{
	if (!a || !b)
		CHECK(!a && !b, "%s %s: %s vs %s", where, what,
		      a ? a : "(null)", b ? b : "(null)");
	else
		CHECK(strcmp(a, b) == 0, "%s %s: '%s' vs '%s'", where, what, a,
		      b);
}

static void
same_num(struct tg_num a, struct tg_num b, const char *what)
{
	CHECK(a.n == b.n && (!a.n || memcmp(a.p, b.p, a.n) == 0),
	      "%s %s: %.*s vs %.*s", where, what, (int)a.n, a.p ? a.p : "",
	      (int)b.n, b.p ? b.p : "");
}

static void
same_version(const struct tg_version *a, const struct tg_version *b,
	     const char *what)
{
	size_t k;

	same_str(a->str, b->str, what);
	same_str(a->raw, b->raw, what);
	same_num(a->epoch, b->epoch, what);
	CHECK(a->nrelease == b->nrelease, "%s %s: %zu vs %zu segments", where,
	      what, a->nrelease, b->nrelease);
	for (k = 0; k < a->nrelease && k < b->nrelease; k++)
		same_num(a->release[k], b->release[k], what);
	CHECK(a->pre == b->pre, "%s %s: pre", where, what);
	same_num(a->pre_n, b->pre_n, what);
	CHECK(a->has_post == b->has_post, "%s %s: post", where, what);
	same_num(a->post_n, b->post_n, what);
	CHECK(a->has_dev == b->has_dev, "%s %s: dev", where, what);
	same_num(a->dev_n, b->dev_n, what);
	CHECK(a->nlocal == b->nlocal, "%s %s: local", where, what);
	for (k = 0; k < a->nlocal && k < b->nlocal; k++) {
		struct tg_num x = {a->local[k].p, a->local[k].n},
			      y = {b->local[k].p, b->local[k].n};

		same_num(x, y, what);
		CHECK(a->local[k].numeric == b->local[k].numeric,
		      "%s %s: local numeric", where, what);
	}
	/* and it compares as the parse does */
	if (a->str && b->str)
		CHECK(tg_version_cmp(a, b) == 0, "%s %s: compares unequal",
		      where, what);
}

static void
same_event(const struct tg_event *a, const struct tg_event *b, const char *what)
{
	same_str(a->version, b->version, what);
	same_version(&a->ver, &b->ver, what);
	CHECK(a->bound == b->bound, "%s %s: bound", where, what);
	same_str(a->after, b->after, what);
	same_version(&a->after_ver, &b->after_ver, what);
	CHECK(a->status == b->status, "%s %s: status", where, what);
	same_str(a->note, b->note, what);
	same_str(a->withdrawn, b->withdrawn, what);
	same_version(&a->withdrawn_ver, &b->withdrawn_ver, what);
	same_str(a->announced_by, b->announced_by, what);
	same_version(&a->announced_ver, &b->announced_ver, what);
}

static void
same_list(char *const *a, size_t na, char *const *b, size_t nb,
	  const char *what)
{
	size_t k;

	CHECK(na == nb, "%s %s: %zu vs %zu", where, what, na, nb);
	for (k = 0; k < na && k < nb; k++)
		same_str(a[k], b[k], what);
}

static void
same_fix(const struct tg_api_fix *a, const struct tg_api_fix *b)
{
	CHECK(a->has == b->has && a->unsafe == b->unsafe &&
		  a->insert_kw == b->insert_kw && a->at == b->at &&
		  a->max_positional == b->max_positional &&
		  a->bare_call == b->bare_call,
	      "%s fix: flags or counts differ", where);
	same_str(a->to, b->to, "fix.to");
	same_str(a->replace_from, b->replace_from, "fix.replace.from");
	same_str(a->replace_to, b->replace_to, "fix.replace.to");
	same_str(a->insert, b->insert, "fix.insert");
	same_str(a->note, b->note, "fix.note");
}

static void
same_api(const struct tg_api *a, const struct tg_api *b)
{
	where = a->id;
	same_str(a->id, b->id, "id");
	CHECK(a->lang == b->lang, "%s language", where);
	same_str(a->kind, b->kind, "kind");
	CHECK(a->is_private == b->is_private, "%s private", where);
	same_event(&a->introduced, &b->introduced, "introduced");
	same_event(&a->deprecated, &b->deprecated, "deprecated");
	same_event(&a->removed, &b->removed, "removed");
	same_str(a->repl_id, b->repl_id, "replacement.id");
	same_str(a->repl_text, b->repl_text, "replacement.text");
	same_str(a->repl_since, b->repl_since, "replacement.since");
	same_version(&a->repl_since_ver, &b->repl_since_ver,
		     "replacement.since");
	CHECK(a->repl_status == b->repl_status, "%s replacement.status", where);
	same_fix(&a->fix, &b->fix);
	same_str(a->warn_category, b->warn_category, "warning.category");
	same_str(a->warn_message, b->warn_message, "warning.message");
	same_str(a->warn_since, b->warn_since, "warning.since");
	same_version(&a->warn_since_ver, &b->warn_since_ver, "warning.since");
	CHECK(a->warn_status == b->warn_status, "%s warning.status", where);
	same_list(a->files, a->nfiles, b->files, b->nfiles, "files");
	same_str(a->presence, b->presence, "presence");
	same_str(a->deprecation, b->deprecation, "deprecation");
	same_str(a->removal, b->removal, "removal");
	same_list(a->usage, a->nusage, b->usage, b->nusage, "usage");
	same_list(a->refs, a->nrefs, b->refs, b->nrefs, "references");
	same_str(a->notes, b->notes, "notes");
}

int
main(void)
{
	struct tg_table json = TG_TABLE_INIT, built = TG_TABLE_INIT;
	struct tg_err err = TG_ERR_INIT;
	size_t k, n, fixes = 0, lists = 0;

	CHECK(tg_table_load(&json, TG_TEST_TABLE, &err) == 0, "%s", err.msg);
	CHECK(tg_table_default(&built, &err) == 0, "%s", err.msg);
	CHECK(built.is_static && !json.is_static, "only the built-in static");
	CHECK(json.n > 300 && json.n == built.n, "%zu entries vs %zu built in",
	      json.n, built.n);
	where = "the table";
	same_str(json.description, built.description, "description");
	same_str(json.table_version, built.table_version, "table_version");
	for (k = 0; k < json.n && k < built.n; k++) {
		same_api(&json.apis[k], &built.apis[k]);
		fixes += json.apis[k].fix.has;
		lists += json.apis[k].nusage;
	}
	/* the comparison saw what it is meant to: fixes and patterns */
	CHECK(fixes > 10 && lists > 300, "%zu fixes, %zu usage patterns", fixes,
	      lists);
	/* lookups work on the static form (sorted by id) */
	for (k = 0; k < built.n; k++)
		CHECK(tg_table_find(&built, json.apis[k].id) == &built.apis[k],
		      "find %s", json.apis[k].id);
	n = built.n;
	tg_table_release(&json);
	tg_table_release(&built);
	CHECK(built.apis == NULL && built.n == 0, "released");
	/* releasing the built-in table freed none of its data */
	CHECK(tg_table_default(&built, &err) == 0 && built.n == n &&
		  tg_table_find(&built, built.apis[n - 1].id) ==
		      &built.apis[n - 1],
	      "the built-in table again");
	tg_table_release(&built);
	return check_result("test_builtin");
}
