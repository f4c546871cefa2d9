/* cmd_discover.c - torchgate discover: the deprecations torch declares
 * SPDX-License-Identifier: MIT
 *
 * Harvests what the installed torch says about itself (tg_discover) and
 * compares it with the table both ways: declarations the table has no
 * entry for, and Python entries the table calls deprecated in this
 * version whose files exist but declare nothing. A declaration matches
 * an entry when the symbol is the entry's id or, the declaration sitting
 * in one of the entry's evidence files, when their last names agree
 * (torch.cuda.amp.autocast_mode.custom_fwd is torch.cuda.amp.custom_fwd)
 * or one names the other's parent (a warning in torch.distributed.
 * launch.main declares torch.distributed.launch; one in a function, the
 * entry for its parameter). A declaration without an entry is excluded
 * when the exclusion list (data/apis-excluded.json, or --exclusions
 * FILE) names it, else unaccounted. Exit 1 when a declaration is
 * unaccounted or an entry not declared: the gate of a table against an
 * installed torch.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cli_env.h"
#include "cli/commands.h"
#include "cli/opt.h"
#include "cli/setup.h"
#include "lib/util/buf.h"
#include "lib/util/jsonw.h"
#include "lib/discover/discover.h"
#include "lib/table/evidence.h"
#include "lib/table/excluded.h"
#include "lib/util/path.h"
#include "lib/table/table.h"

#define CMD "discover"

static const char *format, *exclusions;
static const char *const formats[] = {"text", "json", NULL};
static const struct cli_opt opts[] = {
    {CLI_OPT_CHOICE, "format", 0, &format, "F", "text (default) or json",
     formats},
    {CLI_OPT_VALUE, "exclusions", 0, &exclusions, "FILE",
     "use the exclusion list FILE, not the built-in one", NULL},
    {CLI_OPT_END, NULL, 0, NULL, NULL, NULL, NULL},
};

/* The diff: which entry each declaration matched, which entries were
 * matched, and the installed evidence paths of every entry. */
struct diff {
	const struct tg_api **api;   /* per declaration, or NULL */
	const struct tg_excl **excl; /* per declaration without an entry */
	char *hit;		     /* per table entry */
	char ***paths;		     /* per table entry, nfiles each */
	const struct tg_api *apis;   /* the table's: paths[a - apis] */
	const struct tg_api **missing;
	const struct tg_excl **mexcl; /* per missing entry, or NULL */
	size_t nmissing, nunknown, nexcluded, nexcused;
};

static const char *
last_name(const char *id)
{
	const char *p, *best = id;

	for (p = id; *p; p++)
		if (*p == '.' || (*p == ':' && p[1] == ':'))
			best = p + (*p == '.' ? 1 : 2);
	return best;
}

/* Whether name a is b's parent: b is a, then '.' or "::", then more. */
static int
parent_of(const char *a, const char *b)
{
	size_t n = strlen(a);

	return strncmp(a, b, n) == 0 &&
	       (b[n] == '.' || (b[n] == ':' && b[n + 1] == ':'));
}

/* How well declaration d matches entry a: 3 the same name, 2 the same
 * last name in an evidence file, 1 a parent in an evidence file, 0 no
 * match. */
static int
match_score(const struct tg_decl *d, const struct tg_api *a, char **paths)
{
	size_t k;
	int in_file = 0;

	if (strcmp(a->id, d->symbol) == 0)
		return 3;
	for (k = 0; k < a->nfiles && !in_file; k++)
		in_file = strcmp(paths[k], d->file) == 0;
	if (!in_file)
		return 0;
	if (strcmp(last_name(a->id), last_name(d->symbol)) == 0)
		return 2;
	return parent_of(a->id, d->symbol) || parent_of(d->symbol, a->id);
}

