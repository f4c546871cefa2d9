/* edit.c - replacements of byte ranges in a buffer, and their unified diff
 * SPDX-License-Identifier: MIT
 *
 * Owns no state: edits arrive as an array the caller owns, offsets into
 * the original. normalize sorts them (a stable merge sort, insertions
 * first at a tie, so the order is the same on every platform) and
 * rejects conflicts; apply is one pass over the original; diff derives
 * the changed lines from the edits themselves (each edit touches the
 * whole lines around it; lines equal at both ends of such a block are
 * trimmed), so it costs O(size + edits) and needs no general LCS. The
 * hunks are those of `diff -u`: three lines of context, blocks closer
 * than seven lines share a hunk. Limits: out's maximum; the line tables
 * of the old and the new text, one size_t a line.
 */
#include "lib/fix/edit.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lib/util/str.h"

int
tg_edit_conflict(const struct tg_edit *a, const struct tg_edit *b)
{
	if (a->start > b->start) {
		const struct tg_edit *t = a;
		a = b;
		b = t;
	}
	if (a->start == a->end) /* insertions go first at a tie */
		return 0;
	if (b->start == a->start)
		return b->start < b->end;
	return b->start < a->end;
}

/* a before b in the applied order */
static int
before(const struct tg_edit *a, const struct tg_edit *b)
{
	if (a->start != b->start)
		return a->start < b->start;
	return a->start == a->end && b->start < b->end;
}

static void
merge_sort(struct tg_edit *e, struct tg_edit *tmp, size_t n)
{
	size_t w, i;

	for (w = 1; w < n; w *= 2) {
		for (i = 0; i < n; i += 2 * w) {
			size_t mid = i + w < n ? i + w : n;
			size_t hi = i + 2 * w < n ? i + 2 * w : n;
			size_t l = i, r = mid, k = i;

			while (l < mid && r < hi)
				tmp[k++] =
				    before(&e[r], &e[l]) ? e[r++] : e[l++];
			while (l < mid)
				tmp[k++] = e[l++];
			while (r < hi)
				tmp[k++] = e[r++];
		}
		memcpy(e, tmp, n * sizeof(*e));
	}
}

static int
same(const struct tg_edit *a, const struct tg_edit *b)
{
	return a->start == b->start && a->end == b->end && a->len == b->len &&
	       (a->len == 0 || memcmp(a->text, b->text, a->len) == 0);
}

int
tg_edit_normalize(struct tg_edit *e, size_t *n, size_t len, struct tg_err *err)
{
	struct tg_edit *tmp;
	size_t i, k, last = SIZE_MAX; /* the last replacement kept */

	for (i = 0; i < *n; i++)
		if (e[i].start > e[i].end || e[i].end > len)
			return tg_err_set(err, TG_EINVAL,
					  "edit [%zu, %zu) outside the text "
					  "(%zu bytes)",
					  e[i].start, e[i].end, len);
	if (*n > 1) {
		if (*n > SIZE_MAX / sizeof(*tmp) ||
		    !(tmp = malloc(*n * sizeof(*tmp))))
			return tg_err_set(err, TG_ENOMEM, "out of memory");
		merge_sort(e, tmp, *n);
		free(tmp);
	}
	for (i = k = 0; i < *n; i++) {
		size_t j;
		int dup = 0;

		/* an identical edit is at the same start: look back there */
		for (j = k; j-- > 0 && e[j].start == e[i].start;)
			if (same(&e[j], &e[i]))
				dup = 1;
		if (dup)
			continue;
		if (last != SIZE_MAX && tg_edit_conflict(&e[last], &e[i]))
			return tg_err_set(err, TG_EINVAL,
					  "edits [%zu, %zu) and [%zu, %zu) "
					  "overlap",
					  e[last].start, e[last].end,
					  e[i].start, e[i].end);
		e[k] = e[i];
		if (e[k].start < e[k].end &&
		    (last == SIZE_MAX || e[k].end > e[last].end))
			last = k;
		k++;
	}
	*n = k;
	return 0;
}

