/* internal.h - the Python analyzer's shared state, for audit/py/ only
 * SPDX-License-Identifier: MIT
 *
 * What the files of audit/py/ share and nothing else includes: the index
 * built once from the table (struct tg_audit_py_index, read-only while
 * files are read), the state of one file being read (struct state: the
 * buffered logical line, the bindings, the block stack, the guards inside
 * the line), the token tests every pass uses (inline: they run per token),
 * and the functions one file of the folder calls in another, named
 * tg_audit_py_* after the folder (src/lib/README.md). The public entry
 * points are in audit/audit.h.
 *
 * Limits: every buffer has its maximum below (a logical line's tokens, a
 * dotted name's components and bytes, the names bound per file, the
 * blocks, the star imports); what goes past one is noted or cut, never
 * an error.
 */
#ifndef TG_LIB_AUDIT_PY_INTERNAL_H
#define TG_LIB_AUDIT_PY_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "lib/audit/audit.h"
#include "lib/lex/pylex.h"

#define LINE_TOKS 32768	  /* tokens of one logical line analyzed at once */
#define CHAIN_MAX 32	  /* components of a dotted name */
#define NAME_MAX_LEN 512  /* bytes of a resolved dotted name */
#define BINDINGS_MAX 4096 /* names bound per file */
#define BIND_SLOTS0 64	  /* the first hash table (a power of two) */
#define HOT_BITS 16384	  /* the filter of names a line must hold to matter */
#define STARS_MAX 16
#define SHADOWS_MAX 8 /* parameters of one def that hide a torch name */
#define ROOTS_MAX 8
#define BLOCKS_MAX 200
#define INTERVALS_MAX 64
#define TEXT_MAX 200 /* bytes of a finding's text */
#define EXPAND_MAX 64
#define KW_SLOTS 128
#define FLAGS_MAX 32 /* flags a guarded import clears, per file */
#define FLAG_TRIES 8 /* the tries whose handlers clear one flag */

struct name_ent {
	char *name;
	size_t len;
	uint32_t hash;
	const struct tg_api *api;
};

/* A method: ".name(" on any receiver (its type is not known). */
struct method_rule {
	char *name;
	size_t nlen;
	const struct tg_api *api;
	int zeroarg; /* only ".name()" */
};

/* A parameter entry func.param: a call of func with param=. */
struct param_rule {
	const struct tg_api *api;
	char *func; /* the resolved dotted name, or a method's name */
	size_t flen;
	int method; /* func is a method: ".func(" on any receiver */
	int under;  /* func is a module: any function under it */
	int twin;   /* an earlier method rule has this func and kw: skipped */
	/* kw=None is no use (the entry's pattern "\bKW\s*=(?!\s*None\b)":
	 * torch warns of size_average= only when it is not None) */
	int not_none;
	char *kw;
};

/* A behaviour judged from a call's arguments: the call of one of funcs
 * without the keyword kw (nor a positional argument at pos, when pos is
 * not -1). */
struct behav_rule {
	const char *id;
	const char *funcs[4];
	const char *kw;
	int pos;
};

/* The behaviours judged from a call's arguments (rules.c). */
#define NBEHAV 5
extern const struct behav_rule tg_audit_py_behaviours[NBEHAV];

struct tg_audit_py_index {
	struct name_ent *slots;
	size_t nslots, nnames;
	struct method_rule *methods;
	size_t nmethods, capmethods;
	struct param_rule *params;
	size_t nparams, capparams;
	/* the parameter rules that are no method's, in the table's order,
	 * and of them those whose func is a module: indexes into params
	 * (under_rules points into call_rules' allocation) */
	size_t *call_rules, ncall, *under_rules, nunder;
	const struct tg_api *behav[NBEHAV];
	char roots[ROOTS_MAX][32];
	size_t rootlen[ROOTS_MAX];
	size_t nroots;
	/* the roots may_match looks for: those that hold no other root
	 * (a text holding "functorch" holds "torch") */
	unsigned char root_implied[ROOTS_MAX];
	/* a bit per hot_key of a root, a method's or a method parameter's
	 * name: a logical line with none of them (and no string, and no
	 * name the file bound) cannot hold a use (hot_line) */
	unsigned char hot[HOT_BITS / 8];
	/* a bit per hot_key of each name's last component: a dotted name
	 * whose last component has no bit is no name (match_longest) */
	unsigned char leaf[HOT_BITS / 8];
	/* a bit per hot_key of a method's or a method parameter's name,
	 * and of the last component of a function a call rule names (a
	 * parameter's, a behaviour's): check_method, check_call */
	unsigned char meth[HOT_BITS / 8], call_leaf[HOT_BITS / 8];
	/* Python's keywords by kw_slot (a perfect hash of them), and
	 * their lengths (0: a free slot) */
	const char *kw[KW_SLOTS];
	unsigned char kwlen[KW_SLOTS];
};

