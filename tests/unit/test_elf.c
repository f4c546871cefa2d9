/* test_elf.c - unit tests for lib/torch/elf (the libstdc++ ABI of a library)
 * SPDX-License-Identifier: MIT
 *
 * ELF64 files are laid out here (an ELF header, a dynamic string table,
 * three section headers: null, .dynstr, .dynsym linked to it) with
 * "St7__cxx11" placed at the table's start, across the seams of the
 * chunks the reader reads, at its end, only after its end (in the file,
 * not the table) or nowhere (in a table past both seams); then each way
 * a header can be wrong, with its message; then two real libraries of
 * the system: libstdc++ (which exports std::__cxx11 names) and the C
 * library (which does not).
 */
#include <elf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "lib/torch/elf.h"

#define NEEDLE "St7__cxx11"
/* as elf.c reads: FIRST bytes, then CHUNK - 9 more with the last 9 of
 * the read before */
#define FIRST ((size_t)4 << 10)
#define CHUNK ((size_t)64 << 10)

static char dir[] = "/tmp/tg-test-elf.XXXXXX";

/* A file whose string table of size bytes (filled with 'a') holds the
 * needle at each of at[0..n) (SIZE_MAX: none), with extra bytes after
 * the table; str_off and str_size override the .dynstr header (0: its
 * own). Its path in path. */
static void
make(char *path, size_t cap, const char *name, size_t size, const size_t *at,
     size_t n, size_t extra, const char *extra_text, uint64_t str_off,
     uint64_t str_size)
{
	size_t shoff = (sizeof(Elf64_Ehdr) + size + extra + 7) / 8 * 8, k;
	size_t len = shoff + 3 * sizeof(Elf64_Shdr);
	unsigned char *b = calloc(1, len);
	Elf64_Ehdr *eh = (Elf64_Ehdr *)b;
	Elf64_Shdr *sh = (Elf64_Shdr *)(b + shoff);
	FILE *f;

	snprintf(path, cap, "%s/%s", dir, name);
	CHECK(b != NULL, "calloc %zu", len);
	if (!b)
		return;
	memcpy(eh->e_ident, ELFMAG, SELFMAG);
	eh->e_ident[EI_CLASS] = ELFCLASS64;
	eh->e_ident[EI_DATA] = ELFDATA2LSB;
	eh->e_ident[EI_VERSION] = EV_CURRENT;
	eh->e_type = ET_DYN;
	eh->e_shoff = shoff;
	eh->e_shentsize = sizeof(Elf64_Shdr);
	eh->e_shnum = 3;
	memset(b + sizeof(*eh), 'a', size);
	for (k = 0; k < n; k++)
		memcpy(b + sizeof(*eh) + at[k], NEEDLE, strlen(NEEDLE));
	if (extra_text)
		memcpy(b + sizeof(*eh) + size, extra_text, strlen(extra_text));
	sh[1].sh_type = SHT_STRTAB;
	sh[1].sh_offset = str_off ? str_off : sizeof(*eh);
	sh[1].sh_size = str_size ? str_size : size;
	sh[2].sh_type = SHT_DYNSYM;
	sh[2].sh_link = 1;
	f = fopen(path, "wb");
	CHECK(f != NULL, "fopen %s", path);
	if (f) {
		CHECK(fwrite(b, 1, len, f) == len, "write %s", path);
		CHECK(fclose(f) == 0, "close %s", path);
	}
	free(b);
}

static void
expect(const char *path, int want, const char *msg, const char *what)
{
	struct tg_err err = TG_ERR_INIT;
	int got = tg_elf_uses_cxx11_abi(path, &err);

	CHECK(got == want, "%s: got %d, want %d (%s)", what, got, want,
	      err.msg);
	if (msg)
		CHECK(strstr(err.msg, msg) != NULL,
		      "%s: message '%s', want '%s'", what, err.msg, msg);
}

/* A library found in the usual directories of this system's libraries
 * (multiarch first); a missing one is a failure, not a skip. */
