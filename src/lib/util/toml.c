/* toml.c - an exact reader for TOML 1.0 documents
 * SPDX-License-Identifier: MIT
 *
 * A recursive-descent reader over the bytes, building a tree of
 * tg_toml_value (toml.h). The document is first checked to be UTF-8
 * without NUL bytes; then each line is a table header, a key/value pair,
 * a comment or blank. Tables carry flags that enforce TOML's rules on
 * defining things once: a table named by a header is EXPLICIT (a second
 * header for it is an error), one created on the way to a deeper name is
 * IMPLICIT (a later header may define it), one created by a dotted key
 * is DOTTED (no header may define it afterwards), inline tables and
 * arrays written as values are FROZEN (nothing may add to them), and an
 * array made of [[headers]] is AOT. Nesting of values is bounded by
 * TG_TOML_DEPTH_MAX, so the recursion is too; each value costs one
 * allocation plus its text, so memory is linear in the input. A table
 * of more than INDEX_MIN keys gets a hash index (open addressing, at
 * most half full), so that defining a key, which first looks it up, is
 * not a scan of the table: 115,000 keys took 20 to 30 s that way.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lib/util/buf.h"
#include "lib/util/str.h"
#include "lib/util/toml.h"
#include "lib/util/grow.h"

enum {
	F_EXPLICIT = 1,
	F_IMPLICIT = 2,
	F_DOTTED = 4,
	F_FROZEN = 8,
	F_AOT = 16,
};

struct rd {
	const char *s;
	size_t len, i, line, bol; /* bol: offset of the line's first byte */
	const char *name;
	struct tg_err *err;
	int rc;
};

static int
fail(struct rd *r, int code, const char *why)
{
	if (!r->rc) {
		r->rc = code;
		if (code == TG_ENOMEM)
			tg_err_set(r->err, code, "out of memory");
		else
			tg_err_set(r->err, code,
				   "cannot parse '%s': line %zu, column %zu: "
				   "%s",
				   r->name, r->line, r->i - r->bol + 1, why);
	}
	return r->rc;
}

static struct tg_toml_value *
new_value(struct rd *r, enum tg_toml_type type)
{
	struct tg_toml_value *v = calloc(1, sizeof(*v));

	if (!v) {
		fail(r, TG_ENOMEM, NULL);
		return NULL;
	}
	v->type = type;
	v->line = r->line;
	return v;
}

void
tg_toml_free(struct tg_toml_value *v)
{
	size_t k;

	if (!v)
		return;
	for (k = 0; k < v->n; k++) {
		if (v->keys)
			free(v->keys[k]);
		tg_toml_free(v->items[k]);
	}
	free(v->keys);
	free(v->items);
	free(v->str);
	free(v->index);
	free(v);
}

#define INDEX_MIN 16

static size_t
key_hash(const char *key)
{
	uint64_t h = 1469598103934665603ULL; /* FNV-1a */

	for (; *key; key++)
		h = (h ^ (unsigned char)*key) * 1099511628211ULL;
	return (size_t)h;
}

static void
index_put(size_t *index, size_t cap, const char *key, size_t k)
{
	size_t i = key_hash(key) & (cap - 1);

	while (index[i])
		i = (i + 1) & (cap - 1);
	index[i] = k + 1;
}

/* Keep t's index able to take one more key: built once the table holds
 * INDEX_MIN keys, doubled when it would be over half full. */
static int
index_grow(struct tg_toml_value *t)
{
	size_t cap = t->index_cap ? t->index_cap * 2 : 64, k, *ix;

	if (t->n + 1 < INDEX_MIN ||
	    (t->index && 2 * (t->n + 1) <= t->index_cap))
		return 0;
	while (2 * (t->n + 1) > cap)
		cap *= 2;
	if (cap > SIZE_MAX / sizeof(*ix) || !(ix = calloc(cap, sizeof(*ix))))
		return TG_ENOMEM;
	for (k = 0; k < t->n; k++)
		index_put(ix, cap, t->keys[k], k);
	free(t->index);
	t->index = ix;
	t->index_cap = cap;
	return 0;
}

/* Append item (and key, owned, for a table) to c; on failure both are
 * freed. */
