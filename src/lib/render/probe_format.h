/* probe_format.h - a probe written out: text, JSON, shell, make, pc
 * SPDX-License-Identifier: MIT
 *
 * Renders what interp.c, syspath.c and probe.c found. JSON follows the
 * schema documented in torchgate-probe(1) (schema_version 1); shell output is
 * safe to eval; make output is a Makefile fragment; pc output is a
 * pkg-config file. Output is a function of the input only: no time, no
 * host name, nothing from the environment beyond what was probed.
 */
#ifndef TG_LIB_RENDER_PROBE_FORMAT_H
#define TG_LIB_RENDER_PROBE_FORMAT_H

#include "lib/util/buf.h"
#include "lib/util/err.h"
#include "lib/pyenv/interp.h"
#include "lib/torch/probe.h"
#include "lib/pyenv/syspath.h"

#define TG_PROBE_SCHEMA_VERSION 1

enum tg_probe_format {
	TG_FMT_TEXT,
	TG_FMT_JSON,
	TG_FMT_SHELL,
	TG_FMT_MAKE,
	TG_FMT_PC,
};

struct tg_probe_view {
	const struct tg_interp *interp; /* NULL with --site-packages */
	const struct tg_syspath *path;
	const struct tg_probe *probe;
	/* why the environment could not be worked out (the JSON report's
	 * "error"; the rest is then empty), or NULL */
	const char *error;
};

int tg_probe_format_parse(const char *name, enum tg_probe_format *out);

/* The whole report. TG_ENOENT for shell/make/pc when there is no torch. */
int tg_probe_format_write(const struct tg_probe_view *pv,
			  enum tg_probe_format fmt, struct tg_buf *out,
			  struct tg_err *err);

/* One field, as a line (lists: one line per item; unknown: an empty
 * line). TG_EINVAL for an unknown field name; TG_ENOENT when the field
 * needs a torch and there is none. */
int tg_probe_format_field(const struct tg_probe_view *pv, const char *name,
			  struct tg_buf *out, struct tg_err *err);

/* One writer per format, in probe_<format>.c: each appends the whole
 * report to out and returns out's first failure. The shell, make and
 * pc writers need a torch (tg_probe_format_write checks first). */
int tg_probe_text_write(const struct tg_probe_view *pv, struct tg_buf *out);
int tg_probe_json_write(const struct tg_probe_view *pv, struct tg_buf *out);
int tg_probe_shell_write(const struct tg_probe_view *pv, struct tg_buf *out);
int tg_probe_make_write(const struct tg_probe_view *pv, struct tg_buf *out);
int tg_probe_pc_write(const struct tg_probe_view *pv, struct tg_buf *out);

/* What the writers share: the torch reported (or NULL), and a field of
 * its version.py (or NULL when not set). */
const struct tg_torch *tg_probe_format_chosen(const struct tg_probe_view *pv);
const char *tg_probe_format_vpy(const struct tg_torch *t,
				enum tg_versionpy_field f);

/* NULL-terminated list of the field names, for --help. */
extern const char *const tg_probe_field_names[];

#endif
