/* index.c - the C/C++/CUDA analyzer's index of the table's patterns
 * SPDX-License-Identifier: MIT
 *
 * Owns tg_audit_cxx_index_new, _only, _free and tg_audit_cxx_pattern_re.
 * The table's usage patterns of each C++ entry are indexed with the
 * literals one of which each of their matches must hold (literals.c),
 * and the prefilter's keys built from the literals of the wanted
 * patterns, plus the triggers that make a file worth reading without
 * any pattern: a version test, a suppression, a method entry's id. A
 * pattern is compiled (JIT) when a file first holds one of its
 * literals, by the thread that reads that file, without a lock (the
 * code is stored by compare and swap; two threads that compile it at
 * once both do, and the loser frees its copy): a tree that uses a dozen
 * entries compiles a dozen patterns, not the table's 700 (11 of the 12
 * million instructions of auditing one header), and in a large tree
 * the compilations are spread over the threads instead of made by one
 * while the others wait.
 * tg_audit_cxx_index_only narrows the patterns to the entries a caller
 * can report (but for files with a suppression comment).
 *
 * Read-only once built but for those compilations, so one index serves
 * many files and threads.
 */
#include <stdlib.h>
#include <string.h>

#include "lib/audit/cxx/internal.h"

int
tg_audit_cxx_pattern_re(struct pat *p, const struct tg_scan_re **re)
{
	struct tg_scan_re *got = atomic_load_explicit(&p->re,
						      memory_order_acquire),
			  *mine = NULL;
	struct tg_err err = TG_ERR_INIT;
	int rc;

	*re = got;
	if (got || atomic_load_explicit(&p->bad, memory_order_relaxed))
		return 0;
	rc = tg_scan_compile_padded(&mine, p->usage, &err);
	if (rc == TG_ENOMEM)
		return rc; /* tried again by the next file */
	if (rc) {
		/* it stays so (a user's table; the built-in one's all
		 * compile) */
		atomic_store_explicit(&p->bad, 1, memory_order_relaxed);
		return 0;
	}
	/* two threads may compile it at once: the first stored wins, the
	 * other frees its own */
	if (!atomic_compare_exchange_strong_explicit(&p->re, &got, mine,
						     memory_order_acq_rel,
						     memory_order_acquire)) {
		tg_scan_re_free(mine);
		mine = got;
	}
	*re = mine;
	return 0;
}

void
tg_audit_cxx_index_free(struct tg_audit_cxx_index *ix)
{
	size_t k;

	if (!ix)
		return;
	for (k = 0; k < ix->npats; k++)
		tg_scan_re_free(atomic_load(&ix->pats[k].re));
	free(ix->pats);
	free(ix->lits);
	free(ix->next);
	free(ix->start);
	free(ix);
}

/* Add literal l (of pattern pat, or a trigger) to the prefilter's
 * keys. */
static void
add_lit(struct tg_audit_cxx_index *ix, const char *l, size_t pat)
{
	struct lit *e = &ix->lits[ix->nlits++];
	unsigned key = key4(l), j;

	e->s = l;
	e->len = strlen(l);
	e->pat = pat;
	e->head = e->tg_audit_cxx_mask = e->head2 = e->mask2 = 0;
	memcpy(&e->head, l, e->len < 8 ? e->len : 8);
	memset(&e->tg_audit_cxx_mask, 0xff, e->len < 8 ? e->len : 8);
	if (e->len > 8) {
		memcpy(&e->head2, l + 8, e->len < 16 ? e->len - 8 : 8);
		memset(&e->mask2, 0xff, e->len < 16 ? e->len - 8 : 8);
	}
	if (e->len >= 8) {
		unsigned k8 = key8(e->head);

		ix->next[ix->nlits - 1] = ix->head8[k8];
		ix->head8[k8] = (unsigned short)ix->nlits;
	} else {
		ix->next[ix->nlits - 1] = ix->head[key];
		ix->head[key] = (unsigned short)ix->nlits;
	}
	/* the first four bytes gate both chains */
	ix->keybits[key >> 3] |= (unsigned char)(1u << (key & 7));
	for (j = 0; j < 2; j++)
		ix->triples[key3(l + j)] |= (unsigned char)(1u << j);
}

/* Whether pattern literal l can be looked for in the source: four bytes
 * at least (the prefilter's key), and no space (the masked copies blank
 * bytes to spaces, so it might occur only there). */
static int
usable(const char *l)
{
	return strlen(l) >= 4 && !strchr(l, ' ');
}

/* Whether entry a's id extends entry p's: "c10::optional.std_alias" of
 * "c10::optional" (a pseudo-entry for a fact about the same name). */
int
tg_audit_cxx_extends(const struct tg_api *a, const struct tg_api *p)
{
	size_t n = strlen(p->id);

	return strncmp(a->id, p->id, n) == 0 && a->id[n] == '.';
}

/* The prefilter's keys: the literals of the wanted patterns, the ids
 * of the wanted method entries, and the triggers. */
