/* audit_fix.c - torchgate audit --fix and --diff
 * SPDX-License-Identifier: MIT
 *
 * Runs the audit engine with a sink of its own: each file with a
 * finding whose entry has a fix is read again and planned (fix/plan),
 * then rewritten in place (--fix: a temporary file renamed over it,
 * with the signals that would leave one behind blocked meanwhile) or
 * printed as a unified diff (--diff), and what was fixed, left or
 * hidden is said, a line each; a file without one is reported from the
 * run's own analysis. The report's notes are cmd_audit.c's.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/audit_run.h"
#include "cli/setup.h"
#include "lib/fix/edit.h"
#include "lib/fix/rewrite.h"
#include "lib/util/file.h"

/* --fix: SIGINT, SIGTERM, SIGHUP and SIGQUIT are blocked (the old mask
 * into *saved) while a temporary file exists, so that a Ctrl-C leaves
 * none behind and the file is the old one or the new one: the signal
 * arrives once the rename is done or the temporary file removed. The
 * engine's workers block them for the whole run (run_fix blocks them
 * before the engine starts its threads, which inherit the mask; the
 * main thread takes them again from its first outcome on), so that
 * such a signal is always the main thread's. */
static void
block_signals(sigset_t *saved)
{
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGHUP);
	sigaddset(&set, SIGQUIT);
	pthread_sigmask(SIG_BLOCK, &set, saved);
}

/* --fix and --diff: one file's fixes, planned, written or printed, and
 * reported: "PATH:L:C: fixed: ID -> TO", "PATH:L:C: left: ID: WHY",
 * then a count of unsafe fixes not applied. */
