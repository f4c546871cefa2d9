/* requirement.c - PEP 508 dependency specifiers
 * SPDX-License-Identifier: MIT
 *
 * A recursive-descent parser over pep508_lex, one function per rule of
 * packaging's _parser.py, with the same error messages (in git's lower
 * case) and positions. With a cache, what the cache keeps (heads with
 * their names and extras, specifier sets with their versions, markers
 * with their nodes and strings) is taken from the cache's arena: no
 * allocation of its own per token, and all of it freed at once.
 */
#include "lib/pep/requirement.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lib/pep/pep508.h"
#include "lib/util/grow.h"

static int
syntax(struct tg_err *err, size_t pos, const char *msg)
{
	return tg_err_set_at(err, TG_EINVAL, pos, "%s", msg);
}

/* s[0..n) in a string of its own, or of a when a is not NULL. */
static char *
span_dup(struct tg_arena *a, const char *s, size_t n)
{
	char *p;

	if (a)
		return tg_arena_strndup(a, s, n);
	p = malloc(n + 1);

	if (p) {
		memcpy(p, s, n);
		p[n] = '\0';
	}
	return p;
}

static int
cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* With a, the array and the names are a's: the array is copied into a
 * piece twice its size when full. */
static int
add_extra(struct tg_requirement *req, const char *s, size_t n,
	  struct tg_arena *a)
{
	if (a && req->nextras == req->capextras) {
		size_t cap = req->capextras ? 2 * req->capextras : 4;
		char **v;

		if (cap > SIZE_MAX / sizeof(*v))
			return TG_ENOMEM;
		v = tg_arena_alloc(a, cap * sizeof(*v));
		if (!v)
			return TG_ENOMEM;
		if (req->nextras)
			memcpy(v, req->extras, req->nextras * sizeof(*v));
		req->extras = v;
		req->capextras = cap;
	} else if (!a &&
		   TG_GROW(req->extras, req->nextras + 1, req->capextras)) {
		return TG_ENOMEM;
	}
	req->extras[req->nextras] = span_dup(a, s, n);
	if (!req->extras[req->nextras])
		return TG_ENOMEM;
	req->nextras++;
	return 0;
}

/* extras = '[' ws? (IDENT (ws? ',' ws? IDENT)*)? ws? ']' */
static int
parse_extras(struct tg_pep508_lexer *lx, struct tg_requirement *req,
	     struct tg_arena *a, struct tg_err *err)
{
	size_t open, at, n, k, o;

	if (!tg_pep508_take(lx, TG_TOK_LBRACKET, &open, NULL))
		return 0;
	tg_pep508_ws(lx);
	if (tg_pep508_take(lx, TG_TOK_IDENTIFIER, &at, &n)) {
		if (add_extra(req, lx->s + at, n, a))
			return tg_err_set(err, TG_ENOMEM, "out of memory");
		for (;;) {
			tg_pep508_ws(lx);
			if (tg_pep508_peek(lx, TG_TOK_IDENTIFIER))
				return syntax(err, lx->pos,
					      "expected comma between extra "
					      "names");
			if (!tg_pep508_take(lx, TG_TOK_COMMA, NULL, NULL))
				break;
			tg_pep508_ws(lx);
			if (!tg_pep508_take(lx, TG_TOK_IDENTIFIER, &at, &n))
				return syntax(
				    err, lx->pos,
				    "expected extra name after comma");
			if (add_extra(req, lx->s + at, n, a))
				return tg_err_set(err, TG_ENOMEM,
						  "out of memory");
		}
	}
	tg_pep508_ws(lx);
	if (!tg_pep508_take(lx, TG_TOK_RBRACKET, NULL, NULL))
		return syntax(err, lx->pos,
			      "expected matching RIGHT_BRACKET for "
			      "LEFT_BRACKET, after extras");
	/* a set, printed sorted */
	if (req->nextras > 1)
		qsort(req->extras, req->nextras, sizeof(*req->extras), cmp_str);
	for (k = 0, o = 0; k < req->nextras; k++) {
		if (o && strcmp(req->extras[o - 1], req->extras[k]) == 0) {
			if (!a)
				free(req->extras[k]);
		} else {
			req->extras[o++] = req->extras[k];
		}
	}
	req->nextras = o;
	return 0;
}

