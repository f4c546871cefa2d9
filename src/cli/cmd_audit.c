/* cmd_audit.c - torchgate audit: the table's APIs a package's sources use
 * SPDX-License-Identifier: MIT
 *
 * Runs the audit engine (audit/engine) over the operands, with the
 * torch judged and the floor: each outcome comes back here in walk
 * order, judged already (the findings whose entry matters for the torch,
 * less the suppressed ones; the dead branches; the unused suppressions),
 * and is rendered (render/audit_format) and written out in chunks, and
 * before the run waits for a worker. So the output is in the order of
 * the operands, then of the walk (each directory's names sorted by byte
 * value: a/x before a-b/x), then of line, column and id, and is the
 * same for any number of threads. Memory: what the engine holds, one
 * file's findings, and what only the end writes: the dead branches,
 * the notes and, for SARIF, the entries used.
 *
 * The torch judged: --torch-version V; else, given --python, --prefix
 * or --site-packages, that environment's torch (one is required); else
 * the newest version the table names, so that an audit of a source tree
 * does not depend on the machine it runs on.
 *
 * --fix and --diff run the engine with a sink of their own
 * (audit_fix.c); what the two files share is in audit_run.h.
 *
 * Exit: 2 usage; 5 an operand or a file under it could not be read;
 * else 1 when a finding in code, not guarded, at or above --min-status
 * remains; else 4 when a file could not be decoded (skipped); else 0.
 */
#include <assert.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/cli_env.h"
#include "cli/commands.h"
#include "cli/opt.h"
#include "cli/setup.h"
#include "lib/audit/audit.h"
#include "lib/audit/declared.h"
#include "lib/audit/engine.h"
#include "lib/fix/offer.h"
#include "lib/fix/plan.h"
#include "cli/audit_run.h"
#include "lib/render/audit_format.h"
#include "lib/table/releases.h"
#include "lib/util/buf.h"
#include "lib/util/diag.h"
#include "lib/util/grow.h"

/* Larger files are skipped with a note. */
#define FILE_MAX TG_ENGINE_FILE_MAX
#define EXCLUDES_MAX 64

static const char *format, *min_status, *floor_arg;
static int all, fix, diff, unsafe_fixes;
static const char *exclude_v[EXCLUDES_MAX];
static struct cli_list excludes = {exclude_v, 0, EXCLUDES_MAX};
static const char *const formats[] = {"text", "json", "sarif", "github", NULL};
static const char *const statuses[] = {"private", "deprecated", "removed",
				       NULL};
static const struct cli_opt opts[] = {
    {CLI_OPT_CHOICE, "format", 0, &format, "F",
     "text (default), json, sarif or github", formats, 0},
    {CLI_OPT_CHOICE, "min-status", 0, &min_status, "S",
     "fail (exit 1) from S up: private (default),\ndeprecated or removed",
     statuses, 0},
    {CLI_OPT_SWITCH, "all", 0, &all, NULL,
     "also report APIs that are only version-bound", NULL, 0},
    {CLI_OPT_VALUE, "floor", 0, &floor_arg, "V",
     "report version branches no torch >= V runs, and\n"
     "fix only with what torch V has (default: the\n"
     "torch>= the package declares)",
     NULL, 0},
    {CLI_OPT_SWITCH, "fix", 0, &fix, NULL,
     "rewrite the uses the table has a fix for, in\n"
     "place, and say what was left and why",
     NULL, 0},
    {CLI_OPT_SWITCH, "diff", 0, &diff, NULL,
     "print those rewrites as a unified diff; write\n"
     "nothing",
     NULL, CLI_OPT_USAGE_OR},
    {CLI_OPT_SWITCH, "unsafe-fixes", 0, &unsafe_fixes, NULL,
     "with --fix or --diff, apply unsafe fixes too; with --format=json or "
     "sarif, offer the fixes --fix --unsafe-fixes makes",
     NULL, CLI_OPT_USAGE_WITH},
    {CLI_OPT_LIST, "exclude", 0, &excludes, "GLOB",
     "leave out files and directories whose name or\n"
     "path under the operand matches GLOB (repeatable)",
     NULL, 0},
    {CLI_OPT_END, NULL, 0, NULL, NULL, NULL, NULL, 0},
};

