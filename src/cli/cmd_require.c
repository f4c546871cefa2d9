/* cmd_require.c - torchgate require: the torch range a package's code
 * needs, and what it declares judged
 * SPDX-License-Identifier: MIT
 *
 * Runs the audit engine (audit/engine) over the operands as audit does
 * (the same files, the same directories left out, the analyzers on
 * worker threads, the outcomes in walk order), without a torch to judge,
 * and hands the results to audit/require, which keeps the uses that
 * bound torch. With
 * --check-declared, each directory operand's declarations
 * (audit/declared) are judged; --declared SPEC judges SPEC instead.
 *
 * Exit: 2 usage; 5 an operand or a file under it could not be read;
 * else 1 when floor and ceiling conflict or a declaration has a problem
 * (an over-tight floor, a setup.py importing torch are information; a
 * floor that admits releases an
 * advisory on an API the code uses affects is a problem, one that
 * admits a critical advisory's information: audit/advisory_check);
 * else 4 when a file could not be
 * decoded (skipped) or a declaration file could not be parsed; else 0.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/cli.h"
#include "cli/commands.h"
#include "cli/opt.h"
#include "cli/setup.h"
#include "lib/audit/advisory_check.h"
#include "lib/audit/audit.h"
#include "lib/audit/declared.h"
#include "lib/audit/engine.h"
#include "lib/audit/require.h"
#include "lib/render/require_format.h"
#include "lib/render/require_html.h"
#include "lib/table/cache.h"
#include "lib/table/index.h"
#include "lib/table/releases.h"
#include "lib/util/buf.h"

#define CMD "require"
/* Larger files are skipped with a note. */
#define FILE_MAX TG_ENGINE_FILE_MAX
#define EXCLUDES_MAX 64

static const char *format, *declared_arg, *advisories_path;
static int strict_private, check_declared;
static const char *exclude_v[EXCLUDES_MAX];
static struct cli_list excludes = {exclude_v, 0, EXCLUDES_MAX};
static const char *ignore_v[EXCLUDES_MAX];
static struct cli_list ignores = {ignore_v, 0, EXCLUDES_MAX};
static const char *const formats[] = {"text", "json", "html", NULL};
static const struct cli_opt opts[] = {
    {CLI_OPT_CHOICE, "format", 0, &format, "F", "text (default), json or html",
     formats, 0},
    {CLI_OPT_SWITCH, "strict-private", 0, &strict_private, NULL,
     "an unguarded private API caps the range at the\n"
     "minor after the newest torch the table knows",
     NULL, 0},
    {CLI_OPT_SWITCH, "check-declared", 0, &check_declared, NULL,
     "judge the torch requirements each directory\n"
     "operand declares (pyproject.toml, setup.cfg,\n"
     "requirements*.txt, PKG-INFO, setup.py literals)",
     NULL, 0},
    {CLI_OPT_VALUE, "declared", 0, &declared_arg, "SPEC",
     "judge SPEC (\"torch>=2.0\" or \">=2.0\") instead", NULL,
     CLI_OPT_USAGE_OR},
    {CLI_OPT_LIST, "exclude", 0, &excludes, "GLOB",
     "leave out files and directories whose name or\n"
     "path under the operand matches GLOB (repeatable)",
     NULL, 0},
    {CLI_OPT_LIST, "ignore-vuln", 0, &ignores, "ID",
     "with --check-declared or --declared: do not\n"
     "report the advisory ID (any alias; repeatable)",
     NULL, 0},
    {CLI_OPT_VALUE, "advisories", 0, &advisories_path, "FILE",
     "read the advisories from FILE", NULL, 0},
    {CLI_OPT_END, NULL, 0, NULL, NULL, NULL, NULL, 0},
};

struct run {
	struct cli_ctx *ctx;
	struct tg_engine *engine;
	struct tg_require rq;
	struct tg_advisory_check ac; /* with a declaration to judge */
	size_t files;
	int unreadable, undecodable, oom;
	/* --check-declared: the operands, whose setup.py is judged */
	char **argv;
	size_t argc;
};

/* Whether path is the setup.py of a directory operand (dir "/setup.py",
 * as the engine and audit/declared join them). */
static int
operand_setup(const struct run *run, const char *path)
{
	size_t k, n, pl = strlen(path);

	if (pl < 8 || strcmp(path + pl - 8, "setup.py") != 0)
		return 0;
	for (k = 0; k < run->argc; k++) {
		n = strlen(run->argv[k]);
		if (n && run->argv[k][n - 1] != '/')
			n++;
		if (n + 8 == pl && strncmp(path, run->argv[k], n - 1) == 0 &&
		    path[n - 1] == '/')
			return 1;
	}
	return 0;
}

/* "SEVERITY: PATH: WHAT" on stderr, unless --quiet. */
static void
note(const struct run *run, const char *severity, const char *path,
     const char *what)
{
	if (!run->ctx->quiet)
		cli_error(CMD, "%s: %s: %s", severity, path, what);
}