#define HASH0 2166136261u /* FNV-1a */

static inline uint32_t
hash_more(uint32_t h, const char *s, size_t n)
{
	size_t k;

	for (k = 0; k < n; k++) {
		h ^= (unsigned char)s[k];
		h *= 16777619u;
	}
	return h;
}

static inline uint32_t
hash_bytes(const char *s, size_t n)
{
	return hash_more(HASH0, s, n);
}

/* The hot filter's key of name s[0..n) (n > 0): from its length and
 * three of its bytes, as every name of a file is looked up. */
static inline uint32_t
hot_key(const char *s, size_t n)
{
	const unsigned char *u = (const unsigned char *)s;

	return ((uint32_t)u[0] * 131u + (uint32_t)u[n - 1] * 31u +
		(uint32_t)u[n / 2] * 17u + (uint32_t)n * 7u) &
	       (HOT_BITS - 1);
}

static inline void
hot_set(unsigned char *bits, const char *s, size_t n)
{
	uint32_t k = n ? hot_key(s, n) : 0;

	bits[k >> 3] |= (unsigned char)(1u << (k & 7));
}

static inline int
hot_get(const unsigned char *bits, uint32_t k)
{
	return bits[k >> 3] & (1u << (k & 7));
}

/* Whether s[0..n) may be the last component of a name of the index
 * (an empty one may). */
static inline int
leaf_may(const struct tg_audit_py_index *ix, const char *s, size_t n)
{
	return !n || hot_get(ix->leaf, hot_key(s, n));
}

/* The last component of the dotted name s[0..n): its bit in bits set,
 * or (get) whether it is set (an empty one always is). */
static inline void
last_set(unsigned char *bits, const char *s, size_t n)
{
	const char *d = memrchr(s, '.', n), *l = d ? d + 1 : s;

	hot_set(bits, l, (size_t)(s + n - l));
}

static inline int
last_get(const unsigned char *bits, const char *s, size_t n)
{
	const char *d = memrchr(s, '.', n), *l = d ? d + 1 : s;
	size_t ln = (size_t)(s + n - l);

	return !ln || hot_get(bits, hot_key(l, ln));
}

/* The slot of name s[0..n) (n > 0) in the index's keyword table: a
 * hash with no two of Python's keywords in one slot (which
 * tg_audit_py_index_new asserts). */
static inline unsigned
kw_slot(const char *s, size_t n)
{
	return ((unsigned char)s[0] + 11u * (unsigned char)s[n - 1] +
		(unsigned)n) &
	       (KW_SLOTS - 1);
}

static inline const struct tg_api *
index_find_h(const struct tg_audit_py_index *ix, const char *s, size_t n,
	     uint32_t h)
{
	size_t k = h & (ix->nslots - 1);

	for (;;) {
		const struct name_ent *e = &ix->slots[k];

		if (!e->name)
			return NULL;
		if (e->hash == h && e->len == n && memcmp(e->name, s, n) == 0)
			return e->api;
		k = (k + 1) & (ix->nslots - 1);
	}
}

static inline const struct tg_api *
index_find(const struct tg_audit_py_index *ix, const char *s, size_t n)
{
	return index_find_h(ix, s, n, hash_bytes(s, n));
}

static inline int
ident_char(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' ||
	       (c >= '0' && c <= '9') || c >= 0x80;
}

/* What guards the uses of a name bound to torch in two alternatives
 * (bind_set): the try or the if. */
struct bind_guard {
	enum tg_audit_guard kind; /* TG_AUDIT_UNGUARDED: no fallback */
	size_t line;
	char text[96]; /* as a block's gtext */
};

/* Where a binding was made: in clause `clause` of the block numbered
 * `block` (the innermost try, or if that guards; 0: none). */
struct bind_site {
	size_t block, clause;
};

struct binding {
	const char *name; /* into the source */
	size_t nlen;
	char *target; /* NULL: bound to something that is not torch */
	struct bind_site site;
	struct bind_guard fb;
};

/* A def's parameter that hides a name bound to torch: the binding to
 * put back when the def's block ends. */
struct shadow {
	const char *name; /* into the source */
	size_t nlen;
	char *target;
	struct bind_site site;
	struct bind_guard fb;
};

