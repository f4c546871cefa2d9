/* wide.h - where sixteen bytes can be compared at once
 * SPDX-License-Identifier: MIT
 *
 * TG_WIDE is defined where SSE2 is there (every x86-64) and the
 * compiler takes GCC's intrinsics (GCC, Clang): the lexers and the
 * audit's prefilters then pass the runs of bytes with nothing to do
 * sixteen at a time. Elsewhere each falls back to its byte loop, which
 * gives the same answers. One place decides, so the wide paths are all
 * on or all off.
 */
#ifndef TG_LIB_UTIL_WIDE_H
#define TG_LIB_UTIL_WIDE_H

#if defined(__SSE2__) && defined(__GNUC__)
#include <emmintrin.h>
#define TG_WIDE 1
#endif

#endif
