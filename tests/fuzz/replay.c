/* replay.c - run a libFuzzer harness over every file of a corpus
 * SPDX-License-Identifier: MIT
 *
 * `make check` replays the corpus without libFuzzer (label fuzz), so the
 * inputs that once found bugs keep running under the sanitizers. An empty
 * or missing corpus is a failure, never a silent pass.
 */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define REPLAY_MAX_INPUT ((size_t)1 << 20)

int
main(int argc, char **argv)
{
	static uint8_t buf[REPLAY_MAX_INPUT];
	char path[4096];
	struct dirent *de;
	size_t n, count = 0;
	DIR *d;
	FILE *f;

	if (argc != 2) {
		fprintf(stderr, "usage: %s CORPUS_DIR\n", argv[0]);
		return 2;
	}
	d = opendir(argv[1]);
	if (!d) {
		perror(argv[1]);
		return 1;
	}
	while ((de = readdir(d)) != NULL) {
		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", argv[1], de->d_name);
		f = fopen(path, "rb");
		if (!f) {
			perror(path);
			closedir(d);
			return 1;
		}
		n = fread(buf, 1, sizeof(buf), f);
		fclose(f);
		/* an exactly sized copy, so ASan sees reads past the end */
		{
			uint8_t *copy = malloc(n ? n : 1);

			if (!copy) {
				closedir(d);
				return 1;
			}
			memcpy(copy, buf, n);
			LLVMFuzzerTestOneInput(copy, n);
			free(copy);
		}
		count++;
	}
	closedir(d);
	printf("replayed %zu inputs from %s\n", count, argv[1]);
	return count ? 0 : 1;
}
