/* rewrite.c - a source file replaced by its fixed text, or left alone
 * SPDX-License-Identifier: MIT
 *
 * The new text goes to a temporary file beside the target first; only
 * then is the target read again and compared with what the fix was
 * computed from, and the rename follows at once. So the window in which
 * another writer's change could be lost is the time between that read
 * and the rename (no lock is taken: editors take none). Memory: the
 * target read again, up to was_len + 1 bytes.
 */
#include "lib/fix/rewrite.h"

#include <stdlib.h>
#include <string.h>

#include "lib/util/file.h"

int
tg_rewrite_file(const char *path, const char *was, size_t was_len,
		const char *data, size_t len, int *replaced, struct tg_err *err)
{
	struct tg_file_out o = TG_FILE_OUT_INIT;
	char *now = NULL;
	size_t now_len = 0;
	int rc, truncated = 0;

	if ((rc = tg_file_out_begin(&o, path, data, len, err)))
		goto out;
	if ((rc = tg_file_read_head(path, was_len + 1, &now, &now_len,
				    &truncated, NULL, err)))
		goto out;
	if (truncated || now_len != was_len ||
	    (was_len && memcmp(now, was, was_len))) {
		rc = tg_err_set(err, TG_EIO,
				"'%s' changed since it was read: left as it is",
				path);
		goto out;
	}
	if (replaced)
		*replaced = 0;
	if ((rc = tg_file_out_commit(&o, err)))
		goto out;
	if (replaced)
		*replaced = 1;
	rc = tg_file_out_sync(&o, err);
out:
	tg_file_out_release(&o);
	free(now);
	return rc;
}
