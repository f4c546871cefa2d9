/* fuzz_dpkg.c - libFuzzer harness for the dpkg readers
 * SPDX-License-Identifier: MIT
 *
 * The input is dpkg's status file, in an admin directory of its own
 * (written to files: the reader takes the directory, fuzz_tmp.h). Two
 * look-ups run: python3-torch, whose info/python3-torch.list is fixed
 * and names the file asked about, so the status is searched for its
 * installed stanza; and python3-numpy, whose .list is the input too, so
 * the same windowed line search runs over the input as a .list. Each
 * answers with a version, no version, or an error that says what.
 */
#include <stddef.h>
#include <stdint.h>

#include "fuzz_tmp.h"
#include "lib/pyenv/dpkg.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define TORCH_FILE "/usr/lib/python3/dist-packages/torch/version.py"
#define NUMPY_FILE "/usr/lib/python3/dist-packages/numpy/version.py"

static void
look_up(const char *admin, const char *pkg, const char *file)
{
	struct tg_err err = TG_ERR_INIT;
	char *v = NULL;

	if (tg_dpkg_version_of(admin, pkg, file, &v, &err) != 0) {
		if (!err.msg[0] || v)
			__builtin_trap();
	}
	free(v);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char admin[FUZZ_PATH_MAX];
	static const char list[] = "/.\n/usr\n/usr/lib/python3/dist-packages"
				   "/torch\n" TORCH_FILE "\n";

	if (!admin[0]) {
		fuzz_tmp_mkdir("dpkg");
		fuzz_tmp_mkdir("dpkg/info");
		fuzz_tmp_write("dpkg/info/python3-torch.list",
			       (const uint8_t *)list, sizeof(list) - 1, NULL);
		fuzz_tmp_path(admin, "dpkg");
	}
	fuzz_tmp_write("dpkg/status", data, size, NULL);
	fuzz_tmp_write("dpkg/info/python3-numpy.list", data, size, NULL);
	look_up(admin, "python3-torch", TORCH_FILE);
	look_up(admin, "python3-numpy", NUMPY_FILE);
	return 0;
}
