/* test_elfsym.c - unit tests for lib/torch/elfsym and lib/torch/demangle
 * SPDX-License-Identifier: MIT
 *
 * A small ELF64 object is laid out in memory here (section headers,
 * .dynstr, .dynsym, .dynamic and a .gnu.hash made with the dynamic
 * linker's algorithm), then read back: each symbol's kind and name,
 * DT_NEEDED, look-ups through .gnu.hash, and each way a header can be
 * wrong, with its message; with program headers added, the cheap
 * DT_NEEDED read (tg_elfsym_needs).
 */
#include <elf.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "lib/torch/demangle.h"
#include "lib/torch/elfsym.h"

/* Sections: 0 null, 1 .dynstr, 2 .dynsym, 3 .dynamic, 4 .gnu.hash. */
static const char strtab[] = "\0needme\0weakone\0loc\0_ZN3c104haveEv\0"
			     "libc10.so\0";
enum { S_NEEDME = 1, S_WEAK = 8, S_LOC = 16, S_HAVE = 20, S_LIB = 35 };

struct image {
	unsigned char b[4096];
	size_t len;
	size_t shoff, symoff, stroff, dynoff, hashoff;
};

static uint32_t
gnu_hash(const char *s)
{
	uint32_t h = 5381;

	while (*s)
		h = h * 33 + (unsigned char)*s++;
	return h;
}

static void
sym(struct image *im, size_t i, uint32_t name, int bind, int type, int shndx)
{
	Elf64_Sym s;

	memset(&s, 0, sizeof(s));
	s.st_name = name;
	s.st_info = ELF64_ST_INFO(bind, type);
	s.st_shndx = (Elf64_Section)shndx;
	memcpy(im->b + im->symoff + i * sizeof(s), &s, sizeof(s));
}

static void
shdr(struct image *im, size_t k, uint32_t type, size_t off, size_t size,
     uint32_t link, size_t entsize)
{
	Elf64_Shdr sh;

	memset(&sh, 0, sizeof(sh));
	sh.sh_type = type;
	sh.sh_offset = off;
	sh.sh_size = size;
	sh.sh_link = link;
	sh.sh_entsize = entsize;
	memcpy(im->b + im->shoff + k * sizeof(sh), &sh, sizeof(sh));
}

/* The object: symbols 0 null, 1 needme (undefined, global), 2 weakone
 * (undefined, weak), 3 loc (local), 4 _ZN3c104haveEv (defined). */
static void
build(struct image *im, int with_hash)
{
	Elf64_Ehdr eh;
	Elf64_Dyn d[2];
	uint32_t hdr[4], bucket, chain, h = gnu_hash("_ZN3c104haveEv");
	uint64_t bloom;

	memset(im, 0, sizeof(*im));
	im->stroff = 64;
	im->symoff = 128;
	im->dynoff = im->symoff + 5 * sizeof(Elf64_Sym);
	im->hashoff = im->dynoff + sizeof(d);
	im->shoff = im->hashoff + 64;
	im->len = im->shoff + 5 * sizeof(Elf64_Shdr);
	memset(&eh, 0, sizeof(eh));
	memcpy(eh.e_ident, ELFMAG, SELFMAG);
	eh.e_ident[EI_CLASS] = ELFCLASS64;
	eh.e_ident[EI_DATA] = ELFDATA2LSB;
	eh.e_shoff = im->shoff;
	eh.e_shentsize = sizeof(Elf64_Shdr);
	eh.e_shnum = 5;
	memcpy(im->b, &eh, sizeof(eh));
	memcpy(im->b + im->stroff, strtab, sizeof(strtab));
	sym(im, 1, S_NEEDME, STB_GLOBAL, STT_FUNC, SHN_UNDEF);
	sym(im, 2, S_WEAK, STB_WEAK, STT_FUNC, SHN_UNDEF);
	sym(im, 3, S_LOC, STB_LOCAL, STT_FUNC, 7);
	sym(im, 4, S_HAVE, STB_GLOBAL, STT_FUNC, 7);
	memset(d, 0, sizeof(d));
	d[0].d_tag = DT_NEEDED;
	d[0].d_un.d_val = S_LIB;
	memcpy(im->b + im->dynoff, d, sizeof(d));
	/* one bucket, symbols from 4 on hashed, one bloom word */
	hdr[0] = 1;
	hdr[1] = 4;
	hdr[2] = 1;
	hdr[3] = 6;
	bloom = ((uint64_t)1 << (h % 64)) | ((uint64_t)1 << ((h >> 6) % 64));
	bucket = 4;
	chain = h | 1;
	memcpy(im->b + im->hashoff, hdr, sizeof(hdr));
	memcpy(im->b + im->hashoff + 16, &bloom, 8);
	memcpy(im->b + im->hashoff + 24, &bucket, 4);
	memcpy(im->b + im->hashoff + 28, &chain, 4);
	shdr(im, 1, SHT_STRTAB, im->stroff, sizeof(strtab), 0, 0);
	shdr(im, 2, SHT_DYNSYM, im->symoff, 5 * sizeof(Elf64_Sym), 1,
	     sizeof(Elf64_Sym));
	shdr(im, 3, SHT_DYNAMIC, im->dynoff, sizeof(d), 1, sizeof(Elf64_Dyn));
	if (with_hash)
		shdr(im, 4, SHT_GNU_HASH, im->hashoff, 32, 2, 0);
}

