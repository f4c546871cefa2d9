/* cli.c - what the subcommands share: messages, exit codes, input lines
 * SPDX-License-Identifier: MIT
 */
#include "cli/cli.h"

#include <errno.h>
#include <stdio_ext.h>
#include <stdarg.h>
#include <string.h>

#include "lib/table/cache.h"
#include "lib/table/table.h"
#include "lib/util/str.h"

/* The longest message line, in bytes before escaping; a longer one is
 * cut there with "...". */
#define MESSAGE_MAX 32768

/* Every message goes out here, as one line: whatever a caller passed, a
 * control byte, a newline or invalid UTF-8 is escaped (\n, \e, \xNN),
 * so that text from a file or an operand cannot move the cursor, retitle
 * the terminal or forge a second line. */
static void
vmessage(const char *cmd, const char *fmt, va_list ap)
{
	static char raw[MESSAGE_MAX + 1], out[MESSAGE_MAX * 4 + 8];
	size_t at = 0;
	int n = vsnprintf(raw, sizeof(raw), fmt, ap);

	fputs("torchgate: ", stderr);
	if (cmd)
		fprintf(stderr, "%s: ", cmd);
	if (n < 0)
		n = 0;
	tg_str_escape(out, sizeof(out), &at, raw,
		      (size_t)n < MESSAGE_MAX ? (size_t)n : MESSAGE_MAX);
	fputs(out, stderr);
	if ((size_t)n > MESSAGE_MAX)
		fputs("...", stderr);
	fputc('\n', stderr);
}

/* a line cli_printf could not compose (out of memory) */
static int line_lost;

void
cli_printf(FILE *f, const char *fmt, ...)
{
	struct tg_buf b = TG_BUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	tg_str_vaddf(&b, fmt, ap);
	va_end(ap);
	/* out of memory: never the raw text; said once, and the report,
	 * a line short, ends the command with status 5 when stdout is
	 * closed (cli_close_stdout), as any lost answer does */
	if (tg_buf_error(&b)) {
		if (!line_lost)
			fputs("torchgate: out of memory\n", stderr);
		line_lost = 1;
	} else
		fwrite(b.data, 1, b.len, f);
	tg_buf_release(&b);
}

void
cli_error(const char *cmd, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmessage(cmd, fmt, ap);
	va_end(ap);
}

int
cli_usage_error(const char *cmd, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmessage(cmd, fmt, ap);
	va_end(ap);
	if (cmd)
		fprintf(stderr, "try 'torchgate %s --help'\n", cmd);
	else
		fputs("try 'torchgate --help'\n", stderr);
	return CLI_USAGE;
}

int
cli_load_table(const char *cmd, const char *path, int quiet, struct tg_table *t,
	       enum tg_cache_source *src, char **from)
{
	struct tg_err err = TG_ERR_INIT, warn = TG_ERR_INIT;
	int rc = tg_cache_table(t, path, src, from, &warn, &err);

	if (rc)
		cli_error(cmd, "%s", err.msg);
	else if (warn.code && !quiet)
		cli_error(cmd, "warning: %s", warn.msg);
	return rc ? cli_exit_for(rc) : CLI_OK;
}

int
cli_text_or_json(const char *cmd, const char *arg, int *json)
{
	if (strcmp(arg, "json") != 0 && strcmp(arg, "text") != 0)
		return cli_usage_error(
		    cmd, "--format must be text or json, not '%s'", arg);
	*json = strcmp(arg, "json") == 0;
	return CLI_OK;
}

int
cli_out_of_memory(const char *cmd)
{
	cli_error(cmd, "out of memory");
	return CLI_IO;
}

int
cli_exit_for(int code)
{
	switch (code) {
	case 0:
		return CLI_OK;
	case TG_EIO:
	case TG_ENOMEM: /* torchgate(1): memory ran out, status 5 */
		return CLI_IO;
	case TG_ENOENT:
		return CLI_NO_TORCH;
	default:
		return CLI_BAD_INPUT;
	}
}

int
cli_read_line(FILE *f, struct tg_buf *line)
{
	int c, rc;

	tg_buf_clear(line);
	line->max = CLI_LINE_MAX;
	while ((c = getc(f)) != EOF) {
		if (c == '\n')
			return 1;
		rc = tg_buf_addc(line, (char)c);
		if (rc)
			return rc;
	}
	if (ferror(f))
		return TG_EIO;
	return line->len > 0 ? 1 : 0;
}

int
cli_read_error(const char *cmd, int rc, size_t lineno)
{
	cli_error(cmd, "cannot read standard input: line %zu: %s", lineno,
		  rc == TG_ELIMIT   ? "longer than 1 MiB"
		  : rc == TG_ENOMEM ? "out of memory"
				    : "read error");
	return rc == TG_ELIMIT ? CLI_BAD_INPUT : CLI_IO;
}

int
cli_batch(const char *cmd, int (*answer)(char *line, size_t len, void *ctx),
	  void *ctx)
{
	struct tg_buf line = TG_BUF_INIT;
	size_t lineno = 0;
	int rc;

	while ((rc = cli_read_line(stdin, &line)) == 1) {
		lineno++;
		/* an answer lost to a failed allocation ends the batch: the
		 * lines after it would be answers to the wrong questions */
		if (answer(line.data, line.len, ctx) != 0) {
			tg_buf_release(&line);
			cli_error(cmd, "line %zu: out of memory", lineno);
			return CLI_IO;
		}
	}
	tg_buf_release(&line);
	return rc < 0 ? cli_read_error(cmd, rc, lineno + 1) : CLI_OK;
}

int
cli_close_stdout(const char *cmd, int status)
{
	/* GNU close_stream: a closed stdout (EBADF) is an error only when
	 * something was to be written to it; a command that printed nothing
	 * keeps its own status */
	int pending = __fpending(stdout) != 0, failed = ferror(stdout);

	if (fclose(stdout) != 0 && (failed || pending || errno != EBADF))
		failed = 1;
	if (failed) {
		cli_error(cmd, "cannot write to standard output: %s",
			  strerror(errno));
		return CLI_IO; /* a lost answer outweighs any other status */
	}
	return line_lost ? CLI_IO : status;
}

int
cli_unknown_api(const char *cmd, const struct tg_table *t, const char *id)
{
	const char *near[4];
	char hint[512] = "";
	size_t n = tg_table_suggest(t, id, near, 4), k, used;

	if (n) {
		used = (size_t)snprintf(hint, sizeof(hint), "; did you mean");
		for (k = 0; k < n && used < sizeof(hint); k++)
			used += (size_t)snprintf(
			    hint + used, sizeof(hint) - used, "%s'%.100s'",
			    k == 0	 ? " "
			    : k == n - 1 ? " or "
					 : ", ",
			    near[k]);
		if (used < sizeof(hint))
			snprintf(hint + used, sizeof(hint) - used, "?");
	}
	return cli_usage_error(cmd,
			       "'%.200s' is not in the table%s ('torchgate "
			       "check' lists every API it knows)",
			       id, hint);
}