int
cli_audit_add_note(struct run *run, enum tg_severity sev, const char *path,
		   size_t line, const char *rule, const char *fmt, ...)
{
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = tg_diag_addv(&run->notes, sev, 0, path, line, 0, rule, NULL, fmt,
			  ap);
	va_end(ap);
	if (rc)
		run->oom = 1;
	return rc;
}

static double
seconds(const struct timespec *a, const struct timespec *b)
{
	return (double)(b->tv_sec - a->tv_sec) +
	       (double)(b->tv_nsec - a->tv_nsec) / 1e9;
}

/* "N files, M findings, R files/s", overwritten in place, at most ten
 * times a second; done: cleared. */
static void
progress(struct run *run, int done)
{
	struct timespec now;
	double t;

	if (!run->tty)
		return;
	clock_gettime(CLOCK_MONOTONIC, &now);
	if (done) {
		fputs("\r\033[K", stderr);
		return;
	}
	if (seconds(&run->last, &now) < 0.1)
		return;
	run->last = now;
	t = seconds(&run->start, &now);
	fprintf(stderr,
		"\r\033[Ktorchgate: audit: %zu files, %zu findings, "
		"%.0f files/s",
		run->analyzed, run->found,
		t > 0 ? (double)run->analyzed / t : 0);
	fflush(stderr);
}

/* Keep what the engine judged of path (r, moved into run) for the
 * report, and its notes for the end; m: what a worker made of it, whose
 * part, when it has one, moves into run too. */
static int
keep_result(struct run *run, struct tg_engine_file *f, struct made *m)
{
	struct file_result *fr;
	size_t k, nitems = m && m->part ? m->nitems : 0;

	run->found += f->r.nfindings + nitems;
	for (k = 0; k < f->notes.n; k++) {
		const struct tg_diag *d = &f->notes.v[k];

		if (tg_diag_add(&run->notes, d->severity, d->code, d->path,
				d->line, d->column, d->rule, d->snippet, "%s",
				d->message))
			return TG_ENOMEM;
	}
	if (!f->r.nfindings && !nitems && !f->r.nbranches)
		return 0;
	if (TG_GROW(run->files, run->nfiles + 1, run->capfiles))
		return TG_ENOMEM;
	fr = &run->files[run->nfiles];
	memset(fr, 0, sizeof(*fr));
	fr->path = strdup(f->path);
	if (!fr->path)
		return TG_ENOMEM;
	fr->r = f->r;
	memset(&f->r, 0, sizeof(f->r));
	if (m) {
		/* made only for findings, which are kept */
		fr->fixes = m->fixes;
		fr->part = m->part;
		fr->len = m->len;
		fr->nitems = nitems;
		fr->part_fails = m->fails;
		m->fixes = NULL;
		m->part = NULL;
	}
	run->nfiles++;
	return 0;
}

/* Keep the dead branches of fr (the engine kept no other; moved out of
 * it) for the end. */
static int
keep_dead(struct run *run, struct file_result *fr)
{
	size_t k;

	for (k = 0; k < fr->r.nbranches; k++) {
		struct tg_audit_branch *b = &fr->r.branches[k];
		struct dead_kept *d;

		if (TG_GROW(run->dead, run->ndead + 1, run->capdead))
			return TG_ENOMEM;
		d = &run->dead[run->ndead];
		d->path = strdup(fr->path);
		if (!d->path)
			return TG_ENOMEM;
		d->b = *b;
		memset(b, 0, sizeof(*b));
		run->ndead++;
	}
	return 0;
}