static int
append(struct rd *r, struct tg_toml_value *c, char *key,
       struct tg_toml_value *item)
{
	if (c->n == c->cap) {
		/* keys (a table's) and items grow to one capacity */
		size_t ic = c->cap, kc = c->cap;

		if (TG_GROW(c->items, c->n + 1, ic) ||
		    (c->type == TG_TOML_TABLE &&
		     TG_GROW(c->keys, c->n + 1, kc)))
			goto oom;
		c->cap = ic;
	}
	if (c->type == TG_TOML_TABLE) {
		if (index_grow(c))
			goto oom;
		c->keys[c->n] = key;
		if (c->index)
			index_put(c->index, c->index_cap, key, c->n);
	}
	c->items[c->n++] = item;
	return 0;
oom:
	free(key);
	tg_toml_free(item);
	return fail(r, TG_ENOMEM, NULL);
}

const struct tg_toml_value *
tg_toml_get(const struct tg_toml_value *t, const char *key)
{
	size_t k;

	if (!t || t->type != TG_TOML_TABLE)
		return NULL;
	if (t->index) {
		for (k = key_hash(key) & (t->index_cap - 1); t->index[k];
		     k = (k + 1) & (t->index_cap - 1))
			if (strcmp(t->keys[t->index[k] - 1], key) == 0)
				return t->items[t->index[k] - 1];
		return NULL;
	}
	for (k = 0; k < t->n; k++)
		if (strcmp(t->keys[k], key) == 0)
			return t->items[k];
	return NULL;
}

static struct tg_toml_value *
lookup(struct tg_toml_value *t, const char *key)
{
	return (struct tg_toml_value *)tg_toml_get(t, key);
}

static int
at_end(const struct rd *r)
{
	return r->i >= r->len;
}

static char
peek(const struct rd *r, size_t ahead)
{
	return r->i + ahead < r->len ? r->s[r->i + ahead] : '\0';
}

static void
skip_ws(struct rd *r)
{
	while (!at_end(r) && (r->s[r->i] == ' ' || r->s[r->i] == '\t'))
		r->i++;
}

/* A control character TOML allows nowhere but where it says (tab is
 * allowed in comments and strings). */
static int
is_ctrl(unsigned char c)
{
	return (c < 0x20 && c != '\t') || c == 0x7f;
}

/* At '\n' or "\r\n": step over it and count the line. */
static int
newline(struct rd *r)
{
	if (peek(r, 0) == '\n') {
		r->i++;
	} else if (peek(r, 0) == '\r' && peek(r, 1) == '\n') {
		r->i += 2;
	} else {
		return 0;
	}
	r->line++;
	r->bol = r->i;
	return 1;
}

static int
comment(struct rd *r)
{
	if (peek(r, 0) != '#')
		return 0;
	for (r->i++; !at_end(r) && r->s[r->i] != '\n'; r->i++)
		if (is_ctrl((unsigned char)r->s[r->i]) &&
		    !(r->s[r->i] == '\r' && peek(r, 1) == '\n'))
			return fail(r, TG_EINVAL,
				    "a control character in a comment");
	return 0;
}

/* Spaces, then an optional comment, then a newline or the end. */
static int
end_of_line(struct rd *r, const char *what)
{
	skip_ws(r);
	if (comment(r))
		return r->rc;
	if (at_end(r) || newline(r))
		return 0;
	return fail(r, TG_EINVAL, what);
}

/* Blank lines, comments and newlines inside an array. */
static int
skip_ws_nl(struct rd *r)
{
	for (;;) {
		skip_ws(r);
		if (comment(r))
			return r->rc;
		if (!newline(r))
			return 0;
	}
}

static void
put_utf8(struct tg_buf *b, unsigned long cp)
{
	if (cp < 0x80) {
		tg_buf_addc(b, (char)cp);
	} else if (cp < 0x800) {
		tg_buf_addc(b, (char)(0xc0 | (cp >> 6)));
		tg_buf_addc(b, (char)(0x80 | (cp & 0x3f)));
	} else if (cp < 0x10000) {
		tg_buf_addc(b, (char)(0xe0 | (cp >> 12)));
		tg_buf_addc(b, (char)(0x80 | ((cp >> 6) & 0x3f)));
		tg_buf_addc(b, (char)(0x80 | (cp & 0x3f)));
	} else {
		tg_buf_addc(b, (char)(0xf0 | (cp >> 18)));
		tg_buf_addc(b, (char)(0x80 | ((cp >> 12) & 0x3f)));
		tg_buf_addc(b, (char)(0x80 | ((cp >> 6) & 0x3f)));
		tg_buf_addc(b, (char)(0x80 | (cp & 0x3f)));
	}
}