struct block {
	size_t indent, line;
	struct shadow shadows[SHADOWS_MAX];
	size_t nshadows;
	int kind;   /* B_IF, B_TRY, B_OTHER */
	int clause; /* try: 0 body, 1 except, 2 else, 3 finally; if: 0 the
		       if, 1... each elif and the else */
	/* try, clause 1: the handler being read catches ImportError or
	 * ModuleNotFoundError (only such a handler makes a flag) */
	int catches_import;
	enum tg_audit_guard guard;
	char gtext[96];
	size_t gline;
	size_t first;  /* try: the first finding appended inside it */
	size_t serial; /* if, try: its number in the file, from 1 */
	/* flag guards (guards.c): the flag + 1 the current clause runs
	 * under (if FLAG, elif/else of if not FLAG, a def a skip
	 * decorator skips without it) and an early exit's (if not FLAG:
	 * return) for the rest of the clause; 0: none */
	size_t flag, fline, exit_flag, eline;
	char ftext[96], etext[96];
	/* a def's block; flag set by a class's skip decorator, which skips
	 * its test methods but not the class body's own statements, run
	 * at import: it guards only inside a def of the class */
	int is_def, flag_class;
	/* an if whose test is "not FLAG": the flag + 1; the indent of its
	 * body's statements and whether the last one so far leaves */
	size_t not_flag, body_indent;
	int last_exits;
	/* version branch of the current clause; raises: a raise statement
	 * directly in the clause's body */
	int vb, raises;
	size_t cl_line;
	char cond[TEXT_MAX], req[160], neg[160];
};

enum { B_OTHER, B_IF, B_TRY };

struct interval {
	size_t a, b; /* token indexes, b exclusive */
	char text[128];
};

/* A flag: a name set False in a guarding handler of a module-level
 * try (try: from torch.x import y / except ImportError: HAVE_Y = False).
 * Where it is true, the names those tries' bodies bound are bound
 * (guards.c). */
struct flag {
	const char *name; /* into the source */
	size_t nlen;
	struct {
		size_t serial, line, handler;
	} tries[FLAG_TRIES];
	size_t ntries;
	int bad; /* bound elsewhere (tg_audit_py_flags_check): no guard */
};

/* A finding a flag guards, and what guarded it before (put back when
 * the flag turns out bad). */
struct flag_use {
	size_t finding, flag, line;
	enum tg_audit_guard guard;
	char text[96];
	int has_text;
};

struct state {
	const struct tg_audit_py_index *ix;
	const char *s;
	size_t len;
	const char *path;
	struct tg_audit_result *r;
	struct tg_pylex_tok *t; /* the line's tokens */
	unsigned char *ann;	/* per token: in an annotation */
	unsigned char *tc;	/* per token: its tok_code */
	size_t n;
	int cont; /* the buffer continues a longer logical line */
	int noted_long, noted_nul, noted_bind, noted_unterm;
	struct binding *bind;
	uint32_t *slots;	       /* index + 1 into bind, 0 empty */
	size_t nbind, capbind, nslots; /* nslots: a power of two, > 2 nbind */
	/* a bit per (first byte, length) some bound name has: most names
	 * are not bound, and are told so without hashing */
	unsigned char bound_bits[256 / 8];
	unsigned char hot[HOT_BITS / 8]; /* the index's, and names bound */
	int hot_line;			 /* the line may hold a use */
	char *stars[STARS_MAX];
	size_t nstars;
	size_t nblocks, nserial;
	size_t niv;
	size_t last_line; /* the last line of the previous logical line */
	/* reading an f-string's fields (scan_fields): the string's token
	 * in the line, whose conditional-expression guards apply, and its
	 * line; SIZE_MAX when not */
	size_t field_of, field_line;
	/* the binding of the head of the chain being reported, whose
	 * fallback guards its uses (NULL: none) */
	const struct binding *via;
	/* a getattr with a default being reported: it copes with the
	 * name's absence, so it guards itself */
	int self_guarded;
	/* reading a def's header: the index of its '(' (its parameters'
	 * names are no uses), else SIZE_MAX */
	size_t params_at;
	/* the flags (guards.c), the findings they guard, a skip
	 * decorator's flag for the def it decorates, an early exit's at
	 * the module's level */
	struct flag flags[FLAGS_MAX];
	size_t nflags;
	struct flag_use *fuses;
	size_t nfuses, capfuses;
	size_t deco_flag, deco_line, top_exit, top_eline;
	char deco_text[96], top_etext[96];
	int rc;
	/* last, and not cleared for a new file: only [0, nblocks) and
	 * [0, niv) are ever read */
	struct block blocks[BLOCKS_MAX];
	struct interval iv[INTERVALS_MAX];
};