/* The image as a file, for tg_elfsym_open: its path in path (which
 * names a file in dir), 0 when written. */
static char dir[] = "/tmp/test_elfsym_XXXXXX";

static int
to_file(const unsigned char *b, size_t len, size_t total, char *path,
	size_t cap)
{
	FILE *f;
	int ok;

	snprintf(path, cap, "%s/obj.so", dir);
	f = fopen(path, "wb");
	if (!f)
		return -1;
	ok = fwrite(b, 1, len, f) == len;
	if (total > len)
		ok = ok && fseek(f, (long)total - 1, SEEK_SET) == 0 &&
		     fputc(0, f) == 0;
	return fclose(f) == 0 && ok ? 0 : -1;
}

/* What tg_elfsym_open gives for the image written out: what
 * tg_elfsym_parse gives for its bytes, the message naming the file. */
static void
open_bytes(const unsigned char *bytes, size_t len, const char *what)
{
	struct tg_elfsym a, b;
	struct tg_err ea = TG_ERR_INIT, eb = TG_ERR_INIT;
	char path[256], want[TG_ERR_MSG_MAX + 256];
	const char *m, *na, *nb;
	int ra, rb;
	size_t i;

	if (to_file(bytes, len, len, path, sizeof(path))) {
		CHECK(0, "%s: cannot write '%s'", what, path);
		return;
	}
	ra = tg_elfsym_parse(&a, bytes, len, "mem", &ea);
	/* as found a regular file a moment ago: no stat, the same answer */
	rb = tg_elfsym_open_walked(&b, path, &eb);
	CHECK(ra == rb, "%s: parse %d, open walked %d (%s)", what, ra, rb,
	      eb.msg);
	tg_elfsym_release(&b);
	memset(&eb, 0, sizeof(eb));
	rb = tg_elfsym_open(&b, path, &eb);
	CHECK(ra == rb, "%s: parse %d, open %d (%s)", what, ra, rb, eb.msg);
	if (ra) {
		m = strstr(ea.msg, "'mem'");
		snprintf(want, sizeof(want), "%.*s'%s'%s",
			 m ? (int)(m - ea.msg) : 0, ea.msg, path,
			 m ? m + 5 : "");
		CHECK_STR(eb.msg, want, "open's message");
		return;
	}
	CHECK(!b.mapped && b.nblk > 0, "%s: a small object is read", what);
	CHECK(a.nsyms == b.nsyms && a.ndyn == b.ndyn &&
		  !a.gnuhash == !b.gnuhash,
	      "%s: the same tables", what);
	for (i = 0; i < a.nsyms && i < b.nsyms; i++)
		CHECK(tg_elfsym_get(&a, i, &na) == tg_elfsym_get(&b, i, &nb) &&
			  strcmp(na, nb) == 0,
		      "%s: symbol %zu", what, i);
	CHECK((tg_elfsym_needed(&b, 0) != NULL) ==
		  (tg_elfsym_needed(&a, 0) != NULL),
	      "%s: DT_NEEDED", what);
	CHECK(tg_elfsym_defines(&a, "_ZN3c104haveEv") ==
		  tg_elfsym_defines(&b, "_ZN3c104haveEv"),
	      "%s: look-up", what);
	tg_elfsym_release(&a);
	tg_elfsym_release(&b);
}

