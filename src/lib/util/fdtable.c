/* fdtable.c - a thread's own table of file descriptors
 * SPDX-License-Identifier: MIT
 *
 * See fdtable.h.
 */
#include "lib/util/fdtable.h"

#include <sched.h>

#if defined(__SANITIZE_THREAD__)
#define TG_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define TG_TSAN 1
#endif
#endif

int
tg_fdtable_own(void)
{
#if defined(CLONE_FILES) && !defined(TG_TSAN)
	return unshare(CLONE_FILES) == 0;
#else
	return 0;
#endif
}