static inline int
tok_isn(const struct state *st, size_t i, const char *text, size_t n)
{
	return i < st->n && st->t[i].len == n &&
	       st->s[st->t[i].off] == text[0] &&
	       memcmp(st->s + st->t[i].off, text, n) == 0 &&
	       (st->t[i].kind == TG_PYLEX_OP || st->t[i].kind == TG_PYLEX_NAME);
}

/* text is a string literal, or a string with its length computed */
#define tok_is(st, i, text) tok_isn((st), (i), (text), strlen(text))

/* A token's code, kept per token of the line (st->tc) so that the
 * passes over a line ask one byte of each token, not its kind, length
 * and text: an operator of one byte is that byte, a longer one
 * TC_OPS; a name that is a Python keyword TC_KEYWORD (tok_kw asks only
 * for keywords); anything else TC_OTHER. */
#define TC_OTHER 0
#define TC_KEYWORD 1
#define TC_OPS 2

static inline int
is_keyword(const struct tg_audit_py_index *ix, const char *s, size_t n)
{
	unsigned h = kw_slot(s, n);

	return ix->kwlen[h] == n && memcmp(ix->kw[h], s, n) == 0;
}

static inline unsigned char
tok_code(const struct tg_audit_py_index *ix, const char *s,
	 const struct tg_pylex_tok *t)
{
	if (t->kind == TG_PYLEX_OP)
		return t->len == 1 ? (unsigned char)s[t->off] : TC_OPS;
	if (t->kind == TG_PYLEX_NAME && is_keyword(ix, s + t->off, t->len))
		return TC_KEYWORD;
	return TC_OTHER;
}

static inline int
tok_op(const struct state *st, size_t i, const char *text)
{
	if (i >= st->n)
		return 0;
	if (text[1] == '\0')
		return st->tc[i] == (unsigned char)text[0];
	return st->tc[i] == TC_OPS && tok_is(st, i, text);
}

static inline int
tok_name(const struct state *st, size_t i)
{
	return i < st->n && st->t[i].kind == TG_PYLEX_NAME;
}

static inline int
tok_kw(const struct state *st, size_t i, const char *kw)
{
	return i < st->n && st->tc[i] == TC_KEYWORD && tok_is(st, i, kw);
}

static inline int
is_root(const struct state *st, const char *s, size_t n)
{
	size_t k;

	for (k = 0; k < st->ix->nroots; k++)
		if (st->ix->rootlen[k] == n &&
		    memcmp(st->ix->roots[k], s, n) == 0)
			return 1;
	return 0;
}

/* The filter's key of name s[0..n): its first byte and length. */
static inline unsigned
filter_key(const char *s, size_t n)
{
	return ((unsigned char)s[0] ^ (unsigned)(n * 37)) & 255u;
}

static inline int
bound_bit(const struct state *st, const char *s, size_t n)
{
	unsigned k = n ? filter_key(s, n) : 0;

	return st->bound_bits[k >> 3] & (1u << (k & 7));
}

/* Split full[0..n) into components: comp[k] the start of component k,
 * comp[ncomp] = n + 1. The dots of eight bytes at a time where a word's
 * byte order is known (the exact test for the zero bytes of w ^ "....":
 * no carry crosses a byte), then a byte at a time. */
static inline size_t
split_comps(const char *full, size_t n, size_t *comp)
{
	size_t k = 0, nc = 0;

	comp[nc++] = 0;
#if defined(__GNUC__) && defined(__BYTE_ORDER__) &&                            \
    __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	for (; n - k >= 8 && nc < CHAIN_MAX; k += 8) {
		const uint64_t lo7 = UINT64_C(0x7f7f7f7f7f7f7f7f);
		uint64_t w, x, dots;

		memcpy(&w, full + k, 8);
		x = w ^ UINT64_C(0x2e2e2e2e2e2e2e2e);
		dots = ~(((x & lo7) + lo7) | x) & ~lo7;
		for (; dots && nc < CHAIN_MAX; dots &= dots - 1)
			comp[nc++] =
			    k + (size_t)(__builtin_ctzll(dots) >> 3) + 1;
	}
#endif
	for (; k < n && nc < CHAIN_MAX; k++)
		if (full[k] == '.')
			comp[nc++] = k + 1;
	comp[nc] = n + 1;
	return nc;
}

static inline void
copy_text(char *dst, size_t cap, const char *s, size_t n)
{
	size_t k;

	if (n >= cap)
		n = cap - 1;
	for (k = 0; k < n && s[k] != '\n' && s[k] != '\r'; k++)
		dst[k] = s[k] ? s[k] : ' ';
	dst[k] = '\0';
}

/* The functions the files of audit/py/ call in each other, by the file
 * that defines them (and says what each does). */