/* Write out what run->out holds, and empty it. */
static int
write_out(struct run *run)
{
	int rc = tg_buf_error(&run->out);

	if (rc)
		return rc;
	if (run->out.len &&
	    (fwrite(run->out.data, 1, run->out.len, stdout) != run->out.len ||
	     fflush(stdout)) &&
	    !run->write_err)
		run->write_err = errno ? errno : EIO;
	tg_buf_clear(&run->out);
	return 0;
}

/* Written out once this much is rendered (and at the end of a batch). */
#define OUT_CHUNK ((size_t)64 * 1024)

/* The items of r's findings (of path; fixes: those they offer, or
 * NULL) into items (room for all): whether one fails the run. */
static int
fill_items(const struct run *run, struct tg_audit_item *items, const char *path,
	   const struct tg_audit_result *r, const struct tg_audit_fix *fixes)
{
	size_t k;
	int fails = 0;

	for (k = 0; k < r->nfindings; k++) {
		struct tg_audit_item *it = &items[k];

		it->path = path;
		it->f = &r->findings[k];
		it->rank = tg_engine_rank(run->engine, it->f->api);
		it->fails = tg_engine_fails(run->engine, it->f);
		it->fix = fixes ? &fixes[k] : NULL;
		fails |= it->fails;
	}
	return fails;
}

/* Render one file's findings (sorted already), or splice them as a
 * worker rendered them, and keep its dead branches. */
static int
emit_file(struct run *run, struct file_result *fr)
{
	size_t n = fr->r.nfindings;
	int rc = keep_dead(run, fr);

	if (!rc && fr->part) {
		run->fails |= fr->part_fails;
		rc = tg_audit_format_splice(&run->wr, fr->part, fr->len,
					    fr->nitems);
	} else if (!rc) {
		if (TG_GROW(run->items, n, run->capitems))
			return TG_ENOMEM;
		run->fails |=
		    fill_items(run, run->items, fr->path, &fr->r, fr->fixes);
		rc = tg_audit_format_items(&run->wr, run->items, n);
	}
	if (!rc && run->out.len >= OUT_CHUNK)
		rc = write_out(run);
	return rc;
}

/* n fixes (or NULL), released and freed. */
static void
fixes_free(struct tg_audit_fix *fixes, size_t n)
{
	size_t k;

	for (k = 0; fixes && k < n; k++)
		tg_audit_fix_release(&fixes[k]);
	free(fixes);
}

static void
free_fixes(struct file_result *fr)
{
	fixes_free(fr->fixes, fr->r.nfindings);
	fr->fixes = NULL;
}

/* Render the batch's files in walk order, write them out and flush,
 * and free them. */
static int
emit_files(struct run *run)
{
	size_t k;
	int rc = 0;

	for (k = 0; k < run->nfiles; k++) {
		if (!rc)
			rc = emit_file(run, &run->files[k]);
		free(run->files[k].path);
		free(run->files[k].part);
		free_fixes(&run->files[k]);
		tg_audit_result_release(&run->files[k].r);
	}
	run->nfiles = 0;
	return rc;
}

/* Before the run waits for a worker: what is rendered goes out. */
static int
idle(void *ctx)
{
	return write_out(ctx);
}

/* Whether a finding of r may have a fix: one in code, unguarded, its
 * entry with a fix, in a language that rewrites. Only such a file is
 * planned: the others offer none. */
int
cli_audit_fixable(const struct tg_lang *L, const struct tg_audit_result *r)
{
	size_t k;

	for (k = 0; L && L->fix && k < r->nfindings; k++)
		if (r->findings[k].in == TG_AUDIT_IN_CODE &&
		    r->findings[k].guard == TG_AUDIT_UNGUARDED &&
		    r->findings[k].api->fix.has)
			return 1;
	return 0;
}

static void
made_free(void *ctx, void *extra)
{
	struct made *m = extra;

	(void)ctx;
	if (!m)
		return;
	fixes_free(m->fixes, m->n);
	free(m->part);
	free(m);
}