/* What the run made of one file (main thread, in walk order). */
static int
on_source(void *ctx, struct tg_engine_file *f)
{
	struct run *run = ctx;
	char what[300];
	int rc;

	switch (f->what) {
	case TG_ENGINE_TOO_LARGE:
		snprintf(what, sizeof(what), "skipped: larger than %zu MiB",
			 FILE_MAX >> 20);
		note(run, "note", f->path, what);
		return 0;
	case TG_ENGINE_UNREADABLE:
		run->unreadable = 1;
		cli_error(CMD, "%s", f->msg);
		return 0;
	case TG_ENGINE_UNDECODABLE:
		run->undecodable = 1;
		snprintf(what, sizeof(what),
			 "skipped: cannot be decoded: %s at line %zu, column "
			 "%zu",
			 f->why, f->line, f->col);
		note(run, "warning", f->path, what);
		return 0;
	case TG_ENGINE_SKIPPED:
		snprintf(what, sizeof(what), "skipped: %s", f->msg);
		note(run, "note", f->path, what);
		return 0;
	case TG_ENGINE_ANALYZED:
		break;
	}
	rc = tg_require_add(&run->rq, f->path, &f->r);
	if (!rc && check_declared && operand_setup(run, f->path))
		rc = tg_require_add_setup(&run->rq, f->path, &f->r);
	if (!rc && run->ac.a)
		rc = tg_advisory_check_add(&run->ac, f->path, &f->r);
	run->files++;
	return rc;
}

static int
check(struct cli_ctx *ctx, int argc, char **argv)
{
	(void)ctx;
	(void)argv;
	if (argc < 1)
		return cli_usage_error(CMD, "no path to read");
	if (check_declared && declared_arg)
		return cli_usage_error(CMD, "--check-declared and --declared "
					    "cannot be used together");
	return CLI_OK;
}

/* --declared SPEC into l. */
static int
parse_declared(struct tg_declared_list *l)
{
	struct tg_buf b = TG_BUF_INIT;
	struct tg_err err = TG_ERR_INIT;
	int rc;

	if (strchr("<>=!~", declared_arg[0]) && declared_arg[0])
		tg_buf_adds(&b, "torch");
	tg_buf_adds(&b, declared_arg);
	if (tg_buf_error(&b)) {
		tg_buf_release(&b);
		return cli_out_of_memory(CMD);
	}
	rc = tg_declared_add(l, b.data, b.len, "--declared", 0, "option", &err);
	tg_buf_release(&b);
	if (rc == TG_ENOMEM)
		return cli_out_of_memory(CMD);
	if (rc < 0)
		return cli_usage_error(CMD, "--declared: %s", err.msg);
	if (rc == 0)
		return cli_usage_error(
		    CMD, "--declared: '%s' does not name torch", declared_arg);
	return CLI_OK;
}

