/* test_flags.c - the extension flags: CUDA arch lists and the checks
 * SPDX-License-Identifier: MIT
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "lib/torch/flags.h"

/* An arch list and its flags, joined by blanks ("" for an error). */
static const struct {
	const char *list, *want, *err;
} arch_cases[] = {
    {"9.0", "-gencode=arch=compute_90,code=sm_90", NULL},
    {"8.0;9.0+PTX",
     "-gencode=arch=compute_80,code=sm_80 "
     "-gencode=arch=compute_90,code=compute_90 "
     "-gencode=arch=compute_90,code=sm_90",
     NULL},
    {"7.5 8.6",
     "-gencode=arch=compute_75,code=sm_75 "
     "-gencode=arch=compute_86,code=sm_86",
     NULL},
    /* sorted as strings, as Python's sorted(set(...)) */
    {"10.0;9.0",
     "-gencode=arch=compute_100,code=sm_100 "
     "-gencode=arch=compute_90,code=sm_90",
     NULL},
    {"9.0;9.0;9.0+PTX",
     "-gencode=arch=compute_90,code=compute_90 "
     "-gencode=arch=compute_90,code=sm_90",
     NULL},
    {"Hopper",
     "-gencode=arch=compute_90,code=compute_90 "
     "-gencode=arch=compute_90,code=sm_90",
     NULL},
    {"Ampere+Tegra", "-gencode=arch=compute_87,code=sm_87", NULL},
    {"9.0a", "-gencode=arch=compute_90a,code=sm_90a", NULL},
    {"4.2", NULL, "unknown CUDA architecture '4.2'"},
    {"9.0;", NULL, "unknown CUDA architecture ''"},
    {"9.0+ptx", NULL, "unknown CUDA architecture '9.0+ptx'"},
    {"Hopper+PTX", NULL, "unknown CUDA architecture 'Hopper+PTX'"},
    {"", NULL, "no CUDA architectures: give --arch or set"},
    {"native", NULL, "no CUDA architectures: give --arch or set"},
};

static void
test_arch(void)
{
	char *out[TG_FLAGS_MAX_ARCHES], joined[1024];
	size_t k;
	int n, i;

	for (k = 0; k < sizeof(arch_cases) / sizeof(arch_cases[0]); k++) {
		struct tg_err err = TG_ERR_INIT;

		n = tg_flags_cuda_arch(arch_cases[k].list, out,
				       TG_FLAGS_MAX_ARCHES, &err);
		if (arch_cases[k].err) {
			CHECK(n == TG_EINVAL, "'%s': got %d, want TG_EINVAL",
			      arch_cases[k].list, n);
			CHECK(strncmp(err.msg, arch_cases[k].err,
				      strlen(arch_cases[k].err)) == 0,
			      "'%s': message '%s', want '%s'",
			      arch_cases[k].list, err.msg, arch_cases[k].err);
			continue;
		}
		joined[0] = '\0';
		for (i = 0; i < n; i++) {
			if (i)
				strcat(joined, " ");
			strcat(joined, out[i]);
			free(out[i]);
		}
		CHECK_STR(joined, arch_cases[k].want, arch_cases[k].list);
	}
	/* more than the limit */
	{
		struct tg_err err = TG_ERR_INIT;

		n = tg_flags_cuda_arch("9.0+PTX;8.0+PTX", out, 3, &err);
		CHECK(n == TG_ELIMIT, "limit: got %d", n);
		CHECK_STR(err.msg, "more than 3 CUDA architecture flags",
			  "limit");
	}
	/* an architecture named again adds no flag: within the limit */
	{
		struct tg_err err = TG_ERR_INIT;

		n = tg_flags_cuda_arch("9.0+PTX;9.0+PTX;9.0;9.0+PTX", out, 2,
				       &err);
		CHECK(n == 2, "repeated: got %d (%s)", n, err.msg);
		for (k = 0; n > 0 && k < (size_t)n; k++)
			free(out[k]);
	}
}

static void
touch(const char *dir, const char *rel)
{
	char p[4096];
	FILE *f;

	snprintf(p, sizeof(p), "%s/%s", dir, rel);
	f = fopen(p, "w");
	if (f)
		fclose(f);
}

static void
mkdirs(const char *dir, const char *rel)
{
	char p[4096], *s;

	snprintf(p, sizeof(p), "%s/%s", dir, rel);
	for (s = p + strlen(dir) + 1; *s; s++)
		if (*s == '/') {
			*s = '\0';
			mkdir(p, 0755);
			*s = '/';
		}
	mkdir(p, 0755);
}

