/* fuzz_index.c - libFuzzer harness for the index reader (table/index)
 * SPDX-License-Identifier: MIT
 *
 * The input is an index document (PyPI JSON or PEP 691), as
 * `torchgate releases` downloads it. Read with and without
 * pre-releases: a success gives versions in strictly increasing PEP 440
 * order, never more than the limit, never a pre-release without pre,
 * and the list with pre holds the one without; a failure has a message.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lib/table/index.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void
check(const struct tg_index *ix, int pre)
{
	size_t k;

	if (ix->n > TG_INDEX_VERSIONS_MAX)
		__builtin_trap();
	for (k = 0; k < ix->n; k++) {
		if (!pre && tg_version_is_prerelease(&ix->v[k]))
			__builtin_trap();
		if (k && tg_version_cmp(&ix->v[k - 1], &ix->v[k]) >= 0)
			__builtin_trap();
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct tg_index a = TG_INDEX_INIT, b = TG_INDEX_INIT;
	struct tg_err ea = TG_ERR_INIT, eb = TG_ERR_INIT;
	char *s = malloc(size + 1);
	int ra, rb;

	if (!s)
		return 0;
	memcpy(s, data, size);
	s[size] = '\0'; /* as tg_file_read leaves it */
	ra = tg_index_parse(&a, s, size, "f", 0, &ea);
	rb = tg_index_parse(&b, s, size, "f", 1, &eb);
	if ((ra && !ea.msg[0]) || (rb && !eb.msg[0]))
		__builtin_trap();
	if (!ra)
		check(&a, 0);
	if (!rb)
		check(&b, 1);
	if (!ra && !rb && a.n > b.n)
		__builtin_trap();
	tg_index_release(&a);
	tg_index_release(&b);
	free(s);
	return 0;
}