/* The specifier text: the SPECIFIER tokens joined by ',', never longer
 * than the requirement (a byte of it for each byte taken), into an
 * array of the caller's. Past TG_BUF_DEFAULT_MAX it fails as the
 * tg_buf it once was did: out of memory. */
struct spectext {
	char *p;
	size_t len;
};

static int
spec_add(struct spectext *t, const char *s, size_t n)
{
	if (n > TG_BUF_DEFAULT_MAX || t->len > TG_BUF_DEFAULT_MAX - n)
		return TG_ENOMEM;
	memcpy(t->p + t->len, s, n);
	t->len += n;
	t->p[t->len] = '\0';
	return 0;
}

/* version_many = (SPECIFIER (ws? ',' ws? SPECIFIER)*)? */
static int
parse_version_many(struct tg_pep508_lexer *lx, struct spectext *spec,
		   struct tg_err *err)
{
	size_t at, n;

	while (tg_pep508_take(lx, TG_TOK_SPECIFIER, &at, &n)) {
		if (spec_add(spec, lx->s + at, n))
			return tg_err_set(err, TG_ENOMEM, "out of memory");
		if (tg_pep508_peek(lx, TG_TOK_PREFIX_TRAIL)) {
			int eq = (n >= 2 && memcmp(lx->s + at, "!=", 2) == 0) ||
				 (n >= 2 && memcmp(lx->s + at, "==", 2) == 0 &&
				  !(n >= 3 && lx->s[at + 2] == '='));
			return syntax(err, lx->pos + 1,
				      eq ? ".* suffix cannot be used with "
					   "pre-release, post-release, dev or "
					   "local versions"
					 : ".* suffix can only be used with "
					   "`==` or `!=` operators");
		}
		if (tg_pep508_peek(lx, TG_TOK_LOCAL_TRAIL))
			return syntax(err, lx->pos,
				      "local version label can only be used "
				      "with `==` or `!=` operators");
		tg_pep508_ws(lx);
		if (!tg_pep508_take(lx, TG_TOK_COMMA, NULL, NULL))
			break;
		if (spec_add(spec, ",", 1))
			return tg_err_set(err, TG_ENOMEM, "out of memory");
		tg_pep508_ws(lx);
	}
	return 0;
}

/* specifier = '(' ws? version_many ws? ')' | ws? version_many ws? */
static int
parse_specifier(struct tg_pep508_lexer *lx, struct spectext *spec,
		struct tg_err *err)
{
	size_t open;
	int paren = tg_pep508_take(lx, TG_TOK_LPAREN, &open, NULL), rc;

	tg_pep508_ws(lx);
	rc = parse_version_many(lx, spec, err);
	if (rc)
		return rc;
	tg_pep508_ws(lx);
	if (paren && !tg_pep508_take(lx, TG_TOK_RPAREN, NULL, NULL))
		return syntax(err, lx->pos,
			      "expected matching RIGHT_PARENTHESIS for "
			      "LEFT_PARENTHESIS, after version specifier");
	return 0;
}

/* Keep the marker text s (n bytes) and its marker m as the last one
 * found, when the text fits. */
static void
remember(struct tg_requirement_cache *mc, const char *s, size_t n,
	 struct tg_marker *m)
{
	if (n > sizeof(mc->last)) {
		mc->last_marker = NULL;
		return;
	}
	if (mc->last_marker != m || mc->last_len != n) {
		memcpy(mc->last, s, n);
		mc->last_len = n;
		mc->last_marker = m;
	}
}