/* The checks in their order, each with its message, on a file tree. */
static void
test_compute(void)
{
	char root[] = "/tmp/test_flags.XXXXXX", inc[4200], lib[4200], dir[4200];
	struct tg_torch t;
	struct tg_interp in;
	struct tg_flags_opts o;
	struct tg_flags f = TG_FLAGS_INIT;
	struct tg_err err = TG_ERR_INIT;
	int r;

	if (!mkdtemp(root)) {
		CHECK(0, "mkdtemp failed");
		return;
	}
	snprintf(dir, sizeof(dir), "%s/torch", root);
	snprintf(inc, sizeof(inc), "%s/torch/include", root);
	snprintf(lib, sizeof(lib), "%s/torch/lib", root);
	mkdirs(root, "torch/include/pybind11");
	mkdirs(root, "torch/lib");
	mkdirs(root, "include/python3.12");
	memset(&t, 0, sizeof(t));
	memset(&in, 0, sizeof(in));
	memset(&o, 0, sizeof(o));
	t.dir = dir;
	t.cxx11_abi = -1;
	in.prefix = root;
	in.base_prefix = root;
	in.major = 3;
	in.minor = 12;

	r = tg_flags_compute(&f, &t, &in, &o, &err);
	CHECK(r == TG_ENOENT, "no headers: %d", r);
	CHECK(strstr(err.msg, "has no C++ headers") != NULL, "%s", err.msg);
	tg_flags_release(&f);
	t.include_dir = inc;
	r = tg_flags_compute(&f, &t, &in, &o, &err);
	CHECK(r == TG_ENOENT && strstr(err.msg, "has no libraries"), "%s",
	      err.msg);
	tg_flags_release(&f);
	t.library_dir = lib;
	o.name = "a.b";
	r = tg_flags_compute(&f, &t, &in, &o, &err);
	CHECK(r == TG_EINVAL && strstr(err.msg, "'a.b' is not a C identifier"),
	      "%s", err.msg);
	tg_flags_release(&f);
	o.name = "_ok1";
	r = tg_flags_compute(&f, &t, &in, &o, &err);
	CHECK(r == TG_ENOENT && strstr(err.msg, "python3.12-dev"), "%s",
	      err.msg);
	tg_flags_release(&f);
	touch(root, "include/python3.12/Python.h");
	r = tg_flags_compute(&f, &t, &in, &o, &err);
	CHECK(r == TG_ENOENT && strstr(err.msg, "pybind11-dev"), "%s", err.msg);
	tg_flags_release(&f);
	touch(root, "torch/include/pybind11/pybind11.h");
	r = tg_flags_compute(&f, &t, &in, &o, &err);
	CHECK(r == 0, "complete: %d %s", r, err.msg);
	CHECK(f.n == 12, "complete: %zu flags", f.n);
	CHECK(f.cxx_standard == 17, "c++%d", f.cxx_standard);
	if (f.n == 12) {
		CHECK_STR(f.v[2].arg, "-DTORCH_API_INCLUDE_EXTENSION_H", "2");
		CHECK_STR(f.v[3].arg, "-DTORCH_EXTENSION_NAME=_ok1", "3");
		CHECK_STR(f.v[4].arg, "-std=c++17", "4");
		CHECK_STR(f.v[11].arg, "-ltorch_python", "11");
		CHECK(f.v[0].use == (TG_USE_CFLAGS | TG_USE_NVCC), "use");
	}
	tg_flags_release(&f);
	o.cuda = 1;
	o.arch = "9.0";
	r = tg_flags_compute(&f, &t, &in, &o, &err);
	CHECK(r == TG_ENOENT && strstr(err.msg, "not built with CUDA"), "%s",
	      err.msg);
	tg_flags_release(&f);
	t.vp.f[TG_VPY_CUDA].set = 1;
	t.vp.f[TG_VPY_CUDA].s = (char *)"13.0";
	o.arch = "1.0";
	r = tg_flags_compute(&f, &t, &in, &o, &err);
	CHECK(r == TG_EINVAL && strstr(err.msg, "'1.0'"), "%s", err.msg);
	tg_flags_release(&f);
	o.arch = "9.0";
	o.cuda_home = root;
	r = tg_flags_compute(&f, &t, &in, &o, &err);
	CHECK(r == TG_ENOENT && strstr(err.msg, "no CUDA toolkit at"), "%s",
	      err.msg);
	tg_flags_release(&f);
	touch(root, "include/cuda_runtime.h");
	r = tg_flags_compute(&f, &t, &in, &o, &err);
	CHECK(r == 0, "cuda: %d %s", r, err.msg);
	CHECK(f.cuda_home && strcmp(f.cuda_home, root) == 0, "cuda_home");
	tg_flags_release(&f);
	snprintf(dir, sizeof(dir), "rm -rf '%s'", root);
	CHECK(system(dir) == 0, "cannot remove %s", root);
}

int
main(void)
{
	test_arch();
	test_compute();
	return check_result("test_flags");
}
