/* flags.c - the compile and link flags of a torch C++/CUDA extension
 * SPDX-License-Identifier: MIT
 *
 * Rebuilds, from the probe's facts, what torch.utils.cpp_extension hands
 * the compiler: include_paths() (torch/include, its csrc/api/include,
 * TH and THC for torch 1.x where they exist, CUDA_HOME/include), the target
 * Python's headers (setuptools' build_ext adds them), BuildExtension's
 * -DTORCH_API_INCLUDE_EXTENSION_H, -DTORCH_EXTENSION_NAME and the C++11
 * ABI define, the C++ standard torch's CMake config says (cpp_extension
 * hard-codes c++17, c++14 before torch 2.1), library_paths() and
 * CppExtension's libraries, and for CUDA COMMON_NVCC_FLAGS and the
 * -gencode list of _get_cuda_arch_flags. Dependencies the headers need
 * are looked for before any compiler runs: a missing one is an error
 * naming its package. Every string is owned by the struct tg_flags; the
 * list is short (a few dozen flags), so it is a plain growable array.
 */
#include "lib/torch/flags.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/util/buf.h"
#include "lib/util/path.h"
#include "lib/util/str.h"
#include "lib/util/grow.h"

#define NAME_MAX_BYTES 200 /* of --name: a module's name */

static int
add(struct tg_flags *f, enum tg_flag_kind kind, unsigned use, const char *value,
    const char *from)
{
	static const char *const prefix[] = {"-I",	    "-D", "", "-L",
					     "-Wl,-rpath,", "-l", ""};
	struct tg_flag *fl;
	struct tg_buf arg = TG_BUF_INIT;

	if (TG_GROW(f->v, f->n + 1, f->cap))
		return TG_ENOMEM;
	fl = &f->v[f->n];
	memset(fl, 0, sizeof(*fl));
	fl->kind = kind;
	fl->use = use;
	tg_buf_adds(&arg, prefix[kind]);
	tg_buf_adds(&arg, value);
	fl->value = strdup(value);
	fl->from = strdup(from);
	fl->arg = tg_buf_error(&arg) ? NULL : tg_buf_detach(&arg);
	tg_buf_release(&arg);
	f->n++;
	if (!fl->value || !fl->from || !fl->arg)
		return TG_ENOMEM;
	return 0;
}

void
tg_flags_release(struct tg_flags *f)
{
	size_t k;

	for (k = 0; k < f->n; k++) {
		free(f->v[k].value);
		free(f->v[k].arg);
		free(f->v[k].from);
	}
	free(f->v);
	free(f->python_include);
	free(f->cuda_home);
	memset(f, 0, sizeof(*f));
}

/* dir/rel exists as a file (1), not (0), or allocation failed (-1). */
static int
has_file(const char *dir, const char *rel)
{
	char *p = tg_path_join(dir, rel);
	int r;

	if (!p)
		return -1;
	r = tg_path_is_file(p);
	free(p);
	return r;
}

static int
has_dir(const char *dir, const char *rel)
{
	char *p = tg_path_join(dir, rel);
	int r;

	if (!p)
		return -1;
	r = tg_path_is_dir(p);
	free(p);
	return r;
}

/* The ABI flags of an extension suffix ".cpython-313t-x86_64-linux-gnu.so"
 * ("t"; "" for ".cpython-311-..."), into abi; 0 when s is not one. */
static int
suffix_abi(const char *s, char *abi, size_t cap)
{
	size_t k = 0;

	if (!s || strncmp(s, ".cpython-", 9) != 0)
		return 0;
	for (s += 9; *s >= '0' && *s <= '9'; s++)
		;
	while (*s >= 'a' && *s <= 'z' && k + 1 < cap)
		abi[k++] = *s++;
	abi[k] = '\0';
	return *s == '-' || *s == '.';
}

