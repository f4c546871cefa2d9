/* elfsym.c - the dynamic symbols and DT_NEEDED entries of an ELF object
 * SPDX-License-Identifier: MIT
 *
 * The file is never read whole: only the ELF header, the section
 * headers, .dynsym, its string table, .dynamic and .gnu.hash. When those
 * take at most TG_ELFSYM_READ_MAX bytes (an extension module's few KiB)
 * they are read with pread into blocks the struct owns: unmapping a
 * file, with its TLB flush, cost more than the copy (env on 616
 * extension modules: 170 -> 44 ms). A larger file (libtorch_cpu.so: a
 * few MiB of tables out of hundreds) is mapped read-only, and only the
 * pages a look-up touches are read. Every
 * offset, size and count taken from the file is checked against the
 * file's size before use, a string table must end with a NUL so every
 * name in it is bounded, and structures are copied out with memcpy, so
 * a truncated, misaligned or hostile file gives a one-line error, never
 * a read out of bounds. Symbol versions are not needed: a name the
 * library does not define at all is missing whatever its version.
 * Look-ups use the library's own .gnu.hash table (its bloom filter,
 * buckets and chains, each index checked), so asking whether
 * libtorch_cpu.so defines a name touches a few cache lines instead of
 * its hundreds of thousands of symbols.
 *
 * tg_elfsym_needs answers one question cheaply, for the many objects of
 * an environment that turn out not to link torch: does a DT_NEEDED name
 * start with one of some prefixes. It reads what the dynamic linker
 * reads, not the section headers: NEEDS_HEAD bytes at offset 0 (the ELF
 * and program headers, and usually the names), PT_DYNAMIC, and the span
 * of the names at DT_STRTAB (mapped to a file offset through its
 * PT_LOAD) when not inside the first read: an open, two or three
 * pread()s and a close, into buffers on the stack (no allocation, safe
 * on any thread), where tg_elfsym_open makes an fstat, a 32 KiB read,
 * one of the section headers and one of .dynamic, and allocates. Every
 * offset is checked against the bytes read; whatever is not laid out as
 * the linker writes it (no sections, no PT_DYNAMIC, a table in no
 * PT_LOAD, a short read, larger than the buffers) is "ask":
 * tg_elfsym_open then gives the answer, or the error, as it always did.
 */
#include "lib/torch/elfsym.h"

#include <elf.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/util/file.h"

static int
fits(uint64_t off, uint64_t size, uint64_t total)
{
	return off <= total && size <= total - off;
}

static int
bad(struct tg_err *err, const char *name, const char *what)
{
	return tg_err_set(err, TG_EINVAL, "cannot read '%s': %s", name, what);
}

#define TG_STR_(x) #x
#define TG_STR(x) TG_STR_(x)
/* Longer hash chains are refused: the linker makes them a few symbols
 * long (the longest among the 1,535 libraries of a Debian 12 system with
 * its torch is 17, libtorch_cpu.so's 7), and a look-up walks one. */
#define CHAIN_MAX 4096

/* 0 when every chain a bucket starts ends (its last hash has the low
 * bit set) within CHAIN_MAX symbols and before the last symbol: one
 * pass over the chains at open, so that a look-up never walks far (an
 * endless chain made each of 5,000 look-ups walk all the symbols). */
static int
chains_end(const struct tg_elfsym *e, uint32_t nbuckets, uint32_t symoffset,
	   uint32_t bloomsz)
{
	size_t chains = 16 + (size_t)bloomsz * 8 + (size_t)nbuckets * 4;
	size_t sym, run = 0, first = e->nsyms;
	uint32_t b, h;

	for (b = 0; b < nbuckets; b++) {
		uint32_t start;

		memcpy(&start, e->gnuhash + 16 + (size_t)bloomsz * 8 + b * 4,
		       4);
		if (start >= symoffset && start >= e->nsyms)
			return -1;
		if (start >= symoffset && start < first)
			first = start;
	}
	/* no bucket starts a chain: nothing is hashed, and the linker
	 * writes no chain words (Debian's libtorch_global_deps.so: one
	 * empty bucket, symoffset 1, four undefined symbols) */
	if (first == e->nsyms)
		return 0;
	if ((e->nsyms - symoffset) * 4 > e->gnuhashsz - chains)
		return -1;
	for (sym = first; sym < e->nsyms; sym++) {
		memcpy(&h, e->gnuhash + chains + (sym - symoffset) * 4, 4);
		if (h & 1)
			run = 0;
		else if (++run >= CHAIN_MAX)
			return -1;
	}
	return run ? -1 : 0;
}

