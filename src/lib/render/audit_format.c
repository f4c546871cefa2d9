/* audit_format.c - an audit written out: text, JSON, SARIF, GitHub
 * SPDX-License-Identifier: MIT
 *
 * Four renderers over the same records (struct tg_audit_report): they
 * differ in syntax, never in what they say. Everything goes through one
 * struct tg_buf, which keeps its first failure: the renderers append
 * straight through and the caller checks once. SARIF URIs are the paths
 * percent-encoded (RFC 3986 unreserved characters and '/' kept), with a
 * leading "./" dropped so GitHub code scanning maps them onto the
 * checkout; absolute paths become file:// URIs.
 */
#include "lib/render/audit_format.h"

#include <assert.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lib/audit/lang.h"
#include "lib/util/grow.h"
#include "lib/util/jsonw.h"
#include "lib/util/str.h"

static const char *
in_name(enum tg_audit_in in)
{
	return in == TG_AUDIT_IN_COMMENT  ? "comment"
	       : in == TG_AUDIT_IN_STRING ? "string"
					  : "code";
}

static int
name_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '_';
}

/* Whether c[0..cn) is a component of s[0..n) (split at what is not a
 * name character: '.', "::", '/', '<'...). */
static int
has_comp(const char *s, size_t n, const char *c, size_t cn)
{
	const char *p = s, *e = s + n, *q;

	for (; p < e; p = q) {
		while (p < e && !name_char(*p))
			p++;
		for (q = p; q < e && name_char(*q); q++)
			;
		if ((size_t)(q - p) == cn && cn && memcmp(p, c, cn) == 0)
			return 1;
	}
	return 0;
}

/* The name a finding's text spells ("AT_ASSERTM", ".storage",
 * "torch._dynamo.allow_in_graph"), k bytes of it, where it is another
 * name than the entry's id: an entry that covers several names
 * (AT_ERROR covers AT_ASSERTM) or an alias. NULL where the text names
 * the id or something under it (amp.GradScaler, torch._dynamo.reset
 * for the module), or is an include. */
static const char *
spelled_name(const struct tg_audit_finding *f, size_t *k)
{
	const char *t = f->text, *id = f->api->id, *last, *idlast;
	size_t n, il = strlen(id);

	if (!t || strcmp(f->kind, "include") == 0)
		return NULL;
	for (n = 0; name_char(t[n]) || t[n] == '.' || t[n] == ':'; n++)
		;
	while (n && !name_char(t[n - 1]))
		n--;
	/* the id itself (most findings): its last component is one of
	 * its own */
	if (n && n == il && name_char(id[il - 1]) && memcmp(t, id, il) == 0)
		return NULL;
	for (last = t + n; last > t && name_char(last[-1]); last--)
		;
	for (idlast = id + il; idlast > id && name_char(idlast[-1]); idlast--)
		;
	if (!n || has_comp(id, il, last, (size_t)(t + n - last)) ||
	    has_comp(t, n, idlast, (size_t)(id + il - idlast)))
		return NULL;
	*k = n;
	return t;
}

/* The message of it, whose text spells sp[0..spn) (NULL: the entry's
 * own name): without sp a function of the entry and the rank alone. */
static void
message(struct tg_buf *b, const struct tg_audit_item *it, const char *sp,
	size_t spn)
{
	const struct tg_api *a = it->f->api;
	const char *sep = " (";

	tg_buf_adds(b, a->id);
	if (sp) {
		tg_buf_addf(b, "%sused as %.*s", sep, (int)spn, sp);
		sep = "; ";
	}
	if (a->removed.version && it->rank == TG_AUDIT_RANK_REMOVED) {
		tg_buf_addf(b, "%sremoved in %s", sep, a->removed.version);
		sep = "; ";
	}
	if (a->deprecated.version && it->rank >= TG_AUDIT_RANK_DEPRECATED) {
		tg_buf_addf(b, "%sdeprecated since %s", sep,
			    a->deprecated.version);
		sep = "; ";
	}
	if (it->rank == TG_AUDIT_RANK_BOUND) {
		if (a->introduced.version &&
		    a->introduced.bound != TG_BOUND_BEFORE)
			tg_buf_addf(b, "%sintroduced in %s", sep,
				    a->introduced.version),
			    sep = "; ";
		if (a->deprecated.version)
			tg_buf_addf(b, "%sdeprecated in %s", sep,
				    a->deprecated.version),
			    sep = "; ";
		if (a->removed.version)
			tg_buf_addf(b, "%sremoved in %s", sep,
				    a->removed.version),
			    sep = "; ";
	}
	if (a->is_private) {
		tg_buf_addf(b, "%sprivate", sep);
		sep = "; ";
	}
	if ((a->repl_text || a->repl_id) && it->rank != TG_AUDIT_RANK_BOUND) {
		tg_buf_addf(b, "%suse %s", sep,
			    a->repl_text ? a->repl_text : a->repl_id);
		if (a->repl_since)
			tg_buf_addf(b, ", available since %s", a->repl_since);
		sep = "; ";
	}
	if (sep[0] == ';')
		tg_buf_addc(b, ')');
}