static void
build_keys(struct tg_audit_cxx_index *ix)
{
	const struct tg_table *t = ix->t;
	size_t k, j;

	ix->nlits = 0;
	ix->read_all = 0;
	ix->start_any = 0;
	memset(ix->start, 0, 2 * ix->npats);
	for (k = 0; k < ix->npats; k++) {
		ix->start[k] = ix->pats[k].wanted && ix->pats[k].always;
		ix->start_any |= ix->start[k];
	}
	memset(ix->keybits, 0, sizeof(ix->keybits));
	memset(ix->triples, 0, sizeof(ix->triples));
	memset(ix->head, 0, sizeof(ix->head));
	memset(ix->head8, 0, sizeof(ix->head8));
	for (k = 0; k < ix->npats; k++)
		for (j = 0; ix->pats[k].wanted && !ix->pats[k].always &&
			    j < ix->pats[k].lits.n;
		     j++)
			add_lit(ix, ix->pats[k].lits.s[j], k);
	for (k = 0, j = 0; k < t->n; k++) {
		const struct tg_api *a = &t->apis[k];

		if (a->lang != TG_LANG_CXX)
			continue;
		while (j < ix->npats && ix->pats[j].a != a)
			j++;
		/* a method entry without patterns is not wanted: never
		 * looked for (nothing finds it in code either) */
		if (strcmp(a->kind, "method") != 0 || j >= ix->npats ||
		    !ix->pats[j].wanted)
			continue;
		if (strlen(a->id) >= 4)
			add_lit(ix, a->id, ix->npats + 2 + j);
		else
			ix->read_all = 1; /* too short a key: every file */
	}
	add_lit(ix, BRANCH_KEY, ix->npats);
	add_lit(ix, SUPPRESSION_KEY, ix->npats + 1);
}

void
tg_audit_cxx_index_only(struct tg_audit_cxx_index *ix,
			int (*want)(const struct tg_api *a, void *ctx),
			void *ctx)
{
	size_t k, j;

	for (k = 0; k < ix->npats; k++)
		ix->pats[k].wanted = want(ix->pats[k].a, ctx);
	/* an entry that a wanted one extends is wanted too: it wins their
	 * shared spans (one_per_span), as it does with every entry */
	for (k = 0; k < ix->npats; k++)
		for (j = 0; ix->pats[k].wanted && j < ix->npats; j++)
			if (!ix->pats[j].wanted &&
			    tg_audit_cxx_extends(ix->pats[k].a, ix->pats[j].a))
				ix->pats[j].wanted = 1;
	build_keys(ix);
}

int
tg_audit_cxx_index_new(struct tg_audit_cxx_index **out,
		       const struct tg_table *t, struct tg_err *err)
{
	struct tg_audit_cxx_index *ix;
	size_t k, j, n = 0, nl = 0;
	int rc = TG_ENOMEM;

	*out = NULL;
	ix = calloc(1, sizeof(*ix));
	if (!ix)
		goto out;
	ix->t = t;
	for (k = 0; k < t->n; k++)
		if (t->apis[k].lang == TG_LANG_CXX)
			n += t->apis[k].nusage;
	nl = n * LITS_MAX + t->n + 2;
	ix->pats = calloc(n ? n : 1, sizeof(*ix->pats));
	ix->lits = calloc(nl, sizeof(*ix->lits));
	ix->next = calloc(nl, sizeof(*ix->next));
	ix->start = calloc(n ? 2 * n : 1, 1);
	if (!ix->pats || !ix->lits || !ix->next || !ix->start)
		goto out;
	if (nl >= 65535) {
		rc = TG_ELIMIT;
		goto out;
	}
	for (k = 0; k < t->n; k++) {
		const struct tg_api *a = &t->apis[k];

		if (a->lang != TG_LANG_CXX)
			continue;
		for (j = 0; j < a->nusage; j++) {
			struct pat *p = &ix->pats[ix->npats++];
			size_t m;

			p->a = a;
			p->usage = a->usage[j];
			atomic_init(&p->re, NULL);
			atomic_init(&p->bad, 0);
			p->kind = tg_audit_cxx_base_kind(a);
			p->method = strcmp(a->kind, "method") == 0;
			p->function = strcmp(a->kind, "function") == 0;
			tg_audit_cxx_literal_set(a->usage[j], 0,
						 strlen(a->usage[j]), &p->lits);
			p->always = !p->lits.n;
			for (m = 0; m < p->lits.n; m++)
				if (!usable(p->lits.s[m]))
					p->always = 1;
		}
	}
	for (k = 0; k < ix->npats; k++)
		ix->pats[k].wanted = 1;
	build_keys(ix);
	rc = 0;
	*out = ix;
	ix = NULL;
out:
	tg_audit_cxx_index_free(ix);
	if (rc)
		tg_err_set(err, rc, "cannot index the API table: %s",
			   rc == TG_ENOMEM ? "out of memory"
					   : "too many usage patterns");
	return rc;
}