/* The marker after ';'. With a cache: the marker runs to the end of the
 * requirement when it parses at all (what follows it must be the end),
 * and what the lexer sees before it is the ';' in every requirement,
 * so the rest of the text after ';' decides the marker: one that parsed
 * to the end is found by that text. */
static int
parse_marker_part(struct tg_pep508_lexer *lx, struct tg_requirement *req,
		  const char *expected, struct tg_requirement_cache *mc,
		  struct tg_err *err)
{
	size_t at;
	int rc;

	if (!tg_pep508_take(lx, TG_TOK_SEMICOLON, NULL, NULL))
		return tg_err_set_at(err, TG_EINVAL, lx->pos,
				     "expected %s or end", expected);
	at = lx->pos;
	if (mc) {
		size_t n = lx->len - at;

		/* the requirements of a distribution often share a marker
		 * in a row: the last one found is compared first */
		if (mc->last_marker && n == mc->last_len &&
		    memcmp(lx->s + at, mc->last, n) == 0)
			req->marker = mc->last_marker;
		else
			req->marker =
			    tg_strmap_get(&mc->markers, lx->s + at, n);
		if (req->marker) {
			remember(mc, lx->s + at, n, req->marker);
			req->marker_cached = 1;
			lx->pos = lx->len;
			return 0;
		}
	}
	if (!mc)
		return tg_marker_parse_lex(&req->marker, lx, err);
	/* the arena's, kept or not */
	rc = tg_marker_parse_arena(&req->marker, lx, &mc->arena, err);
	if (rc)
		return rc;
	req->marker_cached = 1;
	tg_pep508_ws(lx);
	if (tg_pep508_peek(lx, TG_TOK_END)) {
		if (tg_strmap_put(&mc->markers, lx->s + at, lx->len - at,
				  req->marker))
			return tg_err_set(err, TG_ENOMEM, "out of memory");
		remember(mc, lx->s + at, lx->len - at, req->marker);
	}
	return 0;
}

int
tg_requirement_parse(struct tg_requirement *req, const char *s, size_t len,
		     struct tg_err *err)
{
	return tg_requirement_parse_cached(req, s, len, NULL, err);
}

/* Parse s[0..len) into req. head: the name and the extras go into it
 * (a head of mc), or NULL for strings of their own. */
static int
parse_full(struct tg_requirement *req, const char *s, size_t len,
	   struct tg_requirement_cache *mc, struct tg_arena *head,
	   struct tg_err *err)
{
	struct tg_pep508_lexer lx = {s, len, 0};
	char small[256];
	struct spectext spec = {small, 0};
	size_t at, n;
	int rc = 0;

