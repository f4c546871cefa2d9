/* gentable.c - write the built-in API table as C initializers (build tool)
 * SPDX-License-Identifier: MIT
 *
 * usage: gentable TABLE.json > FILE.c
 * Loads the table with the library's strict loader (tg_table_load: the
 * one parser; a table it rejects fails the build) and writes
 * `const struct tg_table tg_builtin_table`: every entry, every member
 * and every parsed version as static data, so that the binary starts
 * without parsing JSON (tg_table_default, lib/table/table.c).
 * tests/unit/test_builtin compares the result with the JSON loaded at
 * run time, field by field.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/table/table.h"

/* What this program writes, for the binary. The library's
 * tg_table_default (table.c, beside the loader used here) needs a
 * definition: this empty one, never used by the generator. */
extern const struct tg_table tg_builtin_table;
const struct tg_table tg_builtin_table = TG_TABLE_INIT;

static unsigned long nversions, nlists;

/* s as a C string literal; str: cast to char * (the storage is never written:
 * tg_table_release frees nothing of a static table), or a null pointer.
 * '?' is escaped (-std=c11 has trigraphs), bytes outside printable
 * ASCII written as three octal digits. */
static void
literal(const char *s)
{
	const unsigned char *p;

	putchar('"');
	for (p = (const unsigned char *)s; *p; p++) {
		if (*p == '"' || *p == '\\' || *p == '?')
			printf("\\%c", *p);
		else if (*p >= 0x20 && *p < 0x7f)
			putchar(*p);
		else
			printf("\\%03o", *p);
	}
	putchar('"');
}

static void
str(const char *s)
{
	if (!s) {
		fputs("NULL", stdout);
		return;
	}
	fputs("(char *)", stdout);
	literal(s);
}

/* A tg_num or local segment's text: an offset into the version's own
 * string when it points there (as the parser's do), else a literal. */
static void
num_ptr(const char *p, size_t n, const struct tg_version *v, unsigned long id)
{
	size_t len = strlen(v->str);
	char *copy;

	if (p >= v->str && p + n <= v->str + len) {
		printf("tgv%lu + %zu", id, (size_t)(p - v->str));
		return;
	}
	copy = malloc(n + 1);
	if (!copy) {
		fputs("gentable: out of memory\n", stderr);
		exit(1);
	}
	memcpy(copy, p, n);
	copy[n] = '\0';
	str(copy);
	free(copy);
}

static void
num(const struct tg_num *x, const struct tg_version *v, unsigned long id)
{
	putchar('{');
	num_ptr(x->p, x->n, v, id);
	printf(", %zu}", x->n);
}

/* The static storage of one parsed version (its string, release and
 * local arrays), numbered id; nothing for a version that is not there. */
static void
version_defs(const struct tg_version *v)
{
	unsigned long id = nversions++;
	size_t k;

	if (!v->str)
		return;
	printf("static const char tgv%lu[] = ", id);
	literal(v->str);
	puts(";");
	printf("static const struct tg_num tgvr%lu[] = {", id);
	for (k = 0; k < v->nrelease; k++) {
		fputs(k ? ", " : "", stdout);
		num(&v->release[k], v, id);
	}
	puts(v->nrelease ? "};" : "{0, 0}};");
	if (v->nlocal) {
		printf("static const struct tg_local_seg tgvl%lu[] = {", id);
		for (k = 0; k < v->nlocal; k++) {
			printf("%s{", k ? ", " : "");
			num_ptr(v->local[k].p, v->local[k].n, v, id);
			printf(", %zu, %d}", v->local[k].n,
			       v->local[k].numeric);
		}
		puts("};");
	}
}

static void
version(const struct tg_version *v)
{
	unsigned long id = nversions++;

	if (!v->str) {
		fputs("{0}", stdout);
		return;
	}
	printf("{(char *)tgv%lu, ", id);
	str(v->raw);
	fputs(", ", stdout);
	num(&v->epoch, v, id);
	printf(", (struct tg_num *)tgvr%lu, %zu, (enum tg_pre_kind)%d, ", id,
	       v->nrelease, (int)v->pre);
	num(&v->pre_n, v, id);
	printf(", %d, ", v->has_post);
	num(&v->post_n, v, id);
	printf(", %d, ", v->has_dev);
	num(&v->dev_n, v, id);
	if (v->nlocal)
		printf(", (struct tg_local_seg *)tgvl%lu, %zu}", id, v->nlocal);
	else
		fputs(", NULL, 0}", stdout);
}

static void
list_defs(char *const *s, size_t n)
{
	unsigned long id = nlists++;
	size_t k;

	if (!n)
		return;
	printf("static char *const tgs%lu[] = {", id);
	for (k = 0; k < n; k++) {
		fputs(k ? ",\n\t" : "\n\t", stdout);
		str(s[k]);
	}
	puts("};");
}