static int
run_require(struct cli_ctx *ctx, int argc, char **argv)
{
	struct run run;
	struct tg_err err = TG_ERR_INIT;
	struct tg_declared_list l = TG_DECLARED_LIST_INIT;
	struct tg_require_report rep;
	struct tg_buf out = TG_BUF_INIT;
	struct tg_engine_opts eo;
	struct tg_engine_sink sink;
	struct tg_index releases = TG_INDEX_INIT;
	char *releases_from = NULL, *adv_from = NULL;
	struct tg_advisories adv = TG_ADVISORIES_INIT;
	enum tg_cache_source adv_src;
	size_t k, nnotes;
	int status = CLI_OK, rc = 0, bad_decl = 0, fails = 0;

	memset(&run, 0, sizeof(run));
	memset(&rep, 0, sizeof(rep));
	run.ctx = ctx;
	run.argv = argv;
	run.argc = (size_t)argc;
	/* the list torchgate releases cached, when there is a valid one */
	rc = tg_cache_index(&releases, 0, &releases_from, &err);
	if (rc < 0)
		goto oom;
	if (rc)
		tg_releases_use(&releases);
	else if (err.code && !ctx->quiet)
		cli_error(CMD, "warning: %s; the embedded release list is used",
			  err.msg);
	rc = 0;
	err.code = 0;
	tg_require_init(&run.rq, &ctx->table, strict_private);
	if (check_declared || declared_arg) {
		rc = tg_advisory_cached(&adv, advisories_path, &adv_src,
					&adv_from, &err, &err);
		if (rc == TG_ENOMEM)
			goto oom;
		if (rc) {
			cli_error(CMD, "%s", err.msg);
			status = cli_exit_for(rc);
			goto out;
		}
		if (err.code && !ctx->quiet)
			cli_error(CMD, "warning: %s", err.msg);
		err.code = 0;
		if (tg_advisory_check_init(&run.ac, &adv, ignores.v, ignores.n))
			goto oom;
	}
	if (declared_arg) {
		status = parse_declared(&l);
		if (status)
			goto out;
	}
	memset(&eo, 0, sizeof(eo));
	eo.table = &ctx->table;
	eo.excludes = excludes.v;
	eo.nexcludes = excludes.n;
	eo.file_max = FILE_MAX;
	if (tg_engine_new(&run.engine, &eo, &err)) {
		cli_error(CMD, "%s", err.msg);
		status = cli_exit_for(err.code);
		goto out;
	}
	memset(&sink, 0, sizeof(sink));
	sink.file = on_source;
	sink.ctx = &run;
	rc = tg_engine_run(run.engine, (const char *const *)argv, (size_t)argc,
			   &sink, &err);
	if (rc && rc != TG_ENOMEM && err.code) {
		/* the engine's own failure, which says why */
		cli_error(CMD, "%s", err.msg);
		status = cli_exit_for(rc);
		goto out;
	}
	if (rc)
		goto oom;
	for (k = 0; check_declared && k < (size_t)argc; k++) {
		struct stat st;

		if (stat(argv[k], &st) || !S_ISDIR(st.st_mode))
			continue;
		nnotes = l.notes.n;
		rc = tg_declared_read(&l, argv[k], &err);
		if (rc == TG_ENOMEM)
			goto oom;
		for (; nnotes < l.notes.n; nnotes++)
			cli_error(CMD, "warning: %s",
				  l.notes.v[nnotes].message);
		if (rc) {
			cli_error(CMD, "%s", err.msg);
			bad_decl = 1;
		}
	}
	if (tg_require_finish(&run.rq, &err))
		goto oom;
	if ((check_declared || declared_arg) &&
	    (tg_require_check(&run.rq, &l, &err) ||
	     tg_advisory_check_judge(&run.ac, &run.rq, &l, &err)))
		goto oom;
	/* where every declaration file was read whole (no warning about
	 * one left out or cut) and the metadata is not computed: whether
	 * pip enforces any */
	if (check_declared && !bad_decl && !l.computed && l.notes.n == 0 &&
	    tg_require_check_enforced(&run.rq, &l, &err))
		goto oom;
	/* what each directory's setup.py does with torch when it builds */
	if (check_declared && tg_require_check_setup(&run.rq, &l, &err))
		goto oom;
	rep.tool_version = PACKAGE_VERSION;
	rep.files = run.files;
	rep.l = check_declared || declared_arg ? &l : NULL;
	rep.declared_from = declared_arg ? "option" : "files";
	if (format && strcmp(format, "html") == 0
		? tg_require_html(&out, &run.rq, &rep,
				  (const char *const *)argv, (size_t)argc)
		: tg_require_format(&out, &run.rq, &rep,
				    format && strcmp(format, "json") == 0)) {
		status = cli_out_of_memory(CMD);
		goto out;
	}
	if (fwrite(out.data, 1, out.len, stdout) != out.len) {
		cli_error(CMD, "cannot write the report: %s", strerror(errno));
		status = CLI_IO;
		goto out;
	}
	fails = run.rq.nconflicts > 0;
	for (k = 0; k < run.rq.nproblems; k++)
		fails |= tg_require_problem_fails(&run.rq.problems[k]);
	status = run.unreadable		       ? CLI_IO
		 : fails		       ? CLI_FAILED
		 : run.undecodable || bad_decl ? CLI_BAD_INPUT
					       : CLI_OK;
	goto out;
oom:
	status = cli_out_of_memory(CMD);
out:
	tg_buf_release(&out);
	tg_require_release(&run.rq);
	if (run.ac.a)
		tg_advisory_check_release(&run.ac);
	tg_advisory_release(&adv);
	free(adv_from);
	tg_declared_list_release(&l);
	tg_engine_free(run.engine);
	tg_releases_use(NULL);
	tg_index_release(&releases);
	free(releases_from);
	return status;
}

const struct cli_command cmd_require = {
    .name = CMD,
    .summary = "the torch range a package's code needs, and its "
	       "declarations judged",
    .setup = CLI_QUIET | CLI_TABLE,
    .opts = opts,
    .operands = "PATH...",
    .about =
	"Read the Python and C/C++/CUDA files under each PATH as audit does\n"
	"and print the torch requirement the code needs: the floor is the\n"
	"highest introduced version (or replacement since) of the APIs used\n"
	"unguarded, the ceiling the lowest removed version (with\n"
	"--strict-private, also the minor after the newest torch the table\n"
	"knows for an unguarded private API). The requirement is alone on\n"
	"the first line of text output; each bound's reasons follow, with\n"
	"the table fact, its verification status and the uses (path:line).\n"
	"With --check-declared or --declared, what the package declares is\n"
	"judged: a missing or too-low floor, a missing ceiling, a stale\n"
	"ceiling (from the embedded list of torch releases), an over-tight\n"
	"floor (information), files that disagree, and a floor that admits\n"
	"torch releases a security advisory affects when the code uses the\n"
	"advisory's API (information when it does not, for an advisory\n"
	"that is critical and not disputed). With --check-declared, also a\n"
	"setup.py whose own code raises below another torch than the floor\n"
	"declared, and one that imports torch (information: its build needs\n"
	"torch first). Nothing is imported or run.",
    .exits = "Exit status: 0 nothing to fix, 1 floor and ceiling conflict "
	     "or a\n"
	     "declaration has a problem, 2 usage, 4 a file could not be "
	     "decoded\n"
	     "or a declaration file could not be parsed, 5 a path could not "
	     "be\n"
	     "read; 5 wins over 1, and 1 over 4.",
    .check = check,
    .run = run_require,
};