/* Returned by get() and parse() when the file is to be mapped rather
 * than read: more than TG_ELFSYM_READ_MAX bytes, or more blocks than
 * the struct holds (it needs at most seven). */
#define MAP_INSTEAD 1
/* Returned by strtab() for a table that is not well formed. */
#define BAD_TABLE 2
/* The first bytes of a file read at once: the ELF header, and in an
 * extension module .gnu.hash, .dynsym and .dynstr, which follow it. */
#define HEAD_READ ((size_t)32 << 10)

/* *out: the file's bytes [off, off + len), which the caller checked are
 * in the file: in the caller's bytes or the mapping (fd < 0), in a block
 * read already, or read now with pread. */
static int
get(struct tg_elfsym *e, int fd, uint64_t off, uint64_t len,
    const unsigned char **out, const char *name, struct tg_err *err)
{
	size_t k;
	ssize_t r;
	unsigned char *p;

	if (fd < 0) {
		*out = e->map + off;
		return 0;
	}
	for (k = 0; k < e->nblk; k++)
		if (off >= e->blk[k].off && len <= e->blk[k].len &&
		    off - e->blk[k].off <= e->blk[k].len - len) {
			*out = e->blk[k].p + (off - e->blk[k].off);
			return 0;
		}
	if (e->nblk == sizeof(e->blk) / sizeof(e->blk[0]) ||
	    len > TG_ELFSYM_READ_MAX - e->readsz)
		return MAP_INSTEAD;
	p = malloc(len ? (size_t)len : 1);
	if (!p)
		return tg_err_set(err, TG_ENOMEM, "out of memory reading '%s'",
				  name);
	r = tg_file_pread(fd, p, (size_t)len, off);
	if (r < 0 || (uint64_t)r != len) {
		int rc = tg_err_set(err, TG_EIO, "cannot read '%s': %s", name,
				    r < 0 ? strerror(errno)
					  : "shorter than its size");

		free(p);
		return rc;
	}
	e->blk[e->nblk].p = p;
	e->blk[e->nblk].off = off;
	e->blk[e->nblk].len = (size_t)len;
	e->nblk++;
	e->readsz += (size_t)len;
	*out = p;
	return 0;
}

/* The string table of section link, checked: in the file and
 * NUL-terminated; BAD_TABLE when not. */
static int
strtab(struct tg_elfsym *e, int fd, const Elf64_Ehdr *eh,
       const unsigned char *shdrs, uint32_t link, const char **out,
       size_t *outsz, const char *name, struct tg_err *err)
{
	Elf64_Shdr st;
	const unsigned char *p;
	int rc;

	if (link == 0 || link >= eh->e_shnum)
		return BAD_TABLE;
	memcpy(&st, shdrs + (size_t)link * sizeof(st), sizeof(st));
	if (st.sh_type != SHT_STRTAB || st.sh_size == 0 ||
	    !fits(st.sh_offset, st.sh_size, e->size))
		return BAD_TABLE;
	if ((rc = get(e, fd, st.sh_offset, st.sh_size, &p, name, err)))
		return rc;
	if (p[st.sh_size - 1] != '\0')
		return BAD_TABLE;
	*out = (const char *)p;
	*outsz = (size_t)st.sh_size;
	return 0;
}

