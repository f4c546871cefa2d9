/* fdtable.h - a thread's own table of file descriptors
 * SPDX-License-Identifier: MIT
 *
 * The threads of a process share one table of file descriptors, and
 * every open() and close() takes its lock: 16 threads that each open,
 * read and close files of their own spin there. In the JSON audit of
 * torch 2.11's package four times over (GPU machine, 16 CPUs) that lock
 * took 6% of the samples, and the audit's CPU time fell from 2,136 to
 * 1,742 ms once each worker had a table of its own (perf stat).
 *
 * A thread whose files are its own (opened, read and closed by it, no
 * descriptor handed to another thread or taken from one) may take a
 * copy of the table (unshare(2), CLONE_FILES). It then holds the
 * descriptors open at that moment until it ends, and what it opens is
 * not in the other threads' table. Where unshare is refused (a seccomp
 * filter, no memory) the thread goes on with the shared table, as
 * before. Not done under ThreadSanitizer, which keys its model of
 * descriptors by number in the process: two threads' files of one
 * number would be one descriptor raced on. Linux only.
 */
#ifndef TG_LIB_UTIL_FDTABLE_H
#define TG_LIB_UTIL_FDTABLE_H

/* Give the calling thread a table of its own (see above): at the start
 * of a thread that opens and closes only its own files. 1 when it has
 * one now, 0 when it goes on with the shared table (refused, or not
 * done here); callers need not look. */
int tg_fdtable_own(void);

#endif