int
tg_audit_format_message(struct tg_buf *b, const struct tg_audit_item *it)
{
	const char *sp;
	size_t spn = 0;

	sp = spelled_name(it->f, &spn);
	message(b, it, sp, spn);
	return tg_buf_error(b);
}

static void message_cached(struct tg_audit_writer *wr, struct tg_buf *b,
			   const struct tg_audit_item *it);

/* "[guarded by '#if ...' at line 3]" and the like, or nothing. */
static void
state(struct tg_buf *b, const struct tg_audit_finding *f)
{
	if (f->in != TG_AUDIT_IN_CODE)
		tg_buf_addf(b, " [mention in a %s]", in_name(f->in));
	if (f->guard == TG_AUDIT_GUARDED)
		tg_buf_adds(b, " [guarded");
	else if (f->guard == TG_AUDIT_SOFT)
		tg_buf_adds(b, " [soft guard");
	if (f->guard != TG_AUDIT_UNGUARDED) {
		if (f->guard_text)
			tg_buf_addf(b, " by '%s'", f->guard_text);
		if (f->guard_line)
			tg_buf_addf(b, " at line %zu", f->guard_line);
		tg_buf_addc(b, ']');
	}
}

/* A finding's line, composed in msg as the other formats compose it,
 * then escaped (str.h): a path, a name or a guard's text can neither
 * drive a terminal nor forge a line. */
static void
text_item(struct tg_audit_writer *wr, const struct tg_audit_item *it)
{
	struct tg_buf *b = wr->out, *msg = &wr->tmp;

	tg_buf_clear(msg);
	tg_buf_adds(msg, it->path);
	tg_buf_addc(msg, ':');
	tg_buf_addu(msg, it->f->line);
	tg_buf_addc(msg, ':');
	tg_buf_addu(msg, it->f->column);
	tg_buf_add(msg, ": ", 2);
	tg_buf_adds(msg, tg_audit_rank_name(it->rank));
	tg_buf_add(msg, ": ", 2);
	message_cached(wr, msg, it);
	tg_buf_add(msg, " [", 2);
	tg_buf_adds(msg, it->f->kind);
	tg_buf_addc(msg, ']');
	state(msg, it->f);
	if (tg_buf_error(msg) && !b->err)
		b->err = tg_buf_error(msg);
	tg_str_add_escaped(b, msg->data ? msg->data : "", msg->len);
	tg_buf_addc(b, '\n');
}

static void
text_end(const struct tg_audit_report *rep, struct tg_buf *b)
{
	size_t k;

	for (k = 0; k < rep->ndead; k++) {
		const struct tg_audit_dead *d = &rep->dead[k];

		tg_str_addf(b,
			    "%s:%zu: dead branch: lines %zu-%zu run only on "
			    "torch %s, below the floor %s: %s\n",
			    d->path, d->b->first_line, d->b->first_line,
			    d->b->last_line, d->b->requires, rep->floor,
			    d->b->condition);
	}
}

/* The members of a finding that its entry and rank decide. */
static void
json_entry(struct tg_jsonw *w, const struct tg_audit_item *it)
{
	const struct tg_api *a = it->f->api;

	tg_jsonw_kstr(w, "api", a->id);
	tg_jsonw_kstr(w, "language", tg_lang_of_id(a->lang)->name);
	tg_jsonw_kstr(w, "status", tg_audit_rank_name(it->rank));
	tg_jsonw_kstr(w, "since", a->deprecated.version);
	tg_jsonw_kstr(w, "removed_in", a->removed.version);
	tg_jsonw_kstr(w, "replacement", a->repl_id);
	tg_jsonw_kstr(w, "replacement_text", a->repl_text);
	tg_jsonw_kstr(w, "replacement_since", a->repl_since);
	tg_jsonw_kbool(w, "private", a->is_private);
}

/* The members of an unguarded finding from guarded to kind: its kind
 * and where it is decide them. */
static void
json_state(struct tg_jsonw *w, const struct tg_audit_item *it)
{
	const struct tg_audit_finding *f = it->f;

	tg_jsonw_kbool(w, "guarded", f->guard == TG_AUDIT_GUARDED);
	tg_jsonw_kbool(w, "soft_guard", f->guard == TG_AUDIT_SOFT);
	tg_jsonw_kstr(w, "guard", f->guard_text);
	if (f->guard_line)
		tg_jsonw_kint(w, "guard_line", (long long)f->guard_line);
	else {
		tg_jsonw_key(w, "guard_line");
		tg_jsonw_null(w);
	}
	tg_jsonw_kstr(w, "in", in_name(f->in));
	tg_jsonw_kstr(w, "kind", f->kind);
}

#define TG_AUDIT_FRAGS 1024 /* a power of two; the table has fewer */
#define FRAG_ENTRY 1	    /* json_entry's: by entry and rank */
#define FRAG_STATE 2	    /* json_state's: by kind (static) and in */
/* message_cached's, the entry's own name: by entry and rank */
#define FRAG_MESSAGE 3

/* The slot of (what, key, a, depth): the one that holds it, or a free
 * one (key NULL), or NULL (none left, or no memory for the slots). */