static void
list(size_t n)
{
	unsigned long id = nlists++;

	if (n)
		printf("(char **)tgs%lu, %zu", id, n);
	else
		fputs("NULL, 0", stdout);
}

static void
event_defs(const struct tg_event *e)
{
	version_defs(&e->ver);
	version_defs(&e->after_ver);
	version_defs(&e->withdrawn_ver);
	version_defs(&e->announced_ver);
}

static void
event(const char *name, const struct tg_event *e)
{
	printf("\t .%s = {", name);
	str(e->version);
	fputs(", ", stdout);
	version(&e->ver);
	printf(", (enum tg_bound)%d, ", (int)e->bound);
	str(e->after);
	fputs(", ", stdout);
	version(&e->after_ver);
	printf(", (enum tg_fact)%d, ", (int)e->status);
	str(e->note);
	fputs(", ", stdout);
	str(e->withdrawn);
	fputs(", ", stdout);
	version(&e->withdrawn_ver);
	fputs(", ", stdout);
	str(e->announced_by);
	fputs(", ", stdout);
	version(&e->announced_ver);
	puts("},");
}

static void
api_defs(const struct tg_api *a)
{
	event_defs(&a->introduced);
	event_defs(&a->deprecated);
	event_defs(&a->removed);
	version_defs(&a->repl_since_ver);
	version_defs(&a->warn_since_ver);
	list_defs(a->files, a->nfiles);
	list_defs(a->usage, a->nusage);
	list_defs(a->refs, a->nrefs);
}

static void
field(const char *name, const char *s)
{
	printf("\t .%s = ", name);
	str(s);
	puts(",");
}

static void
api(const struct tg_api *a)
{
	const struct tg_api_fix *x = &a->fix;

	puts("\t{");
	field("id", a->id);
	printf("\t .lang = (enum tg_lang_id)%d,\n", (int)a->lang);
	field("kind", a->kind);
	printf("\t .is_private = %d,\n", a->is_private);
	event("introduced", &a->introduced);
	event("deprecated", &a->deprecated);
	event("removed", &a->removed);
	field("repl_id", a->repl_id);
	field("repl_text", a->repl_text);
	field("repl_since", a->repl_since);
	fputs("\t .repl_since_ver = ", stdout);
	version(&a->repl_since_ver);
	printf(",\n\t .repl_status = (enum tg_fact)%d,\n", (int)a->repl_status);
	printf("\t .fix = {%d, %d, ", x->has, x->unsafe);
	str(x->to);
	fputs(", ", stdout);
	str(x->replace_from);
	fputs(", ", stdout);
	str(x->replace_to);
	fputs(", ", stdout);
	str(x->insert);
	printf(", %d, %ld, %ld, %d, ", x->insert_kw, x->at, x->max_positional,
	       x->bare_call);
	str(x->note);
	puts("},");
	field("warn_category", a->warn_category);
	field("warn_message", a->warn_message);
	field("warn_since", a->warn_since);
	fputs("\t .warn_since_ver = ", stdout);
	version(&a->warn_since_ver);
	printf(",\n\t .warn_status = (enum tg_fact)%d,\n", (int)a->warn_status);
	fputs("\t .files = ", stdout);
	list(a->nfiles);
	puts(",");
	field("presence", a->presence);
	field("deprecation", a->deprecation);
	field("removal", a->removal);
	fputs("\t .usage = ", stdout);
	list(a->nusage);
	fputs(",\n\t .refs = ", stdout);
	list(a->nrefs);
	puts(",");
	field("notes", a->notes);
	puts("\t},");
}

int
main(int argc, char **argv)
{
	struct tg_table t = TG_TABLE_INIT;
	struct tg_err err = TG_ERR_INIT;
	size_t k;

	if (argc != 2) {
		fputs("usage: gentable TABLE.json > FILE.c\n", stderr);
		return 2;
	}
	if (tg_table_load(&t, argv[1], &err) != 0) {
		fprintf(stderr, "gentable: %s\n", err.msg);
		return 1;
	}
	printf("/* generated by src/tools/gentable from %s: do not edit */\n"
	       "#include <stddef.h>\n\n#include \"lib/table/table.h\"\n\n"
	       "extern const struct tg_table tg_builtin_table;\n\n",
	       "data/apis.json");
	for (k = 0; k < t.n; k++)
		api_defs(&t.apis[k]);
	nversions = nlists = 0;
	puts("\nstatic const struct tg_api tgapis[] = {");
	for (k = 0; k < t.n; k++)
		api(&t.apis[k]);
	puts("};\n\nconst struct tg_table tg_builtin_table = {");
	printf("    (struct tg_api *)tgapis, %zu, ", t.n);
	str(t.description);
	fputs(", ", stdout);
	str(t.table_version);
	puts(", 1};");
	tg_table_release(&t);
	if (fflush(stdout) != 0 || ferror(stdout)) {
		fputs("gentable: write error\n", stderr);
		return 1;
	}
	return 0;
}