static void
diff_release(struct diff *df, const struct tg_table *table)
{
	size_t j, k;

	for (j = 0; df->paths && j < table->n; j++) {
		for (k = 0; df->paths[j] && k < table->apis[j].nfiles; k++)
			free(df->paths[j][k]);
		free(df->paths[j]);
	}
	free(df->paths);
	free(df->api);
	free(df->excl);
	free(df->hit);
	free(df->missing);
	free(df->mexcl);
}

static int
diff_run(struct diff *df, const struct tg_decls *d,
	 const struct tg_table *table, const struct tg_excluded *x,
	 const struct tg_torch *t, const struct tg_version *v)
{
	size_t j, k;

	memset(df, 0, sizeof(*df));
	df->apis = table->apis;
	df->api = calloc(d->n + 1, sizeof(*df->api));
	df->excl = calloc(d->n + 1, sizeof(*df->excl));
	df->hit = calloc(table->n + 1, 1);
	df->paths = calloc(table->n + 1, sizeof(*df->paths));
	df->missing = calloc(table->n + 1, sizeof(*df->missing));
	df->mexcl = calloc(table->n + 1, sizeof(*df->mexcl));
	if (!df->api || !df->excl || !df->hit || !df->paths || !df->missing ||
	    !df->mexcl)
		return TG_ENOMEM;
	for (j = 0; j < table->n; j++) {
		const struct tg_api *a = &table->apis[j];

		df->paths[j] = calloc(a->nfiles + 1, sizeof(char *));
		if (!df->paths[j])
			return TG_ENOMEM;
		for (k = 0; k < a->nfiles; k++)
			if (!(df->paths[j][k] =
				  tg_evidence_path(t, a->files[k])))
				return TG_ENOMEM;
	}
	for (k = 0; k < d->n; k++) {
		int best = 0;

		for (j = 0; j < table->n; j++) {
			int sc = match_score(&d->v[k], &table->apis[j],
					     df->paths[j]);

			if (!sc)
				continue;
			if (sc > best) {
				df->api[k] = &table->apis[j];
				best = sc;
			}
			df->hit[j] = 1;
		}
		if (!df->api[k])
			df->excl[k] = tg_excluded_match(
			    x, d->v[k].symbol, d->v[k].kind, d->v[k].message);
		/* a declaration folded into an entry (see) declares it: a
		 * helper that warns for it, a parameter's warning */
		if (df->excl[k] && df->excl[k]->see) {
			const struct tg_api *a =
			    tg_table_find(table, df->excl[k]->see);

			if (a)
				df->hit[a - table->apis] = 1;
		}
		df->nunknown += !df->api[k];
		df->nexcluded += df->excl[k] != NULL;
	}
	for (j = 0; j < table->n; j++) {
		const struct tg_api *a = &table->apis[j];
		int exists = 0;

		if (a->cxx || df->hit[j] ||
		    tg_api_status(a, v) != TG_API_DEPRECATED)
			continue;
		for (k = 0; k < a->nfiles && !exists; k++)
			exists = tg_path_is_file(df->paths[j][k]);
		if (!exists)
			continue;
		df->mexcl[df->nmissing] =
		    tg_excluded_match(x, a->id, TG_EXCL_NOT_DECLARED, NULL);
		df->nexcused += df->mexcl[df->nmissing] != NULL;
		df->missing[df->nmissing++] = a;
	}
	return 0;
}

/* The path shown: relative to the directory that holds torch/. */
static const char *
shown(const char *file, const char *base, size_t nbase)
{
	if (!nbase || strncmp(file, base, nbase) != 0)
		return file;
	if (base[nbase - 1] == '/')
		return file + nbase;
	return file[nbase] == '/' ? file + nbase + 1 : file;
}