static int
fix_file(struct run *run, struct tg_engine_file *f)
{
	struct tg_plan p = TG_PLAN_INIT;
	struct tg_err err = TG_ERR_INIT;
	struct tg_buf d = TG_BUF_INIT;
	const struct tg_audit_result *r;
	char *src = NULL;
	size_t len = 0, k;
	int rc, written = 0;
	char unwritten[sizeof(err.msg)] = "";

	if (!cli_audit_fixable(f->lang, &f->r)) {
		/* nothing to rewrite: the run's analysis says what is left
		 * and why, without reading the file again */
		rc = tg_plan_analyzed(&p, &run->po, f->lang, f, &err);
		if (rc)
			goto out;
	} else {
		rc = tg_file_read(f->path, TG_ENGINE_FILE_MAX, &src, &len, NULL,
				  &err);
		if (rc == TG_ENOMEM)
			return rc;
		if (rc) {
			run->unreadable = 1;
			return cli_audit_add_note(run, TG_SEV_ERROR, f->path, 0,
						  "unreadable", "%s", err.msg);
		}
		rc = tg_plan_file(&p, &run->po, f->lang, src, len, f->path,
				  &err);
		if (rc)
			goto out;
	}
	if (p.before.what != TG_ENGINE_ANALYZED) {
		/* it changed since the run read it */
		run->undecodable = 1;
		rc = cli_audit_add_note(run, TG_SEV_WARNING, f->path, 0,
					"undecodable",
					"skipped: cannot be decoded any more");
		goto out;
	}
	if (p.nedits && run->diff) {
		/* a/PATH as git writes it: no leading "./" (an operand "."
		 * or "./x" would give a/./x) */
		const char *dp = f->path;

		/* an absolute path under the current directory: relative to
		 * it, so that patch -p1 and git apply take the diff there */
		if (dp[0] == '/' && run->cwd) {
			size_t n = strlen(run->cwd);

			if (strcmp(run->cwd, "/") == 0)
				dp++;
			else if (strncmp(dp, run->cwd, n) == 0 && dp[n] == '/')
				dp += n + 1;
		}
		while (dp[0] == '.' && dp[1] == '/')
			for (dp += 2; *dp == '/'; dp++)
				;
		rc = tg_edit_diff(dp, src, len, p.edits, p.nedits, &d);
		if (!rc &&
		    (fwrite(d.data, 1, d.len, stdout) != d.len ||
		     fflush(stdout)) &&
		    !run->write_err)
			run->write_err = errno ? errno : EIO;
		if (rc)
			goto out;
		run->changes = 1;
	} else if (p.nedits) {
		sigset_t saved;
		int wrc, replaced = 0;

		/* the signals wait until the temporary file is renamed or
		 * removed (see block_signals) */
		block_signals(&saved);
		wrc = tg_rewrite_file(f->path, src, len, p.fixed.data,
				      p.fixed.len, &replaced, &err);
		pthread_sigmask(SIG_SETMASK, &saved, NULL);
		if (wrc == 0)
			written = 1;
		else if (replaced) {
			/* the rename is done: the file holds the fixes, only
			 * their durability is in doubt */
			written = 1;
			rc = cli_audit_add_note(
			    run, TG_SEV_WARNING, f->path, 0, "not-synced",
			    "fixed, but its directory could not be "
			    "synced: %s",
			    err.msg);
			if (rc)
				goto out;
		} else {
			run->unreadable = 1;
			snprintf(unwritten, sizeof(unwritten), "%s", err.msg);
			rc = cli_audit_add_note(run, TG_SEV_ERROR, f->path, 0,
						"not-written", "not fixed: %s",
						err.msg);
			if (rc)
				goto out;
		}
	}
	r = &p.before.r;
	for (k = 0; k < r->nfindings && !(run->diff && run->ctx->quiet); k++) {
		const struct tg_audit_finding *g = &r->findings[k];
		const struct tg_plan_use *u = &p.uses[k];
		const char *note = g->api->fix.note;

		if (u->outcome == TG_PLAN_FIXED && !run->diff && !written)
			cli_printf(run->report,
				   "%s:%zu:%zu: left: %s: not written: %s\n",
				   f->path, g->line, g->column, g->api->id,
				   unwritten);
		else if (u->outcome == TG_PLAN_FIXED && u->guarded)
			cli_printf(
			    run->report,
			    "%s:%zu:%zu: %s: %s -> %s, guarded: %s where "
			    "torch has it, else %s%s%s%s\n",
			    f->path, g->line, g->column,
			    run->diff ? "would fix" : "fixed", g->api->id,
			    u->to, u->guard_repl, g->api->id,
			    !note		 ? ""
			    : g->api->fix.unsafe ? " (unsafe: "
						 : " (note: ",
			    note ? note : "", note ? ")" : "");
		else if (u->outcome == TG_PLAN_FIXED)
			cli_printf(run->report,
				   "%s:%zu:%zu: %s: %s -> %s%s%s%s\n", f->path,
				   g->line, g->column,
				   run->diff ? "would fix" : "fixed",
				   g->api->id, u->to,
				   !note		? ""
				   : g->api->fix.unsafe ? " (unsafe: "
							: " (note: ",
				   note ? note : "", note ? ")" : "");
		else if (u->outcome == TG_PLAN_HIDDEN)
			cli_printf(
			    run->report,
			    "%s:%zu:%zu: unsafe fix not applied: %s: %s\n",
			    f->path, g->line, g->column, g->api->id,
			    note ? note : "");
		else if (u->outcome == TG_PLAN_LEFT)
			cli_printf(run->report, "%s:%zu:%zu: left: %s: %s\n",
				   f->path, g->line, g->column, g->api->id,
				   u->why);
	}
	if (p.nexposed && !(run->diff && run->ctx->quiet))
		cli_printf(
		    run->report,
		    "%s: %s %zu more in %zu passes (uses an earlier pass "
		    "wrote)\n",
		    f->path, run->diff ? "would fix" : "fixed", p.nexposed,
		    p.passes);
	if (p.unsettled && !(run->diff && run->ctx->quiet))
		cli_printf(run->report, "%s: %s\n", f->path, p.unsettled);
	if (p.nhidden && !(run->diff && run->ctx->quiet))
		cli_printf(run->report,
			   "%s: %zu unsafe fix%s not applied (pass "
			   "--unsafe-fixes)\n",
			   f->path, p.nhidden, p.nhidden == 1 ? "" : "es");
	/* what remains: the fixed text's findings once written, else
	 * the file's */
	r = written ? &p.after.r : &p.before.r;
	for (k = 0; k < r->nfindings; k++)
		run->remains |= tg_engine_fails(run->engine, &r->findings[k]);
out:
	if (rc && rc != TG_ENOMEM)
		rc = TG_ENOMEM; /* the library fails only so */
	tg_buf_release(&d);
	tg_plan_release(&p);
	free(src);
	return rc;
}

