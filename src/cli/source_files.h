/* source_files.h - which files audit and require read, which directories
 * they never enter
 * SPDX-License-Identifier: MIT
 */
#ifndef TG_CLI_SOURCE_FILES_H
#define TG_CLI_SOURCE_FILES_H

#include "lib/util/walk.h"

enum cli_lang { CLI_LANG_NONE, CLI_LANG_PY, CLI_LANG_CXX };

/* By the name's suffix: .py .pyi Python; .c .cc .cpp .cxx .h .hpp .cu
 * .cuh C/C++/CUDA. */
enum cli_lang cli_source_lang(const char *name);

/* The directories never entered: version control, virtual environments
 * (a pyvenv.cfg), build output, caches. */
int cli_source_skip_dir(const struct tg_walk_entry *e);

#endif