static const char *
system_lib(const char *name, char *buf, size_t cap)
{
	static const char *const dirs[] = {
	    "/usr/lib/x86_64-linux-gnu", "/usr/lib/aarch64-linux-gnu",
	    "/lib/x86_64-linux-gnu", "/usr/lib64", "/usr/lib"};
	size_t k;

	for (k = 0; k < sizeof(dirs) / sizeof(dirs[0]); k++) {
		snprintf(buf, cap, "%s/%s", dirs[k], name);
		if (access(buf, R_OK) == 0)
			return buf;
	}
	CHECK(0, "%s not found in the system's library directories", name);
	return NULL;
}

int
main(void)
{
	char p[4096], lib[4096];
	const size_t start = 0, seam = FIRST - 4, big = 3 * CHUNK + 100;
	const size_t end = big - strlen(NEEDLE),
		     seam2 = FIRST + CHUNK - (strlen(NEEDLE) - 1) - 5;
	const char *l;

	CHECK(mkdtemp(dir) != NULL, "mkdtemp");
	make(p, sizeof(p), "start", 100, &start, 1, 0, NULL, 0, 0);
	expect(p, 1, NULL, "at the table's start");
	make(p, sizeof(p), "seam", big, &seam, 1, 0, NULL, 0, 0);
	expect(p, 1, NULL, "across the first chunk's end");
	/* the second seam: the bytes kept from the first chunk count */
	make(p, sizeof(p), "seam2", big, &seam2, 1, 0, NULL, 0, 0);
	expect(p, 1, NULL, "across the second chunk's end");
	make(p, sizeof(p), "end", big, &end, 1, 0, NULL, 0, 0);
	expect(p, 1, NULL, "at the table's last bytes");
	make(p, sizeof(p), "none", big, NULL, 0, 0, NULL, 0, 0);
	expect(p, 0, NULL, "nowhere");
	/* just after the table: in the file, not in the table */
	make(p, sizeof(p), "after", 100, NULL, 0, 16, NEEDLE, 0, 0);
	expect(p, 0, NULL, "after the table");
	/* the needle's last byte one past the table's end */
	{
		const size_t cut = 100 - strlen(NEEDLE) + 1;

		make(p, sizeof(p), "cut", 100, &cut, 1, 16, NULL, 0, 0);
		expect(p, 0, NULL, "cut by the table's end");
	}
	make(p, sizeof(p), "badstr", 100, &start, 1, 0, NULL, 64, 1 << 20);
	expect(p, TG_EINVAL, "bad dynamic string table",
	       "a table past the end");
	make(p, sizeof(p), "badoff", 100, &start, 1, 0, NULL, (uint64_t)1 << 40,
	     10);
	expect(p, TG_EINVAL, "bad dynamic string table", "a table far away");
	snprintf(p, sizeof(p), "%s/short", dir);
	{
		FILE *f = fopen(p, "w");

		CHECK(f && fputs("\177ELF", f) >= 0 && fclose(f) == 0,
		      "write %s", p);
	}
	expect(p, TG_EINVAL, "not a 64-bit little-endian ELF file",
	       "a file shorter than a header");
	snprintf(p, sizeof(p), "%s/text", dir);
	{
		FILE *f = fopen(p, "w");
		int k;

		for (k = 0; f && k < 20; k++)
			fputs("not an ELF file at all\n", f);
		CHECK(f && fclose(f) == 0, "write %s", p);
	}
	expect(p, TG_EINVAL, "not a 64-bit little-endian ELF file", "text");
	snprintf(p, sizeof(p), "%s/missing", dir);
	expect(p, TG_EIO, "missing", "a missing file");

	/* the real thing */
	if ((l = system_lib("libstdc++.so.6", lib, sizeof(lib))))
		expect(l, 1, NULL, l);
	if ((l = system_lib("libc.so.6", lib, sizeof(lib))))
		expect(l, 0, NULL, l);
	{
		char cmd[4200];

		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
		CHECK(system(cmd) == 0, "%s", cmd);
	}
	return check_result("test_elf");
}
