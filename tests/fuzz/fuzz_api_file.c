/* fuzz_api_file.c - libFuzzer harness for emit's --api-file reader
 * SPDX-License-Identifier: MIT
 *
 * The input is the file's text. Every id found must be a non-empty word
 * inside the text with no blank or '#' in it, and there are never more
 * than the limit.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lib/table/idlist.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_IDS 64

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *ids[MAX_IDS], *s = malloc(size + 1);
	struct tg_err err = TG_ERR_INIT;
	size_t n = 0, k;
	int rc;

	if (!s)
		return 0;
	memcpy(s, data, size);
	s[size] = '\0'; /* as tg_file_read leaves it */
	rc = tg_idlist_parse(s, size, ids, &n, MAX_IDS, "f", &err);
	if ((rc && !err.msg[0]) || n > MAX_IDS)
		__builtin_trap();
	for (k = 0; k < n; k++) {
		size_t l = strlen(ids[k]);

		if (ids[k] < s || ids[k] + l > s + size || l == 0 ||
		    strpbrk(ids[k], " \t\r\n#"))
			__builtin_trap();
	}
	free(s);
	return 0;
}
