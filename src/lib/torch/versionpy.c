/* versionpy.c - torch/version.py read as text, never executed
 * SPDX-License-Identifier: MIT
 *
 * A line is looked at only when it starts (at column 0 or indented) with
 * one of the field names followed by '=' or ':'. Its value must be a
 * plain string literal ('...' or "...", no prefix, no backslash), None,
 * True or False, then only blanks or a comment. Anything else assigned to
 * a field (a call, a name, an f-string, an assignment inside a block) is
 * an error that names the line: the value cannot be known without running
 * the file, and torchgate does not run it (tg_versionpy_load_lenient,
 * for other packages' files, leaves such a field unknown instead). The
 * last assignment wins, as at module level in Python.
 */
#include "lib/torch/versionpy.h"

#include <stdlib.h>
#include <string.h>

#include "lib/util/file.h"
#include "lib/util/str.h"

static const char *const names[TG_VPY_NFIELDS] = {
    "__version__", "cuda", "hip", "rocm", "xpu", "git_version", "debug",
};

const char *
tg_versionpy_name(enum tg_versionpy_field f)
{
	return names[f];
}

void
tg_versionpy_release(struct tg_versionpy *vp)
{
	size_t k;

	for (k = 0; k < TG_VPY_NFIELDS; k++) {
		free(vp->f[k].s);
		vp->f[k].s = NULL;
		vp->f[k].set = 0;
	}
}

static int
is_ident(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '_';
}

static size_t
skip_blank(const char *s, size_t i, size_t e)
{
	while (i < e && (s[i] == ' ' || s[i] == '\t'))
		i++;
	return i;
}

/* Parse the value at s[i..e); 0 and *val set, -1 with *why set, or
 * TG_ENOMEM. */
static int
parse_value(const char *s, size_t i, size_t e, struct tg_pyval *val, int *word,
	    const char **why)
{
	size_t j;
	const char *lit = NULL;

	if (i < e && (s[i] == '\'' || s[i] == '"')) {
		char q = s[i];

		j = i + 1;
		while (j < e && s[j] != q && s[j] != '\\')
			j++;
		if (j >= e || s[j] != q) {
			*why = j < e ? "a string with escapes"
				     : "an unterminated string";
			return -1;
		}
		lit = s + i + 1;
		i = j + 1;
		val->s = tg_str_ndup(lit, j - (size_t)(lit - s));
		if (!val->s)
			return TG_ENOMEM;
	} else {
		static const char *const words[] = {"None", "True", "False"};
		size_t k;

		for (k = 0; k < 3; k++) {
			size_t n = strlen(words[k]);

			if (e - i >= n && memcmp(s + i, words[k], n) == 0 &&
			    (i + n == e || !is_ident(s[i + n]))) {
				val->s = k ? tg_str_ndup(words[k], n) : NULL;
				if (k && !val->s)
					return TG_ENOMEM;
				lit = words[k];
				*word = 1;
				i += n;
				break;
			}
		}
		if (!lit) {
			*why = "not a literal";
			return -1;
		}
	}
	i = skip_blank(s, i, e);
	if (i < e && s[i] != '#') {
		free(val->s);
		val->s = NULL;
		*why = "not a literal";
		return -1;
	}
	val->set = 1;
	return 0;
}