	memset(req, 0, sizeof(*req));
	small[0] = '\0';
	if (len >= sizeof(small) && !(spec.p = malloc(len + 1)))
		return tg_err_set(err, TG_ENOMEM, "out of memory");
	spec.p[0] = '\0';
	if (memchr(s, '\0', len)) {
		rc = syntax(err,
			    (size_t)((const char *)memchr(s, '\0', len) - s),
			    "NUL byte in requirement");
		goto out;
	}
	tg_pep508_ws(&lx);
	if (!tg_pep508_take(&lx, TG_TOK_IDENTIFIER, &at, &n)) {
		rc = syntax(err, lx.pos,
			    "expected package name at the start of dependency "
			    "specifier");
		goto out;
	}
	if (!(req->name = span_dup(head, s + at, n)))
		goto nomem;
	tg_pep508_ws(&lx);
	rc = parse_extras(&lx, req, head, err);
	if (rc)
		goto out;
	tg_pep508_ws(&lx);
	if (tg_pep508_take(&lx, TG_TOK_AT, NULL, NULL)) {
		tg_pep508_ws(&lx);
		if (!tg_pep508_take(&lx, TG_TOK_URL, &at, &n)) {
			rc = syntax(err, lx.pos, "expected URL after @");
			goto out;
		}
		req->url = span_dup(NULL, s + at, n);
		if (!req->url)
			goto nomem;
		if (!tg_pep508_peek(&lx, TG_TOK_END)) {
			if (!tg_pep508_take(&lx, TG_TOK_WS, NULL, NULL)) {
				rc = syntax(err, lx.pos,
					    "expected whitespace after URL");
				goto out;
			}
			if (!tg_pep508_peek(&lx, TG_TOK_END))
				rc = parse_marker_part(
				    &lx, req,
				    "semicolon (after URL and whitespace)", mc,
				    err);
		}
	} else {
		rc = parse_specifier(&lx, &spec, err);
		if (rc)
			goto out;
		tg_pep508_ws(&lx);
		if (!tg_pep508_peek(&lx, TG_TOK_END))
			rc = parse_marker_part(
			    &lx, req,
			    spec.len ? "comma (within version specifier), "
				       "semicolon (after version specifier)"
				     : "semicolon (after name with no "
				       "version specifier)",
			    mc, err);
	}
	if (rc)
		goto out;
	if (!tg_pep508_take(&lx, TG_TOK_END, NULL, NULL)) {
		rc =
		    syntax(err, lx.pos, "expected end of dependency specifier");
		goto out;
	}
	if (mc) {
		struct tg_specset *hit =
		    tg_strmap_get(&mc->specs, spec.p, spec.len);

		if (hit) {
			req->spec = *hit;
			req->spec_cached = 1;
			goto out;
		}
	}
	rc = mc ? tg_spec_set_parse_arena(&req->spec, spec.p, spec.len,
					  &mc->arena, err)
		: tg_spec_set_parse(&req->spec, spec.p, spec.len, err);
	if (rc && err)
		err->has_pos = 0; /* the offset is within the specifier */
	if (!rc && mc) {
		struct tg_specset *keep =
		    tg_arena_alloc(&mc->arena, sizeof(*keep));

		req->spec_cached = 1; /* the arena's, kept or not */
		if (!keep)
			goto nomem;
		*keep = req->spec;
		if (tg_strmap_put(&mc->specs, spec.p, spec.len, keep))
			goto nomem;
	}
	goto out;
nomem:
	rc = tg_err_set(err, TG_ENOMEM, "out of memory");
out:
	if (spec.p != small)
		free(spec.p);
	if (rc) {
		if (head) { /* not strings of their own */
			req->name = NULL;
			req->extras = NULL;
			req->nextras = 0;
		}
		tg_requirement_release(req);
	}
	return rc;
}

/* The head of a requirement is what comes before its first ';': where
 * it holds no '@' (no URL, whose token could run past a ';'), no token
 * of the head reads a ';' or looks past one (a ';' is neither a word
 * byte, nor space, nor part of a name, a specifier or a version), so
 * the head parses alone exactly as it does in the whole text, up to the
 * same position, and the ';' there starts the marker. Heads are parsed
 * once per distinct text (some 2,800 requirements of a 200-distribution
 * environment have 1,500 heads). A head that does not parse alone is
 * not kept: the whole text is then parsed, for its error. */
int
tg_requirement_parse_cached(struct tg_requirement *req, const char *s,
			    size_t len, struct tg_requirement_cache *mc,
			    struct tg_err *err)
{
	const char *semi;
	struct tg_requirement *h;
	struct tg_pep508_lexer lx = {s, len, 0};
	size_t hl;
	int rc;