/* Whether the tables parse() reads (those of the dynamic sections and
 * their string tables, sizes as the headers say) would take the bytes
 * read past TG_ELFSYM_READ_MAX: then the file is mapped before any is
 * read (get() holds the bound whatever this says). */
static int
over_budget(const struct tg_elfsym *e, const Elf64_Ehdr *eh,
	    const unsigned char *shdrs)
{
	Elf64_Shdr sh, st;
	uint64_t sum = e->readsz;
	size_t k, seen = 0; /* the string table counted, once */

	for (k = 0; k < eh->e_shnum; k++) {
		memcpy(&sh, shdrs + k * sizeof(sh), sizeof(sh));
		if (sh.sh_type != SHT_DYNSYM && sh.sh_type != SHT_DYNAMIC &&
		    sh.sh_type != SHT_GNU_HASH)
			continue;
		sum += sh.sh_size < TG_ELFSYM_READ_MAX ? sh.sh_size
						       : TG_ELFSYM_READ_MAX;
		if (sh.sh_type != SHT_GNU_HASH && sh.sh_link != seen &&
		    sh.sh_link < eh->e_shnum) {
			seen = sh.sh_link;
			memcpy(&st, shdrs + (size_t)sh.sh_link * sizeof(st),
			       sizeof(st));
			sum += st.sh_size < TG_ELFSYM_READ_MAX
				   ? st.sh_size
				   : TG_ELFSYM_READ_MAX;
		}
		if (sum > TG_ELFSYM_READ_MAX)
			return 1;
	}
	return 0;
}

/* The headers and dynamic sections of e->size bytes, from e->map (fd <
 * 0) or read from fd. */
static int
parse(struct tg_elfsym *e, int fd, const char *name, struct tg_err *err)
{
	Elf64_Ehdr eh;
	Elf64_Shdr sh;
	const unsigned char *p, *shdrs;
	size_t k, symidx = 0;
	int have_sym = 0, have_dyn = 0, rc;

	if (e->size < sizeof(eh))
		return bad(err, name, "not a 64-bit little-endian ELF file");
	if (fd >= 0 &&
	    (rc = get(e, fd, 0, e->size < HEAD_READ ? e->size : HEAD_READ, &p,
		      name, err)))
		return rc;
	if ((rc = get(e, fd, 0, sizeof(eh), &p, name, err)))
		return rc;
	memcpy(&eh, p, sizeof(eh));
	if (memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0 ||
	    eh.e_ident[EI_CLASS] != ELFCLASS64 ||
	    eh.e_ident[EI_DATA] != ELFDATA2LSB)
		return bad(err, name, "not a 64-bit little-endian ELF file");
	if (eh.e_shnum == 0)
		return 0; /* no sections: nothing to link against */
	if (eh.e_shentsize != sizeof(Elf64_Shdr) ||
	    !fits(eh.e_shoff, (uint64_t)eh.e_shnum * sizeof(Elf64_Shdr),
		  e->size))
		return bad(err, name, "section headers outside the file");
	if ((rc = get(e, fd, eh.e_shoff,
		      (uint64_t)eh.e_shnum * sizeof(Elf64_Shdr), &shdrs, name,
		      err)))
		return rc;
	if (fd >= 0 && over_budget(e, &eh, shdrs))
		return MAP_INSTEAD;
	for (k = 0; k < eh.e_shnum; k++) {
		memcpy(&sh, shdrs + k * sizeof(sh), sizeof(sh));
		if (sh.sh_type == SHT_DYNSYM && !have_sym) {
			if (sh.sh_entsize != sizeof(Elf64_Sym) ||
			    !fits(sh.sh_offset, sh.sh_size, e->size))
				return bad(err, name,
					   "bad dynamic symbol table");
			rc = strtab(e, fd, &eh, shdrs, sh.sh_link, &e->str,
				    &e->strsz, name, err);
			if (rc == BAD_TABLE)
				return bad(err, name,
					   "bad dynamic symbol table");
			if (rc || (rc = get(e, fd, sh.sh_offset, sh.sh_size,
					    &e->syms, name, err)))
				return rc;
			e->nsyms = (size_t)(sh.sh_size / sizeof(Elf64_Sym));
			have_sym = 1;
			symidx = k;
		} else if (sh.sh_type == SHT_DYNAMIC && !have_dyn) {
			if (sh.sh_entsize != sizeof(Elf64_Dyn) ||
			    !fits(sh.sh_offset, sh.sh_size, e->size))
				return bad(err, name, "bad dynamic section");
			rc = strtab(e, fd, &eh, shdrs, sh.sh_link, &e->dynstr,
				    &e->dynstrsz, name, err);
			if (rc == BAD_TABLE)
				return bad(err, name, "bad dynamic section");
			if (rc || (rc = get(e, fd, sh.sh_offset, sh.sh_size,
					    &e->dyn, name, err)))
				return rc;
			e->ndyn = (size_t)(sh.sh_size / sizeof(Elf64_Dyn));
			have_dyn = 1;
		}
	}
	/* .gnu.hash for .dynsym: header, bloom words and buckets in the
	 * section; chains checked at each look-up */
	for (k = 0; have_sym && k < eh.e_shnum; k++) {
		uint32_t hdr[4];

		memcpy(&sh, shdrs + k * sizeof(sh), sizeof(sh));
		if (sh.sh_type != SHT_GNU_HASH || sh.sh_link != symidx ||
		    !fits(sh.sh_offset, sh.sh_size, e->size) || sh.sh_size < 16)
			continue;
		if ((rc = get(e, fd, sh.sh_offset, sh.sh_size, &p, name, err)))
			return rc;
		memcpy(hdr, p, sizeof(hdr));
		if (hdr[0] == 0 || hdr[2] == 0 ||
		    16 + (uint64_t)hdr[2] * 8 + (uint64_t)hdr[0] * 4 >
			sh.sh_size)
			break;
		e->gnuhash = p;
		e->gnuhashsz = (size_t)sh.sh_size;
		if (chains_end(e, hdr[0], hdr[1], hdr[2]))
			return bad(err, name,
				   "a .gnu.hash chain without its end or "
				   "longer than " TG_STR(CHAIN_MAX) " symbols");
		break;
	}
	return 0;
}