/* open_bytes on the image, and on the image with all but its ELF header
 * moved 64 KiB on, past the bytes read first: each table is then read
 * on its own. */
#define SHIFT ((size_t)64 << 10)

static void
open_same(const struct image *im, size_t len, const char *what)
{
	unsigned char *b;
	Elf64_Ehdr eh;
	Elf64_Shdr sh;
	size_t k;

	open_bytes(im->b, len, what);
	if (len < sizeof(eh))
		return;
	b = calloc(1, SHIFT + len);
	if (!b) {
		CHECK(0, "out of memory");
		return;
	}
	memcpy(&eh, im->b, sizeof(eh));
	memcpy(b + SHIFT + sizeof(eh), im->b + sizeof(eh), len - sizeof(eh));
	for (k = 0; k < 5; k++) {
		memcpy(&sh, im->b + im->shoff + k * sizeof(sh), sizeof(sh));
		if (sh.sh_type != SHT_NULL)
			sh.sh_offset += SHIFT;
		if (im->shoff + (k + 1) * sizeof(sh) <= len)
			memcpy(b + SHIFT + im->shoff + k * sizeof(sh), &sh,
			       sizeof(sh));
	}
	eh.e_shoff += SHIFT;
	memcpy(b, &eh, sizeof(eh));
	open_bytes(b, SHIFT + len, what);
	free(b);
}

static void
test_read(void)
{
	struct image im;
	struct tg_elfsym e;
	struct tg_err err = TG_ERR_INIT;
	const char *name;
	static const struct {
		enum tg_elfsym_kind kind;
		const char *name;
	} want[] = {
	    {TG_ELFSYM_SKIP, ""},
	    {TG_ELFSYM_UNDEF, "needme"},
	    {TG_ELFSYM_UNDEF_WEAK, "weakone"},
	    {TG_ELFSYM_SKIP, ""},
	    {TG_ELFSYM_DEFINED, "_ZN3c104haveEv"},
	};
	size_t i;

	build(&im, 1);
	CHECK(tg_elfsym_parse(&e, im.b, im.len, "mem", &err) == 0, "parse: %s",
	      err.msg);
	CHECK(e.nsyms == 5, "nsyms %zu", e.nsyms);
	for (i = 0; i < 5; i++) {
		enum tg_elfsym_kind k = tg_elfsym_get(&e, i, &name);

		CHECK(k == want[i].kind, "symbol %zu: kind %d", i, (int)k);
		CHECK_STR(name, want[i].name, "symbol name");
	}
	CHECK(tg_elfsym_get(&e, 5, &name) == TG_ELFSYM_SKIP, "past the end");
	CHECK(tg_elfsym_needed(&e, 0) &&
		  strcmp(tg_elfsym_needed(&e, 0), "libc10.so") == 0,
	      "DT_NEEDED");
	CHECK(tg_elfsym_needed(&e, 1) == NULL, "one DT_NEEDED");
	CHECK(tg_elfsym_defines(&e, "_ZN3c104haveEv") == 1, "defined");
	CHECK(tg_elfsym_defines(&e, "needme") == 0, "undefined is not defined");
	CHECK(tg_elfsym_defines(&e, "_ZN3c108newThingEv") == 0, "absent");
	/* the linker's hash (printf's, as the ELF gABI's example gives it),
	 * computed once and given */
	CHECK(tg_elfsym_gnu_hash("printf") == 0x156b2bb8u &&
		  tg_elfsym_gnu_hash("") == 5381u,
	      "gnu hash");
	CHECK(tg_elfsym_defines_hashed(&e, "_ZN3c104haveEv",
				       tg_elfsym_gnu_hash("_ZN3c104haveEv")) ==
		      1 &&
		  tg_elfsym_defines_hashed(&e, "_ZN3c104haveEv", 1234) == 0,
	      "defined, found under its hash only");
	tg_elfsym_release(&e);
	open_same(&im, im.len, "the object");

	build(&im, 0);
	CHECK(tg_elfsym_parse(&e, im.b, im.len, "mem", &err) == 0, "parse");
	CHECK(tg_elfsym_defines(&e, "_ZN3c104haveEv") == -1, "no .gnu.hash");
	tg_elfsym_release(&e);
	open_same(&im, im.len, "no .gnu.hash");

	/* a name offset past the string table is no name */
	build(&im, 1);
	sym(&im, 1, 4000, STB_GLOBAL, STT_FUNC, SHN_UNDEF);
	CHECK(tg_elfsym_parse(&e, im.b, im.len, "mem", &err) == 0, "parse");
	CHECK(tg_elfsym_get(&e, 1, &name) == TG_ELFSYM_SKIP, "bad st_name");
	tg_elfsym_release(&e);
}