void
tg_edit_eol(const char *src, const char *lf, size_t len, size_t at, char *text,
	    size_t tlen)
{
	const char *q = at < len ? memchr(lf + at, '\n', len - at) : NULL;
	size_t k;

	if (!q && at)
		q = memrchr(lf, '\n', at < len ? at : len);
	if (!q || src[q - lf] != '\r')
		return;
	for (k = 0; k < tlen; k++) {
		if (text[k] == '\r' && k + 1 < tlen && text[k + 1] == '\n')
			k++; /* a CRLF of the text stays */
		else if (text[k] == '\n')
			text[k] = '\r';
	}
}

int
tg_edit_apply(const char *src, size_t len, const struct tg_edit *e, size_t n,
	      struct tg_buf *out)
{
	size_t i, pos = 0;

	for (i = 0; i < n; i++) {
		tg_buf_add(out, src + pos, e[i].start - pos);
		tg_buf_add(out, e[i].text, e[i].len);
		pos = e[i].end;
	}
	tg_buf_add(out, src + pos, len - pos);
	return tg_buf_error(out);
}

/* Composition: the edits of a (as the text they wrote in mid) and of b
 * (as the text of mid they replace) are intervals of mid; those that
 * overlap or touch form clusters, disjoint and at least one byte of mid
 * apart, each of which is one edit of src. Every edit of a before a
 * cluster ends before it (else it would touch it), so the cluster's
 * start in src is its start in mid less what those edits added, and
 * its text in fin starts where it starts in mid plus what the edits of
 * b before it added. O(na + nb). */
int
tg_edit_compose(const struct tg_edit *a, size_t na, const struct tg_edit *b,
		size_t nb, const char *fin, size_t flen, struct tg_edit **out,
		size_t *nout)
{
	size_t i = 0, j = 0, n = 0;
	/* what the edits of a, and of b, before the next cluster added
	 * (may be negative: kept as two counts) */
	size_t a_add = 0, a_rem = 0, b_add = 0, b_rem = 0;

	*out = NULL;
	*nout = 0;
	if (na + nb && !(*out = malloc((na + nb) * sizeof(**out))))
		return TG_ENOMEM;
	while (i < na || j < nb) {
		size_t cs, ce, ca_add = 0, ca_rem = 0, cb_add = 0, cb_rem = 0;
		size_t s, t, fs, fe;
		int any = 1;

		/* the first interval left: an edit of a where it sits in
		 * mid, or one of b */
		if (i < na &&
		    (j >= nb || a[i].start + a_add - a_rem <= b[j].start))
			cs = a[i].start + a_add - a_rem;
		else
			cs = b[j].start;
		ce = cs;
		while (any) {
			any = 0;
			if (i < na) {
				size_t ms = a[i].start + a_add + ca_add -
					    a_rem - ca_rem;

				if (ms <= ce) {
					if (ms + a[i].len > ce)
						ce = ms + a[i].len;
					ca_add += a[i].len;
					ca_rem += a[i].end - a[i].start;
					i++;
					any = 1;
				}
			}
			if (j < nb && b[j].start <= ce) {
				if (b[j].end > ce)
					ce = b[j].end;
				cb_add += b[j].len;
				cb_rem += b[j].end - b[j].start;
				j++;
				any = 1;
			}
		}
		s = cs + a_rem - a_add;
		t = ce + a_rem + ca_rem - a_add - ca_add;
		fs = cs + b_add - b_rem;
		fe = ce + b_add + cb_add - b_rem - cb_rem;
		if (fe > flen || fs > fe) {
			free(*out);
			*out = NULL;
			return TG_EINVAL; /* not b's mid: a bug */
		}
		if (s < t || fs < fe) { /* else two empty insertions */
			(*out)[n].start = s;
			(*out)[n].end = t;
			(*out)[n].text = fin + fs;
			(*out)[n].len = fe - fs;
			n++;
		}
		a_add += ca_add;
		a_rem += ca_rem;
		b_add += cb_add;
		b_rem += cb_rem;
	}
	*nout = n;
	return 0;
}

/* The offsets at which the lines of s[0..len) start, and len last:
 * lines (*nl of them) are [(*ls)[k], (*ls)[k + 1]). */