static struct tg_audit_frag *
frag_slot(struct tg_audit_writer *wr, int what, const void *key, int a,
	  int depth)
{
	struct tg_audit_frag *f;
	size_t h, k;

	if (!wr->frags)
		wr->frags = calloc(TG_AUDIT_FRAGS, sizeof(*wr->frags));
	h = ((size_t)(uintptr_t)key >> 4) * 31u + (size_t)a * 7u + (size_t)what;
	for (k = 0; wr->frags && k < TG_AUDIT_FRAGS / 2; k++) {
		f = &wr->frags[(h + k) & (TG_AUDIT_FRAGS - 1)];
		if (!f->key || (f->key == key && f->what == what && f->a == a &&
				f->depth == depth))
			return f;
	}
	return NULL;
}

/* it's message (tg_audit_format_message) appended to b: where its text
 * spells the entry's own name, written once per entry and rank into
 * frag_text and copied from there. */
static void
message_cached(struct tg_audit_writer *wr, struct tg_buf *b,
	       const struct tg_audit_item *it)
{
	struct tg_audit_frag *f;
	const char *sp;
	size_t spn = 0, at;

	sp = spelled_name(it->f, &spn);
	if (sp ||
	    !(f = frag_slot(wr, FRAG_MESSAGE, it->f->api, (int)it->rank, 0)) ||
	    wr->frag_text.err) {
		message(b, it, sp, spn);
		return;
	}
	if (!f->key) {
		at = wr->frag_text.len;
		message(&wr->frag_text, it, NULL, 0);
		if (wr->frag_text.err) {
			message(b, it, NULL, 0);
			return;
		}
		f->key = it->f->api;
		f->what = FRAG_MESSAGE;
		f->a = (int)it->rank;
		f->depth = 0;
		f->off = at;
		f->len = wr->frag_text.len - at;
		f->members = 0;
	}
	tg_buf_add(b, wr->frag_text.data + f->off, f->len);
}

/* The members render writes for it, written once per (what, key, a)
 * and depth into frag_text and then copied: the bytes are those render
 * writes at that place, since a member's layout depends only on the
 * depth and on whether it is the first (it never is). Without a slot
 * or memory for the copy, written directly. */
static void
json_cached(struct tg_audit_writer *wr, int what, const void *key, int a,
	    void (*render)(struct tg_jsonw *, const struct tg_audit_item *),
	    const struct tg_audit_item *it)
{
	struct tg_jsonw *w = &wr->w;
	struct tg_audit_frag *f = frag_slot(wr, what, key, a, w->depth);
	size_t at;
	struct tg_jsonw w2;

	if (f && f->key) {
		tg_buf_add(w->out, wr->frag_text.data + f->off, f->len);
		w->level[w->depth - 1].n += f->members;
		return;
	}
	if (!f || wr->frag_text.err) {
		render(w, it);
		return;
	}
	w2 = *w;
	w2.out = &wr->frag_text;
	at = wr->frag_text.len;
	render(&w2, it);
	if (wr->frag_text.err) {
		render(w, it);
		return;
	}
	f->key = key;
	f->what = what;
	f->a = a;
	f->depth = w->depth;
	f->off = at;
	f->len = wr->frag_text.len - at;
	f->members = w2.level[w->depth - 1].n - w->level[w->depth - 1].n;
	tg_buf_add(w->out, wr->frag_text.data + f->off, f->len);
	w->level[w->depth - 1].n += f->members;
}

static int
has_fix(const struct tg_audit_fix *x)
{
	return x && x->nedits;
}

/* "fix": null, or {"applicability", "message", "edits": [{"start":
 * {"line", "column"}, "end": {...}, "content"}]}, as ruff writes its
 * fixes. */
static void
json_fix(struct tg_jsonw *w, const struct tg_audit_fix *x)
{
	size_t k;

	tg_jsonw_key(w, "fix");
	if (!has_fix(x)) {
		tg_jsonw_null(w);
		return;
	}
	tg_jsonw_object(w, TG_JSONW_BLOCK);
	tg_jsonw_kstr(w, "applicability", x->unsafe ? "unsafe" : "safe");
	tg_jsonw_kstr(w, "message", x->message);
	tg_jsonw_key(w, "edits");
	tg_jsonw_array(w, TG_JSONW_BLOCK);
	for (k = 0; k < x->nedits; k++) {
		const struct tg_audit_edit *e = &x->edits[k];

		tg_jsonw_object(w, TG_JSONW_FLOW);
		tg_jsonw_key(w, "start");
		tg_jsonw_object(w, TG_JSONW_FLOW);
		tg_jsonw_kint(w, "line", (long long)e->line);
		tg_jsonw_kint(w, "column", (long long)e->column);
		tg_jsonw_end(w);
		tg_jsonw_key(w, "end");
		tg_jsonw_object(w, TG_JSONW_FLOW);
		tg_jsonw_kint(w, "line", (long long)e->end_line);
		tg_jsonw_kint(w, "column", (long long)e->end_column);
		tg_jsonw_end(w);
		tg_jsonw_key(w, "content");
		tg_jsonw_strn(w, e->text, e->len);
		tg_jsonw_end(w);
	}
	tg_jsonw_end(w);
	tg_jsonw_end(w);
}