static void
json_decl(struct tg_jsonw *w, const struct tg_decl *d, const char *file,
	  const struct tg_api *a, const struct tg_excl *e, int full)
{
	tg_jsonw_object(w, TG_JSONW_FLOW);
	tg_jsonw_kstr(w, "symbol", d->symbol);
	tg_jsonw_kstr(w, "file", file);
	tg_jsonw_kint(w, "line", (long long)d->line);
	tg_jsonw_kstr(w, "kind", d->kind);
	if (full) {
		tg_jsonw_kstr(w, "message", d->message);
		tg_jsonw_kstr(w, "replacement", d->replacement);
		tg_jsonw_kstr(w, "table_id", a ? a->id : NULL);
		tg_jsonw_kstr(w, "excluded",
			      e ? tg_excluded_category_name(e->category)
				: NULL);
	} else if (e) {
		tg_jsonw_kstr(w, "category",
			      tg_excluded_category_name(e->category));
		tg_jsonw_kstr(w, "see", e->see);
		tg_jsonw_kstr(w, "reason", e->reason);
	}
	tg_jsonw_end(w);
}

static void
json_missing(struct tg_jsonw *w, const struct diff *df, const struct tg_api *a,
	     const struct tg_excl *e, const char *base, size_t nbase)
{
	char **paths = df->paths[a - df->apis];
	size_t k;

	tg_jsonw_object(w, TG_JSONW_FLOW);
	tg_jsonw_kstr(w, "id", a->id);
	tg_jsonw_kstr(w, "deprecated", a->deprecated.version);
	tg_jsonw_key(w, "files");
	tg_jsonw_array(w, TG_JSONW_FLOW);
	for (k = 0; k < a->nfiles; k++)
		if (tg_path_is_file(paths[k]))
			tg_jsonw_str(w, shown(paths[k], base, nbase));
	tg_jsonw_end(w);
	tg_jsonw_kstr(w, "excluded",
		      e ? tg_excluded_category_name(e->category) : NULL);
	if (e)
		tg_jsonw_kstr(w, "reason", e->reason);
	tg_jsonw_end(w);
}

/* Write out what the buffer holds once it passes 1 MiB, so that a report
 * of any size streams through a bounded buffer. A failed buffer is kept
 * as it is, for the caller's one check at the end. */
static void
spill(struct tg_buf *out)
{
	if (out->len > ((size_t)1 << 20) && !tg_buf_error(out)) {
		fputs(out->data, stdout);
		tg_buf_clear(out);
	}
}

/* The JSON report, streamed through out; 0 or the buffer's failure. */
static int
print_json(const struct tg_decls *d, const struct diff *df,
	   const struct tg_torch *t, const char *base, size_t nbase,
	   struct tg_buf *out)
{
	struct tg_jsonw w;
	size_t k;

	tg_jsonw_init(&w, out);
	tg_jsonw_object(&w, TG_JSONW_BLOCK);
	tg_jsonw_kint(&w, "schema_version", 1);
	tg_jsonw_key(&w, "torch");
	tg_jsonw_object(&w, TG_JSONW_FLOW);
	tg_jsonw_kstr(&w, "version", t->version);
	tg_jsonw_kstr(&w, "location", t->dir);
	tg_jsonw_kstr(&w, "include_dir", t->include_dir);
	tg_jsonw_end(&w);
	tg_jsonw_key(&w, "declarations");
	tg_jsonw_array(&w, TG_JSONW_BLOCK);
	for (k = 0; k < d->n; k++) {
		json_decl(&w, &d->v[k], shown(d->v[k].file, base, nbase),
			  df->api[k], df->excl[k], 1);
		spill(out);
	}
	tg_jsonw_end(&w);
	tg_jsonw_key(&w, "not_in_table");
	tg_jsonw_array(&w, TG_JSONW_BLOCK);
	for (k = 0; k < d->n; k++) {
		if (!df->api[k])
			json_decl(&w, &d->v[k],
				  shown(d->v[k].file, base, nbase), NULL, NULL,
				  0);
		spill(out);
	}
	tg_jsonw_end(&w);
	tg_jsonw_key(&w, "excluded");
	tg_jsonw_array(&w, TG_JSONW_BLOCK);
	for (k = 0; k < d->n; k++) {
		if (df->excl[k])
			json_decl(&w, &d->v[k],
				  shown(d->v[k].file, base, nbase), NULL,
				  df->excl[k], 0);
		spill(out);
	}
	tg_jsonw_end(&w);
	tg_jsonw_key(&w, "unaccounted");
	tg_jsonw_array(&w, TG_JSONW_BLOCK);
	for (k = 0; k < d->n; k++) {
		if (!df->api[k] && !df->excl[k])
			json_decl(&w, &d->v[k],
				  shown(d->v[k].file, base, nbase), NULL, NULL,
				  0);
		spill(out);
	}
	tg_jsonw_end(&w);
	tg_jsonw_key(&w, "not_declared");
	tg_jsonw_array(&w, TG_JSONW_BLOCK);
	for (k = 0; k < df->nmissing; k++)
		json_missing(&w, df, df->missing[k], df->mexcl[k], base, nbase);
	tg_jsonw_end(&w);
	tg_jsonw_end(&w);
	return tg_jsonw_finish(&w);
}