int
tg_elfsym_parse(struct tg_elfsym *e, const void *data, size_t len,
		const char *name, struct tg_err *err)
{
	memset(e, 0, sizeof(*e));
	e->map = data;
	e->size = len;
	return parse(e, -1, name, err);
}

uint32_t
tg_elfsym_gnu_hash(const char *name)
{
	uint32_t h = 5381;
	const unsigned char *p;

	for (p = (const unsigned char *)name; *p; p++)
		h = h * 33 + *p;
	return h;
}

int
tg_elfsym_defines(const struct tg_elfsym *e, const char *name)
{
	return tg_elfsym_defines_hashed(e, name, tg_elfsym_gnu_hash(name));
}

int
tg_elfsym_defines_hashed(const struct tg_elfsym *e, const char *name,
			 uint32_t h)
{
	uint32_t nbuckets, symoffset, bloomsz, shift, bucket, h2;
	uint64_t word, mask;
	size_t chains, sym;
	const char *n;

	if (!e->gnuhash)
		return -1;
	memcpy(&nbuckets, e->gnuhash, 4);
	memcpy(&symoffset, e->gnuhash + 4, 4);
	memcpy(&bloomsz, e->gnuhash + 8, 4);
	memcpy(&shift, e->gnuhash + 12, 4);
	memcpy(&word, e->gnuhash + 16 + (size_t)((h / 64) % bloomsz) * 8, 8);
	mask = ((uint64_t)1 << (h % 64)) |
	       ((uint64_t)1 << ((h >> (shift & 31)) % 64));
	if ((word & mask) != mask)
		return 0;
	memcpy(&bucket,
	       e->gnuhash + 16 + (size_t)bloomsz * 8 +
		   (size_t)(h % nbuckets) * 4,
	       4);
	if (bucket < symoffset)
		return 0;
	chains = 16 + (size_t)bloomsz * 8 + (size_t)nbuckets * 4;
	for (sym = bucket; sym < e->nsyms; sym++) {
		size_t at = chains + (sym - symoffset) * 4;

		if (at + 4 > e->gnuhashsz)
			return 0;
		memcpy(&h2, e->gnuhash + at, 4);
		if ((h | 1) == (h2 | 1) &&
		    tg_elfsym_get(e, sym, &n) == TG_ELFSYM_DEFINED &&
		    strcmp(n, name) == 0)
			return 1;
		if (h2 & 1)
			return 0;
	}
	return 0;
}

