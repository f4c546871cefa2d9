/* elfabi.c - the libstdc++ ABI of a shared library, from its symbols
 * SPDX-License-Identifier: MIT
 *
 * The file is mapped read-only; every offset and size taken from it is
 * checked against the file size before use, so a truncated or hostile
 * file gives an error, never a read out of bounds. Worst case: one
 * memmem() over the dynamic string table (a few MiB for libtorch_cpu).
 * A library is mapped, never read whole, so its limit is only against
 * nonsense: 16 GiB (libtorch_cuda is about 1.5 GiB).
 */
#include "lib/torch/elf.h"

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/util/file.h"

#define ELF_MAX ((size_t)16 << 30)

static int
fits(uint64_t off, uint64_t size, uint64_t total)
{
	return off <= total && size <= total - off;
}

int
tg_elf_uses_cxx11_abi(const char *path, struct tg_err *err)
{
	static const char needle[] = "St7__cxx11";
	int fd, rc;
	const unsigned char *map = MAP_FAILED;
	const Elf64_Ehdr *eh;
	uint64_t size, k;
	size_t n;

	rc =
	    tg_file_open(path, ELF_MAX, "a shared library", &fd, &n, NULL, err);
	if (rc)
		return rc;
	size = n;
	rc = tg_err_set(err, TG_EINVAL,
			"cannot read '%s': not a 64-bit little-endian ELF file",
			path);
	if (size < sizeof(Elf64_Ehdr))
		goto out;
	map = mmap(NULL, (size_t)size, PROT_READ, MAP_PRIVATE, fd, 0);
	if (map == MAP_FAILED) {
		rc = tg_err_set(err, TG_EIO, "cannot map '%s': %s", path,
				strerror(errno));
		goto out;
	}
	eh = (const Elf64_Ehdr *)map;
	if (memcmp(eh->e_ident, ELFMAG, SELFMAG) != 0 ||
	    eh->e_ident[EI_CLASS] != ELFCLASS64 ||
	    eh->e_ident[EI_DATA] != ELFDATA2LSB ||
	    eh->e_shentsize != sizeof(Elf64_Shdr) ||
	    !fits(eh->e_shoff, (uint64_t)eh->e_shnum * sizeof(Elf64_Shdr),
		  size) ||
	    eh->e_shoff % sizeof(uint64_t) != 0)
		goto out;
	rc = 0;
	for (k = 0; k < eh->e_shnum; k++) {
		const Elf64_Shdr *sh =
		    (const Elf64_Shdr *)(map + eh->e_shoff) + k;
		const Elf64_Shdr *str;

		if (sh->sh_type != SHT_DYNSYM || sh->sh_link >= eh->e_shnum)
			continue;
		str = (const Elf64_Shdr *)(map + eh->e_shoff) + sh->sh_link;
		if (str->sh_type != SHT_STRTAB ||
		    !fits(str->sh_offset, str->sh_size, size)) {
			rc = tg_err_set(err, TG_EINVAL,
					"cannot read '%s': bad dynamic string "
					"table",
					path);
			goto out;
		}
		if (memmem(map + str->sh_offset, (size_t)str->sh_size, needle,
			   sizeof(needle) - 1))
			rc = 1;
		break;
	}
out:
	if (map != MAP_FAILED)
		munmap((void *)map, (size_t)size);
	close(fd);
	return rc;
}