/* The target Python's include directory (sysconfig's "include"): the base
 * installation's include/pythonX.Y plus the ABI flags of its extension
 * suffix (X.Yt for a free-threaded build, X.Yd for a debug one), holding
 * Python.h; where the suffix is not known, the first of X.Y, X.Yt, X.Yd,
 * X.Ym that holds it. */
static int
python_include(struct tg_flags *f, const struct tg_interp *in,
	       struct tg_err *err)
{
	static const char *const abis[] = {"", "t", "d", "m"};
	char rel[64], want[80], abi[8];
	const char *base, *only = NULL;
	size_t k;
	int r;

	if (!in)
		return tg_err_set(err, TG_ENOENT,
				  "cannot tell where the Python headers are: "
				  "no interpreter");
	base = in->base_prefix ? in->base_prefix : in->prefix;
	if (suffix_abi(in->ext_suffix, abi, sizeof(abi)))
		only = abi;
	if (!base || !in->major)
		return tg_err_set(err, TG_ENOENT,
				  "cannot tell where the Python headers of "
				  "'%s' are",
				  in->executable ? in->executable : "python");
	for (k = 0; k < sizeof(abis) / sizeof(abis[0]); k++) {
		if (only && k > 0)
			break;
		snprintf(rel, sizeof(rel), "include/python%d.%d%s", in->major,
			 in->minor, only ? only : abis[k]);
		snprintf(want, sizeof(want), "%s/Python.h", rel);
		r = has_file(base, want);
		if (r < 0)
			return tg_err_set(err, TG_ENOMEM, "out of memory");
		if (r) {
			f->python_include = tg_path_join(base, rel);
			if (!f->python_include)
				return tg_err_set(err, TG_ENOMEM,
						  "out of memory");
			return 0;
		}
	}
	return tg_err_set(
	    err, TG_ENOENT,
	    "the Python headers are missing: no '%s/include/"
	    "python%d.%d%s/Python.h' (install python%d.%d-dev, or "
	    "python3-dev on Debian and Ubuntu)",
	    base, in->major, in->minor, only ? only : "", in->major, in->minor);
}

/* pybind11, which torch/extension.h includes: the wheel ships it in
 * torch/include, Debian's torch takes the system's (pybind11-dev). */
static int
check_pybind11(const struct tg_torch *t, const struct tg_flags *f,
	       struct tg_err *err)
{
	const char *dirs[3];
	size_t k, n = 0;
	int r;

	dirs[n++] = t->include_dir;
	if (t->include_real)
		dirs[n++] = t->include_real;
	dirs[n++] = f->python_include;
	for (k = 0; k < n; k++) {
		r = has_file(dirs[k], "pybind11/pybind11.h");
		if (r < 0)
			return tg_err_set(err, TG_ENOMEM, "out of memory");
		if (r)
			return 0;
	}
	return tg_err_set(err, TG_ENOENT,
			  "the pybind11 headers that torch/extension.h "
			  "includes are missing: no '%s/pybind11/pybind11.h' "
			  "(install pybind11-dev on Debian and Ubuntu, or "
			  "pybind11 into the Python that builds)",
			  t->include_real ? t->include_real : t->include_dir);
}

/* ---- CUDA architectures ---- */

static const struct {
	const char *name, *arches;
} named_arches[] = {
    {"Kepler+Tesla", "3.7"},	 {"Kepler", "3.5+PTX"},
    {"Maxwell+Tegra", "5.3"},	 {"Maxwell", "5.0;5.2+PTX"},
    {"Pascal", "6.0;6.1+PTX"},	 {"Volta+Tegra", "7.2"},
    {"Volta", "7.0+PTX"},	 {"Turing", "7.5+PTX"},
    {"Ampere+Tegra", "8.7"},	 {"Ampere", "8.0;8.6+PTX"},
    {"Ada", "8.9+PTX"},		 {"Hopper", "9.0+PTX"},
    {"Blackwell+Tegra", "11.0"}, {"Blackwell", "10.0;10.3;12.0;12.1+PTX"},
};