/* A backslash escape of a basic string, at the byte after '\'. */
static int
escape(struct rd *r, struct tg_buf *b)
{
	static const char from[] = "btnfr\"\\", to[] = "\b\t\n\f\r\"\\";
	const char *p;
	char c = peek(r, 0);
	size_t n, k;
	unsigned long cp = 0;

	if (c && (p = strchr(from, c)) != NULL) {
		tg_buf_addc(b, to[p - from]);
		r->i++;
		return 0;
	}
	if (c != 'u' && c != 'U')
		return fail(r, TG_EINVAL, "an unknown escape in a string");
	n = c == 'u' ? 4 : 8;
	for (k = 1; k <= n; k++) {
		char h = peek(r, k);
		int d = h >= '0' && h <= '9'   ? h - '0'
			: h >= 'a' && h <= 'f' ? h - 'a' + 10
			: h >= 'A' && h <= 'F' ? h - 'A' + 10
					       : -1;

		if (d < 0)
			return fail(r, TG_EINVAL,
				    "a \\u or \\U escape needs hex digits");
		cp = cp * 16 + (unsigned long)d;
	}
	if (cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		return fail(r, TG_EINVAL,
			    "an escape that is not a Unicode scalar value");
	put_utf8(b, cp);
	r->i += n + 1;
	return 0;
}

/* A string of any of the four kinds, at its opening quote, into b. */
static int
string(struct rd *r, struct tg_buf *b, int allow_multi)
{
	char q = peek(r, 0);
	int multi = peek(r, 1) == q && peek(r, 2) == q;

	tg_buf_clear(b);
	if (multi && !allow_multi)
		return fail(r, TG_EINVAL, "a multi-line string as a key");
	r->i += multi ? 3 : 1;
	if (multi)
		newline(r); /* a newline right after the quotes is trimmed */
	for (;;) {
		unsigned char c;

		if (at_end(r))
			return fail(r, TG_EINVAL, "an unterminated string");
		c = (unsigned char)r->s[r->i];
		if (c == (unsigned char)q) {
			if (!multi) {
				r->i++;
				break;
			}
			if (peek(r, 1) == q && peek(r, 2) == q) {
				/* up to two quotes may end the content */
				size_t extra = 0;

				while (extra < 2 && peek(r, 3 + extra) == q)
					extra++;
				tg_buf_add(b, r->s + r->i, extra);
				r->i += 3 + extra;
				break;
			}
			tg_buf_addc(b, (char)c);
			r->i++;
		} else if (c == '\n' || (c == '\r' && peek(r, 1) == '\n')) {
			if (!multi)
				return fail(r, TG_EINVAL,
					    "an unterminated string");
			tg_buf_addc(b, '\n');
			newline(r);
		} else if (c == '\\' && q == '"') {
			r->i++;
			if (multi) {
				/* a line-ending backslash trims what follows */
				size_t save = r->i, sline = r->line;

				skip_ws(r);
				if (newline(r)) {
					for (;;) {
						if (peek(r, 0) == ' ' ||
						    peek(r, 0) == '\t')
							r->i++;
						else if (!newline(r))
							break;
					}
					continue;
				}
				r->i = save;
				r->line = sline;
			}
			if (escape(r, b))
				return r->rc;
		} else if (is_ctrl(c)) {
			return fail(r, TG_EINVAL,
				    "a control character in a string");
		} else {
			tg_buf_addc(b, (char)c);
			r->i++;
		}
	}
	if (tg_buf_error(b))
		return fail(r, TG_ENOMEM, NULL);
	return 0;
}

static int
is_bare(char c)
{
	return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
	       (c >= '0' && c <= '9') || c == '_' || c == '-';
}

/* A key (bare or quoted, possibly dotted) into parts[0..*n). */
#define KEY_PARTS_MAX 32
static int
key(struct rd *r, char **parts, size_t *n, struct tg_buf *b)
{
	*n = 0;
	for (;;) {
		char c;

		skip_ws(r);
		c = peek(r, 0);
		if (c == '"' || c == '\'') {
			if (string(r, b, 0))
				return r->rc;
			if (memchr(b->data ? b->data : "", '\0', b->len))
				return fail(r, TG_EINVAL,
					    "a NUL character in a key");
		} else if (is_bare(c)) {
			size_t a = r->i;

			while (is_bare(peek(r, 0)))
				r->i++;
			tg_buf_clear(b);
			tg_buf_add(b, r->s + a, r->i - a);
		} else {
			return fail(r, TG_EINVAL, "expected a key");
		}
		if (*n == KEY_PARTS_MAX)
			return fail(r, TG_ELIMIT, "a key with too many parts");
		parts[*n] = tg_buf_error(b) ? NULL : tg_buf_detach(b);
		if (!parts[*n])
			return fail(r, TG_ENOMEM, NULL);
		(*n)++;
		skip_ws(r);
		if (peek(r, 0) != '.')
			return 0;
		r->i++;
	}
}

static void
free_parts(char **parts, size_t n)
{
	size_t k;

	for (k = 0; k < n; k++)
		free(parts[k]);
}

static int value(struct rd *r, struct tg_toml_value **out, struct tg_buf *b,
		 int depth);

/* The table named by part under t, created (with flags) when absent;
 * through an array of tables its last table. NULL after a failure. */
static struct tg_toml_value *
descend(struct rd *r, struct tg_toml_value *t, const char *part, unsigned flags,
	int via_dotted)
{
	struct tg_toml_value *c = lookup(t, part);
	char *k;

	if (c) {
		if (c->type == TG_TOML_ARRAY && (c->flags & F_AOT) &&
		    !via_dotted)
			return c->items[c->n - 1];
		if (c->type != TG_TOML_TABLE || (c->flags & F_FROZEN)) {
			fail(r, TG_EINVAL, "a key defined twice");
			return NULL;
		}
		if (via_dotted && (c->flags & F_EXPLICIT)) {
			fail(
			    r, TG_EINVAL,
			    "a dotted key adds to a table defined by a header");
			return NULL;
		}
		return c;
	}
	c = new_value(r, TG_TOML_TABLE);
	k = strdup(part);
	if (!c || !k) {
		free(k);
		tg_toml_free(c);
		fail(r, TG_ENOMEM, NULL);
		return NULL;
	}
	c->flags = flags;
	return append(r, t, k, c) ? NULL : c;
}

/* A [table] or [[array of tables]] header; *cur becomes it. */
static int
header(struct rd *r, struct tg_toml_value *root, struct tg_toml_value **cur,
       struct tg_buf *b)
{
	char *parts[KEY_PARTS_MAX];
	size_t n = 0, k;
	int aot = peek(r, 1) == '[';
	struct tg_toml_value *t = root, *c;

	r->i += aot ? 2 : 1;
	if (key(r, parts, &n, b))
		goto out;
	if (peek(r, 0) != ']' || (aot && peek(r, 1) != ']')) {
		fail(r, TG_EINVAL,
		     aot ? "expected ']]' after the table name"
			 : "expected ']' after the table name");
		goto out;
	}
	r->i += aot ? 2 : 1;
	for (k = 0; k + 1 < n && t; k++)
		t = descend(r, t, parts[k], F_IMPLICIT, 0);
	if (!t)
		goto out;
	c = lookup(t, parts[n - 1]);
	if (aot) {
		struct tg_toml_value *tab = new_value(r, TG_TOML_TABLE);

		if (!tab)
			goto out;
		tab->flags = F_EXPLICIT;
		if (!c) {
			char *kk = strdup(parts[n - 1]);

			c = new_value(r, TG_TOML_ARRAY);
			if (!c || !kk) {
				free(kk);
				tg_toml_free(c);
				tg_toml_free(tab);
				fail(r, TG_ENOMEM, NULL);
				goto out;
			}
			c->flags = F_AOT;
			if (append(r, t, kk, c)) {
				tg_toml_free(tab);
				goto out;
			}
		} else if (c->type != TG_TOML_ARRAY || !(c->flags & F_AOT)) {
			tg_toml_free(tab);
			fail(r, TG_EINVAL,
			     "an array of tables named like another key");
			goto out;
		}
		if (append(r, c, NULL, tab))
			goto out;
		*cur = tab;
	} else {
		if (!c) {
			c = descend(r, t, parts[n - 1], F_EXPLICIT, 0);
			if (!c)
				goto out;
			c->line = r->line;
		} else if (c->type != TG_TOML_TABLE ||
			   (c->flags & (F_EXPLICIT | F_DOTTED | F_FROZEN))) {
			fail(r, TG_EINVAL, "a table defined twice");
			goto out;
		} else {
			c->flags =
			    (c->flags & ~(unsigned)F_IMPLICIT) | F_EXPLICIT;
			c->line = r->line;
		}
		*cur = c;
	}
	end_of_line(r, "expected a newline after the table header");
out:
	free_parts(parts, n);
	return r->rc;
}

/* key = value, into table t. */
static int
keyval(struct rd *r, struct tg_toml_value *t, struct tg_buf *b, int depth)
{
	char *parts[KEY_PARTS_MAX];
	size_t n = 0, k;
	struct tg_toml_value *v = NULL;
	char *last;

	if (key(r, parts, &n, b))
		goto out;
	if (peek(r, 0) != '=') {
		fail(r, TG_EINVAL, "expected '=' after the key");
		goto out;
	}
	r->i++;
	skip_ws(r);
	for (k = 0; k + 1 < n && t; k++)
		t = descend(r, t, parts[k], F_DOTTED, 1);
	if (!t)
		goto out;
	if (lookup(t, parts[n - 1])) {
		fail(r, TG_EINVAL, "a key defined twice");
		goto out;
	}
	if (value(r, &v, b, depth))
		goto out;
	last = parts[n - 1];
	parts[n - 1] = NULL;
	append(r, t, last, v);
out:
	free_parts(parts, n);
	return r->rc;
}

static int
inline_table(struct rd *r, struct tg_toml_value *t, struct tg_buf *b, int depth)
{
	r->i++; /* '{' */
	skip_ws(r);
	if (peek(r, 0) == '}') {
		r->i++;
		return 0;
	}
	for (;;) {
		if (keyval(r, t, b, depth))
			return r->rc;
		skip_ws(r);
		if (peek(r, 0) == '}') {
			r->i++;
			return 0;
		}
		if (peek(r, 0) != ',')
			return fail(r, TG_EINVAL,
				    "expected ',' or '}' in an inline table");
		r->i++;
		skip_ws(r);
		if (peek(r, 0) == '}')
			return fail(r, TG_EINVAL,
				    "a trailing comma in an inline table");
	}
}

static int
array(struct rd *r, struct tg_toml_value *a, struct tg_buf *b, int depth)
{
	r->i++; /* '[' */
	for (;;) {
		struct tg_toml_value *v = NULL;

		if (skip_ws_nl(r))
			return r->rc;
		if (peek(r, 0) == ']') {
			r->i++;
			return 0;
		}
		if (value(r, &v, b, depth) || append(r, a, NULL, v))
			return r->rc;
		if (skip_ws_nl(r))
			return r->rc;
		if (peek(r, 0) == ']') {
			r->i++;
			return 0;
		}
		if (peek(r, 0) != ',')
			return fail(r, TG_EINVAL,
				    at_end(r) ? "an unterminated array"
					      : "expected ',' or ']' in an "
						"array");
		r->i++;
	}
}

/* Digits of base (10, 16, 8, 2) at s[*i], one at least, an underscore
 * only between two digits; *i moves past them. */
static int
digits(const char *s, size_t n, size_t *i, int base)
{
	size_t start = *i;

	for (;;) {
		char c = *i < n ? s[*i] : '\0';
		int ok = base == 16 ? (c >= '0' && c <= '9') ||
					  (c >= 'a' && c <= 'f') ||
					  (c >= 'A' && c <= 'F')
			 : base == 8 ? c >= '0' && c <= '7'
			 : base == 2 ? c == '0' || c == '1'
				     : c >= '0' && c <= '9';

		if (ok) {
			(*i)++;
		} else if (c == '_' && *i > start && *i + 1 < n &&
			   s[*i - 1] != '_') {
			(*i)++;
		} else {
			break;
		}
	}
	return *i > start && s[*i - 1] != '_';
}

/* n digits at s + i, as a number. */
static int
num(const char *s, size_t i, size_t n, int *out)
{
	size_t k;

	*out = 0;
	for (k = 0; k < n; k++) {
		if (s[i + k] < '0' || s[i + k] > '9')
			return 0;
		*out = *out * 10 + (s[i + k] - '0');
	}
	return 1;
}

/* HH:MM:SS[.frac] at s + *i. */
static int
time_ok(const char *s, size_t n, size_t *i)
{
	int h, m, sec;

	if (*i + 8 > n || s[*i + 2] != ':' || s[*i + 5] != ':' ||
	    !num(s, *i, 2, &h) || !num(s, *i + 3, 2, &m) ||
	    !num(s, *i + 6, 2, &sec) || h > 23 || m > 59 || sec > 60)
		return 0;
	*i += 8;
	if (*i < n && s[*i] == '.') {
		size_t f = ++*i;

		while (*i < n && s[*i] >= '0' && s[*i] <= '9')
			(*i)++;
		if (*i == f)
			return 0;
	}
	return 1;
}

/* A date, a time, or a date and time, with or without an offset. */
static int
datetime_ok(const char *s, size_t n)
{
	static const int mdays[] = {31, 29, 31, 30, 31, 30,
				    31, 31, 30, 31, 30, 31};
	size_t i = 0;
	int y, mo, d, oh, om;

	if (n >= 3 && s[2] == ':')
		return time_ok(s, n, &i) && i == n;
	if (n < 10 || s[4] != '-' || s[7] != '-' || !num(s, 0, 4, &y) ||
	    !num(s, 5, 2, &mo) || !num(s, 8, 2, &d) || mo < 1 || mo > 12 ||
	    d < 1 || d > mdays[mo - 1] ||
	    (mo == 2 && d == 29 &&
	     !(y % 4 == 0 && (y % 100 != 0 || y % 400 == 0))))
		return 0;
	i = 10;
	if (i == n)
		return 1;
	if (s[i] != 'T' && s[i] != 't' && s[i] != ' ')
		return 0;
	i++;
	if (!time_ok(s, n, &i))
		return 0;
	if (i == n)
		return 1;
	if ((s[i] == 'Z' || s[i] == 'z') && i + 1 == n)
		return 1;
	return (s[i] == '+' || s[i] == '-') && i + 6 == n && s[i + 3] == ':' &&
	       num(s, i + 1, 2, &oh) && num(s, i + 4, 2, &om) && oh <= 23 &&
	       om <= 59;
}

/* Whether the scalar text s[0..n) is a TOML integer, float, boolean or
 * date/time, as TOML 1.0's grammar writes them. */
static int
scalar_ok(const char *s, size_t n)
{
	size_t i = 0, start;

	if ((n == 4 && memcmp(s, "true", 4) == 0) ||
	    (n == 5 && memcmp(s, "false", 5) == 0))
		return 1;
	if (n >= 3 && (s[2] == ':' || (n >= 10 && s[4] == '-')))
		return datetime_ok(s, n);
	if (n >= 2 && s[0] == '0' &&
	    (s[1] == 'x' || s[1] == 'o' || s[1] == 'b')) {
		i = 2;
		return digits(s, n, &i,
			      s[1] == 'x'   ? 16
			      : s[1] == 'o' ? 8
					    : 2) &&
		       i == n;
	}
	if (n && (s[0] == '+' || s[0] == '-'))
		i = 1;
	if (n - i == 3 &&
	    (memcmp(s + i, "inf", 3) == 0 || memcmp(s + i, "nan", 3) == 0))
		return 1;
	start = i;
	if (!digits(s, n, &i, 10))
		return 0;
	if (s[start] == '0' && i - start > 1)
		return 0; /* no leading zeros */
	if (i < n && s[i] == '.') {
		i++;
		if (!digits(s, n, &i, 10))
			return 0;
	}
	if (i < n && (s[i] == 'e' || s[i] == 'E')) {
		i++;
		if (i < n && (s[i] == '+' || s[i] == '-'))
			i++;
		if (!digits(s, n, &i, 10))
			return 0;
	}
	return i == n;
}

static int
value(struct rd *r, struct tg_toml_value **out, struct tg_buf *b, int depth)
{
	char c = peek(r, 0);
	struct tg_toml_value *v;
	size_t a;

	if (depth >= TG_TOML_DEPTH_MAX)
		return fail(r, TG_ELIMIT, "values nested too deep");
	if (c == '"' || c == '\'') {
		v = new_value(r, TG_TOML_STRING);
		if (!v || string(r, b, 1)) {
			tg_toml_free(v);
			return r->rc;
		}
		v->len = b->len;
		v->str = tg_buf_detach(b);
		if (!v->str) {
			tg_toml_free(v);
			return fail(r, TG_ENOMEM, NULL);
		}
		*out = v;
		return 0;
	}
	if (c == '[' || c == '{') {
		v = new_value(r, c == '[' ? TG_TOML_ARRAY : TG_TOML_TABLE);
		if (!v)
			return r->rc;
		v->flags = F_FROZEN;
		if (c == '[' ? array(r, v, b, depth + 1)
			     : inline_table(r, v, b, depth + 1)) {
			tg_toml_free(v);
			return r->rc;
		}
		*out = v;
		return 0;
	}
	a = r->i;
	while (is_bare(peek(r, 0)) || peek(r, 0) == '.' || peek(r, 0) == ':' ||
	       peek(r, 0) == '+' ||
	       /* a date and a time apart by one space */
	       (peek(r, 0) == ' ' && r->i - a == 10 && peek(r, 1) >= '0' &&
		peek(r, 1) <= '9' && memchr(r->s + a, '-', 10)))
		r->i++;
	if (r->i == a)
		return fail(r, TG_EINVAL,
			    at_end(r) || strchr("\n\r,]}#", c)
				? "expected a value"
				: "not a TOML value");
	if (!scalar_ok(r->s + a, r->i - a)) {
		r->i = a;
		return fail(r, TG_EINVAL, "not a TOML value");
	}
	v = new_value(r, TG_TOML_OTHER);
	if (!v)
		return r->rc;
	v->str = malloc(r->i - a + 1);
	if (!v->str) {
		tg_toml_free(v);
		return fail(r, TG_ENOMEM, NULL);
	}
	memcpy(v->str, r->s + a, r->i - a);
	v->str[r->i - a] = '\0';
	v->len = r->i - a;
	*out = v;
	return 0;
}

int
tg_toml_parse(struct tg_toml_value **out, const char *src, size_t len,
	      const char *name, struct tg_err *err)
{
	struct rd r;
	struct tg_buf b = TG_BUF_INIT;
	struct tg_toml_value *root, *cur;
	const char *nul;
	size_t bad;

	*out = NULL;
	memset(&r, 0, sizeof(r));
	r.s = src;
	r.len = len;
	r.line = 1;
	r.name = name;
	r.err = err;
	/* UTF-8 without NUL bytes: the first bad byte */
	nul = memchr(src, '\0', len);
	bad = nul ? (size_t)(nul - src) : len;
	if (!tg_str_utf8_valid(src, bad, &bad) || nul) {
		for (r.i = 0; r.i < bad; r.i++)
			if (src[r.i] == '\n') {
				r.line++;
				r.bol = r.i + 1;
			}
		return fail(&r, TG_EINVAL,
			    src[bad] ? "invalid UTF-8" : "a NUL byte");
	}
	root = cur = new_value(&r, TG_TOML_TABLE);
	if (!root)
		return r.rc;
	root->flags = F_EXPLICIT;
	if (len >= 3 && memcmp(src, "\xef\xbb\xbf", 3) == 0)
		r.i = r.bol = 3; /* a byte order mark */
	while (!r.rc && !at_end(&r)) {
		char c;

		skip_ws(&r);
		c = peek(&r, 0);
		if (c == '#' || c == '\n' || c == '\r' || at_end(&r))
			end_of_line(&r, "a stray carriage return");
		else if (c == '[')
			header(&r, root, &cur, &b);
		else if (!keyval(&r, cur, &b, 0))
			end_of_line(&r, "expected a newline after the value");
	}
	tg_buf_release(&b);
	if (r.rc) {
		tg_toml_free(root);
		return r.rc;
	}
	*out = root;
	return 0;
}