/* JSON and SARIF: the fixes the findings of f offer, from the plan
 * --fix would make of its bytes, into m->fixes. The analysis the run
 * made of the bytes is the plan's first (lent, then given back). A plan
 * that cannot be made offers none: each fix is null. 0 or TG_ENOMEM. */
static int
offer(const struct run *run, struct made *m, struct tg_engine_file *f,
      const char *src, size_t len)
{
	const struct tg_engine_file none = TG_ENGINE_FILE_INIT;
	struct tg_plan p = TG_PLAN_INIT;
	struct tg_err err = TG_ERR_INIT;
	int rc;

	if (!cli_audit_fixable(f->lang, &f->r))
		return 0;
	rc = tg_plan_bytes(&p, &run->po, f->lang, src, len, f, &err);
	if (!rc && p.before.what == TG_ENGINE_ANALYZED) {
		m->fixes = calloc(p.before.r.nfindings, sizeof(*m->fixes));
		if (m->fixes) {
			m->n = p.before.r.nfindings;
			rc = tg_offer_plan(m->fixes, &p, f->lang, src, len);
		} else {
			rc = TG_ENOMEM;
		}
	}
	/* the analysis back to the file (the plan always takes it) */
	f->r = p.before.r;
	f->notes = p.before.notes;
	p.before.r = none.r;
	p.before.notes = none.notes;
	tg_plan_release(&p);
	if (rc) {
		/* planned with no result: none; out of memory: the library
		 * fails only so */
		fixes_free(m->fixes, m->n);
		m->fixes = NULL;
		m->n = 0;
	}
	return rc == TG_ENOMEM ? TG_ENOMEM : 0;
}

/* f's findings rendered into m->part by pw (this thread's writer of
 * parts), as emit_file would render them, then freed with their fixes,
 * which the part holds (so a file waiting in the queue holds its text
 * only). 0, or TG_ENOMEM; a text past the buffer's limit renders none,
 * so that the main thread renders them and fails as it would have. */
static int
render(const struct run *run, struct part_writer *pw, struct made *m,
       struct tg_engine_file *f)
{
	struct tg_audit_result *r = &f->r;
	size_t n = r->nfindings;
	int rc;

	if (!pw->begun) {
		tg_buf_init(&pw->out, TG_BUF_DEFAULT_MAX);
		tg_audit_format_part_begin(&pw->wr, run->fmt, &pw->out);
		pw->begun = 1;
	}
	if (TG_GROW(pw->items, n, pw->capitems))
		return TG_ENOMEM;
	m->fails = fill_items(run, pw->items, f->path, &f->r, m->fixes);
	tg_buf_clear(&pw->out);
	rc = tg_audit_format_items(&pw->wr, pw->items, n);
	/* copied into a block of its size (a file waiting in the queue
	 * holds no slack); the buffer is kept for the next file unless it
	 * grew large */
	m->len = pw->out.len;
	if (!rc && (m->part = malloc(m->len)))
		memcpy(m->part, pw->out.data, m->len);
	if (pw->out.cap > PART_KEEP)
		tg_buf_release(&pw->out);
	if (rc)
		return rc == TG_ENOMEM ? rc : 0;
	if (!m->part)
		return TG_ENOMEM;
	m->nitems = n;
	fixes_free(m->fixes, m->n);
	m->fixes = NULL;
	m->n = 0;
	tg_audit_result_drop_findings(r);
	return 0;
}

/* The sink's bytes hook, on the engine's thread number thread, which
 * read f: the fixes its findings offer (JSON and SARIF) and its
 * findings rendered (text, JSON and GitHub), into f->extra, a struct
 * made. Reads of the run only what stays as it is while the engine
 * runs, and writes only its thread's writer of parts. */