static void
json_finding(struct tg_audit_writer *wr, const struct tg_audit_item *it)
{
	struct tg_jsonw *w = &wr->w;
	const struct tg_audit_finding *f = it->f;

	tg_jsonw_object(w, TG_JSONW_BLOCK);
	tg_jsonw_kstr(w, "path", it->path);
	tg_jsonw_kint(w, "line", (long long)f->line);
	tg_jsonw_kint(w, "column", (long long)f->column);
	tg_jsonw_kint(w, "end_line", (long long)f->end_line);
	tg_jsonw_kint(w, "end_column", (long long)f->end_column);
	json_cached(wr, FRAG_ENTRY, f->api, (int)it->rank, json_entry, it);
	if (f->guard == TG_AUDIT_UNGUARDED && !f->guard_text && !f->guard_line)
		json_cached(wr, FRAG_STATE, f->kind, (int)f->in, json_state,
			    it);
	else
		json_state(w, it);
	tg_jsonw_kstr(w, "text", f->text);
	tg_jsonw_kbool(w, "fails", it->fails);
	json_fix(w, it->fix);
	tg_jsonw_end(w);
}

static void
json_notes(struct tg_jsonw *w, const struct tg_diag_list *l)
{
	size_t k;

	tg_jsonw_array(w, TG_JSONW_BLOCK);
	for (k = 0; l && k < l->n; k++) {
		const struct tg_diag *d = &l->v[k];

		tg_jsonw_object(w, TG_JSONW_FLOW);
		tg_jsonw_kstr(w, "severity",
			      tg_diag_severity_name(d->severity));
		tg_jsonw_kstr(w, "path", d->path);
		tg_jsonw_kint(w, "line", (long long)d->line);
		tg_jsonw_kint(w, "column", (long long)d->column);
		tg_jsonw_kstr(w, "rule", d->rule);
		tg_jsonw_kstr(w, "message", d->message);
		tg_jsonw_end(w);
	}
	tg_jsonw_end(w);
}

/* Everything before the findings: what the run judged by. */
static void
json_begin(const struct tg_audit_report *rep, struct tg_jsonw *w)
{
	tg_jsonw_object(w, TG_JSONW_BLOCK);
	tg_jsonw_kint(w, "schema_version", TG_AUDIT_SCHEMA_VERSION);
	tg_jsonw_kstr(w, "torch_version", rep->torch);
	tg_jsonw_kstr(w, "torch_version_from", rep->torch_from);
	tg_jsonw_kstr(w, "floor", rep->floor);
	tg_jsonw_kstr(w, "floor_from", rep->floor_from);
	tg_jsonw_key(w, "floor_declared");
	if (rep->floor_path) {
		tg_jsonw_object(w, TG_JSONW_FLOW);
		tg_jsonw_kstr(w, "path", rep->floor_path);
		tg_jsonw_kint(w, "line", (long long)rep->floor_line);
		tg_jsonw_kstr(w, "requirement", rep->floor_requirement);
		tg_jsonw_end(w);
	} else {
		tg_jsonw_null(w);
	}
	tg_jsonw_kstr(w, "min_status", rep->min_status);
	tg_jsonw_key(w, "findings");
	tg_jsonw_array(w, TG_JSONW_BLOCK);
}

/* After the findings: the counts, dead branches and notes. */
static void
json_end(const struct tg_audit_report *rep, struct tg_jsonw *w)
{
	size_t k;

	tg_jsonw_end(w);
	tg_jsonw_kint(w, "files", (long long)rep->files);
	tg_jsonw_key(w, "dead_branches");
	tg_jsonw_array(w, TG_JSONW_BLOCK);
	for (k = 0; k < rep->ndead; k++) {
		tg_jsonw_object(w, TG_JSONW_FLOW);
		tg_jsonw_kstr(w, "path", rep->dead[k].path);
		tg_jsonw_kint(w, "first_line",
			      (long long)rep->dead[k].b->first_line);
		tg_jsonw_kint(w, "last_line",
			      (long long)rep->dead[k].b->last_line);
		tg_jsonw_kstr(w, "condition", rep->dead[k].b->condition);
		tg_jsonw_kstr(w, "requires", rep->dead[k].b->requires);
		tg_jsonw_end(w);
	}
	tg_jsonw_end(w);
	tg_jsonw_key(w, "notes");
	json_notes(w, rep->notes);
	tg_jsonw_end(w);
	tg_jsonw_finish(w);
}

/* A path as a URI reference for SARIF. */
static void
uri(struct tg_buf *out, const char *p)
{
	static const char hex[] = "0123456789ABCDEF";

	if (p[0] == '/')
		tg_buf_adds(out, "file://");
	while (p[0] == '.' && p[1] == '/')
		for (p += 2; *p == '/'; p++)
			;
	for (; *p; p++) {
		unsigned char c = (unsigned char)*p;

		if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		    (c >= '0' && c <= '9') || c == '-' || c == '.' ||
		    c == '_' || c == '~' || c == '/')
			tg_buf_addc(out, (char)c);
		else {
			tg_buf_addc(out, '%');
			tg_buf_addc(out, hex[c >> 4]);
			tg_buf_addc(out, hex[c & 15]);
		}
	}
}

