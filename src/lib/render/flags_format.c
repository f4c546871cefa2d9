/* flags_format.c - an extension's flags written out
 * SPDX-License-Identifier: MIT
 *
 * Writes straight through to a bounded struct tg_buf and checks it once
 * at the end, so output that did not fit is an error, never truncated.
 * Quoting: a word holding anything outside a safe set is put in single
 * quotes for the shell ('\'' for a quote); make words are shell-quoted
 * with '$' doubled and '#' escaped, so no path can run or cut a recipe;
 * args are one argument a line and refuse a line break. JSON is in
 * flags_json.c.
 */
#include "lib/render/flags_format.h"

#include <string.h>

int
tg_flags_format_parse(const char *name, enum tg_flags_format *out)
{
	static const char *const names[] = {"words", "args", "shell", "make",
					    "json"};
	size_t k;

	for (k = 0; k < sizeof(names) / sizeof(names[0]); k++)
		if (strcmp(name, names[k]) == 0) {
			*out = (enum tg_flags_format)k;
			return 0;
		}
	return TG_EINVAL;
}

static int
safe(const char *s)
{
	if (!*s)
		return 0;
	for (; *s; s++)
		if (!strchr("/._+,:=@%-", *s) && !(*s >= 'a' && *s <= 'z') &&
		    !(*s >= 'A' && *s <= 'Z') && !(*s >= '0' && *s <= '9'))
			return 0;
	return 1;
}

static void
sh_word(struct tg_buf *b, const char *s)
{
	if (safe(s)) {
		tg_buf_adds(b, s);
		return;
	}
	tg_buf_addc(b, '\'');
	for (; *s; s++) {
		if (*s == '\'')
			tg_buf_adds(b, "'\\''");
		else
			tg_buf_addc(b, *s);
	}
	tg_buf_addc(b, '\'');
}

/* The words of use, shell-quoted, space-separated, into b. */
static void
words(const struct tg_flags *f, unsigned use, struct tg_buf *b)
{
	size_t k, n = 0;

	for (k = 0; k < f->n; k++) {
		if (!(f->v[k].use & use))
			continue;
		if (n++)
			tg_buf_addc(b, ' ');
		sh_word(b, f->v[k].arg);
	}
}

/* NAME='words', the words quoted once more; 0 or w's failure */
static int
sh_var(struct tg_buf *b, const char *name, const struct tg_flags *f,
       unsigned use)
{
	struct tg_buf w = TG_BUF_INIT;
	const char *s;
	int r;

	words(f, use, &w);
	if ((r = tg_buf_error(&w))) {
		tg_buf_release(&w);
		return r;
	}
	tg_buf_addf(b, "%s='", name);
	for (s = w.data ? w.data : ""; *s; s++) {
		if (*s == '\'')
			tg_buf_adds(b, "'\\''");
		else
			tg_buf_addc(b, *s);
	}
	tg_buf_adds(b, "'\n");
	tg_buf_release(&w);
	return 0;
}

static void
mk_var(struct tg_buf *b, const char *name, const struct tg_flags *f,
       unsigned use)
{
	size_t k;
	const char *s;

	tg_buf_addf(b, "%s =", name);
	for (k = 0; k < f->n; k++) {
		if (!(f->v[k].use & use))
			continue;
		tg_buf_addc(b, ' ');
		if (safe(f->v[k].arg)) {
			tg_buf_adds(b, f->v[k].arg);
			continue;
		}
		tg_buf_addc(b, '\'');
		for (s = f->v[k].arg; *s; s++) {
			if (*s == '$')
				tg_buf_adds(b, "$$");
			else if (*s == '\'')
				tg_buf_adds(b, "'\\''");
			else if (*s == '#')
				tg_buf_adds(b, "\\#");
			else
				tg_buf_addc(b, *s);
		}
		tg_buf_addc(b, '\'');
	}
	tg_buf_addc(b, '\n');
}

int
tg_flags_format_write(const struct tg_flags *f, const struct tg_torch *t,
		      const char *name, int cuda, unsigned use,
		      enum tg_flags_format fmt, struct tg_buf *b,
		      struct tg_err *err)
{
	size_t k;
	int r = 0;

	if (!cuda)
		use &= ~(unsigned)TG_USE_NVCC;
	for (k = 0; k < f->n; k++)
		if ((fmt == TG_FFMT_ARGS || fmt == TG_FFMT_MAKE) &&
		    strpbrk(f->v[k].arg, "\n\r"))
			return tg_err_set(err, TG_EINVAL,
					  "cannot write '%s' as %s: it holds a "
					  "line break",
					  f->v[k].value,
					  fmt == TG_FFMT_MAKE ? "make"
							      : "one argument "
								"a line");
	switch (fmt) {
	case TG_FFMT_WORDS:
		words(f, use, b);
		tg_buf_addc(b, '\n');
		break;
	case TG_FFMT_ARGS:
		for (k = 0; k < f->n; k++)
			if (f->v[k].use & use) {
				tg_buf_adds(b, f->v[k].arg);
				tg_buf_addc(b, '\n');
			}
		break;
	case TG_FFMT_SHELL:
		r = sh_var(b, "TORCH_CFLAGS", f, TG_USE_CFLAGS);
		if (!r)
			r = sh_var(b, "TORCH_LIBS", f, TG_USE_LIBS);
		if (!r && cuda)
			r = sh_var(b, "TORCH_NVCC_FLAGS", f, TG_USE_NVCC);
		break;
	case TG_FFMT_MAKE:
		mk_var(b, "TORCH_CFLAGS", f, TG_USE_CFLAGS);
		mk_var(b, "TORCH_LIBS", f, TG_USE_LIBS);
		if (cuda)
			mk_var(b, "TORCH_NVCC_FLAGS", f, TG_USE_NVCC);
		break;
	case TG_FFMT_JSON:
		tg_flags_json_write(f, t, name, cuda, b);
		break;
	}
	if (!r)
		r = tg_buf_error(b);
	if (r)
		return tg_err_set(err, r, "%s",
				  r == TG_ENOMEM
				      ? "out of memory writing the flags"
				      : "the flags do not fit in memory");
	return 0;
}