/* Each broken header, and its message. */
static void
test_errors(void)
{
	struct image im;
	struct tg_elfsym e;
	struct tg_err err;
	Elf64_Ehdr eh;
	static const char *const msgs[] = {
	    "cannot read 'mem': not a 64-bit little-endian ELF file",
	    "cannot read 'mem': not a 64-bit little-endian ELF file",
	    "cannot read 'mem': section headers outside the file",
	    "cannot read 'mem': bad dynamic symbol table",
	    "cannot read 'mem': bad dynamic symbol table",
	    "cannot read 'mem': bad dynamic section",
	    "cannot read 'mem': bad dynamic symbol table",
	    "cannot read 'mem': a .gnu.hash chain without its end or longer "
	    "than 4096 symbols",
	    "cannot read 'mem': a .gnu.hash chain without its end or longer "
	    "than 4096 symbols",
	};
	size_t k, len;
	uint32_t v;

	for (k = 0; k < sizeof(msgs) / sizeof(msgs[0]); k++) {
		build(&im, 1);
		len = im.len;
		memcpy(&eh, im.b, sizeof(eh));
		switch (k) {
		case 0: /* shorter than a header */
			len = 40;
			break;
		case 1: /* 32-bit */
			im.b[EI_CLASS] = ELFCLASS32;
			break;
		case 2: /* section headers past the end */
			eh.e_shoff = 1 << 20;
			memcpy(im.b, &eh, sizeof(eh));
			break;
		case 3: /* .dynstr without its final NUL */
			im.b[im.stroff + sizeof(strtab) - 1] = 'x';
			break;
		case 4: /* symbol entries of another size */
			shdr(&im, 2, SHT_DYNSYM, im.symoff,
			     5 * sizeof(Elf64_Sym), 1, 16);
			break;
		case 5: /* .dynamic linked to no string table */
			shdr(&im, 3, SHT_DYNAMIC, im.dynoff, 32, 9,
			     sizeof(Elf64_Dyn));
			break;
		case 6: /* .dynsym larger than the file */
			shdr(&im, 2, SHT_DYNSYM, im.symoff, (size_t)1 << 40, 1,
			     sizeof(Elf64_Sym));
			break;
		case 7: /* the chain never ends: each look-up walked it all */
			memcpy(&v, im.b + im.hashoff + 28, 4);
			v &= ~(uint32_t)1;
			memcpy(im.b + im.hashoff + 28, &v, 4);
			break;
		case 8: /* a bucket past the last symbol */
			v = 9;
			memcpy(im.b + im.hashoff + 24, &v, 4);
			break;
		}
		memset(&err, 0, sizeof(err));
		CHECK(tg_elfsym_parse(&e, im.b, len, "mem", &err) == TG_EINVAL,
		      "case %zu accepted", k);
		CHECK_STR(err.msg, msgs[k], "message");
		open_same(&im, len, msgs[k]);
	}
}

