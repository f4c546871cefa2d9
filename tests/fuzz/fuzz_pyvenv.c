/* fuzz_pyvenv.c - libFuzzer harness for the pyvenv.cfg reader
 * SPDX-License-Identifier: MIT
 *
 * The input is a venv's pyvenv.cfg (written to a file: the reader takes
 * the interpreter's path, fuzz_tmp.h). The interpreter is found as
 * `probe --python VENV/bin/python3` would: its home, version and
 * include-system-site-packages are read, and the base interpreter is
 * looked for where home says. It must answer or fail with a message,
 * never crash, leak or read out of bounds.
 */
#include <stddef.h>
#include <stdint.h>

#include "fuzz_tmp.h"
#include "lib/pyenv/interp.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char exe[FUZZ_PATH_MAX], dir[FUZZ_PATH_MAX];
	struct tg_interp in = TG_INTERP_INIT;
	struct tg_interp_env env = {0};
	struct tg_err err = TG_ERR_INIT;
	int rc;

	if (!exe[0]) {
		fuzz_tmp_mkdir("venv");
		fuzz_tmp_mkdir("venv/bin");
		fuzz_tmp_write("venv/bin/python3", (const uint8_t *)"", 0, exe);
		if (chmod(exe, 0755) != 0)
			abort();
		fuzz_tmp_path(dir, "");
	}
	fuzz_tmp_write("venv/pyvenv.cfg", data, size, NULL);
	env.cwd = dir;
	env.home = dir;
	rc = tg_interp_find(&in, exe, &env, &err);
	if (rc && !err.msg[0])
		__builtin_trap(); /* an error must say what */
	tg_interp_release(&in);
	return 0;
}