static int
made_bytes(void *ctx, size_t thread, struct tg_engine_file *f, const char *src,
	   size_t len)
{
	const struct run *run = ctx;
	struct made *m;
	int rc = 0;

	assert(thread < TG_ENGINE_THREADS_MAX);
	if (!f->r.nfindings) /* no fix to offer, nothing to render */
		return 0;
	if (!(m = calloc(1, sizeof(*m))))
		return TG_ENOMEM;
	if (run->offers)
		rc = offer(run, m, f, src, len);
	if (!rc && run->parts)
		rc = render(run, &run->pw[thread], m, f);
	if (rc || (!m->fixes && !m->part)) {
		made_free(NULL, m);
		return rc;
	}
	f->extra = m;
	return 0;
}

/* What the run made of one file (main thread, in walk order): a note,
 * or its findings kept and rendered. */
int
cli_audit_on_source(void *ctx, struct tg_engine_file *f)
{
	struct run *run = ctx;
	int rc;

	switch (f->what) {
	case TG_ENGINE_TOO_LARGE:
		return cli_audit_add_note(
		    run, TG_SEV_NOTE, f->path, 0, "too-large",
		    "skipped: larger than %zu MiB", FILE_MAX >> 20);
	case TG_ENGINE_UNREADABLE:
		run->unreadable = 1;
		if (f->operand) {
			cli_error(CMD, "%s", f->msg);
			return 0;
		}
		return cli_audit_add_note(run, TG_SEV_ERROR, f->path, 0,
					  "unreadable", "%s", f->msg);
	case TG_ENGINE_UNDECODABLE:
		run->undecodable = 1;
		return cli_audit_add_note(
		    run, TG_SEV_WARNING, f->path, f->line, "undecodable",
		    "skipped: cannot be decoded: %s at line %zu, "
		    "column %zu",
		    f->why, f->line, f->col);
	case TG_ENGINE_SKIPPED:
		return cli_audit_add_note(run, TG_SEV_NOTE, f->path, 0,
					  "skipped", "skipped: %s", f->msg);
	case TG_ENGINE_ANALYZED:
		break;
	}
	run->analyzed++;
	rc = keep_result(run, f, f->extra);
	if (!rc)
		rc = emit_files(run);
	progress(run, 0);
	return rc;
}

void
cli_audit_print_notes(const struct run *run)
{
	size_t k;

	if (run->ctx->quiet)
		return;
	for (k = 0; k < run->notes.n; k++) {
		const struct tg_diag *d = &run->notes.v[k];

		if (d->line)
			cli_error(CMD, "%s: %s:%zu: %s",
				  tg_diag_severity_name(d->severity), d->path,
				  d->line, d->message);
		else if (d->path && !strstr(d->message, d->path))
			cli_error(CMD, "%s: %s: %s",
				  tg_diag_severity_name(d->severity), d->path,
				  d->message);
		else
			cli_error(CMD, "%s: %s",
				  tg_diag_severity_name(d->severity),
				  d->message);
	}
}

/* The torch to judge, into *v (borrowed) and *from. */
static int
pick_torch(struct cli_ctx *ctx, struct tg_version *newest,
	   const struct tg_version **v, const char **from)
{
	struct tg_err err = TG_ERR_INIT;
	int status;

	if (ctx->version) {
		*v = ctx->version;
		*from = "option";
		return CLI_OK;
	}
	if (ctx->env.python || ctx->env.prefix || ctx->env.sites.n) {
		status = cli_env_probe(CMD, &ctx->env);
		if (!status)
			status = cli_env_torch(CMD, &ctx->env, ctx->quiet,
					       &ctx->torch);
		if (status)
			return status;
		*v = &ctx->torch->src[ctx->torch->version_from].v;
		*from = "environment";
		return CLI_OK;
	}
	if (tg_table_newest_version(&ctx->table, newest, &err)) {
		cli_error(CMD, "%s", err.msg);
		return cli_exit_for(err.code);
	}
	*v = newest;
	*from = "table";
	return CLI_OK;
}