static const char *const supported_arches[] = {
    "3.5",  "3.7",   "5.0",  "5.2",   "5.3",   "6.0",	"6.1",
    "6.2",  "7.0",   "7.2",  "7.5",   "8.0",   "8.6",	"8.7",
    "8.9",  "9.0",   "9.0a", "10.0",  "10.0a", "11.0",	"11.0a",
    "10.3", "10.3a", "12.0", "12.0a", "12.1",  "12.1a", NULL,
};

static int
cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Append flag to out[0..*n) unless it is there: a list that names an
 * architecture twice counts it once against max. */
static int
add_gencode(char **out, size_t *n, size_t max, const char *flag,
	    struct tg_err *err)
{
	size_t k;

	for (k = 0; k < *n; k++)
		if (strcmp(out[k], flag) == 0)
			return 0;
	if (*n + 1 > max)
		return tg_err_set(err, TG_ELIMIT,
				  "more than %zu CUDA architecture flags", max);
	if (!(out[*n] = strdup(flag)))
		return tg_err_set(err, TG_ENOMEM, "out of memory");
	(*n)++;
	return 0;
}

/* Append to out the flags of one arch ("8.0", "9.0+PTX"). */
static int
one_arch(const char *a, size_t len, char **out, size_t *n, size_t max,
	 struct tg_err *err)
{
	char arch[32], num[32], flag[128];
	size_t k, j = 0;
	int ptx = 0, r;

	if (len >= 4 && strncmp(a + len - 4, "+PTX", 4) == 0) {
		ptx = 1;
		len -= 4;
	}
	if (len == 0 || len >= sizeof(arch))
		goto bad;
	memcpy(arch, a, len);
	arch[len] = '\0';
	for (k = 0; supported_arches[k]; k++)
		if (strcmp(arch, supported_arches[k]) == 0)
			break;
	if (!supported_arches[k])
		goto bad;
	for (k = 0; arch[k]; k++)
		if (arch[k] != '.')
			num[j++] = arch[k];
	num[j] = '\0';
	snprintf(flag, sizeof(flag), "-gencode=arch=compute_%s,code=sm_%s", num,
		 num);
	if ((r = add_gencode(out, n, max, flag, err)))
		return r;
	if (ptx) {
		snprintf(flag, sizeof(flag),
			 "-gencode=arch=compute_%s,code=compute_%s", num, num);
		if ((r = add_gencode(out, n, max, flag, err)))
			return r;
	}
	return 0;
bad:
	return tg_err_set(err, TG_EINVAL, "unknown CUDA architecture '%.*s'",
			  (int)(len + (ptx ? 4 : 0)), a);
}

/* Split list at ';' and ' ' into out, named arches expanded. */
static int
arch_list(const char *list, char **out, size_t *n, size_t max, int depth,
	  struct tg_err *err)
{
	const char *p = list, *e;
	size_t len, k;
	int r;

	for (;;) {
		e = p + strcspn(p, "; ");
		len = (size_t)(e - p);
		for (k = 0; depth == 0 &&
			    k < sizeof(named_arches) / sizeof(named_arches[0]);
		     k++)
			if (strlen(named_arches[k].name) == len &&
			    strncmp(p, named_arches[k].name, len) == 0)
				break;
		if (depth == 0 &&
		    k < sizeof(named_arches) / sizeof(named_arches[0]))
			r = arch_list(named_arches[k].arches, out, n, max, 1,
				      err);
		else
			r = one_arch(p, len, out, n, max, err);
		if (r)
			return r;
		if (!*e)
			return 0;
		p = e + 1;
	}
}

