/* audit_run.h - what audit's two files share: the run, its results
 * SPDX-License-Identifier: MIT
 *
 * Private to cmd_audit.c (the report: options, the engine's sink,
 * rendering on the workers, the torch judged) and audit_fix.c (--fix and
 * --diff: each file's fixes planned, written or printed): struct run,
 * which one audit keeps, and the few functions both call.
 */
#ifndef TG_CLI_AUDIT_RUN_H
#define TG_CLI_AUDIT_RUN_H

#include <signal.h>
#include <stdio.h>
#include <time.h>

#include "cli/cli.h"
#include "lib/audit/audit.h"
#include "lib/audit/engine.h"
#include "lib/audit/lang.h"
#include "lib/fix/plan.h"
#include "lib/pep/version.h"
#include "lib/render/audit_format.h"
#include "lib/util/buf.h"
#include "lib/util/diag.h"

#define CMD "audit"

/* One analyzed file and what its analyzer found; JSON and SARIF: the
 * fixes its findings offer (one each), or NULL; its findings as a
 * worker rendered them (part, len bytes, nitems findings; part_fails:
 * one of them fails the run), r then holding only its branches, or NULL
 * (the main thread renders r's findings). */
struct file_result {
	char *path;
	struct tg_audit_result r;
	struct tg_audit_fix *fixes;
	char *part;
	size_t len, nitems; /* nitems: the findings in part (r has none) */
	int part_fails;
};

/* What a worker made of a file for the main thread (f->extra): the
 * fixes its findings offer, one per finding, or NULL; its findings
 * rendered (part, len bytes), or NULL. */
struct made {
	struct tg_audit_fix *fixes;
	size_t n;
	char *part;
	size_t len, nitems; /* nitems: the findings rendered */
	int fails;	    /* one of them fails the run */
};

/* A writer of parts keeps its buffer from file to file up to this. */
#define PART_KEEP ((size_t)256 * 1024)

/* A thread's writer of parts (audit_format), kept from file to file
 * for its caches. */
struct part_writer {
	struct tg_audit_writer wr;
	struct tg_buf out;
	struct tg_audit_item *items;
	size_t capitems;
	int begun;
};

/* A dead branch, kept for the end of the report. */
struct dead_kept {
	char *path;
	struct tg_audit_branch b;
};

struct run {
	struct cli_ctx *ctx;
	/* --fix or --diff */
	int fixing;
	int diff, fix, unsafe; /* --diff, --fix, --unsafe-fixes */
	/* JSON and SARIF: each finding's fix, planned as --fix would */
	int offers;
	/* text, JSON and GitHub: each file's findings rendered on the
	 * thread that analyzed it, by its writer of parts (indexed by the
	 * engine's thread number) */
	enum tg_audit_format fmt;
	int parts;
	struct part_writer *pw;
	struct tg_plan_opts po;
	FILE *report; /* where --fix and --diff say what they did */
	char *cwd;    /* --diff: the current directory, or NULL */
	/* --fix: the signal mask to restore once the workers run */
	sigset_t sig_saved;
	int sig_blocked;
	int changes, remains; /* something to fix; a failing use left */
	struct tg_engine *engine;
	const struct tg_version *torch;
	struct tg_version floor;
	int have_floor;
	/* the file being rendered, when it has findings or branches */
	struct file_result *files;
	size_t nfiles, capfiles;
	/* the report, written in chunks */
	struct tg_audit_writer wr;
	struct tg_buf out;
	struct tg_audit_item *items;
	size_t capitems;
	struct dead_kept *dead;
	size_t ndead, capdead;
	struct tg_diag_list notes;
	size_t analyzed, found;
	int unreadable, undecodable, oom, fails;
	int write_err; /* errno of the first failed write */
	/* progress on a TTY */
	int tty;
	struct timespec start, last;
};

/* A note for the end of the report (a file left out, a warning);
 * TG_ENOMEM (run->oom set) when out of memory. */
int cli_audit_add_note(struct run *run, enum tg_severity sev, const char *path,
		       size_t line, const char *rule, const char *fmt, ...)
    __attribute__((format(printf, 6, 7)));
/* Whether a finding of r may have a fix: one in code, unguarded, its
 * entry with a fix, in a language that rewrites. */
int cli_audit_fixable(const struct tg_lang *L, const struct tg_audit_result *r);
/* The notes on stderr (unless --quiet). */
void cli_audit_print_notes(const struct run *run);
/* The engine's file callback of the report: a note, or a file's
 * findings kept and rendered. */
int cli_audit_on_source(void *ctx, struct tg_engine_file *f);

/* audit_fix.c: --fix and --diff, the run, the floor said first; the
 * exit status. */
int cli_audit_run_fix(struct run *run, const struct tg_audit_report *rep,
		      int argc, char **argv);

#endif