static int
open_as(struct tg_elfsym *e, const char *path, int walked, struct tg_err *err)
{
	void *map;
	size_t n;
	int fd, rc;

	memset(e, 0, sizeof(*e));
	rc = walked ? tg_file_open_walked(path, TG_ELFSYM_MAX,
					  "a shared object", &fd, &n, err)
		    : tg_file_open(path, TG_ELFSYM_MAX, "a shared object", &fd,
				   &n, NULL, err);
	if (rc)
		return rc;
	if (n < sizeof(Elf64_Ehdr)) {
		close(fd);
		return bad(err, path, "not a 64-bit little-endian ELF file");
	}
	e->size = n;
	rc = parse(e, fd, path, err);
	if (rc == MAP_INSTEAD) {
		tg_elfsym_release(e);
		map = mmap(NULL, n, PROT_READ, MAP_PRIVATE, fd, 0);
		if (map == MAP_FAILED) {
			rc = tg_err_set(err, TG_EIO, "cannot map '%s': %s",
					path, strerror(errno));
			close(fd);
			return rc;
		}
		e->map = map;
		e->size = n;
		e->mapped = 1;
		rc = parse(e, -1, path, err);
	}
	close(fd);
	if (rc)
		tg_elfsym_release(e);
	return rc;
}

int
tg_elfsym_open(struct tg_elfsym *e, const char *path, struct tg_err *err)
{
	return open_as(e, path, 0, err);
}

int
tg_elfsym_open_walked(struct tg_elfsym *e, const char *path, struct tg_err *err)
{
	return open_as(e, path, 1, err);
}

void
tg_elfsym_release(struct tg_elfsym *e)
{
	size_t k;

	for (k = 0; k < e->nblk; k++)
		free(e->blk[k].p);
	if (e->mapped && e->map)
		munmap((void *)e->map, e->size);
	memset(e, 0, sizeof(*e));
}

enum tg_elfsym_kind
tg_elfsym_get(const struct tg_elfsym *e, size_t i, const char **name)
{
	Elf64_Sym s;
	unsigned bind, type;

	*name = "";
	if (i >= e->nsyms)
		return TG_ELFSYM_SKIP;
	memcpy(&s, e->syms + i * sizeof(Elf64_Sym), sizeof(s));
	if (s.st_name == 0 || s.st_name >= e->strsz)
		return TG_ELFSYM_SKIP;
	bind = ELF64_ST_BIND(s.st_info);
	type = ELF64_ST_TYPE(s.st_info);
	if (bind != STB_GLOBAL && bind != STB_WEAK && bind != STB_GNU_UNIQUE)
		return TG_ELFSYM_SKIP;
	if (type == STT_SECTION || type == STT_FILE)
		return TG_ELFSYM_SKIP;
	*name = e->str + s.st_name;
	if (s.st_shndx == SHN_UNDEF)
		return bind == STB_WEAK ? TG_ELFSYM_UNDEF_WEAK
					: TG_ELFSYM_UNDEF;
	return TG_ELFSYM_DEFINED;
}