/* --fix and --diff: each outcome in walk order. */
static int
on_fix(void *ctx, struct tg_engine_file *f)
{
	struct run *run = ctx;

	if (run->sig_blocked) {
		/* the workers run already, with the signals blocked */
		pthread_sigmask(SIG_SETMASK, &run->sig_saved, NULL);
		run->sig_blocked = 0;
	}
	if (f->what != TG_ENGINE_ANALYZED) {
		if (f->what == TG_ENGINE_UNREADABLE && f->operand) {
			run->unreadable = 1;
			cli_error(CMD, "%s", f->msg);
			return 0;
		}
		return cli_audit_on_source(ctx, f);
	}
	run->analyzed++;
	if (!f->r.nfindings)
		return 0;
	return fix_file(run, f);
}

/* --fix and --diff: the run, the floor said first, the exit status. */
int
cli_audit_run_fix(struct run *run, const struct tg_audit_report *rep, int argc,
		  char **argv)
{
	struct tg_engine_sink sink;
	struct tg_err err = TG_ERR_INIT;
	int rc;

	run->fixing = 1;
	run->report = run->diff ? stderr : stdout;
	if (run->diff)
		run->cwd = getcwd(NULL, 0); /* NULL: paths as given */
	run->po.engine = run->engine;
	run->po.table = &run->ctx->table;
	run->po.floor = run->have_floor ? &run->floor : NULL;
	run->po.unsafe = run->unsafe;
	if (!run->ctx->quiet || !run->diff) {
		if (rep->floor_path)
			cli_printf(run->report,
				   "floor: %s, declared in %s:%zu: %s\n",
				   rep->floor, rep->floor_path, rep->floor_line,
				   rep->floor_requirement);
		else if (rep->floor_from &&
			 strcmp(rep->floor_from, "option") == 0)
			cli_printf(run->report, "floor: %s, from --floor\n",
				   rep->floor);
		else if (rep->floor)
			cli_printf(run->report,
				   "floor: %s, the oldest torch release "
				   "torchgate knows (none declared)\n",
				   rep->floor);
	}
	memset(&sink, 0, sizeof(sink));
	sink.file = on_fix;
	sink.ctx = run;
	if (run->fix) {
		block_signals(&run->sig_saved);
		run->sig_blocked = 1;
	}
	rc = tg_engine_run(run->engine, (const char *const *)argv, (size_t)argc,
			   &sink, &err);
	if (run->sig_blocked) {
		pthread_sigmask(SIG_SETMASK, &run->sig_saved, NULL);
		run->sig_blocked = 0;
	}
	if (rc || run->oom) {
		cli_error(CMD, "out of memory");
		return CLI_IO;
	}
	if (fflush(stdout) && !run->write_err)
		run->write_err = errno ? errno : EIO;
	if (run->write_err) {
		cli_error(CMD, "cannot write: %s", strerror(run->write_err));
		return CLI_IO;
	}
	cli_audit_print_notes(run);
	if (run->unreadable)
		return CLI_IO;
	if (run->diff ? run->changes : run->remains)
		return CLI_FAILED;
	return run->undecodable ? CLI_BAD_INPUT : CLI_OK;
}
