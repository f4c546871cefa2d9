/* message.c - what a declaration says: its arguments, message, replacement
 * SPDX-License-Identifier: MIT
 *
 * Splits a call's arguments in masked text (within SPAN_MAX bytes of its
 * '('), renders one as a message: the string literals of the argument,
 * joined as Python or C++ joins them (the harvester's render reads
 * the literals), other operands kept as {...}, at most MESSAGE_MAX
 * bytes, whitespace and control characters made one space. The
 * replacement is what "use X instead" and its kin name, backquoted,
 * quoted or code-like, found by one PCRE2 pattern within scan.c's match
 * limits; a message past them names none.
 */
#include <stdlib.h>
#include <string.h>

#include "lib/discover/internal.h"
#include "lib/util/buf.h"
#include "lib/util/scan.h"
#include "lib/util/str.h"

/* "use X instead" and its kin; X backquoted, quoted (one word), or
 * code-like. */
const char tg_message_repl_pattern[] =
    "(?i)\\b(?:use|replaced\\s+(?:by|with)|in\\s+favou?r\\s+of"
    "|renamed\\s+to|superseded\\s+by|migrate\\s+to|switch\\s+to)"
    "\\s+(?:(?:the|a|an)\\s+)?"
    "(?:`([^`]+)`|'([^'\"\\s]+)'|\"([^'\"\\s]+)\""
    "|([A-Za-z_~][\\w.:~]*"
    "(?:<[^<>]*(?:<[^<>]*>[^<>]*)*>)?"
    "(?:\\([^()]*(?:\\([^()]*\\)[^()]*)*\\)|\\.\\w+)*)(\\{?))"
    "(\\s+instead\\b)?";

char *
tg_message_finish(const char *p, size_t len)
{
	char *out = malloc(len + 1);
	size_t i, n = 0, bad, at = 0;
	int gap = 0;

	if (!out)
		return NULL;
	for (i = 0; i < len; i++) {
		unsigned char c = (unsigned char)p[i];

		if (c < 0x20 || c == 0x7f || c == ' ') {
			gap = n > 0;
			continue;
		}
		if (gap)
			out[n++] = ' ';
		gap = 0;
		out[n++] = (char)c;
	}
	out[n] = '\0';
	while (at < n && !tg_str_utf8_valid(out + at, n - at, &bad)) {
		out[at + bad] = '?';
		at += bad + 1;
	}
	return out;
}

/* Append s[a..b) with whitespace runs made one space, trimmed. */
void
tg_message_add_collapsed(struct tg_buf *b, const char *s, size_t a, size_t e)
{
	int gap = 0, any = 0;

	for (; a < e; a++) {
		if (space((unsigned char)s[a])) {
			gap = any;
			continue;
		}
		if (gap)
			tg_buf_addc(b, ' ');
		gap = 0;
		any = 1;
		tg_buf_addc(b, s[a]);
	}
}

/* The ')' that closes the '(' (or '[', '{') at open in masked text,
 * within SPAN_MAX, in *close; the arguments, split at top-level commas,
 * in args (the first ARGS_MAX). Returns 0 when there is no such ')'. */
int
tg_message_split_args(const char *m, size_t len, size_t open, struct arg *args,
		      size_t *nargs, size_t *close)
{
	size_t i, depth = 0, start = open + 1, n = 0;
	size_t lim = len - open > SPAN_MAX ? open + SPAN_MAX : len;

	for (i = open + 1; i < lim; i++) {
		char c = m[i];
		int end = 0;

		if (c == '(' || c == '[' || c == '{')
			depth++;
		else if (c == ')' || c == ']' || c == '}') {
			if (depth == 0)
				end = 1;
			else
				depth--;
		}
		if (!end && !(c == ',' && depth == 0))
			continue;
		if (n < ARGS_MAX) {
			size_t a = start, e = i;

			while (a < e && space((unsigned char)m[a]))
				a++;
			while (e > a && space((unsigned char)m[e - 1]))
				e--;
			if (a < e || !end) {
				args[n].a = a;
				args[n].e = e;
				args[n].ka = args[n].ke = 0;
				n++;
			}
		}
		start = i + 1;
		if (end) {
			*nargs = n;
			*close = i;
			return 1;
		}
	}
	return 0;
}

/* ---- Python --------------------------------------------------------- */

int
tg_message_render_arg(const struct src *x, const struct arg *g,
		      const struct harvester *h, int need_lit, char **out)
{
	struct tg_buf b = TG_BUF_INIT;
	int lit = 0;

	*out = NULL;
	tg_buf_init(&b, MESSAGE_MAX);
	h->render(x, g->a, g->e, &b, &lit);
	if (b.len && (lit || !need_lit)) {
		*out = tg_message_finish(b.data, b.len);
		if (!*out) {
			tg_buf_release(&b);
			return TG_ENOMEM;
		}
	}
	tg_buf_release(&b);
	return 0;
}

struct repl_run {
	char *found;
};

static int
repl_site(void *vr, const char *s, const size_t *ov, size_t ng)
{
	static const char *const stop[] = {
	    "it", "this", "that", "them", "these", "those", "one", "something"};
	struct repl_run *r = vr;
	size_t a = TG_SCAN_UNSET, e = 0, k;
	int quoted = 0;

	for (k = 1; k <= 3 && k < ng; k++)
		if (ov[2 * k] != TG_SCAN_UNSET) {
			a = ov[2 * k];
			e = ov[2 * k + 1];
			quoted = 1;
			break;
		}
	if (!quoted && ng > 4 && ov[8] != TG_SCAN_UNSET) {
		int code = 0;

		/* "nn.init.{}": the name is only known at run time. */
		if (ng > 5 && ov[11] > ov[10])
			return 0;
		a = ov[8];
		e = ov[9];
		while (e > a && strchr(".,:;", s[e - 1]))
			e--;
		for (k = a; k < e; k++)
			code |= strchr("._:(~<", s[k]) != NULL ||
				(s[k] >= '0' && s[k] <= '9');
		for (k = 0; k < sizeof(stop) / sizeof(stop[0]); k++)
			if (strlen(stop[k]) == e - a &&
			    strncmp(stop[k], s + a, e - a) == 0)
				return 0;
		if (!code && !(ng > 6 && ov[12] != TG_SCAN_UNSET))
			return 0;
	}
	if (a == TG_SCAN_UNSET)
		return 0;
	while (a < e && space((unsigned char)s[a]))
		a++;
	while (e > a && space((unsigned char)s[e - 1]))
		e--;
	if (a == e)
		return 0;
	/* An f-string field alone names nothing we can read. */
	if (s[a] == '{' && s[e - 1] == '}' &&
	    !memchr(s + a + 1, '{', e - a - 1))
		return 0;
	r->found = tg_str_ndup(s + a, e - a);
	return r->found ? 1 : TG_ENOMEM;
}

int
tg_message_replacement(const struct ctx *cx, const char *msg, char **out,
		       struct tg_err *err)
{
	struct repl_run r = {NULL};
	struct tg_err e = TG_ERR_INIT;
	int rc = tg_scan_re_each(cx->repl, msg, strlen(msg), repl_site, &r, &e);

	*out = NULL;
	if (rc == TG_ENOMEM)
		return tg_err_set(err, rc, "out of memory");
	if (rc) {
		/* A message past the match limits names no replacement. */
		free(r.found);
		return 0;
	}
	*out = r.found;
	return 0;
}

/* ---- one file ------------------------------------------------------- */
