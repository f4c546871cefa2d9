/* source_run.h - a package's source files read and analyzed on worker
 * threads, handed back in walk order
 * SPDX-License-Identifier: MIT
 *
 * What audit and require share: the operands walked (util/walk, the
 * files and directories cli/source_files chooses, less --exclude), each
 * file read, checked and analyzed by the audit analyzers on one worker
 * thread per online CPU, and each outcome handed to the caller on the
 * main thread in the order of the operands (sorted as the walk sorts
 * names), then of the walk. So what the caller makes of them is the
 * same for any number of threads.
 */
#ifndef TG_CLI_SOURCE_RUN_H
#define TG_CLI_SOURCE_RUN_H

#include <stddef.h>

#include "cli/opt.h"
#include "lib/audit/audit.h"

enum cli_source_what {
	CLI_SOURCE_ANALYZED,	/* r holds what the analyzer found */
	CLI_SOURCE_TOO_LARGE,	/* over file_max: skipped */
	CLI_SOURCE_UNDECODABLE, /* why, at line and column: skipped */
	CLI_SOURCE_UNREADABLE,	/* msg: "cannot read 'PATH': REASON" */
	CLI_SOURCE_SKIPPED,	/* msg: why the walk left it out */
};

/* One outcome. operand: it is about an operand itself (one that cannot
 * be read or walked, or a file operand that is not source by its name),
 * not about a file found under one. */
struct cli_source_file {
	enum cli_source_what what;
	const char *path;
	int operand;
	const char *msg;
	const char *why; /* "invalid UTF-8", "a NUL byte" */
	size_t line, col;
	struct tg_audit_result *r; /* ANALYZED: the callee may move it out */
};

struct cli_source_opts {
	const struct tg_audit_py_index *pyix;
	const struct tg_audit_cxx_index *cxxix;
	const struct cli_list *excludes; /* GLOBs on names and paths */
	size_t file_max;		 /* larger files are TOO_LARGE */
	/* Each outcome, on the main thread, in order: 0 to go on, or a
	 * negative TG_E* code to stop the run and return it. */
	int (*file)(void *ctx, struct cli_source_file *f);
	/* Called before the main thread waits for a worker (so that output
	 * rendered so far can go out); may be NULL. */
	int (*idle)(void *ctx);
	void *ctx;
};

/* Run over paths[0..n) (sorted here, in the walk's order). 0; TG_ENOMEM
 * (also when no worker thread starts); or what a callback returned. */
int cli_source_run(const struct cli_source_opts *o, const char *const *paths,
		   size_t n);

#endif