static int
check(struct cli_ctx *ctx, int argc, char **argv)
{
	(void)ctx;
	(void)argv;
	if (argc < 1)
		return cli_usage_error(CMD, "no path to audit");
	if (fix && diff)
		return cli_usage_error(CMD, "--fix and --diff exclude each "
					    "other");
	if (unsafe_fixes && !fix && !diff &&
	    !(format &&
	      (strcmp(format, "json") == 0 || strcmp(format, "sarif") == 0)))
		return cli_usage_error(CMD,
				       "--unsafe-fixes needs --fix, --diff, "
				       "--format=json or --format=sarif");
	if ((fix || diff) && format && strcmp(format, "text") != 0)
		return cli_usage_error(CMD,
				       "--fix and --diff write text only "
				       "(--format=%s)",
				       format);
	return CLI_OK;
}

static int
run_audit(struct cli_ctx *ctx, int argc, char **argv)
{
	struct run run;
	struct tg_version newest = TG_VERSION_INIT;
	struct tg_err err = TG_ERR_INIT;
	struct tg_buf init = TG_BUF_INIT;
	struct tg_audit_dead *dead = NULL;
	struct tg_engine_opts eo;
	struct tg_engine_sink sink;
	struct tg_audit_report rep;
	struct tg_declared declared = TG_DECLARED_INIT;
	struct tg_version fix_floor = TG_VERSION_INIT;
	struct stat st;
	enum tg_audit_format fmt = TG_AUDIT_TEXT;
	size_t k;
	int status, rc = 0, begun = 0;

	memset(&run, 0, sizeof(run));
	memset(&rep, 0, sizeof(rep));
	run.out = init;
	run.ctx = ctx;
	memset(&eo, 0, sizeof(eo));
	eo.min = TG_AUDIT_RANK_PRIVATE;
	if (min_status)
		eo.min = strcmp(min_status, "removed") == 0
			     ? TG_AUDIT_RANK_REMOVED
			 : strcmp(min_status, "deprecated") == 0
			     ? TG_AUDIT_RANK_DEPRECATED
			     : TG_AUDIT_RANK_PRIVATE;
	if (format)
		fmt = strcmp(format, "json") == 0     ? TG_AUDIT_JSON
		      : strcmp(format, "sarif") == 0  ? TG_AUDIT_SARIF
		      : strcmp(format, "github") == 0 ? TG_AUDIT_GITHUB
						      : TG_AUDIT_TEXT;
	if (floor_arg) {
		rc = tg_version_parse(&run.floor, floor_arg, strlen(floor_arg),
				      &err);
		if (rc == TG_ENOMEM)
			return cli_out_of_memory(CMD);
		if (rc)
			return cli_usage_error(CMD, "--floor: %s", err.msg);
		run.have_floor = 1;
		rep.floor = floor_arg;
		rep.floor_from = "option";
	} else if (argc > 0 && stat(argv[0], &st) == 0 && S_ISDIR(st.st_mode)) {
		/* the package's own declared floor, from its first operand
		 * only: nothing outside the paths given is read */
		rc = tg_declared_floor(&declared, argv[0], &err);
		for (k = 0; rc != TG_ENOMEM && k < declared.notes.n; k++)
			cli_error(CMD, "warning: %s",
				  declared.notes.v[k].message);
		if (rc == TG_ENOMEM ||
		    (!rc && tg_version_dup(&run.floor, &declared.floor))) {
			cli_error(CMD, "out of memory");
			status = CLI_IO;
			goto out;
		}
		if (!rc) {
			run.have_floor = 1;
			rep.floor = declared.floor.str;
			rep.floor_from = "declared";
			rep.floor_path = declared.path;
			rep.floor_line = declared.line;
			rep.floor_requirement = declared.requirement;
		}
		rc = 0;
	}
	if ((fix || diff) && !run.have_floor) {
		/* no floor declared: the oldest release torchgate knows, so
		 * that no fix breaks a torch the package may admit */
		const char *oldest = tg_releases_at(0);

		rc = oldest ? tg_version_parse(&run.floor, oldest,
					       strlen(oldest), &err)
			    : TG_EINVAL;
		if (rc == TG_ENOMEM) { /* never a fix without its floor */
			status = cli_out_of_memory(CMD);
			goto out;
		}
		if (rc == 0) {
			run.have_floor = 1;
			rep.floor = run.floor.str;
			rep.floor_from = "oldest";
		}
		rc = 0;
	}
	status = pick_torch(ctx, &newest, &run.torch, &rep.torch_from);
	if (status)
		goto out;
	eo.table = &ctx->table;
	eo.torch = run.torch;
	eo.all = all;
	eo.floor = run.have_floor ? &run.floor : NULL;
	eo.excludes = excludes.v;
	eo.nexcludes = excludes.n;
	eo.file_max = FILE_MAX;
	if (tg_engine_new(&run.engine, &eo, &err)) {
		cli_error(CMD, "%s", err.msg);
		status = CLI_IO;
		goto out;
	}
	if (fix || diff) {
		run.diff = diff;
		run.fix = fix;
		run.unsafe = unsafe_fixes;
		status = cli_audit_run_fix(&run, &rep, argc, argv);
		goto out;
	}
	if (fmt == TG_AUDIT_JSON || fmt == TG_AUDIT_SARIF) {
		/* each finding's fix, planned as --fix would plan it: at the
		 * floor --fix uses, safe fixes applied, unsafe ones hidden
		 * (applied too with --unsafe-fixes) */
		const char *o = tg_releases_at(0);

		run.offers = 1;
		run.po.unsafe = unsafe_fixes;
		run.po.engine = run.engine;
		run.po.table = &ctx->table;
		rc = run.have_floor || !o
			 ? 0
			 : tg_version_parse(&fix_floor, o, strlen(o), &err);
		if (rc == TG_ENOMEM) { /* never a fix without its floor */
			status = cli_out_of_memory(CMD);
			goto out;
		}
		if (run.have_floor)
			run.po.floor = &run.floor;
		else if (o && rc == 0)
			run.po.floor = &fix_floor;
		rc = 0;
	}
	rep.tool_version = PACKAGE_VERSION;
	rep.torch = run.torch->str;
	rep.min_status = min_status ? min_status : "private";
	tg_audit_format_begin(&run.wr, &rep, fmt, &run.out);
	begun = 1;
	run.tty = !ctx->quiet && isatty(2);
	clock_gettime(CLOCK_MONOTONIC, &run.start);
	memset(&sink, 0, sizeof(sink));
	sink.file = cli_audit_on_source;
	sink.idle = idle;
	run.fmt = fmt;
	run.parts = tg_audit_format_parts(fmt);
	if (run.parts &&
	    !(run.pw = calloc(TG_ENGINE_THREADS_MAX, sizeof(*run.pw)))) {
		status = cli_out_of_memory(CMD);
		goto out;
	}
	if (run.offers || run.parts) {
		sink.bytes = made_bytes;
		sink.extra_free = made_free;
	}
	sink.ctx = &run;
	rc = tg_engine_run(run.engine, (const char *const *)argv, (size_t)argc,
			   &sink, &err);
	if (rc && rc != TG_ENOMEM && err.code) {
		/* the engine's own failure, which says why */
		cli_error(CMD, "%s", err.msg);
		status = cli_exit_for(rc);
		goto out;
	}
	if (!rc)
		rc = write_out(&run);
	progress(&run, 1);
	if (rc == TG_ELIMIT) {
		cli_error(CMD, "cannot write the report: too large");
		status = CLI_IO;
		goto out;
	}
	if (rc || run.oom) {
		cli_error(CMD, "out of memory");
		status = CLI_IO;
		goto out;
	}
	dead = calloc(run.ndead + 1, sizeof(*dead));
	if (!dead) {
		cli_error(CMD, "out of memory");
		status = CLI_IO;
		goto out;
	}
	for (k = 0; k < run.ndead; k++) {
		dead[k].path = run.dead[k].path;
		dead[k].b = &run.dead[k].b;
	}
	rep.files = run.analyzed;
	rep.dead = dead;
	rep.ndead = run.ndead;
	rep.notes = &run.notes;
	rc = tg_audit_format_end(&run.wr, &rep);
	if (!rc)
		rc = write_out(&run);
	if (rc) {
		cli_error(CMD, "cannot write the report: %s",
			  rc == TG_ELIMIT ? "too large" : "out of memory");
		status = CLI_IO;
		goto out;
	}
	if (run.write_err) {
		cli_error(CMD, "cannot write the report: %s",
			  strerror(run.write_err));
		status = CLI_IO;
		goto out;
	}
	if (fmt == TG_AUDIT_TEXT && rep.floor_path && !ctx->quiet)
		cli_error(CMD, "note: floor %s, declared in %s:%zu: %s",
			  rep.floor, rep.floor_path, rep.floor_line,
			  rep.floor_requirement);
	if (fmt == TG_AUDIT_TEXT)
		cli_audit_print_notes(&run);
	status = run.unreadable	   ? CLI_IO
		 : run.fails	   ? CLI_FAILED
		 : run.undecodable ? CLI_BAD_INPUT
				   : CLI_OK;
out:
	if (begun)
		tg_audit_format_release(&run.wr);
	tg_buf_release(&run.out);
	free(run.items);
	free(dead);
	for (k = 0; k < run.nfiles; k++) {
		free(run.files[k].path);
		free(run.files[k].part);
		free_fixes(&run.files[k]);
		tg_audit_result_release(&run.files[k].r);
	}
	free(run.files);
	for (k = 0; run.pw && k < TG_ENGINE_THREADS_MAX; k++) {
		if (run.pw[k].begun)
			tg_audit_format_release(&run.pw[k].wr);
		tg_buf_release(&run.pw[k].out);
		free(run.pw[k].items);
	}
	free(run.pw);
	for (k = 0; k < run.ndead; k++) {
		free(run.dead[k].path);
		free(run.dead[k].b.condition);
		free(run.dead[k].b.requires);
	}
	free(run.dead);
	tg_engine_free(run.engine);
	free(run.cwd);
	tg_diag_list_release(&run.notes);
	tg_version_release(&run.floor);
	tg_version_release(&fix_floor);
	tg_declared_release(&declared);
	tg_version_release(&newest);
	return status;
}

