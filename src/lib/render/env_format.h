/* env_format.h - torchgate env's report: text and JSON
 * SPDX-License-Identifier: MIT
 *
 * Renders a struct tg_envcheck: text in env_text.c, JSON in env_json.c. Output is a function of the check only:
 * items in the order the check made them (sections in turn, each in
 * distribution-name order), no time, no host.
 */
#ifndef TG_LIB_RENDER_ENV_FORMAT_H
#define TG_LIB_RENDER_ENV_FORMAT_H

#include "lib/util/buf.h"
#include "lib/util/err.h"
#include "lib/render/advisory_format.h"
#include "lib/torch/envcheck.h"

#define TG_ENV_SCHEMA_VERSION 1

/* verbose: list the requirements whose marker is false too (JSON always
 * does). */
int tg_env_text_write(const struct tg_envcheck *ec, int verbose,
		      struct tg_buf *out, struct tg_err *err);
/* adv: the advisories member (render/advisory_format), or NULL for none. */
int tg_env_json_write(const struct tg_envcheck *ec,
		      const struct tg_advisory_report *adv, struct tg_buf *out,
		      struct tg_err *err);

#endif
