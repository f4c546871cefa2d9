/* flags_format.h - an extension's flags written out
 * SPDX-License-Identifier: MIT
 *
 * Renders a struct tg_flags: words on one line (each quoted for the
 * shell when it needs it, as pkg-config prints them), args (one argument
 * a line, unquoted, for a setup.py), shell (eval-safe TORCH_*= lines),
 * make (a Makefile fragment) or JSON (every flag with where it comes
 * from, and the keyword arguments of setuptools.Extension).
 */
#ifndef TG_LIB_RENDER_FLAGS_FORMAT_H
#define TG_LIB_RENDER_FLAGS_FORMAT_H

#include "lib/util/buf.h"
#include "lib/util/err.h"
#include "lib/torch/flags.h"
#include "lib/torch/probe.h"

enum tg_flags_format {
	TG_FFMT_WORDS,
	TG_FFMT_ARGS,
	TG_FFMT_SHELL,
	TG_FFMT_MAKE,
	TG_FFMT_JSON,
};

#define TG_FLAGS_SCHEMA_VERSION 1

int tg_flags_format_parse(const char *name, enum tg_flags_format *out);

/* The flags of the uses in `use` (enum tg_flag_use; words and args only,
 * the other formats write every use) into out. name and cuda are what
 * was asked, for JSON. TG_EINVAL for a path make cannot hold. */
int tg_flags_format_write(const struct tg_flags *f, const struct tg_torch *t,
			  const char *name, int cuda, unsigned use,
			  enum tg_flags_format fmt, struct tg_buf *out,
			  struct tg_err *err);

/* The JSON format (flags_json.c), every use; out's first failure. */
int tg_flags_json_write(const struct tg_flags *f, const struct tg_torch *t,
			const char *name, int cuda, struct tg_buf *out);

#endif
