/* discover.h - the deprecations an installed torch declares about itself
 * SPDX-License-Identifier: MIT
 *
 * Walks a torch package directory for Python files and an include
 * directory for C++ headers and harvests every deprecation they declare:
 * @deprecated(...) decorators, warnings.warn(...) with a deprecation
 * category or message, C10_DEPRECATED_MESSAGE(...), [[deprecated]] and
 * TORCH_WARN_DEPRECATION(...). Nothing is imported or compiled; the
 * files are read as text, their comments and strings told apart from
 * code first, so that an example in a docstring is not a declaration.
 */
#ifndef TG_LIB_DISCOVER_DISCOVER_H
#define TG_LIB_DISCOVER_DISCOVER_H

#include <stddef.h>

#include "lib/table/table.h"
#include "lib/util/diag.h"
#include "lib/util/err.h"

/* Walk limits: directory depth below the starting directory, files
 * looked at (all of them, not only the ones read), size of one file. */
#define TG_DISCOVER_DEPTH_MAX 64
#define TG_DISCOVER_FILES_MAX 200000
#define TG_DISCOVER_FILE_MAX ((size_t)16 * 1024 * 1024)

/* The kinds, as the kind field spells them. */
#define TG_DECL_DECORATOR "@deprecated"
#define TG_DECL_WARN "warnings.warn"
#define TG_DECL_C10 "C10_DEPRECATED_MESSAGE"
#define TG_DECL_TORCH_WARN "TORCH_WARN_DEPRECATION"
#define TG_DECL_ATTRIBUTE "[[deprecated]]"

struct tg_decl {
	/* Python: the dotted name the declaration applies to, the module
	 * from the file's path under the torch directory, then the
	 * enclosing classes and the decorated or enclosing function
	 * (torch.cuda.amp.autocast_mode.custom_fwd); a constructor stands
	 * for its class; a module-level warning for its module. C++: the
	 * declared or enclosing name, qualified by its namespaces and
	 * classes (at::Tensor::type). "(unknown)" when there is none. */
	char *symbol;
	char *file;  /* as walked: torch_dir/... or include_dir/... */
	size_t line; /* 1-based, of the decorator, call or macro */
	/* The string literals of the message, concatenated, whitespace
	 * and control characters made one space, at most 4 KiB; f-string
	 * fields and other operands kept as {...} ("{name} is deprecated").
	 * A warnings.warn message given by a name is the literal assigned
	 * to it in the same file when there is one, else "{name}". NULL:
	 * no message (a bare [[deprecated]], a decorator without a
	 * literal). */
	char *message;
	char *replacement; /* named by the message ("use X instead"), or NULL */
	const char *kind;  /* one of TG_DECL_*, static */
};

struct tg_decls {
	struct tg_decl *v; /* sorted by file, then line */
	size_t n, cap;
	/* What was skipped and why: warnings, in the order met, with the
	 * path (and the line, when a file stopped at one) and one of the
	 * TG_DISCOVER_RULE_* ids; the message says it all on its own. */
	struct tg_diag_list notes;
};

#define TG_DECLS_INIT                                                          \
	{                                                                      \
		NULL, 0, 0, TG_DIAG_LIST_INIT                                  \
	}

/* The rule ids of the notes, stable. "discover-walk": a directory or
 * link the walk did not go into (a symlink out of the tree, a loop, past
 * TG_DISCOVER_DEPTH_MAX, unreadable); path is the entry. "discover-file":
 * a file not read (larger than TG_DISCOVER_FILE_MAX, unreadable); path
 * is the file. "discover-limit": a file read only in part, its sites past
 * a per-file limit (declarations, bytes re-read) or a regex past its
 * match limits; path is the file, line the line it stopped at (0 when
 * not known). */
#define TG_DISCOVER_RULE_WALK "discover-walk"
#define TG_DISCOVER_RULE_FILE "discover-file"
#define TG_DISCOVER_RULE_LIMIT "discover-limit"

/* Harvest the declarations under torch_dir (*.py, skipping __pycache__
 * and the include directory) and include_dir (*.h, *.hpp, *.cuh; NULL
 * for none), following symlinks that stay inside the directory walked
 * (and the links directly in include_dir wherever they lead, as
 * Debian's torch/include/ATen -> /usr/include/ATen, but never to an
 * ancestor of it such as '/'), never into a directory already on the
 * way down nor twice into one directory; see util/walk.h. Appends to out, which must
 * start empty (TG_DECLS_INIT). Errors: TG_EIO when torch_dir or
 * include_dir cannot be read at all, TG_ELIMIT past
 * TG_DISCOVER_FILES_MAX files, TG_ENOMEM; a file or directory below
 * them that cannot be read is a note instead. */
int tg_discover(struct tg_decls *out, const char *torch_dir,
		const char *include_dir, struct tg_err *err);

/* Harvest one file's text of language lang (TG_LANG_PYTHON or
 * TG_LANG_CXX). module is the dotted module name for Python symbols
 * ("torch.nn.functional"); file is copied into each declaration.
 * Appends to out unsorted. */
int tg_discover_text(struct tg_decls *out, const char *text, size_t len,
		     enum tg_lang_id lang, const char *module, const char *file,
		     struct tg_err *err);

/* The replacement a deprecation message names ("Please use `X`
 * instead", "replaced by X", "in favor of X", ...), a new string, or
 * NULL when it names none. *out NULL and 0 returned in that case. */
int tg_discover_replacement(const char *message, char **out,
			    struct tg_err *err);

void tg_discover_release(struct tg_decls *d);

#endif
