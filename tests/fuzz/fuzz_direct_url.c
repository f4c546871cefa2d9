/* fuzz_direct_url.c - libFuzzer harness for direct_url.json (PEP 610)
 * SPDX-License-Identifier: MIT
 *
 * The input is the document. The answer is a url and one of the five
 * kinds, or an error that says what and leaves both NULL.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lib/pyenv/direct_url.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct tg_err err = TG_ERR_INIT;
	char *url = NULL, *kind = NULL;

	if (tg_direct_url_parse((const char *)data, size, "f", &url, &kind,
				&err) == 0) {
		if (!url || !kind ||
		    (strcmp(kind, "editable") && strcmp(kind, "directory") &&
		     strcmp(kind, "vcs") && strcmp(kind, "archive") &&
		     strcmp(kind, "unknown")))
			__builtin_trap();
	} else if (!err.msg[0] || url || kind) {
		__builtin_trap();
	}
	free(url);
	free(kind);
	return 0;
}