/* bind.c */
int tg_audit_py_bind_room(struct state *st);
struct binding *tg_audit_py_bind_find(const struct state *st, const char *s,
				      size_t n);
void tg_audit_py_bind_put(struct state *st, const char *s, size_t n,
			  const char *target, size_t tn, struct bind_site site,
			  const struct bind_guard *fb);
const char *tg_audit_py_resolve_head(const struct state *st, const char *s,
				     size_t n, size_t *tn,
				     const struct binding **via);
void tg_audit_py_stmt_import(struct state *st, size_t a, size_t b);
void tg_audit_py_stmt_from(struct state *st, size_t a, size_t b);
void tg_audit_py_stmt_assign(struct state *st, size_t a, size_t b);
/* A def or class header on a line that cannot hold a use: its name,
 * where a later alternative may bind it to torch (bind.c). */
void tg_audit_py_def_alternative(struct state *st);
/* Whether a line that is no header and cannot hold a use still binds
 * names (an import, an assignment) where a later alternative may bind
 * them to torch: a try's body, an if's first branch that guards, at the
 * module's level. Such a line is read as one that may hold a use. */
int tg_audit_py_binds_alternative(const struct state *st);
void tg_audit_py_header_targets(struct state *st, size_t e);
void tg_audit_py_shadow_params(struct state *st, size_t p);

/* resolve.c */
const struct tg_api *tg_audit_py_match_longest(const struct state *st,
					       const char *full, size_t ncomp,
					       const size_t *comp, size_t minc,
					       size_t *kc);
size_t tg_audit_py_chain_end(const struct state *st, size_t i);
int tg_audit_py_resolve_chain(const struct state *st, size_t i, size_t e,
			      char *full, size_t *fl, size_t *ntarget,
			      const struct binding **via);
int tg_audit_py_param_name(const struct state *st, size_t p, size_t i);
void tg_audit_py_scan_refs(struct state *st, size_t a, size_t b);

/* rules.c */
size_t tg_audit_py_closer(const struct state *st, size_t p);
void tg_audit_py_check_call(struct state *st, const char *full, size_t fl,
			    size_t p, size_t head);
void tg_audit_py_check_method(struct state *st, size_t i);

/* mentions.c */
void tg_audit_py_scan_mentions(struct state *st, const char *text, size_t n,
			       size_t line, size_t col, enum tg_audit_in in,
			       size_t ti);
void tg_audit_py_scan_suppression(struct state *st,
				  const struct tg_pylex_tok *t);
void tg_audit_py_scan_fields(struct state *st, size_t ti);

/* guards.c */
enum tg_audit_guard tg_audit_py_guard_of(const struct state *st, size_t ti,
					 const char **text, size_t *line);
int tg_audit_py_ci_contains(const char *s, size_t n, const char *needle);
int tg_audit_py_torch_word(const char *s, size_t n);
int tg_audit_py_version_name(const char *s, size_t n);
int tg_audit_py_torch_version_attr(const struct state *st, size_t k, size_t e);
void tg_audit_py_line_intervals(struct state *st, size_t a, size_t b);
void tg_audit_py_pop_block(struct state *st);
size_t tg_audit_py_header_colon(const struct state *st, size_t a, size_t b);
size_t tg_audit_py_blocks_line(struct state *st, int *header);
void tg_audit_py_flag_line(struct state *st);
int tg_audit_py_flag_guard(struct state *st, const struct binding *via,
			   const char **text, size_t *line, size_t *fk);
void tg_audit_py_flags_check(struct state *st);

/* version.c */
int tg_audit_py_read_test_grid(const struct state *st, size_t a, size_t b,
			       char *pos, char *neg, size_t cap);
int tg_audit_py_read_test(struct state *st, size_t a, size_t b, char *pos,
			  char *neg, size_t cap);

/* analyze.c */
void tg_audit_py_emit(struct state *st, const struct tg_api *api, size_t line,
		      size_t col, enum tg_audit_in in, const char *kind,
		      size_t ti, const char *text, size_t tn, size_t so,
		      size_t eo);
void tg_audit_py_span(const struct state *st, struct tg_audit_finding *f,
		      size_t so, size_t eo);
/* The end of chain tokens i, i + 2, ... (names and dots): of the one
 * that ends ncomp names from i (at most e), its byte after. */
static inline size_t
chain_span_end(const struct state *st, size_t i, size_t ncomp, size_t e)
{
	size_t k = i + 2 * (ncomp ? ncomp - 1 : 0);

	if (k > e)
		k = e;
	return st->t[k].off + st->t[k].len;
}

#endif