int
tg_flags_cuda_arch(const char *list, char **out, size_t max, struct tg_err *err)
{
	size_t n = 0, k, j;
	int r;

	if (!list || !*list || strcmp(list, "native") == 0)
		return tg_err_set(err, TG_EINVAL,
				  "no CUDA architectures: give --arch or set "
				  "TORCH_CUDA_ARCH_LIST (cpp_extension asks "
				  "the visible GPUs; torchgate runs nothing)");
	r = arch_list(list, out, &n, max, 0, err);
	if (r) {
		for (k = 0; k < n; k++)
			free(out[k]);
		return r;
	}
	qsort(out, n, sizeof(*out), cmp_str);
	for (k = 0, j = 0; k < n; k++) {
		if (j && strcmp(out[j - 1], out[k]) == 0) {
			free(out[k]);
			continue;
		}
		out[j++] = out[k];
	}
	return (int)j;
}

/* ---- the whole list ---- */

/* s is a C identifier: [A-Za-z_][A-Za-z0-9_]* */
static int
c_identifier(const char *s)
{
	const char *p;

	for (p = s; *p; p++)
		if (!(*p == '_' || (*p >= 'a' && *p <= 'z') ||
		      (*p >= 'A' && *p <= 'Z') ||
		      (p != s && *p >= '0' && *p <= '9')))
			return 0;
	return p != s;
}

/* The torch is 1.x (its version's first release number is 1), or its
 * version is unknown and so it may be. */
static int
torch_1x(const struct tg_torch *t)
{
	const struct tg_version *v;

	if (!t->version)
		return 1;
	v = &t->src[t->version_from].v;
	return v->nrelease && v->release[0].n == 1 && v->release[0].p[0] <= '1';
}

/* a then b, malloc'd; NULL when out of memory */
static char *
from2(const char *a, const char *b)
{
	size_t na = strlen(a), nb = strlen(b);
	char *s = malloc(na + nb + 1);

	if (s) {
		memcpy(s, a, na);
		memcpy(s + na, b, nb + 1);
	}
	return s;
}

static int
find_cuda_home(struct tg_flags *f, const struct tg_flags_opts *o,
	       struct tg_err *err)
{
	char *dir = NULL;
	const char *p, *e;
	int r;

	if (o->cuda_home && *o->cuda_home) {
		dir = strdup(o->cuda_home);
	} else {
		for (p = o->path; p && *p && !dir; p = *e ? e + 1 : e) {
			char *bin;

			e = p + strcspn(p, ":");
			if (e == p)
				continue;
			bin = tg_str_ndup(p, (size_t)(e - p));
			if (!bin)
				return tg_err_set(err, TG_ENOMEM,
						  "out of memory");
			r = has_file(bin, "nvcc");
			if (r > 0)
				dir = tg_path_dirname(bin);
			free(bin);
			if (r < 0 || (r > 0 && !dir))
				return tg_err_set(err, TG_ENOMEM,
						  "out of memory");
		}
		if (!dir)
			dir = strdup("/usr/local/cuda");
	}
	if (!dir)
		return tg_err_set(err, TG_ENOMEM, "out of memory");
	f->cuda_home = dir;
	r = has_file(dir, "include/cuda_runtime.h");
	if (r < 0)
		return tg_err_set(err, TG_ENOMEM, "out of memory");
	if (!r)
		return tg_err_set(err, TG_ENOENT,
				  "no CUDA toolkit at '%s': no "
				  "include/cuda_runtime.h there (install the "
				  "CUDA toolkit, or set CUDA_HOME)",
				  dir);
	return 0;
}