const struct cli_command cmd_audit = {
    .name = CMD,
    .summary = "the deprecated, removed and private torch APIs a package "
	       "uses",
    .setup = CLI_QUIET | CLI_TABLE | CLI_ENV | CLI_TORCH_VERSION,
    .opts = opts,
    .operands = "PATH...",
    .about =
	"Read the Python (.py, .pyi) and C/C++/CUDA (.c .cc .cpp .cxx .h .hpp\n"
	".cu .cuh) files under each PATH and report every use of a table API\n"
	"that is deprecated, removed or private for the torch judged: "
	"--torch-\n"
	"version V, else the torch of the environment given, else the newest\n"
	"version the table names. Uses in comments and strings are reported "
	"as\n"
	"mentions; uses under a version test are reported as guarded. Nothing\n"
	"is imported or run. .git, virtual environments, build, dist,\n"
	"__pycache__, *.egg-info and node_modules are never entered; files\n"
	"over 8 MiB are skipped with a note.",
    .exits =
	"Exit status: 0 nothing to fix, 1 an unguarded use at or above\n"
	"--min-status, 2 usage, 4 a file could not be decoded (skipped), 5 "
	"a path\n"
	"could not be read; 5 wins over 1, and 1 over 4. With --diff, 1 when\n"
	"there is something to fix; with --fix, 1 when an unguarded use at "
	"or\n"
	"above --min-status remains after the rewrites.",
    .check = check,
    .run = run_audit,
};