/* The index of a's rule: its place among the entries the findings
 * written so far use, in the order of first use (a new one is added). */
static size_t
rule_index(struct tg_audit_writer *wr, const struct tg_api *a)
{
	size_t k;

	for (k = 0; k < wr->nrules; k++)
		if (wr->rules[k] == a)
			return k;
	if (TG_GROW(wr->rules, wr->nrules + 1, wr->caprules)) {
		if (!wr->out->err)
			wr->out->err = TG_ENOMEM;
		return 0;
	}
	wr->rules[wr->nrules] = a;
	return wr->nrules++;
}

static const char *
level(const struct tg_audit_item *it)
{
	if (it->fails)
		return "error";
	return it->f->in == TG_AUDIT_IN_CODE && it->f->guard != TG_AUDIT_GUARDED
		   ? "warning"
		   : "note";
}

/* The rules: one per entry the results use, in the order of first use
 * (the results' ruleIndex). */
/* The scratch text, its failure (out of memory) moved into the output
 * first: the next tg_buf_clear of the scratch would forget it, and the
 * output would go out cut with no error. */
static const char *
scratch(struct tg_buf *tmp, struct tg_buf *out)
{
	if (tg_buf_error(tmp) && !out->err)
		out->err = tg_buf_error(tmp);
	return tmp->data ? tmp->data : "";
}

static void
sarif_rules(const struct tg_audit_writer *wr, struct tg_jsonw *w,
	    struct tg_buf *tmp)
{
	size_t k;

	tg_jsonw_array(w, TG_JSONW_BLOCK);
	for (k = 0; k < wr->nrules; k++) {
		const struct tg_api *last = wr->rules[k];

		tg_jsonw_object(w, TG_JSONW_BLOCK);
		tg_jsonw_kstr(w, "id", last->id);
		tg_jsonw_key(w, "shortDescription");
		tg_jsonw_object(w, TG_JSONW_FLOW);
		tg_buf_clear(tmp);
		tg_buf_addf(tmp, "%s %s %s", tg_lang_of_id(last->lang)->title,
			    last->kind, last->id);
		tg_jsonw_kstr(w, "text", scratch(tmp, w->out));
		tg_jsonw_end(w);
		tg_jsonw_key(w, "help");
		tg_jsonw_object(w, TG_JSONW_FLOW);
		tg_buf_clear(tmp);
		tg_buf_addf(
		    tmp, "%s: introduced %s%s, deprecated %s, removed %s",
		    last->id,
		    !last->introduced.version ||
			    last->introduced.bound == TG_BOUND_BEFORE
			? "before "
			: "",
		    last->introduced.version ? last->introduced.version : "1.0",
		    last->deprecated.version ? last->deprecated.version
					     : "never",
		    last->removed.version ? last->removed.version : "never");
		if (last->is_private)
			tg_buf_adds(tmp, "; private");
		if (last->repl_text || last->repl_id)
			tg_buf_addf(
			    tmp, "; use %s%s%s",
			    last->repl_text ? last->repl_text : last->repl_id,
			    last->repl_since ? ", available since " : "",
			    last->repl_since ? last->repl_since : "");
		if (last->notes)
			tg_buf_addf(tmp, ". %s", last->notes);
		tg_jsonw_kstr(w, "text", scratch(tmp, w->out));
		tg_jsonw_end(w);
		tg_jsonw_key(w, "properties");
		tg_jsonw_object(w, TG_JSONW_FLOW);
		tg_jsonw_key(w, "tags");
		tg_jsonw_array(w, TG_JSONW_FLOW);
		tg_jsonw_str(w, "torch");
		tg_jsonw_str(w, tg_lang_of_id(last->lang)->name);
		tg_jsonw_end(w);
		tg_jsonw_end(w);
		tg_jsonw_end(w);
	}
	tg_jsonw_end(w);
}

static void
sarif_location(struct tg_jsonw *w, struct tg_buf *tmp, const char *path,
	       size_t line, size_t column, size_t end_line, size_t end_column)
{
	tg_jsonw_key(w, "locations");
	tg_jsonw_array(w, TG_JSONW_BLOCK);
	tg_jsonw_object(w, TG_JSONW_BLOCK);
	tg_jsonw_key(w, "physicalLocation");
	tg_jsonw_object(w, TG_JSONW_BLOCK);
	tg_jsonw_key(w, "artifactLocation");
	tg_jsonw_object(w, TG_JSONW_FLOW);
	tg_buf_clear(tmp);
	uri(tmp, path);
	tg_jsonw_kstr(w, "uri", scratch(tmp, w->out));
	tg_jsonw_end(w);
	if (line) {
		tg_jsonw_key(w, "region");
		tg_jsonw_object(w, TG_JSONW_FLOW);
		tg_jsonw_kint(w, "startLine", (long long)line);
		if (column)
			tg_jsonw_kint(w, "startColumn", (long long)column);
		if (end_line) {
			tg_jsonw_kint(w, "endLine", (long long)end_line);
			tg_jsonw_kint(w, "endColumn", (long long)end_column);
		}
		tg_jsonw_end(w);
	}
	tg_jsonw_end(w);
	tg_jsonw_end(w);
	tg_jsonw_end(w);
}