static void
print_text(const struct tg_decls *d, const struct diff *df,
	   const struct tg_torch *t, const char *base, size_t nbase)
{
	size_t k, j;

	printf("torch %s (%s)\n", t->version ? t->version : "unknown", t->dir);
	printf("declarations: %zu\n", d->n);
	for (k = 0; k < d->n; k++) {
		const struct tg_decl *x = &d->v[k];

		printf("  %s:%zu: %s %s\n", shown(x->file, base, nbase),
		       x->line, x->kind, x->symbol);
		if (x->message)
			printf("      message: %s\n", x->message);
		if (x->replacement)
			printf("      replacement: %s\n", x->replacement);
		if (df->api[k])
			printf("      table: %s\n", df->api[k]->id);
	}
	printf("not in the table: %zu\n", df->nunknown);
	printf("excluded: %zu\n", df->nexcluded);
	for (k = 0; k < d->n; k++) {
		const struct tg_excl *e = df->excl[k];

		if (!e)
			continue;
		printf("  %s:%zu: %s %s\n", shown(d->v[k].file, base, nbase),
		       d->v[k].line, d->v[k].kind, d->v[k].symbol);
		printf("      %s%s%s: %s\n",
		       tg_excluded_category_name(e->category),
		       e->see ? ", see " : "", e->see ? e->see : "", e->reason);
	}
	printf("unaccounted: %zu\n", df->nunknown - df->nexcluded);
	for (k = 0; k < d->n; k++)
		if (!df->api[k] && !df->excl[k])
			printf("  %s:%zu: %s %s\n",
			       shown(d->v[k].file, base, nbase), d->v[k].line,
			       d->v[k].kind, d->v[k].symbol);
	printf("the table says deprecated, torch does not declare it here: "
	       "%zu\n",
	       df->nmissing);
	for (k = 0; k < df->nmissing; k++) {
		const struct tg_api *a = df->missing[k];
		char **paths = df->paths[a - df->apis];
		const char *sep = " (";

		printf("  %s: deprecated since %s", a->id,
		       a->deprecated.version);
		for (j = 0; j < a->nfiles; j++)
			if (tg_path_is_file(paths[j])) {
				printf("%s%s", sep,
				       shown(paths[j], base, nbase));
				sep = ", ";
			}
		puts(*sep == ',' ? ")" : "");
		if (df->mexcl[k])
			printf(
			    "      excluded, %s: %s\n",
			    tg_excluded_category_name(df->mexcl[k]->category),
			    df->mexcl[k]->reason);
	}
}