/* Tables of more than TG_ELFSYM_READ_MAX bytes: the file is mapped
 * instead, with the same verdicts: a .dynsym of 2 MiB (zeros past the
 * image: skipped symbols) is read whole without .gnu.hash, and refused
 * with it, its chains not covering the symbols. */
static void
test_mapped(void)
{
	struct image im;
	struct tg_elfsym e;
	struct tg_err err = TG_ERR_INIT;
	char path[256];
	size_t big = (size_t)2 << 20, total = (size_t)3 << 20;
	int with_hash;

	for (with_hash = 0; with_hash < 2; with_hash++) {
		build(&im, with_hash);
		shdr(&im, 2, SHT_DYNSYM, im.symoff, big, 1, sizeof(Elf64_Sym));
		if (to_file(im.b, im.len, total, path, sizeof(path))) {
			CHECK(0, "cannot write '%s'", path);
			return;
		}
		memset(&err, 0, sizeof(err));
		if (!with_hash) {
			CHECK(tg_elfsym_open(&e, path, &err) == 0,
			      "a large table: %s", err.msg);
			CHECK(e.mapped && e.nblk == 0 &&
				  e.nsyms == big / sizeof(Elf64_Sym),
			      "a large table is mapped whole");
			CHECK(tg_elfsym_needed(&e, 0) &&
				  strcmp(tg_elfsym_needed(&e, 0),
					 "libc10.so") == 0,
			      "mapped: DT_NEEDED");
			tg_elfsym_release(&e);
		} else {
			CHECK(tg_elfsym_open(&e, path, &err) == TG_EINVAL,
			      "a large table with short chains accepted");
			CHECK(strstr(err.msg, "a .gnu.hash chain without") !=
				  NULL,
			      "mapped: '%s'", err.msg);
		}
	}
}

/* A .gnu.hash with nothing hashed, as ld writes it for a library that
 * defines no dynamic symbol (Debian's libtorch_global_deps.so): one
 * empty bucket, symoffset below the undefined symbols, no chain words.
 * It was refused as "a chain without its end", a warning on every env
 * run over Debian's torch. */
static void
test_empty_hash(void)
{
	struct image im;
	struct tg_elfsym e;
	struct tg_err err = TG_ERR_INIT;
	uint32_t v = 0;

	build(&im, 1);
	memcpy(im.b + im.hashoff + 24, &v, 4); /* the one bucket: empty */
	v = 1;
	memcpy(im.b + im.hashoff + 4, &v, 4); /* symoffset 1 */
	shdr(&im, 4, SHT_GNU_HASH, im.hashoff, 28, 2, 0);
	CHECK(tg_elfsym_parse(&e, im.b, im.len, "mem", &err) == 0,
	      "empty .gnu.hash refused: %s", err.msg);
	CHECK(tg_elfsym_defines(&e, "_ZN3c104haveEv") == 0,
	      "found through an empty bucket");
	tg_elfsym_release(&e);
}

/* tg_elfsym_needs: an object laid out as the linker writes one, the
 * image above with a PT_LOAD over the whole file and a PT_DYNAMIC at a
 * .dynamic of its own (DT_NEEDED, DT_STRTAB, DT_STRSZ), its string table
 * a copy of .dynstr; both near the start (inside the first read) or
 * past 64 KiB (read each on its own), and each way the cheap read gives
 * up (TG_ELFSYM_NEEDS_ASK: tg_elfsym_open then says). */