/* The results come first (a JSON object's members have no order), so
 * that each can be written as soon as it is known; the tool and its
 * rules, which only the end knows, follow. */
static void
sarif_begin(struct tg_jsonw *w)
{
	tg_jsonw_object(w, TG_JSONW_BLOCK);
	tg_jsonw_kstr(w, "$schema",
		      "https://json.schemastore.org/sarif-2.1.0.json");
	tg_jsonw_kstr(w, "version", "2.1.0");
	tg_jsonw_key(w, "runs");
	tg_jsonw_array(w, TG_JSONW_BLOCK);
	tg_jsonw_object(w, TG_JSONW_BLOCK);
	tg_jsonw_key(w, "results");
	tg_jsonw_array(w, TG_JSONW_BLOCK);
}

/* "fixes": the finding's fix, its edits as one artifact's
 * replacements: deletedRegion (an insertion's is empty: its end column
 * is its start column) and insertedContent. Columns count bytes, as the
 * results' regions do. */
static void
sarif_fixes(struct tg_jsonw *w, struct tg_buf *tmp, const char *path,
	    const struct tg_audit_fix *x)
{
	size_t k;

	tg_jsonw_key(w, "fixes");
	tg_jsonw_array(w, TG_JSONW_BLOCK);
	tg_jsonw_object(w, TG_JSONW_BLOCK);
	tg_jsonw_key(w, "description");
	tg_jsonw_object(w, TG_JSONW_FLOW);
	tg_buf_clear(tmp);
	tg_buf_addf(tmp, "%s: %s", x->unsafe ? "unsafe" : "safe", x->message);
	tg_jsonw_kstr(w, "text", scratch(tmp, w->out));
	tg_jsonw_end(w);
	tg_jsonw_key(w, "artifactChanges");
	tg_jsonw_array(w, TG_JSONW_BLOCK);
	tg_jsonw_object(w, TG_JSONW_BLOCK);
	tg_jsonw_key(w, "artifactLocation");
	tg_jsonw_object(w, TG_JSONW_FLOW);
	tg_buf_clear(tmp);
	uri(tmp, path);
	tg_jsonw_kstr(w, "uri", scratch(tmp, w->out));
	tg_jsonw_end(w);
	tg_jsonw_key(w, "replacements");
	tg_jsonw_array(w, TG_JSONW_BLOCK);
	for (k = 0; k < x->nedits; k++) {
		const struct tg_audit_edit *e = &x->edits[k];

		tg_jsonw_object(w, TG_JSONW_BLOCK);
		tg_jsonw_key(w, "deletedRegion");
		tg_jsonw_object(w, TG_JSONW_FLOW);
		tg_jsonw_kint(w, "startLine", (long long)e->line);
		tg_jsonw_kint(w, "startColumn", (long long)e->column);
		tg_jsonw_kint(w, "endLine", (long long)e->end_line);
		tg_jsonw_kint(w, "endColumn", (long long)e->end_column);
		tg_jsonw_end(w);
		tg_jsonw_key(w, "insertedContent");
		tg_jsonw_object(w, TG_JSONW_FLOW);
		tg_jsonw_key(w, "text");
		tg_jsonw_strn(w, e->text, e->len);
		tg_jsonw_end(w);
		tg_jsonw_end(w);
	}
	tg_jsonw_end(w);
	tg_jsonw_end(w);
	tg_jsonw_end(w);
	tg_jsonw_end(w);
	tg_jsonw_end(w);
}

static void
sarif_item(struct tg_audit_writer *wr, const struct tg_audit_item *it)
{
	struct tg_jsonw *w = &wr->w;
	struct tg_buf *tmp = &wr->tmp;

	tg_jsonw_object(w, TG_JSONW_BLOCK);
	tg_jsonw_kstr(w, "ruleId", it->f->api->id);
	tg_jsonw_kint(w, "ruleIndex", (long long)rule_index(wr, it->f->api));
	tg_jsonw_kstr(w, "level", level(it));
	tg_jsonw_key(w, "message");
	tg_jsonw_object(w, TG_JSONW_FLOW);
	tg_buf_clear(tmp);
	tg_buf_adds(tmp, tg_audit_rank_name(it->rank));
	tg_buf_add(tmp, ": ", 2);
	message_cached(wr, tmp, it);
	state(tmp, it->f);
	tg_jsonw_kstr(w, "text", scratch(tmp, w->out));
	tg_jsonw_end(w);
	sarif_location(w, tmp, it->path, it->f->line, it->f->column,
		       it->f->end_line, it->f->end_column);
	tg_jsonw_key(w, "properties");
	tg_jsonw_object(w, TG_JSONW_FLOW);
	tg_jsonw_kstr(w, "status", tg_audit_rank_name(it->rank));
	tg_jsonw_kstr(w, "in", in_name(it->f->in));
	tg_jsonw_kstr(w, "kind", it->f->kind);
	tg_jsonw_kbool(w, "guarded", it->f->guard == TG_AUDIT_GUARDED);
	tg_jsonw_end(w);
	if (has_fix(it->fix))
		sarif_fixes(w, tmp, it->path, it->fix);
	tg_jsonw_end(w);
}