static int
run(struct cli_ctx *ctx, int argc, char **argv)
{
	const struct tg_table *table = &ctx->table;
	const struct tg_torch *t = ctx->torch;
	struct tg_decls decls = TG_DECLS_INIT;
	struct tg_excluded excl = TG_EXCLUDED_INIT;
	struct tg_err err = TG_ERR_INIT;
	struct tg_buf out = TG_BUF_INIT;
	struct diff df;
	char *base = NULL;
	size_t k;
	int r, status = CLI_OK, quiet = ctx->quiet;

	(void)argc;
	(void)argv;
	memset(&df, 0, sizeof(df));
	r = exclusions ? tg_excluded_load(&excl, exclusions, &err)
		       : tg_excluded_default(&excl, &err);
	if (r) {
		cli_error(CMD, "%s", err.msg);
		status = cli_exit_for(r);
		goto out;
	}
	r = tg_discover(&decls, t->dir, t->include_dir, &err);
	if (r) {
		/* A directory that cannot be read, too many files, memory:
		 * the install could not be read whole. */
		cli_error(CMD, "%s", err.msg);
		status = CLI_IO;
		goto out;
	}
	for (k = 0; !quiet && k < decls.notes.n; k++)
		cli_error(CMD, "warning: %s", decls.notes.v[k].message);
	/* a see of the user's list that names no entry links nothing: say
	 * so (a typo, or another --table); the built-in list's are checked
	 * against the built-in table by the tests */
	for (k = 0; !quiet && exclusions && k < excl.n; k++)
		if (excl.v[k].see && !tg_table_find(table, excl.v[k].see))
			cli_error(CMD,
				  "warning: the exclusion of %s '%s' names "
				  "'%s' as its see, which the table has no "
				  "entry for",
				  excl.v[k].kind, excl.v[k].symbol,
				  excl.v[k].see);
	base = tg_path_dirname(t->dir);
	if (!base || diff_run(&df, &decls, table, &excl, t,
			      &t->src[t->version_from].v)) {
		cli_error(CMD, "out of memory");
		status = CLI_IO;
		goto out;
	}
	if (format && strcmp(format, "json") == 0) {
		if (print_json(&decls, &df, t, base, strlen(base), &out)) {
			cli_error(CMD, "out of memory");
			status = CLI_IO;
			goto out;
		}
		fputs(out.data, stdout);
	} else {
		print_text(&decls, &df, t, base, strlen(base));
	}
	if (df.nunknown > df.nexcluded || df.nmissing > df.nexcused)
		status = CLI_FAILED;
out:
	diff_release(&df, table);
	free(base);
	tg_buf_release(&out);
	tg_discover_release(&decls);
	tg_excluded_release(&excl);
	return status;
}

const struct cli_command cmd_discover = {
    .name = CMD,
    .summary = "the deprecations this torch declares, against the table",
    .setup = CLI_QUIET | CLI_TABLE | CLI_ENV | CLI_TORCH | CLI_NO_OPERANDS,
    .opts = opts,
    .synopsis = "usage: torchgate discover [--table FILE] "
		"[--exclusions FILE]\n"
		"                          [--format=text|json] [--quiet]\n"
		"                          [--python PATH | --prefix DIR |\n"
		"                           --site-packages DIR...]",
    .about =
	"Harvest the deprecations the installed torch declares about itself:\n"
	"@deprecated(...) decorators, warnings.warn(...) with FutureWarning,\n"
	"DeprecationWarning or a message about deprecation in its Python\n"
	"files; C10_DEPRECATED_MESSAGE, [[deprecated]] and\n"
	"TORCH_WARN_DEPRECATION in its headers. For each: the name it "
	"applies\n"
	"to, file:line, the message and the replacement the message names.\n"
	"Then compare with the table: declarations it has no entry for\n"
	"(excluded when the exclusion list names them, else unaccounted), "
	"and\n"
	"entries it calls deprecated in this torch that torch does not "
	"declare.\n"
	"Files only: torch is never imported.",
    .exits =
	"Exit status: 0 every declaration tabled or excluded and every "
	"deprecated\n"
	"entry declared, 1 not, 2 usage, 3 no torch found, 4 a bad table,\n"
	"exclusion list or torch metadata, 5 I/O failure.",
    .run = run,
};