struct needs_case {
	const char *what;
	int far;	  /* .dynamic and the strings past 64 KiB */
	int64_t tag;	  /* the first entry's (DT_NEEDED) */
	uint64_t name;	  /* its string */
	uint64_t strsz;	  /* DT_STRSZ (0: the table's) */
	uint64_t strva;	  /* added to DT_STRTAB */
	uint32_t dyntype; /* the second program header's (PT_DYNAMIC) */
	int shnum0;	  /* no section headers */
	size_t len;	  /* the file's bytes (0: all) */
	enum tg_elfsym_needs want;
};

static int
needs_file(const struct needs_case *c, char *path, size_t cap)
{
	struct image im;
	Elf64_Ehdr eh;
	Elf64_Phdr ph[2];
	Elf64_Dyn d[4];
	size_t phoff, dynoff, stroff, total;
	unsigned char *b;
	int rc;

	build(&im, 1);
	phoff = im.len;
	dynoff = c->far ? (size_t)40 << 10 : phoff + sizeof(ph);
	stroff = c->far ? (size_t)70 << 10 : dynoff + sizeof(d);
	total = stroff + sizeof(strtab);
	b = calloc(1, total);
	if (!b)
		return -1;
	memcpy(b, im.b, im.len);
	memcpy(&eh, b, sizeof(eh));
	eh.e_phoff = phoff;
	eh.e_phentsize = sizeof(Elf64_Phdr);
	eh.e_phnum = 2;
	if (c->shnum0)
		eh.e_shnum = 0;
	memcpy(b, &eh, sizeof(eh));
	memset(ph, 0, sizeof(ph));
	ph[0].p_type = PT_LOAD;
	ph[0].p_vaddr = 0x10000; /* the addresses are not the offsets */
	ph[0].p_filesz = total;
	ph[1].p_type = c->dyntype ? c->dyntype : PT_DYNAMIC;
	ph[1].p_offset = dynoff;
	ph[1].p_vaddr = 0x10000 + dynoff;
	ph[1].p_filesz = sizeof(d);
	memcpy(b + phoff, ph, sizeof(ph));
	memset(d, 0, sizeof(d));
	d[0].d_tag = c->tag;
	d[0].d_un.d_val = c->name;
	d[1].d_tag = DT_STRTAB;
	d[1].d_un.d_ptr = 0x10000 + stroff + c->strva;
	d[2].d_tag = DT_STRSZ;
	d[2].d_un.d_val = c->strsz ? c->strsz : sizeof(strtab);
	memcpy(b + dynoff, d, sizeof(d));
	memcpy(b + stroff, strtab, sizeof(strtab));
	rc = to_file(b, c->len ? c->len : total, c->len ? c->len : total, path,
		     cap);
	free(b);
	return rc;
}