int
tg_flags_compute(struct tg_flags *f, const struct tg_torch *t,
		 const struct tg_interp *in, const struct tg_flags_opts *o,
		 struct tg_err *err)
{
	static const char *const nvcc_common[] = {
	    "-D__CUDA_NO_HALF_OPERATORS__",
	    "-D__CUDA_NO_HALF_CONVERSIONS__",
	    "-D__CUDA_NO_BFLOAT16_CONVERSIONS__",
	    "-D__CUDA_NO_HALF2_OPERATORS__",
	    "--expt-relaxed-constexpr",
	};
	static const char *const libs[] = {"c10", "torch", "torch_cpu",
					   "torch_python"};
	static const char *const cuda_libs[] = {"cudart", "c10_cuda",
						"torch_cuda"};
	const unsigned cn = TG_USE_CFLAGS | TG_USE_NVCC;
	const char *cuda =
	    t->vp.f[TG_VPY_CUDA].set ? t->vp.f[TG_VPY_CUDA].s : NULL;
	char *arches[TG_FLAGS_MAX_ARCHES];
	char buf[TG_ERR_MSG_MAX], *s;
	size_t k;
	int n = 0, r = 0, i;

	if (!t->include_dir)
		return tg_err_set(err, TG_ENOENT,
				  "torch at '%s' has no C++ headers (no "
				  "include/torch there)",
				  t->dir);
	if (!t->library_dir)
		return tg_err_set(err, TG_ENOENT,
				  "torch at '%s' has no libraries (no lib/ "
				  "with libc10.so there)",
				  t->dir);
	if (o->name && strlen(o->name) > NAME_MAX_BYTES)
		return tg_err_set(err, TG_EINVAL,
				  "the extension name is longer than %d bytes",
				  NAME_MAX_BYTES);
	if (o->name && !c_identifier(o->name))
		return tg_err_set(err, TG_EINVAL,
				  "the extension name '%s' is not a C "
				  "identifier (PYBIND11_MODULE needs one)",
				  o->name);
	if (o->cuda && (!cuda || strcmp(cuda, "None") == 0))
		return tg_err_set(err, TG_ENOENT,
				  "torch at '%s' is not built with CUDA "
				  "(version.py says cuda = None)",
				  t->dir);
	if (o->cuda) {
		n = tg_flags_cuda_arch(o->arch, arches, TG_FLAGS_MAX_ARCHES,
				       err);
		if (n < 0)
			return n;
	}
	if ((r = python_include(f, in, err)) || (r = check_pybind11(t, f, err)))
		goto out;
	if (o->cuda && (r = find_cuda_home(f, o, err)))
		goto out;

#define ADD(kind, use, value, from)                                            \
	do {                                                                   \
		if (!r)                                                        \
			r = add(f, kind, use, value, from);                    \
	} while (0)

