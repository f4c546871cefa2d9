/* fuzz_elfsym.c - libFuzzer harness for the ELF dynamic symbol reader
 * SPDX-License-Identifier: MIT
 *
 * The input is a shared object's bytes, parsed in place as env parses a
 * mapped file (tg_elfsym_parse): it is accepted with its symbols and
 * DT_NEEDED names, or refused with a message. Every symbol name and
 * every needed name is read to its end, and the first names are
 * demangled and looked up through the .gnu.hash table (with two names
 * that may be absent), so a name that runs past its string table, or a
 * bucket or chain index past the table, shows under the sanitizers.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <stdlib.h>

#include "lib/torch/demangle.h"
#include "lib/torch/elfsym.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static volatile size_t sink;

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct tg_elfsym e = TG_ELFSYM_INIT;
	struct tg_err err = TG_ERR_INIT;
	const char *name;
	size_t k, total = 0;

	if (tg_elfsym_parse(&e, data, size, "input", &err) != 0) {
		if (!err.msg[0])
			__builtin_trap();
		return 0;
	}
	for (k = 0; k < e.nsyms; k++) {
		enum tg_elfsym_kind kind = tg_elfsym_get(&e, k, &name);

		total += strlen(name);
		if (kind != TG_ELFSYM_SKIP && k < 64) {
			char *d = tg_demangle(name);

			free(d);
			total += (size_t)tg_elfsym_defines(&e, name);
		}
	}
	total += (size_t)tg_elfsym_defines(&e, "_ZN3c108newThingEv");
	total += (size_t)tg_elfsym_defines(&e, "a");
	for (k = 0; (name = tg_elfsym_needed(&e, k)); k++)
		total += strlen(name);
	tg_elfsym_release(&e);
	sink = total;
	return 0;
}