static void
sarif_end(struct tg_audit_writer *wr, const struct tg_audit_report *rep)
{
	struct tg_jsonw *w = &wr->w;
	struct tg_buf *tmp = &wr->tmp;
	size_t k;

	tg_jsonw_end(w);
	tg_jsonw_key(w, "tool");
	tg_jsonw_object(w, TG_JSONW_BLOCK);
	tg_jsonw_key(w, "driver");
	tg_jsonw_object(w, TG_JSONW_BLOCK);
	tg_jsonw_kstr(w, "name", "torchgate");
	tg_jsonw_kstr(w, "version", rep->tool_version);
	tg_jsonw_key(w, "rules");
	sarif_rules(wr, w, tmp);
	tg_jsonw_end(w);
	tg_jsonw_end(w);
	tg_jsonw_key(w, "invocations");
	tg_jsonw_array(w, TG_JSONW_BLOCK);
	tg_jsonw_object(w, TG_JSONW_BLOCK);
	tg_jsonw_kbool(w, "executionSuccessful", 1);
	tg_jsonw_key(w, "toolExecutionNotifications");
	tg_jsonw_array(w, TG_JSONW_BLOCK);
	for (k = 0; rep->notes && k < rep->notes->n; k++) {
		const struct tg_diag *d = &rep->notes->v[k];

		tg_jsonw_object(w, TG_JSONW_BLOCK);
		tg_jsonw_kstr(w, "level",
			      d->severity == TG_SEV_NOTE      ? "note"
			      : d->severity == TG_SEV_WARNING ? "warning"
							      : "error");
		tg_jsonw_key(w, "message");
		tg_jsonw_object(w, TG_JSONW_FLOW);
		tg_jsonw_kstr(w, "text", d->message);
		tg_jsonw_end(w);
		if (d->path)
			sarif_location(w, tmp, d->path, d->line, d->column, 0,
				       0);
		tg_jsonw_end(w);
	}
	tg_jsonw_end(w);
	tg_jsonw_end(w);
	tg_jsonw_end(w);
	tg_jsonw_end(w);
	tg_jsonw_end(w);
	tg_jsonw_end(w);
	tg_jsonw_finish(w);
}

/* A workflow command's data (message: "%", CR, LF escaped) or property
 * value (also ':' and ','), as GitHub's toolkit escapes them; another
 * control byte or invalid UTF-8 as text reports escape it (str.h),
 * since the runner's log and a terminal show the line. */
static void
gh_escape(struct tg_buf *b, const char *s, int property)
{
	for (; *s; s++) {
		size_t n = strcspn(s, property ? "%\r\n:," : "%\r\n");

		if (n) {
			tg_str_add_escaped(b, s, n);
			s += n - 1;
		} else if (*s == '%')
			tg_buf_adds(b, "%25");
		else if (*s == '\r')
			tg_buf_adds(b, "%0D");
		else if (*s == '\n')
			tg_buf_adds(b, "%0A");
		else if (property && *s == ':')
			tg_buf_adds(b, "%3A");
		else if (property && *s == ',')
			tg_buf_adds(b, "%2C");
		else
			tg_buf_addc(b, *s);
	}
}

static void
github_item(struct tg_audit_writer *wr, const struct tg_audit_item *it)
{
	struct tg_buf *b = wr->out, *msg = &wr->tmp;
	const char *lv = level(it);

	tg_buf_addf(b, "::%s file=", strcmp(lv, "note") == 0 ? "notice" : lv);
	gh_escape(b, it->path, 1);
	tg_buf_addf(b, ",line=%zu,col=%zu", it->f->line, it->f->column);
	/* GitHub's end column is the text's last (inclusive); it takes
	 * columns only on one line */
	if (it->f->end_line == it->f->line && it->f->end_column > it->f->column)
		tg_buf_addf(b, ",endLine=%zu,endColumn=%zu", it->f->end_line,
			    it->f->end_column - 1);
	tg_buf_adds(b, ",title=");
	tg_buf_clear(msg);
	tg_buf_addf(msg, "torchgate %s %s", tg_audit_rank_name(it->rank),
		    it->f->api->id);
	gh_escape(b, scratch(msg, b), 1);
	tg_buf_adds(b, "::");
	tg_buf_clear(msg);
	message_cached(wr, msg, it);
	tg_buf_add(msg, " [", 2);
	tg_buf_adds(msg, it->f->kind);
	tg_buf_addc(msg, ']');
	state(msg, it->f);
	gh_escape(b, scratch(msg, b), 0);
	tg_buf_addc(b, '\n');
}

static void
github_end(const struct tg_audit_report *rep, struct tg_buf *b,
	   struct tg_buf *msg)
{
	size_t k;

