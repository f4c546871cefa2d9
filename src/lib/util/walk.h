/* walk.h - a bounded, deterministic directory walk that stays in its root
 * SPDX-License-Identifier: MIT
 *
 * tg_walk visits the tree under one root in sorted name order (strcmp,
 * so the same tree gives the same order on every file system), calling
 * the caller back for each regular file it wants. It follows symlinks
 * only where they stay inside the root, never enters a directory twice
 * and never one already on the current path (a loop), and stops at
 * caller-set limits: depth, entries looked at, bytes of the files
 * handed out.
 *
 * The root policy. A symlink, to a directory or to a file, is followed
 * only when its target's real path lies inside the root's real path
 * (the root itself may be a symlink: that was the caller's choice).
 * File links get the same care as directory links: a link out of the
 * tree would let the walk read what the tree does not hold (anything
 * the user can read, a device, a FIFO), and a report would name it as
 * if it were the tree's. TG_WALK_ROOT_LINKS relaxes this for links
 * directly in the root, for trees that are made of links (Debian's
 * torch/include holds ATen -> /usr/include/ATen and its siblings): such
 * a link may lead out of the root unless its target holds the root (a
 * link to '/' or to an ancestor is never followed), and the target is
 * then the boundary for everything below it.
 *
 * Nothing is skipped silently: whatever is left out (a link out of the
 * tree, a loop, a directory seen before, a dangling link, an unreadable
 * directory, something neither file nor directory, a limit) goes to the
 * skipped callback with a reason and a message; the callback decides
 * whether the walk goes on (0) or stops (a negative TG_E* code, which
 * tg_walk returns). Without a skipped callback every skip is an error,
 * but TG_WALK_SEEN: that directory's files were handed out already.
 * Directories and files the caller does not want (the want callback) are
 * the caller's own choice and are not reported.
 *
 * Memory: one name list per directory on the current path and a hash
 * set of visited directories, both bounded by max_entries.
 */
#ifndef TG_LIB_UTIL_WALK_H
#define TG_LIB_UTIL_WALK_H

#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>

#include "lib/util/err.h"

/* Defaults, used for a limit left 0. */
#define TG_WALK_DEPTH_DEFAULT 64       /* directories below the root */
#define TG_WALK_ENTRIES_DEFAULT 200000 /* directory entries looked at */
#define TG_WALK_BYTES_DEFAULT ((uint64_t)4 << 30) /* of the files handed out */

/* Flags. */
#define TG_WALK_ROOT_LINKS 1 /* links directly in the root may leave it */
/* A regular file as readdir tells it (not a link) is handed out without
 * a stat: asked want_name only (want when there is none), then file,
 * with st NULL; the caller, which opens it anyway, checks what it is.
 * max_bytes is then not counted at all: the caller bounds the bytes. */
#define TG_WALK_LAZY_FILES 2

/* Why an entry was skipped. */
enum tg_walk_why {
	TG_WALK_OUTSIDE = 1, /* a symlink whose target is outside the root */
	TG_WALK_LOOP,	     /* a directory already on the current path */
	TG_WALK_SEEN,	     /* a directory walked before, by another path */
	TG_WALK_DANGLING,    /* a symlink to nothing */
	TG_WALK_UNREADABLE,  /* cannot stat or open it (msg says why) */
	TG_WALK_OTHER,	     /* neither a regular file nor a directory */
	TG_WALK_DEPTH,	     /* a directory below max_depth */
	TG_WALK_ENTRIES,     /* past max_entries: the walk stops */
	TG_WALK_BYTES,	     /* past max_bytes: the walk stops */
};

struct tg_walk_entry {
	const char *path;      /* the root as given, then the names: root/a/b */
	const char *rel;       /* relative to the root: a/b */
	const char *name;      /* the last component */
	const struct stat *st; /* of the target (symlinks followed); NULL
				  when it could not be read, or a file
				  TG_WALK_LAZY_FILES hands out unread */
	size_t depth;	       /* 1 for an entry directly in the root */
	int is_link;	       /* the entry itself is a symlink */
};

struct tg_walk_opts {
	size_t max_depth;   /* 0: TG_WALK_DEPTH_DEFAULT */
	size_t max_entries; /* 0: TG_WALK_ENTRIES_DEFAULT */
	uint64_t max_bytes; /* 0: TG_WALK_BYTES_DEFAULT */
	int flags;	    /* TG_WALK_* */
	/* Whether to enter a directory or hand out a regular file (e->st
	 * says which); NULL: everything. Asked before any loop or limit
	 * check, so an unwanted entry costs nothing but its stat. */
	int (*want)(void *ctx, const struct tg_walk_entry *e);
	/* Optional: asked first, with st NULL, for an entry readdir says is
	 * a regular file (not a link): 0 leaves it out without a stat (a
	 * walk that wants a few kinds of files by name saves the stat of
	 * all the others). */
	int (*want_name)(void *ctx, const struct tg_walk_entry *e);
	/* A wanted regular file: 0 to go on, a negative TG_E* to stop. */
	int (*file)(void *ctx, const struct tg_walk_entry *e);
	/* What was left out and why (msg: "a symlink loop", "deeper than
	 * 64 directories", strerror, ...): 0 to go on, negative to stop.
	 * NULL: every skip stops the walk with TG_ELIMIT (the limits) or
	 * TG_EIO (the rest). The ENTRIES and BYTES limits stop the walk
	 * whatever the callback returns. */
	int (*skipped)(void *ctx, const struct tg_walk_entry *e,
		       enum tg_walk_why why, const char *msg);
	void *ctx;
};

/* Walk root. Errors: TG_EIO when root cannot be read or is not a
 * directory ("cannot read 'root': ..."), TG_ELIMIT past max_entries
 * ("more than N files under 'dir'") or max_bytes ("more than N bytes of
 * files under 'root'"), TG_ENOMEM, or what a callback returned, with
 * err set by the walker for its own errors (a callback sets its own). */
int tg_walk(const char *root, const struct tg_walk_opts *opts,
	    struct tg_err *err);

#endif
