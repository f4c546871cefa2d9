/* elf.c - the libstdc++ ABI of a shared library, from its symbols
 * SPDX-License-Identifier: MIT
 *
 * The ELF header, the section headers and the dynamic string table are
 * read with pread, the table a chunk at a time up to the first match
 * (it is near the start in every torch library seen: the first 4 KiB,
 * read onto the stack): a mapping of the whole file cost more, in
 * unmapping it, than the few bytes read (probe's start-up, issue 29).
 * Every offset and size taken from the file is checked against its size
 * before use, so a truncated or hostile file gives an error, never a
 * read out of bounds.
 * Worst case: the whole dynamic string table read once (a few MiB for
 * libtorch_cpu), 64 KiB of memory. The limit on the file is only
 * against nonsense: 16 GiB (libtorch_cuda is about 1.5 GiB).
 */
#include "lib/torch/elf.h"

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/util/err.h"
#include "lib/util/file.h"

#define ELF_MAX ((size_t)16 << 30)
#define FIRST ((size_t)4 << 10)
#define CHUNK ((size_t)64 << 10)

static const char needle[] = "St7__cxx11";
#define NEEDLE (sizeof(needle) - 1)

static int
fits(uint64_t off, uint64_t size, uint64_t total)
{
	return off <= total && size <= total - off;
}

/* n bytes at off (inside the file: checked by the caller) into buf. */
static int
read_at(int fd, void *buf, size_t n, uint64_t off, const char *path,
	struct tg_err *err)
{
	ssize_t r = tg_file_pread(fd, buf, n, off);

	if (r < 0 || (size_t)r != n)
		return tg_err_set(err, TG_EIO, "cannot read '%s': %s", path,
				  r < 0 ? strerror(errno)
					: "file shrank while read");
	return 0;
}

/* Whether the string table of size bytes at off holds the needle: read
 * FIRST bytes into a buffer on the stack (the match is there in every
 * torch library seen: a heap block would cost page faults), then CHUNK
 * bytes at a time, each chunk after the first starting with the last
 * NEEDLE - 1 bytes of the one before (a match across the seam). */
static int
table_has(int fd, uint64_t off, uint64_t size, const char *path,
	  struct tg_err *err)
{
	char first[FIRST], *buf = first, *big;
	size_t keep = 0, cap = sizeof(first);
	uint64_t at = 0;
	int rc = 0;

	while (at < size && !rc) {
		size_t n =
		    size - at < cap - keep ? (size_t)(size - at) : cap - keep;

		rc = read_at(fd, buf + keep, n, off + at, path, err);
		if (rc)
			break;
		at += n;
		n += keep;
		if (memmem(buf, n, needle, NEEDLE))
			rc = 1;
		keep = n < NEEDLE - 1 ? n : NEEDLE - 1;
		if (buf == first && at < size && !rc) {
			if (!(big = malloc(CHUNK)))
				return tg_err_set(err, TG_ENOMEM,
						  "out of memory reading '%s'",
						  path);
			memcpy(big, buf + n - keep, keep);
			buf = big;
			cap = CHUNK;
		} else {
			memmove(buf, buf + n - keep, keep);
		}
	}
	if (buf != first)
		free(buf);
	return rc;
}

int
tg_elf_uses_cxx11_abi(const char *path, struct tg_err *err)
{
	int fd, rc;
	Elf64_Ehdr eh;
	Elf64_Shdr *sh = NULL;
	uint64_t size, k;
	size_t n;

	rc =
	    tg_file_open(path, ELF_MAX, "a shared library", &fd, &n, NULL, err);
	if (rc)
		return rc;
	size = n;
	if (size >= sizeof(eh) &&
	    (rc = read_at(fd, &eh, sizeof(eh), 0, path, err)))
		goto out;
	rc = tg_err_set(err, TG_EINVAL,
			"cannot read '%s': not a 64-bit little-endian ELF file",
			path);
	if (size < sizeof(eh) || memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0 ||
	    eh.e_ident[EI_CLASS] != ELFCLASS64 ||
	    eh.e_ident[EI_DATA] != ELFDATA2LSB ||
	    eh.e_shentsize != sizeof(Elf64_Shdr) ||
	    !fits(eh.e_shoff, (uint64_t)eh.e_shnum * sizeof(Elf64_Shdr),
		  size) ||
	    eh.e_shoff % sizeof(uint64_t) != 0)
		goto out;
	rc = 0;
	if (!eh.e_shnum)
		goto out;
	if (!(sh = malloc((size_t)eh.e_shnum * sizeof(*sh)))) {
		rc = tg_err_set(err, TG_ENOMEM, "out of memory reading '%s'",
				path);
		goto out;
	}
	if ((rc = read_at(fd, sh, (size_t)eh.e_shnum * sizeof(*sh), eh.e_shoff,
			  path, err)))
		goto out;
	for (k = 0; k < eh.e_shnum; k++) {
		const Elf64_Shdr *str;

		if (sh[k].sh_type != SHT_DYNSYM || sh[k].sh_link >= eh.e_shnum)
			continue;
		str = &sh[sh[k].sh_link];
		if (str->sh_type != SHT_STRTAB ||
		    !fits(str->sh_offset, str->sh_size, size)) {
			rc = tg_err_set(err, TG_EINVAL,
					"cannot read '%s': bad dynamic string "
					"table",
					path);
			goto out;
		}
		rc = table_has(fd, str->sh_offset, str->sh_size, path, err);
		break;
	}
out:
	free(sh);
	close(fd);
	return rc;
}