	for (k = 0; k < rep->ndead; k++) {
		const struct tg_audit_dead *d = &rep->dead[k];

		tg_buf_adds(b, "::notice file=");
		gh_escape(b, d->path, 1);
		tg_buf_addf(b, ",line=%zu,endLine=%zu,title=dead branch::",
			    d->b->first_line, d->b->last_line);
		tg_buf_clear(msg);
		tg_buf_addf(msg,
			    "runs only on torch %s, below the floor %s: %s",
			    d->b->requires, rep->floor, d->b->condition);
		gh_escape(b, scratch(msg, b), 0);
		tg_buf_addc(b, '\n');
	}
	for (k = 0; rep->notes && k < rep->notes->n; k++) {
		const struct tg_diag *d = &rep->notes->v[k];

		tg_buf_addf(b, "::%s",
			    d->severity == TG_SEV_NOTE ? "notice" : "warning");
		if (d->path) {
			tg_buf_adds(b, " file=");
			gh_escape(b, d->path, 1);
			if (d->line)
				tg_buf_addf(b, ",line=%zu", d->line);
		}
		tg_buf_adds(b, "::");
		gh_escape(b, d->message, 0);
		tg_buf_addc(b, '\n');
	}
}

/* A failure of the scratch buffer is the output's. */
static int
failed(struct tg_audit_writer *wr)
{
	if (tg_buf_error(&wr->tmp) && !wr->out->err)
		wr->out->err = tg_buf_error(&wr->tmp);
	return tg_buf_error(wr->out);
}

/* wr empty, writing fmt into out. */
static void
writer_init(struct tg_audit_writer *wr, enum tg_audit_format fmt,
	    struct tg_buf *out)
{
	struct tg_buf init = TG_BUF_INIT;

	memset(wr, 0, sizeof(*wr));
	wr->fmt = fmt;
	wr->out = out;
	wr->tmp = init;
	wr->frag_text = init;
	tg_jsonw_init(&wr->w, out);
}

void
tg_audit_format_begin(struct tg_audit_writer *wr,
		      const struct tg_audit_report *rep,
		      enum tg_audit_format fmt, struct tg_buf *out)
{
	writer_init(wr, fmt, out);
	if (fmt == TG_AUDIT_JSON)
		json_begin(rep, &wr->w);
	else if (fmt == TG_AUDIT_SARIF)
		sarif_begin(&wr->w);
}

int
tg_audit_format_parts(enum tg_audit_format fmt)
{
	return fmt != TG_AUDIT_SARIF;
}

/* JSON: the items are the elements of the findings array (depth 2, in
 * the report's object, block layout: json_begin), which has some */
void
tg_audit_format_part_begin(struct tg_audit_writer *wr, enum tg_audit_format fmt,
			   struct tg_buf *out)
{
	assert(tg_audit_format_parts(fmt));
	writer_init(wr, fmt, out);
	if (fmt == TG_AUDIT_JSON) {
		wr->w.depth = 2;
		wr->w.level[0].close = '}';
		wr->w.level[0].n = 1;
		wr->w.level[1].close = ']';
		wr->w.level[1].n = 1;
	}
}

int
tg_audit_format_splice(struct tg_audit_writer *wr, const char *text, size_t len,
		       size_t n)
{
	assert(tg_audit_format_parts(wr->fmt));
	if (wr->fmt == TG_AUDIT_JSON && n) {
		struct tg_jsonw_level *l = &wr->w.level[wr->w.depth - 1];

		assert(wr->w.depth == 2 && len && text[0] == ',');
		/* the report's first item: no comma before it */
		if (!l->n)
			text++, len--;
		l->n += n;
	}
	tg_buf_add(wr->out, text, len);
	return tg_buf_error(wr->out);
}

int
tg_audit_format_items(struct tg_audit_writer *wr,
		      const struct tg_audit_item *items, size_t n)
{
	size_t k;

	for (k = 0; k < n && !failed(wr); k++)
		switch (wr->fmt) {
		case TG_AUDIT_TEXT:
			text_item(wr, &items[k]);
			break;
		case TG_AUDIT_JSON:
			json_finding(wr, &items[k]);
			break;
		case TG_AUDIT_SARIF:
			sarif_item(wr, &items[k]);
			break;
		case TG_AUDIT_GITHUB:
			github_item(wr, &items[k]);
			break;
		}
	return failed(wr);
}

int
tg_audit_format_end(struct tg_audit_writer *wr,
		    const struct tg_audit_report *rep)
{
	switch (wr->fmt) {
	case TG_AUDIT_TEXT:
		text_end(rep, wr->out);
		break;
	case TG_AUDIT_JSON:
		json_end(rep, &wr->w);
		break;
	case TG_AUDIT_SARIF:
		sarif_end(wr, rep);
		break;
	case TG_AUDIT_GITHUB:
		github_end(rep, wr->out, &wr->tmp);
		break;
	}
	return failed(wr);
}

void
tg_audit_format_release(struct tg_audit_writer *wr)
{
	tg_buf_release(&wr->tmp);
	tg_buf_release(&wr->frag_text);
	free(wr->frags);
	wr->frags = NULL;
	free(wr->rules);
	wr->rules = NULL;
	wr->nrules = wr->caprules = 0;
}

int
tg_audit_format_write(const struct tg_audit_report *rep,
		      enum tg_audit_format fmt, struct tg_buf *out)
{
	struct tg_audit_writer wr;
	int rc;

	tg_audit_format_begin(&wr, rep, fmt, out);
	rc = tg_audit_format_items(&wr, rep->items, rep->nitems);
	if (!rc)
		rc = tg_audit_format_end(&wr, rep);
	tg_audit_format_release(&wr);
	return rc;
}