	ADD(TG_FLAG_INCLUDE, cn, t->include_dir,
	    "cpp_extension.include_paths(): torch/include");
	if (t->api_include_dir)
		ADD(TG_FLAG_INCLUDE, cn, t->api_include_dir,
		    "cpp_extension.include_paths(): "
		    "torch/include/torch/csrc/api/include");
	/* TH and THC: only torch 1.x lists them (2.x wheels still ship a
	 * THC directory that include_paths() leaves out) */
	for (k = 0; k < 2 && !r && torch_1x(t); k++) {
		const char *sub = k ? "THC" : "TH";
		int d = has_dir(t->include_dir, sub);

		if (d < 0)
			r = TG_ENOMEM;
		if (d > 0) {
			s = tg_path_join(t->include_dir, sub);
			if (!s)
				r = TG_ENOMEM;
			snprintf(buf, sizeof(buf),
				 "cpp_extension.include_paths() before torch "
				 "2.0: torch/include/%s",
				 sub);
			if (s)
				ADD(TG_FLAG_INCLUDE, cn, s, buf);
			free(s);
		}
	}
	if (o->cuda) {
		s = tg_path_join(f->cuda_home, "include");
		if (!s)
			r = TG_ENOMEM;
		if (s)
			ADD(TG_FLAG_INCLUDE, cn, s,
			    "cpp_extension.include_paths(device_type='cuda'): "
			    "CUDA_HOME/include");
		free(s);
	}
	ADD(TG_FLAG_INCLUDE, cn, f->python_include,
	    "the target Python's headers (sysconfig include; setuptools' "
	    "build_ext adds them)");
	ADD(TG_FLAG_DEFINE, cn, "TORCH_API_INCLUDE_EXTENSION_H",
	    "BuildExtension");
	if (o->name) {
		snprintf(buf, sizeof(buf), "TORCH_EXTENSION_NAME=%s", o->name);
		ADD(TG_FLAG_DEFINE, cn, buf,
		    "BuildExtension: the extension's name (--name)");
	}
	if (t->cxx11_abi >= 0) {
		snprintf(buf, sizeof(buf), "_GLIBCXX_USE_CXX11_ABI=%d",
			 t->cxx11_abi);
		s = from2("BuildExtension, which torch 2.11 no longer adds "
			  "(torch._C._GLIBCXX_USE_CXX11_ABI): ",
			  t->cxx11_abi_evidence ? t->cxx11_abi_evidence
						: "the probe");
		if (!s)
			r = TG_ENOMEM;
		if (s)
			ADD(TG_FLAG_DEFINE, cn, buf, s);
		free(s);
	}
	f->cxx_standard = t->cxx_standard ? t->cxx_standard : 17;
	snprintf(buf, sizeof(buf), "-std=c++%d", f->cxx_standard);
	s = from2("BuildExtension adds c++17 (c++14 before torch 2.1) "
		  "unless a -std is given; torchgate: the standard of ",
		  t->cxx_standard_evidence && t->cxx_standard
		      ? t->cxx_standard_evidence
		      : "none (torch's CMake config does not say): c++17");
	if (!s)
		r = TG_ENOMEM;
	if (s)
		ADD(TG_FLAG_COMPILE, cn, buf, s);
	free(s);
	ADD(TG_FLAG_COMPILE, TG_USE_CFLAGS, "-fPIC",
	    "Python's CCSHARED (setuptools adds it itself)");
	if (o->cuda) {
		for (k = 0; k < sizeof(nvcc_common) / sizeof(nvcc_common[0]);
		     k++)
			ADD(TG_FLAG_NVCC, TG_USE_NVCC, nvcc_common[k],
			    "cpp_extension.COMMON_NVCC_FLAGS");
		ADD(TG_FLAG_NVCC, TG_USE_NVCC, "--compiler-options=-fPIC",
		    "BuildExtension: --compiler-options '-fPIC'");
		for (i = 0; i < n; i++)
			ADD(TG_FLAG_NVCC, TG_USE_NVCC, arches[i],
			    "cpp_extension._get_cuda_arch_flags(): "
			    "TORCH_CUDA_ARCH_LIST or --arch");
	}
	ADD(TG_FLAG_LIBDIR, TG_USE_LIBS, t->library_dir,
	    "cpp_extension.library_paths(): torch/lib");
	ADD(TG_FLAG_RPATH, TG_USE_LIBS, t->library_dir,
	    "torchgate: torch/lib (cpp_extension sets none: importing torch "
	    "first loads its libraries)");
	if (o->cuda) {
		s = tg_path_join(f->cuda_home, "lib64");
		if (!s)
			r = TG_ENOMEM;
		if (s)
			ADD(TG_FLAG_LIBDIR, TG_USE_LIBS, s,
			    "cpp_extension.library_paths(device_type='cuda'): "
			    "CUDA_HOME/lib64");
		free(s);
	}
	for (k = 0; k < sizeof(libs) / sizeof(libs[0]); k++)
		ADD(TG_FLAG_LIB, TG_USE_LIBS, libs[k],
		    "CppExtension's libraries");
	for (k = 0; o->cuda && k < sizeof(cuda_libs) / sizeof(cuda_libs[0]);
	     k++)
		ADD(TG_FLAG_LIB, TG_USE_LIBS, cuda_libs[k],
		    "CUDAExtension's libraries");
#undef ADD
	if (r)
		tg_err_set(err, r, "out of memory");
out:
	for (i = 0; i < n; i++)
		free(arches[i]);
	return r;
}
