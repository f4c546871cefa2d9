/* flags.h - the compile and link flags of a torch C++/CUDA extension
 * SPDX-License-Identifier: MIT
 *
 * What torch.utils.cpp_extension (CppExtension, CUDAExtension and
 * BuildExtension) would give the compiler for an extension against a
 * probed torch, worked out from files: include and library directories,
 * the defines, the C++ standard, the libraries, an rpath and, for CUDA,
 * the nvcc flags. Each flag says where it comes from. Nothing is run.
 */
#ifndef TG_LIB_TORCH_FLAGS_H
#define TG_LIB_TORCH_FLAGS_H

#include <stddef.h>

#include "lib/util/err.h"
#include "lib/pyenv/interp.h"
#include "lib/torch/probe.h"

enum tg_flag_kind {
	TG_FLAG_INCLUDE, /* -I value */
	TG_FLAG_DEFINE,	 /* -D value (NAME or NAME=VALUE) */
	TG_FLAG_COMPILE, /* another compiler argument: -std=, -fPIC */
	TG_FLAG_LIBDIR,	 /* -L value */
	TG_FLAG_RPATH,	 /* -Wl,-rpath,value */
	TG_FLAG_LIB,	 /* -l value */
	TG_FLAG_NVCC,	 /* an nvcc-only argument, as is */
};

/* Which command line a flag is for: the C++ compiler's (cflags), the
 * linker's (libs) or nvcc's; include directories and defines are in
 * both cflags and nvcc. */
enum tg_flag_use {
	TG_USE_CFLAGS = 1 << 0,
	TG_USE_LIBS = 1 << 1,
	TG_USE_NVCC = 1 << 2,
};

struct tg_flag {
	enum tg_flag_kind kind;
	unsigned use; /* enum tg_flag_use */
	char *value;  /* without the -I, -D, -L, -l prefix */
	char *arg;    /* the argument as given to the compiler */
	char *from;   /* where it comes from, in words */
};

struct tg_flags {
	struct tg_flag *v;
	size_t n, cap;
	int cxx_standard;     /* the -std=c++N used */
	char *python_include; /* the target Python's include directory */
	char *cuda_home;      /* with cuda: the toolkit used */
};

#define TG_FLAGS_INIT                                                          \
	{                                                                      \
		0                                                              \
	}

/* Most architectures accepted in one list. */
#define TG_FLAGS_MAX_ARCHES 64

struct tg_flags_opts {
	const char *name; /* TORCH_EXTENSION_NAME, or NULL: not defined */
	int cuda;	  /* CUDAExtension: CUDA includes, libs, nvcc flags */
	/* TORCH_CUDA_ARCH_LIST's syntax ("8.0;9.0+PTX", "Hopper"); needed
	 * with cuda */
	const char *arch;
	/* the CUDA toolkit ($CUDA_HOME, else $CUDA_PATH); NULL: the
	 * directory above nvcc on path, else /usr/local/cuda */
	const char *cuda_home;
	const char *path; /* $PATH, for nvcc; NULL: not looked up */
};

/* The flags for an extension against t built for the Python in. A
 * missing piece the headers or the build need (torch's headers, the
 * Python headers, pybind11's headers, a CUDA torch, the CUDA toolkit)
 * is TG_ENOENT, naming it and the package that provides it; a bad arch
 * list or name is TG_EINVAL; allocation failure TG_ENOMEM. */
int tg_flags_compute(struct tg_flags *f, const struct tg_torch *t,
		     const struct tg_interp *in,
		     const struct tg_flags_opts *opts, struct tg_err *err);
void tg_flags_release(struct tg_flags *f);

/* The -gencode flags for an arch list, as cpp_extension's
 * _get_cuda_arch_flags gives them (sorted, no duplicates), into out
 * (each malloc'd); returns the count or a negative TG_E* code. */
int tg_flags_cuda_arch(const char *list, char **out, size_t max,
		       struct tg_err *err);

#endif