const char *
tg_elfsym_needed(const struct tg_elfsym *e, size_t k)
{
	Elf64_Dyn d;
	size_t i, seen = 0;

	for (i = 0; i < e->ndyn; i++) {
		memcpy(&d, e->dyn + i * sizeof(Elf64_Dyn), sizeof(d));
		if (d.d_tag == DT_NULL)
			break;
		if (d.d_tag != DT_NEEDED)
			continue;
		if (d.d_un.d_val >= e->dynstrsz)
			continue;
		if (seen++ == k)
			return e->dynstr + d.d_un.d_val;
	}
	return NULL;
}

/* The string of the first entry tagged tag, or NULL. */
static const char *
dyn_string(const struct tg_elfsym *e, int64_t tag)
{
	Elf64_Dyn d;
	size_t i;

	for (i = 0; i < e->ndyn; i++) {
		memcpy(&d, e->dyn + i * sizeof(Elf64_Dyn), sizeof(d));
		if (d.d_tag == DT_NULL)
			break;
		if (d.d_tag == tag && d.d_un.d_val < e->dynstrsz)
			return e->dynstr + d.d_un.d_val;
	}
	return NULL;
}

const char *
tg_elfsym_runpath(const struct tg_elfsym *e)
{
	const char *r = dyn_string(e, DT_RUNPATH);

	return r ? r : dyn_string(e, DT_RPATH);
}

/* The first bytes tg_elfsym_needs reads: the ELF and program headers,
 * and in most extension modules the DT_NEEDED names too (they end
 * within 6 KiB of the start in half of the 616 modules of a venv of
 * pip's numpy, scipy and torch, within 16 KiB in 85%). */
#define NEEDS_HEAD ((size_t)16 << 10)
/* The most bytes of PT_DYNAMIC (256 entries; extension modules have a
 * few dozen) and of the span of the DT_NEEDED names read after it. */
#define NEEDS_DYN ((size_t)4 << 10)
#define NEEDS_NAMES ((size_t)4 << 10)
/* The longest prefix looked for. */
#define NEEDS_PREFIX 8

/* The file offset of virtual address va, with len bytes after it in
 * the same PT_LOAD segment's file image: 0, or -1 when none holds them. */
static int
va_offset(const unsigned char *phdrs, size_t phnum, uint64_t va, uint64_t len,
	  uint64_t *off)
{
	Elf64_Phdr ph;
	size_t k;

	for (k = 0; k < phnum; k++) {
		memcpy(&ph, phdrs + k * sizeof(ph), sizeof(ph));
		if (ph.p_type != PT_LOAD || va < ph.p_vaddr ||
		    !fits(va - ph.p_vaddr, len, ph.p_filesz))
			continue;
		*off = ph.p_offset + (va - ph.p_vaddr);
		return 0;
	}
	return -1;
}

