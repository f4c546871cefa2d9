/* elfsym.c - the dynamic symbols and DT_NEEDED entries of an ELF object
 * SPDX-License-Identifier: MIT
 *
 * The file is mapped read-only and never read whole: the pages touched
 * are the ELF header, the section headers, .dynsym, its string table and
 * .dynamic (a few MiB for libtorch_cpu.so, out of hundreds). Every
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
 */
#include "lib/torch/elfsym.h"

#include <elf.h>
#include <errno.h>
#include <string.h>
#include <sys/mman.h>
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

/* Section header k, copied out (the caller checked the table fits). */
static void
shdr(const struct tg_elfsym *e, const Elf64_Ehdr *eh, size_t k, Elf64_Shdr *sh)
{
	memcpy(sh, e->map + eh->e_shoff + k * sizeof(Elf64_Shdr), sizeof(*sh));
}

/* The string table of section link, checked: in the file and
 * NUL-terminated. */
static int
strtab(const struct tg_elfsym *e, const Elf64_Ehdr *eh, uint32_t link,
       const char **out, size_t *outsz)
{
	Elf64_Shdr st;

	if (link == 0 || link >= eh->e_shnum)
		return -1;
	shdr(e, eh, link, &st);
	if (st.sh_type != SHT_STRTAB || st.sh_size == 0 ||
	    !fits(st.sh_offset, st.sh_size, e->size) ||
	    e->map[st.sh_offset + st.sh_size - 1] != '\0')
		return -1;
	*out = (const char *)e->map + st.sh_offset;
	*outsz = (size_t)st.sh_size;
	return 0;
}

int
tg_elfsym_parse(struct tg_elfsym *e, const void *data, size_t len,
		const char *name, struct tg_err *err)
{
	Elf64_Ehdr eh;
	Elf64_Shdr sh;
	size_t k, symidx = 0;
	int have_sym = 0, have_dyn = 0;

	memset(e, 0, sizeof(*e));
	e->map = data;
	e->size = len;
	if (len < sizeof(eh))
		return bad(err, name, "not a 64-bit little-endian ELF file");
	memcpy(&eh, data, sizeof(eh));
	if (memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0 ||
	    eh.e_ident[EI_CLASS] != ELFCLASS64 ||
	    eh.e_ident[EI_DATA] != ELFDATA2LSB)
		return bad(err, name, "not a 64-bit little-endian ELF file");
	if (eh.e_shnum == 0)
		return 0; /* no sections: nothing to link against */
	if (eh.e_shentsize != sizeof(Elf64_Shdr) ||
	    !fits(eh.e_shoff, (uint64_t)eh.e_shnum * sizeof(Elf64_Shdr), len))
		return bad(err, name, "section headers outside the file");
	for (k = 0; k < eh.e_shnum; k++) {
		shdr(e, &eh, k, &sh);
		if (sh.sh_type == SHT_DYNSYM && !have_sym) {
			if (sh.sh_entsize != sizeof(Elf64_Sym) ||
			    !fits(sh.sh_offset, sh.sh_size, len) ||
			    strtab(e, &eh, sh.sh_link, &e->str, &e->strsz))
				return bad(err, name,
					   "bad dynamic symbol table");
			e->syms = e->map + sh.sh_offset;
			e->nsyms = (size_t)(sh.sh_size / sizeof(Elf64_Sym));
			have_sym = 1;
			symidx = k;
		} else if (sh.sh_type == SHT_DYNAMIC && !have_dyn) {
			if (sh.sh_entsize != sizeof(Elf64_Dyn) ||
			    !fits(sh.sh_offset, sh.sh_size, len) ||
			    strtab(e, &eh, sh.sh_link, &e->dynstr,
				   &e->dynstrsz))
				return bad(err, name, "bad dynamic section");
			e->dyn = e->map + sh.sh_offset;
			e->ndyn = (size_t)(sh.sh_size / sizeof(Elf64_Dyn));
			have_dyn = 1;
		}
	}
	/* .gnu.hash for .dynsym: header, bloom words and buckets in the
	 * section; chains checked at each look-up */
	for (k = 0; have_sym && k < eh.e_shnum; k++) {
		uint32_t hdr[4];

		shdr(e, &eh, k, &sh);
		if (sh.sh_type != SHT_GNU_HASH || sh.sh_link != symidx ||
		    !fits(sh.sh_offset, sh.sh_size, len) || sh.sh_size < 16)
			continue;
		memcpy(hdr, e->map + sh.sh_offset, sizeof(hdr));
		if (hdr[0] == 0 || hdr[2] == 0 ||
		    16 + (uint64_t)hdr[2] * 8 + (uint64_t)hdr[0] * 4 >
			sh.sh_size)
			break;
		e->gnuhash = e->map + sh.sh_offset;
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
tg_elfsym_defines(const struct tg_elfsym *e, const char *name)
{
	uint32_t nbuckets, symoffset, bloomsz, shift, h = 5381, bucket, h2;
	uint64_t word, mask;
	size_t chains, sym;
	const unsigned char *p;
	const char *n;

	if (!e->gnuhash)
		return -1;
	memcpy(&nbuckets, e->gnuhash, 4);
	memcpy(&symoffset, e->gnuhash + 4, 4);
	memcpy(&bloomsz, e->gnuhash + 8, 4);
	memcpy(&shift, e->gnuhash + 12, 4);
	for (p = (const unsigned char *)name; *p; p++)
		h = h * 33 + *p;
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

int
tg_elfsym_open(struct tg_elfsym *e, const char *path, struct tg_err *err)
{
	void *map;
	size_t n;
	int fd, rc;

	memset(e, 0, sizeof(*e));
	rc = tg_file_open(path, TG_ELFSYM_MAX, "a shared object", &fd, &n, NULL,
			  err);
	if (rc)
		return rc;
	if (n < sizeof(Elf64_Ehdr)) {
		close(fd);
		return bad(err, path, "not a 64-bit little-endian ELF file");
	}
	map = mmap(NULL, n, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (map == MAP_FAILED)
		return tg_err_set(err, TG_EIO, "cannot map '%s': %s", path,
				  strerror(errno));
	rc = tg_elfsym_parse(e, map, n, path, err);
	e->mapped = 1;
	if (rc)
		tg_elfsym_release(e);
	return rc;
}

void
tg_elfsym_release(struct tg_elfsym *e)
{
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