static int
parse(struct tg_versionpy *vp, const char *s, size_t len, const char *file,
      int lenient, struct tg_err *err)
{
	size_t i = 0, line = 0, bad;

	memset(vp, 0, sizeof(*vp));
	if (tg_str_has_nul(s, len))
		return tg_err_set(err, TG_EINVAL,
				  "cannot parse '%s': binary data (a NUL byte)",
				  file);
	if (!tg_str_utf8_valid(s, len, &bad))
		return tg_err_set(
		    err, TG_EINVAL,
		    "cannot parse '%s': invalid UTF-8 at byte %zu", file, bad);
	while (i < len) {
		size_t e = i, nl, b, k, n;
		struct tg_pyval val = {0, NULL, 0};
		const char *why = NULL;
		int word = 0;

		/* Python's universal newlines: \n, \r\n and a lone \r all
		 * end a line */
		while (e < len && s[e] != '\n' && s[e] != '\r')
			e++;
		nl = e;
		if (e + 1 < len && s[e] == '\r' && s[e + 1] == '\n')
			nl++;
		line++;
		b = skip_blank(s, i, e);
		for (k = 0; k < TG_VPY_NFIELDS; k++) {
			n = strlen(names[k]);
			if (e - b > n && memcmp(s + b, names[k], n) == 0 &&
			    !is_ident(s[b + n]))
				break;
		}
		if (k < TG_VPY_NFIELDS) {
			size_t j = skip_blank(s, b + n, e);

			if (j < e && s[j] == ':') {
				/* annotation: a type expression, no '=' */
				j++;
				while (j < e && s[j] != '=' && s[j] != '#' &&
				       s[j] != '(' && s[j] != '\'' &&
				       s[j] != '"')
					j++;
			}
			if (j < e && s[j] == '=' &&
			    !(j + 1 < e && s[j + 1] == '=')) {
				if (b != i) {
					why = "assigned inside a block";
				} else {
					j = skip_blank(s, j + 1, e);
					if (parse_value(s, j, e, &val, &word,
							&why) == TG_ENOMEM) {
						tg_versionpy_release(vp);
						return tg_err_set(
						    err, TG_ENOMEM,
						    "out of memory reading "
						    "'%s'",
						    file);
					}
				}
			} else if (j < e && s[j] != '.' && s[j] != '[') {
				why = "not a plain assignment";
			}
			if (why && lenient) {
				/* the last assignment wins: unknown now */
				free(vp->f[k].s);
				vp->f[k].s = NULL;
				vp->f[k].set = 0;
				vp->unknown[k] = line;
				free(val.s);
				val.set = 0;
				why = NULL;
			} else if (why) {
				tg_versionpy_release(vp);
				return tg_err_set(err, TG_EINVAL,
						  "cannot parse '%s': line "
						  "%zu: %s is %s",
						  file, line, names[k], why);
			}
			if (!why && val.set) {
				int is_bool = word && val.s;

				if ((k == TG_VPY_DEBUG) != is_bool) {
					free(val.s);
					tg_versionpy_release(vp);
					return tg_err_set(
					    err, TG_EINVAL,
					    "cannot parse '%s': line %zu: %s "
					    "is "
					    "not %s",
					    file, line, names[k],
					    k == TG_VPY_DEBUG
						? "True or False"
						: "a string or None");
				}
				free(vp->f[k].s);
				vp->f[k] = val;
				vp->f[k].line = line;
				vp->unknown[k] = 0;
			}
		}
		i = nl + 1;
	}
	return 0;
}

int
tg_versionpy_parse(struct tg_versionpy *vp, const char *s, size_t len,
		   const char *file, struct tg_err *err)
{
	return parse(vp, s, len, file, 0, err);
}

static int
load(struct tg_versionpy *vp, const char *path, int *absent, int lenient,
     struct tg_err *err)
{
	char *text = NULL;
	size_t len;
	int rc;

	memset(vp, 0, sizeof(*vp));
	rc = tg_file_read(path, TG_VERSIONPY_MAX, &text, &len, absent, err);
	if (rc || !text)
		return rc;
	rc = parse(vp, text, len, path, lenient, err);
	free(text);
	return rc;
}

int
tg_versionpy_load(struct tg_versionpy *vp, const char *path, int *absent,
		  struct tg_err *err)
{
	return load(vp, path, absent, 0, err);
}

int
tg_versionpy_load_lenient(struct tg_versionpy *vp, const char *path,
			  int *absent, struct tg_err *err)
{
	return load(vp, path, absent, 1, err);
}