	if (!mc || memchr(s, '\0', len))
		return parse_full(req, s, len, mc, NULL, err);
	semi = memchr(s, ';', len);
	hl = semi ? (size_t)(semi - s) : len;
	if (memchr(s, '@', hl))
		return parse_full(req, s, len, mc, NULL, err);
	h = tg_strmap_get(&mc->heads, s, hl);
	if (!h) {
		/* in the cache's arena, with its name and extras (where
		 * they stay when the head is not kept) */
		h = tg_arena_alloc(&mc->arena, sizeof(*h));
		if (!h)
			return tg_err_set(err, TG_ENOMEM, "out of memory");
		rc = parse_full(h, s, hl, mc, &mc->arena,
				NULL); /* its code only */
		if (rc) {
			if (rc == TG_ENOMEM)
				return tg_err_set(err, rc, "out of memory");
			return parse_full(req, s, len, mc, NULL, err);
		}
		h->head_cached = 1;
		if (tg_strmap_put(&mc->heads, s, hl, h))
			return tg_err_set(err, TG_ENOMEM, "out of memory");
	}
	*req = *h;
	if (!semi)
		return 0;
	lx.pos = hl;
	rc = parse_marker_part(&lx, req,
			       req->spec.n ? "comma (within version "
					     "specifier), semicolon (after "
					     "version specifier)"
					   : "semicolon (after name with no "
					     "version specifier)",
			       mc, err);
	if (!rc && !tg_pep508_take(&lx, TG_TOK_END, NULL, NULL))
		rc =
		    syntax(err, lx.pos, "expected end of dependency specifier");
	if (rc)
		tg_requirement_release(req);
	return rc;
}

void
tg_requirement_release(struct tg_requirement *req)
{
	size_t k;

	if (!req)
		return;
	if (req->head_cached)
		goto tail;
	free(req->name);
	for (k = 0; k < req->nextras; k++)
		free(req->extras[k]);
	free(req->extras);
	if (!req->spec_cached)
		tg_spec_set_release(&req->spec);
tail:
	free(req->url);
	if (!req->marker_cached)
		tg_marker_free(req->marker);
	memset(req, 0, sizeof(*req));
}

void
tg_requirement_cache_release(struct tg_requirement_cache *rc)
{
	/* what the maps point to is in the arena */
	rc->last_marker = NULL;
	tg_strmap_release(&rc->heads, NULL);
	tg_strmap_release(&rc->markers, NULL);
	tg_strmap_release(&rc->specs, NULL);
	tg_arena_release(&rc->arena);
}

int
tg_requirement_write_json(const struct tg_requirement *req, struct tg_jsonw *w,
			  struct tg_err *err)
{
	struct tg_buf tmp = TG_BUF_INIT;
	size_t k;
	int rc;

	tg_jsonw_object(w, TG_JSONW_FLOW);
	tg_jsonw_kstr(w, "name", req->name);
	tg_jsonw_key(w, "extras");
	tg_jsonw_array(w, TG_JSONW_FLOW);
	for (k = 0; k < req->nextras; k++)
		tg_jsonw_str(w, req->extras[k]);
	tg_jsonw_end(w);
	/* checked here: the marker below clears tmp, and its failure */
	if ((rc = tg_spec_set_format(&req->spec, &tmp)) != 0) {
		tg_buf_release(&tmp);
		return tg_err_set(err, rc, "out of memory");
	}
	tg_jsonw_key(w, "specifier");
	tg_jsonw_strn(w, tmp.data ? tmp.data : "", tmp.len);
	tg_jsonw_key(w, "marker");
	if (req->marker) {
		tg_buf_clear(&tmp);
		rc = tg_marker_format(req->marker, &tmp, err);
		if (rc) {
			tg_buf_release(&tmp);
			return rc;
		}
		tg_jsonw_strn(w, tmp.data, tmp.len);
	} else {
		tg_jsonw_null(w);
	}
	tg_jsonw_kstr(w, "url", req->url);
	tg_jsonw_end(w);
	rc = tg_buf_error(&tmp) ? tg_buf_error(&tmp) : tg_buf_error(w->out);
	tg_buf_release(&tmp);
	return rc ? tg_err_set(err, rc, "out of memory") : 0;
}
