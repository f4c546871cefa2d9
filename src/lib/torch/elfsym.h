/* elfsym.h - the dynamic symbols and DT_NEEDED entries of an ELF object
 * SPDX-License-Identifier: MIT
 *
 * What the dynamic linker will look up when a Python extension module
 * is imported: its undefined dynamic symbols and the libraries it needs,
 * and what a library offers: its defined dynamic symbols. Only the
 * section headers, .dynsym, its string table and .dynamic are read;
 * tg_elfsym_needs reads the program headers, PT_DYNAMIC and the
 * DT_NEEDED names only.
 */
#ifndef TG_LIB_TORCH_ELFSYM_H
#define TG_LIB_TORCH_ELFSYM_H

#include <stddef.h>
#include <stdint.h>

#include "lib/util/err.h"

/* Largest file mapped (libtorch_cuda.so is about 1.5 GiB). */
#define TG_ELFSYM_MAX ((size_t)16 << 30)
/* Most bytes of a file read rather than mapped. */
#define TG_ELFSYM_READ_MAX ((size_t)1 << 20)

struct tg_elfsym {
	const unsigned char *map; /* the whole file, or the caller's bytes */
	size_t size;
	int mapped;		   /* map is ours to munmap */
	const unsigned char *syms; /* Elf64_Sym[nsyms], unaligned-safe */
	size_t nsyms;
	const char *str; /* .dynstr of .dynsym, NUL-terminated */
	size_t strsz;
	const unsigned char *dyn; /* Elf64_Dyn[ndyn] */
	size_t ndyn;
	const char *dynstr; /* strings of .dynamic */
	size_t dynstrsz;
	const unsigned char *gnuhash; /* .gnu.hash of .dynsym, or NULL */
	size_t gnuhashsz;
	/* read, not mapped (tg_elfsym_open): the parts of the file read,
	 * each a heap block of len bytes from file offset off */
	struct {
		unsigned char *p;
		uint64_t off;
		size_t len;
	} blk[8];
	size_t nblk;
	size_t readsz; /* their bytes together */
};

#define TG_ELFSYM_INIT                                                         \
	{                                                                      \
		0                                                              \
	}

/* What one symbol is to the dynamic linker. */
enum tg_elfsym_kind {
	TG_ELFSYM_SKIP = 0,   /* local, empty name, section or file symbol */
	TG_ELFSYM_UNDEF,      /* needed, binding global */
	TG_ELFSYM_UNDEF_WEAK, /* needed, binding weak: may stay unresolved */
	TG_ELFSYM_DEFINED,    /* offered: global or weak, defined */
};

/* Read path's headers and dynamic sections and check them. TG_EINVAL
 * with "cannot read 'path': ..." for anything that is not a well-formed
 * 64-bit little-endian ELF object; an object without .dynsym has no
 * symbols. What they need is read with pread() when it is at most
 * TG_ELFSYM_READ_MAX bytes (an extension module's), else the file is
 * mapped read-only (torch's libraries, of which a look-up touches a
 * few cache lines): unmapping a file, with its page table entries and
 * TLB flush, cost more than reading the few KiB an extension needs. */
int tg_elfsym_open(struct tg_elfsym *e, const char *path, struct tg_err *err);

/* As tg_elfsym_open, for a path found to be a regular file a moment ago
 * (tg_file_open_walked: no stat before the open). */
int tg_elfsym_open_walked(struct tg_elfsym *e, const char *path,
			  struct tg_err *err);

/* The same over len bytes the caller keeps (name names them in
 * messages). */
int tg_elfsym_parse(struct tg_elfsym *e, const void *data, size_t len,
		    const char *name, struct tg_err *err);

void tg_elfsym_release(struct tg_elfsym *e);

/* Symbol i (< e->nsyms): its kind, and its name in *name. */
enum tg_elfsym_kind tg_elfsym_get(const struct tg_elfsym *e, size_t i,
				  const char **name);

/* Whether e defines name (global or weak), looked up in its .gnu.hash
 * table as the dynamic linker does: 1 or 0, or -1 when e has no usable
 * .gnu.hash (then scan the symbols with tg_elfsym_get). */
int tg_elfsym_defines(const struct tg_elfsym *e, const char *name);

/* The hash .gnu.hash files name under (the dynamic linker's dl_new_hash),
 * and tg_elfsym_defines given it: a name asked of each of torch's
 * libraries in turn is hashed once, not once per library. */
uint32_t tg_elfsym_gnu_hash(const char *name);
int tg_elfsym_defines_hashed(const struct tg_elfsym *e, const char *name,
			     uint32_t h);

/* DT_RUNPATH, else DT_RPATH, as written ("$ORIGIN/lib:..."), or NULL. */
const char *tg_elfsym_runpath(const struct tg_elfsym *e);

/* The k-th DT_NEEDED name, or NULL past the last. */
const char *tg_elfsym_needed(const struct tg_elfsym *e, size_t k);

/* What tg_elfsym_needs says. */
enum tg_elfsym_needs {
	TG_ELFSYM_NEEDS_NONE = 0, /* no DT_NEEDED name has such a prefix */
	TG_ELFSYM_NEEDS_SOME,	  /* one has */
	TG_ELFSYM_NEEDS_ASK,	  /* not told cheaply: tg_elfsym_open it */
};

/* Whether a DT_NEEDED name of the object at path starts with one of
 * prefix[0..n) (each at most 8 bytes), read cheaply: the ELF header
 * and program headers in one pread() at offset 0, PT_DYNAMIC from them,
 * the names at DT_STRTAB (often inside that first read); no section
 * headers, symbols, stat or allocation. walked: path was found a
 * regular file a moment ago (an lstat), else it is stat()ed before its
 * open, as tg_file_open does. Anything that cannot be read, or is not
 * laid out as the linker writes it, is TG_ELFSYM_NEEDS_ASK: opening it
 * with tg_elfsym_open then gives the answer or the error. Safe on any
 * thread. */
enum tg_elfsym_needs tg_elfsym_needs(const char *path, int walked,
				     const char *const *prefix, size_t n);

#endif