static int
line_starts(const char *s, size_t len, size_t **ls, size_t *nl)
{
	const char *p = s, *q;
	size_t n = 1, k = 0;

	while ((q = memchr(p, '\n', len - (size_t)(p - s))) && q + 1 < s + len)
		n++, p = q + 1;
	if (!(*ls = malloc((n + 1) * sizeof(**ls))))
		return TG_ENOMEM;
	p = s;
	if (len) {
		(*ls)[k++] = 0;
		while ((q = memchr(p, '\n', len - (size_t)(p - s))) &&
		       q + 1 < s + len) {
			p = q + 1;
			(*ls)[k++] = (size_t)(p - s);
		}
	}
	(*ls)[k] = len;
	*nl = k;
	return 0;
}

/* The line holding offset off (a line start maps to its own line;
 * off == len to the line count). */
static size_t
line_of(const size_t *ls, size_t nl, size_t off)
{
	size_t lo = 0, hi = nl;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (ls[mid + 1] <= off)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

struct side {
	const char *s;
	const size_t *ls;
	size_t nl;
};

static int
line_eq(const struct side *a, size_t i, const struct side *b, size_t j)
{
	size_t la = a->ls[i + 1] - a->ls[i], lb = b->ls[j + 1] - b->ls[j];

	return la == lb && memcmp(a->s + a->ls[i], b->s + b->ls[j], la) == 0;
}

/* A changed block: old lines [oa, ob), new lines [na, nb). */
struct block {
	size_t oa, ob, na, nb;
};

static void
range(struct tg_buf *out, size_t start, size_t count)
{
	if (count == 1)
		tg_buf_addf(out, "%zu", start + 1);
	else
		tg_buf_addf(out, "%zu,%zu", count ? start + 1 : start, count);
}

static void
line(struct tg_buf *out, char tag, const struct side *sd, size_t k)
{
	size_t a = sd->ls[k], b = sd->ls[k + 1];

	tg_buf_addc(out, tag);
	tg_buf_add(out, sd->s + a, b - a);
	if (sd->s[b - 1] != '\n')
		tg_buf_adds(out, "\n\\ No newline at end of file\n");
}

#define CONTEXT 3

static void
hunk(struct tg_buf *out, const struct side *o, const struct side *nw,
     const struct block *b, size_t nb)
{
	size_t os = b[0].oa > CONTEXT ? b[0].oa - CONTEXT : 0;
	size_t oe =
	    b[nb - 1].ob + CONTEXT < o->nl ? b[nb - 1].ob + CONTEXT : o->nl;
	size_t ns = b[0].na - (b[0].oa - os);
	size_t ne = b[nb - 1].nb + (oe - b[nb - 1].ob);
	size_t i, k = os;

	tg_buf_adds(out, "@@ -");
	range(out, os, oe - os);
	tg_buf_adds(out, " +");
	range(out, ns, ne - ns);
	tg_buf_adds(out, " @@\n");
	for (i = 0; i < nb; i++) {
		for (; k < b[i].oa; k++)
			line(out, ' ', o, k);
		for (; k < b[i].ob; k++)
			line(out, '-', o, k);
		for (size_t j = b[i].na; j < b[i].nb; j++)
			line(out, '+', nw, j);
	}
	for (; k < oe; k++)
		line(out, ' ', o, k);
}

/* Whether path's byte at p must be escaped in a diff header: a control
 * byte, '"', '\\', or a byte of invalid UTF-8 or of a C1 control
 * (what a terminal obeys); *n: the bytes of the character at p. */
static int
header_escapes(const char *p, size_t left, size_t *n)
{
	unsigned char c = (unsigned char)*p;

	*n = 1;
	if (c < 0x20 || c == 0x7f || c == '"' || c == '\\')
		return 1;
	if (c < 0x80)
		return 0;
	*n = tg_str_utf8_seq(p, left);
	if (*n == 0 || (c == 0xc2 && (unsigned char)p[1] < 0xa0)) {
		*n = 1;
		return 1;
	}
	return 0;
}

/* One header line, "--- a/PATH": a path holding a byte that
 * header_escapes is written as git writes it, in double quotes with C
 * escapes (\t, \n, \", \\, else \ooo), which GNU patch and git apply
 * read back; any other path as it is. */
static void
header(struct tg_buf *out, const char *prefix, const char *path)
{
	static const char names[] = "abtnvfr";
	size_t len = strlen(path), i, n;

	for (i = 0; i < len; i += n)
		if (header_escapes(path + i, len - i, &n))
			break;
	if (i == len) {
		tg_buf_addf(out, "%s%s\n", prefix, path);
		return;
	}
	tg_buf_addf(out, "%.4s\"%s", prefix, prefix + 4);
	for (i = 0; i < len; i += n) {
		unsigned char c = (unsigned char)path[i];

		if (!header_escapes(path + i, len - i, &n))
			tg_buf_add(out, path + i, n);
		else if (c == '"' || c == '\\')
			tg_buf_addf(out, "\\%c", c);
		else if (c >= 7 && c <= 13)
			tg_buf_addf(out, "\\%c", names[c - 7]);
		else
			tg_buf_addf(out, "\\%03o", c);
	}
	tg_buf_add(out, "\"\n", 2);
}

int
tg_edit_diff(const char *path, const char *src, size_t len,
	     const struct tg_edit *e, size_t n, struct tg_buf *out)
{
	struct tg_buf nb = TG_BUF_INIT;
	size_t *ols = NULL, *nls = NULL, onl, nnl, i, nblk = 0, first;
	struct block *blk = NULL;
	struct side o, nw;
	long long delta = 0;
	int rc;

	nb.max = out->max;
	if ((rc = tg_edit_apply(src, len, e, n, &nb)))
		goto out;
	if ((rc = line_starts(src, len, &ols, &onl)) ||
	    (rc = line_starts(nb.data ? nb.data : "", nb.len, &nls, &nnl)))
		goto out;
	if (n && !(blk = malloc(n * sizeof(*blk)))) {
		rc = TG_ENOMEM;
		goto out;
	}
	o = (struct side){src, ols, onl};
	nw = (struct side){nb.data, nls, nnl};
	for (i = 0; i < n; i++) {
		/* the whole lines around edit i and those it merges with */
		size_t oa = line_of(ols, onl, e[i].start), ob, na;
		long long before = delta;

		for (;;) {
			delta += (long long)e[i].len -
				 (long long)(e[i].end - e[i].start);
			ob = line_of(ols, onl, e[i].end);
			if (ob < onl)
				ob++;
			if (i + 1 < n && e[i + 1].start < ols[ob])
				i++;
			else
				break;
		}
		na = line_of(nls, nnl, (size_t)((long long)ols[oa] + before));
		blk[nblk] = (struct block){
		    oa, ob, na,
		    line_of(nls, nnl, (size_t)((long long)ols[ob] + delta))};
		/* trim the lines equal at both ends */
		while (blk[nblk].oa < blk[nblk].ob &&
		       blk[nblk].na < blk[nblk].nb &&
		       line_eq(&o, blk[nblk].oa, &nw, blk[nblk].na))
			blk[nblk].oa++, blk[nblk].na++;
		while (blk[nblk].oa < blk[nblk].ob &&
		       blk[nblk].na < blk[nblk].nb &&
		       line_eq(&o, blk[nblk].ob - 1, &nw, blk[nblk].nb - 1))
			blk[nblk].ob--, blk[nblk].nb--;
		if (blk[nblk].oa < blk[nblk].ob || blk[nblk].na < blk[nblk].nb)
			nblk++;
	}
	if (nblk) {
		header(out, "--- a/", path);
		header(out, "+++ b/", path);
		for (first = 0, i = 1; i <= nblk; i++)
			if (i == nblk ||
			    blk[i].oa - blk[i - 1].ob > 2 * CONTEXT) {
				hunk(out, &o, &nw, blk + first, i - first);
				first = i;
			}
	}
	rc = tg_buf_error(out);
out:
	free(blk);
	free(nls);
	free(ols);
	tg_buf_release(&nb);
	return rc ? rc : tg_buf_error(out);
}