enum tg_elfsym_needs
tg_elfsym_needs(const char *path, int walked, const char *const *prefix,
		size_t n)
{
	unsigned char head[NEEDS_HEAD], dynb[NEEDS_DYN], names[NEEDS_NAMES];
	const unsigned char *dyn, *str, *phdrs;
	enum tg_elfsym_needs ans = TG_ELFSYM_NEEDS_ASK;
	uint64_t dynoff = 0, dynsz = 0, strva = 0, strsz = 0, stroff, got;
	uint64_t lo = UINT64_MAX, hi = 0, end;
	int have_dyn = 0, have_str = 0, have_sz = 0, fd;
	Elf64_Ehdr eh;
	Elf64_Phdr ph;
	Elf64_Dyn d;
	struct stat st;
	size_t k, i, ndyn;
	ssize_t r;

	/* as tg_file_open: what is not a regular file is not opened (a
	 * tape rewinds, a FIFO blocks) */
	if (!walked && (stat(path, &st) != 0 || !S_ISREG(st.st_mode) ||
			(uint64_t)st.st_size > TG_ELFSYM_MAX))
		return TG_ELFSYM_NEEDS_ASK;
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	if (fd < 0)
		return TG_ELFSYM_NEEDS_ASK;
	r = tg_file_pread(fd, head, sizeof(head), 0);
	if (r < (ssize_t)sizeof(eh))
		goto out;
	got = (uint64_t)r;
	memcpy(&eh, head, sizeof(eh));
	/* parse() reads no .dynamic of an object without sections */
	if (memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0 ||
	    eh.e_ident[EI_CLASS] != ELFCLASS64 ||
	    eh.e_ident[EI_DATA] != ELFDATA2LSB || eh.e_shnum == 0 ||
	    eh.e_phentsize != sizeof(Elf64_Phdr) ||
	    !fits(eh.e_phoff, (uint64_t)eh.e_phnum * sizeof(ph), got))
		goto out;
	phdrs = head + eh.e_phoff;
	for (k = 0; k < eh.e_phnum && !have_dyn; k++) {
		memcpy(&ph, phdrs + k * sizeof(ph), sizeof(ph));
		if (ph.p_type != PT_DYNAMIC)
			continue;
		dynoff = ph.p_offset;
		dynsz = ph.p_filesz;
		have_dyn = 1;
	}
	if (!have_dyn || dynsz < sizeof(d) || dynsz > NEEDS_DYN)
		goto out;
	if (fits(dynoff, dynsz, got)) {
		dyn = head + dynoff;
	} else {
		if (tg_file_pread(fd, dynb, (size_t)dynsz, dynoff) !=
		    (ssize_t)dynsz)
			goto out;
		dyn = dynb;
	}
	ndyn = (size_t)(dynsz / sizeof(d));
	for (i = 0; i < ndyn; i++) {
		memcpy(&d, dyn + i * sizeof(d), sizeof(d));
		if (d.d_tag == DT_NULL)
			break;
		if (d.d_tag == DT_STRTAB) {
			strva = d.d_un.d_ptr;
			have_str = 1;
		} else if (d.d_tag == DT_STRSZ) {
			strsz = d.d_un.d_val;
			have_sz = 1;
		}
	}
	if (!have_str || !have_sz || strsz == 0 ||
	    va_offset(phdrs, eh.e_phnum, strva, strsz, &stroff))
		goto out;
	for (i = 0; i < ndyn; i++) {
		memcpy(&d, dyn + i * sizeof(d), sizeof(d));
		if (d.d_tag == DT_NULL)
			break;
		if (d.d_tag != DT_NEEDED || d.d_un.d_val >= strsz)
			continue;
		if (d.d_un.d_val < lo)
			lo = d.d_un.d_val;
		if (d.d_un.d_val > hi)
			hi = d.d_un.d_val;
	}
	if (lo == UINT64_MAX) {
		ans = TG_ELFSYM_NEEDS_NONE;
		goto out;
	}
	/* the names' first bytes, which the prefixes need */
	end = hi + NEEDS_PREFIX < strsz ? hi + NEEDS_PREFIX : strsz;
	if (fits(stroff + lo, end - lo, got)) {
		str = head + stroff + lo;
	} else {
		if (end - lo > sizeof(names) ||
		    tg_file_pread(fd, names, (size_t)(end - lo), stroff + lo) !=
			(ssize_t)(end - lo))
			goto out;
		str = names;
	}
	ans = TG_ELFSYM_NEEDS_NONE;
	for (i = 0; i < ndyn && ans == TG_ELFSYM_NEEDS_NONE; i++) {
		memcpy(&d, dyn + i * sizeof(d), sizeof(d));
		if (d.d_tag == DT_NULL)
			break;
		if (d.d_tag != DT_NEEDED || d.d_un.d_val >= strsz)
			continue;
		for (k = 0; k < n; k++) {
			size_t pl = strlen(prefix[k]);

			if (pl <= end - d.d_un.d_val &&
			    memcmp(str + (d.d_un.d_val - lo), prefix[k], pl) ==
				0)
				ans = TG_ELFSYM_NEEDS_SOME;
		}
	}
out:
	close(fd);
	return ans;
}