static void
test_needs(void)
{
	static const char *const torch[] = {"libc10", "libtorch"};
	static const struct needs_case cases[] = {
	    {"near, libc10.so", 0, DT_NEEDED, S_LIB, 0, 0, 0, 0, 0,
	     TG_ELFSYM_NEEDS_SOME},
	    {"near, another", 0, DT_NEEDED, S_NEEDME, 0, 0, 0, 0, 0,
	     TG_ELFSYM_NEEDS_NONE},
	    {"no DT_NEEDED", 0, DT_DEBUG, S_LIB, 0, 0, 0, 0, 0,
	     TG_ELFSYM_NEEDS_NONE},
	    {"far, libc10.so", 1, DT_NEEDED, S_LIB, 0, 0, 0, 0, 0,
	     TG_ELFSYM_NEEDS_SOME},
	    {"far, another", 1, DT_NEEDED, S_NEEDME, 0, 0, 0, 0, 0,
	     TG_ELFSYM_NEEDS_NONE},
	    /* "lib" cut by DT_STRSZ: shorter than the prefixes */
	    {"a name cut by the table's end", 0, DT_NEEDED, S_LIB, S_LIB + 3, 0,
	     0, 0, 0, TG_ELFSYM_NEEDS_NONE},
	    {"a name past the table", 0, DT_NEEDED, 4000, 0, 0, 0, 0, 0,
	     TG_ELFSYM_NEEDS_NONE},
	    {"no sections", 0, DT_NEEDED, S_LIB, 0, 0, 0, 1, 0,
	     TG_ELFSYM_NEEDS_ASK},
	    {"no PT_DYNAMIC", 0, DT_NEEDED, S_LIB, 0, 0, PT_NOTE, 0, 0,
	     TG_ELFSYM_NEEDS_ASK},
	    {"DT_STRTAB in no PT_LOAD", 0, DT_NEEDED, S_LIB, 0, 1 << 30, 0, 0,
	     0, TG_ELFSYM_NEEDS_ASK},
	    {"far, .dynamic cut off", 1, DT_NEEDED, S_LIB, 0, 0, 0, 0,
	     (size_t)40 << 10, TG_ELFSYM_NEEDS_ASK},
	    {"far, the strings cut off", 1, DT_NEEDED, S_LIB, 0, 0, 0, 0,
	     ((size_t)70 << 10) + 2, TG_ELFSYM_NEEDS_ASK},
	    {"shorter than a header", 0, DT_NEEDED, S_LIB, 0, 0, 0, 0, 40,
	     TG_ELFSYM_NEEDS_ASK},
	};
	struct tg_elfsym e;
	struct tg_err err = TG_ERR_INIT;
	char path[256];
	size_t k;
	int walked;

	for (k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		const struct needs_case *c = &cases[k];

		if (needs_file(c, path, sizeof(path))) {
			CHECK(0, "%s: cannot write '%s'", c->what, path);
			continue;
		}
		for (walked = 0; walked < 2; walked++) {
			enum tg_elfsym_needs n =
			    tg_elfsym_needs(path, walked, torch, 2);

			CHECK(n == c->want, "%s (walked %d): %d, not %d",
			      c->what, walked, (int)n, (int)c->want);
		}
	}
	/* the answer tg_elfsym_open gives, where the tables agree */
	needs_file(&cases[0], path, sizeof(path));
	CHECK(tg_elfsym_open(&e, path, &err) == 0 && tg_elfsym_needed(&e, 0) &&
		  strncmp(tg_elfsym_needed(&e, 0), "libc10", 6) == 0,
	      "full read: %s", err.msg);
	tg_elfsym_release(&e);
	CHECK(tg_elfsym_needs(path, 0, torch + 1, 1) == TG_ELFSYM_NEEDS_NONE,
	      "libc10.so does not start with libtorch");
	/* no file, and a directory (not opened, or not read) */
	snprintf(path, sizeof(path), "%s/absent.so", dir);
	CHECK(tg_elfsym_needs(path, 0, torch, 2) == TG_ELFSYM_NEEDS_ASK &&
		  tg_elfsym_needs(path, 1, torch, 2) == TG_ELFSYM_NEEDS_ASK,
	      "an absent file");
	CHECK(tg_elfsym_needs(dir, 0, torch, 2) == TG_ELFSYM_NEEDS_ASK &&
		  tg_elfsym_needs(dir, 1, torch, 2) == TG_ELFSYM_NEEDS_ASK,
	      "a directory");
}

static void
test_demangle(void)
{
	char *s = tg_demangle("_ZN3c108newThingEv");

	if (tg_demangle_library()) {
		CHECK(s && strcmp(s, "c10::newThing()") == 0, "demangled '%s'",
		      s ? s : "(null)");
	} else {
		CHECK(s == NULL, "no demangler, yet '%s'", s);
	}
	free(s);
	CHECK(tg_demangle("THPVariable_Wrap") == NULL, "a C name");
	CHECK(tg_demangle("_Z!!") == NULL, "not a mangled name");
}

int
main(void)
{
	char rm[64];
	int rc;

	if (!mkdtemp(dir)) {
		CHECK(0, "mkdtemp");
		return check_result("test_elfsym");
	}
	test_read();
	test_errors();
	test_empty_hash();
	test_mapped();
	test_needs();
	test_demangle();
	snprintf(rm, sizeof(rm), "rm -rf '%s'", dir);
	rc = system(rm);
	CHECK(rc == 0, "cleanup");
	return check_result("test_elfsym");
}
