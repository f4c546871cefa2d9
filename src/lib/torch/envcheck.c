/* envcheck.c - a whole environment checked against its torch, from files
 * SPDX-License-Identifier: MIT
 *
 * This module owns the run of `torchgate env` and its items (envctx.h
 * says what the parts share), the torch copies on the path, the
 * requirements and the torch family's CUDA variants; envext.c checks
 * the extensions.
 *
 * Requirements. Every Requires-Dist line of every distribution is parsed
 * once (a line that does not parse is a warning, and left out). Markers
 * are evaluated against the default environment with "extra" set to ""
 * and then to each extra of the distribution that some installed
 * distribution asks for (pip installs only those): the requested extras
 * are worked out to a fixed point, at most EXTRA_PASSES passes, a
 * requirement evaluated again only when its distribution gained an
 * extra. Satisfaction is pip check's: the specifier contains the
 * installed version, pre-releases allowed.
 *
 * torch's own requirements are followed from torch through every
 * requirement that applies into the CUDA stack (names starting nvidia-
 * or cuda-, and triton), so cuda-toolkit[cublas,...] leads to the
 * nvidia-cublas wheel it pins. Worst case: requirements times
 * distributions for the CUDA stack, EXTRA_PASSES times the
 * requirements for the extras.
 */
#include "lib/torch/envcheck.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "lib/pep/name.h"
#include "lib/pep/requirement.h"
#include "lib/pep/spec.h"
#include "lib/pep/version.h"
#include "lib/torch/envctx.h"
#include "lib/util/str.h"
#include "lib/util/grow.h"

#define EXTRA_PASSES 16

void *
tg_envcheck_keep(struct ctx *c, void *p)
{
	if (!p && !c->rc)
		c->rc = TG_ENOMEM;
	return p;
}

char *
tg_envcheck_fmt(struct ctx *c, const char *f, ...)
{
	va_list ap;
	char *s;
	int n;

	va_start(ap, f);
	n = vsnprintf(NULL, 0, f, ap);
	va_end(ap);
	if (n < 0)
		return tg_envcheck_keep(c, NULL);
	s = tg_envcheck_keep(c, malloc((size_t)n + 1));
	if (!s)
		return NULL;
	va_start(ap, f);
	vsnprintf(s, (size_t)n + 1, f, ap);
	va_end(ap);
	return s;
}

char *
tg_envcheck_sdup(struct ctx *c, const char *s)
{
	return s ? tg_envcheck_keep(c, tg_str_ndup(s, strlen(s))) : NULL;
}

static char *
dist_label(struct ctx *c, const struct tg_dist *d)
{
	return d ? tg_envcheck_fmt(c, "%s %s", d->name, d->version) : NULL;
}

/* Append an item; takes message (and nothing else). */
struct tg_envcheck_item *
tg_envcheck_item(struct ctx *c, int s, int st, const struct tg_dist *d,
		 const char *file, const char *req, char *message)
{
	struct tg_envcheck *ec = c->ec;
	struct tg_envcheck_item *it;

	if (c->rc) {
		free(message);
		return NULL;
	}
	if (TG_GROW(ec->v, ec->n + 1, ec->cap)) {
		tg_envcheck_keep(c, NULL);
		free(message);
		return NULL;
	}
	it = &ec->v[ec->n++];
	memset(it, 0, sizeof(*it));
	it->section = s;
	it->status = st;
	it->dist = dist_label(c, d);
	it->file = tg_envcheck_sdup(c, file);
	it->requirement = tg_envcheck_sdup(c, req);
	it->message = message;
	if (!message)
		tg_envcheck_keep(c, NULL);
	ec->count[s]++;
	if (st == TG_ENVCHECK_BROKEN)
		ec->nbroken++;
	return it;
}

void
tg_envcheck_warn(struct ctx *c, const char *path, const char *msg)
{
	if (tg_diag_add(&c->ec->problems, TG_SEV_WARNING, 0, path, 0, 0,
			"env-unreadable", NULL, "%s", msg))
		tg_envcheck_keep(c, NULL);
}

/* ---- requirements and extras ---- */

static size_t
set_hash(const char *s)
{
	uint64_t h = 1469598103934665603ULL;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 1099511628211ULL;
	return (size_t)h;
}

/* The member equal to x, or NULL. */
static char *
set_find(const struct strset *s, const char *x)
{
	size_t i;

	if (!s->nslot)
		return NULL;
	for (i = set_hash(x) & (s->nslot - 1); s->slot[i];
	     i = (i + 1) & (s->nslot - 1))
		if (strcmp(s->slot[i], x) == 0)
			return s->slot[i];
	return NULL;
}

static void
set_index(struct strset *s, char *x)
{
	size_t i;

	for (i = set_hash(x) & (s->nslot - 1); s->slot[i];
	     i = (i + 1) & (s->nslot - 1))
		;
	s->slot[i] = x;
}

/* Add x (taken) to s; 1 when it was new. */
static int
set_add(struct ctx *c, struct strset *s, char *x)
{
	if (!x)
		return 0;
	if (set_find(s, x)) {
		free(x);
		return 0;
	}
	if (TG_GROW(s->v, s->n + 1, s->cap)) {
		tg_envcheck_keep(c, NULL);
		free(x);
		return 0;
	}
	if (2 * (s->n + 1) > s->nslot) {
		size_t k, nslot = s->nslot ? 2 * s->nslot : 16;
		char **slot = calloc(nslot, sizeof(*slot));

		if (!slot) {
			tg_envcheck_keep(c, NULL);
			free(x);
			return 0;
		}
		free(s->slot);
		s->slot = slot;
		s->nslot = nslot;
		for (k = 0; k < s->n; k++)
			set_index(s, s->v[k]);
	}
	s->v[s->n++] = x;
	set_index(s, x);
	return 1;
}

static int
cmp_cstr(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Whether r's marker holds with "extra" set to x. */
static int
holds(struct ctx *c, struct req *r, const char *x)
{
	int res = 0, rc;

	/* only the code counts: no message to write */
	c->env.vars[c->extra_at].value = (char *)x;
	rc = tg_marker_evaluate(r->r.marker, &c->env, &res, NULL);
	c->env.vars[c->extra_at].value = c->extra_own;
	if (rc == TG_ENOMEM)
		tg_envcheck_keep(c, NULL);
	return rc ? -1 : res;
}

/* What evaluate needs of a marker that does not depend on the extra:
 * its value for "" (1, 0, -1 undefined), whether it reads "extra" only
 * in == and != with literals (tg_marker_extra_literals) and those, and
 * the variable it misses when undefined. Worked out once per marker:
 * requirements with the same marker text share one marker
 * (tg_requirement_cache), and "extra" is the only variable that
 * changes during a run. */
struct minfo {
	int h;
	int lit;
	const char *missing;
	size_t n;
	const char *lits[]; /* n of them, borrowed from the marker */
};

static const struct minfo *
marker_info(struct ctx *c, struct req *r)
{
	const char *key = (const char *)&r->r.marker;
	struct minfo *mi;
	size_t n = 0;
	int lit;

	/* the requirements of a distribution often share a marker in a
	 * row (extra == "dev", ...): the last one answered first */
	if (c->last_mi && c->last_marker == r->r.marker)
		return c->last_mi;
	mi = tg_strmap_get(&c->plain, key, sizeof(r->r.marker));
	if (mi) {
		c->last_marker = r->r.marker;
		return c->last_mi = mi;
	}
	lit = tg_marker_extra_literals(r->r.marker, NULL, &n);
	if (!lit)
		n = 0;
	mi = tg_envcheck_keep(c, malloc(sizeof(*mi) + n * sizeof(char *)));
	if (!mi)
		return NULL;
	mi->h = holds(c, r, "");
	mi->lit = lit;
	mi->n = 0;
	if (lit)
		tg_marker_extra_literals(r->r.marker, mi->lits, &mi->n);
	mi->missing =
	    mi->h < 0 ? tg_marker_missing(r->r.marker, &c->env) : NULL;
	if (c->rc || tg_strmap_put(&c->plain, key, sizeof(r->r.marker), mi)) {
		tg_envcheck_keep(c, NULL);
		free(mi);
		return NULL;
	}
	c->last_marker = r->r.marker;
	return c->last_mi = mi;
}

/* Evaluate r for its distribution's extras: sets applies, via and,
 * when the marker names a variable the environment does not know,
 * missing (applies is then 0). via is the first extra, in sorted order,
 * that makes it apply. A marker that compares "extra" only with ==
 * and != to strings (tg_marker_extra_literals: all of them in practice)
 * has the same value for every extra that is none of those strings as
 * for "", and never fails because of the extra: only the extras named
 * in it are tried, so a requirement costs its literals, not the count
 * of extras asked for (a distribution asked for 100,000 extras, each
 * tried on each of another's 25,000 requirements, took minutes). */
static void
evaluate(struct ctx *c, struct req *r)
{
	const struct strset *ex = &c->active[r->from];
	size_t k;
	int h;

	r->via = NULL;
	r->missing = NULL;
	r->applies = 1;
	if (!r->r.marker)
		return;
	if (!r->mi && !(r->mi = marker_info(c, r))) {
		r->applies = 0;
		return;
	}
	h = r->mi->h;
	if (h == 1)
		return;
	r->applies = 0;
	if (r->mi->lit) {
		if (h < 0) {
			r->missing = r->mi->missing;
			return;
		}
		for (k = 0; k < r->mi->n; k++) {
			char *x = set_find(ex, r->mi->lits[k]);

			if (x && (!r->via || strcmp(x, r->via) < 0) &&
			    holds(c, r, x) == 1)
				r->via = x;
		}
		r->applies = r->via != NULL;
		return;
	}
	for (k = 0; k < ex->n && h != 1; k++) {
		h = holds(c, r, ex->v[k]);
		if (h == 1)
			r->via = ex->v[k];
	}
	r->applies = h == 1;
	if (h < 0)
		r->missing = tg_marker_missing(r->r.marker, &c->env);
}

/* A name as written, canonical, and the distribution of that name. */
struct target {
	const struct tg_dist *to;
	char canon[];
};

/* Set r's target and to, worked out once per name as written: some
 * 2,800 requirements name a few hundred projects. */
static int
target_of(struct ctx *c, struct req *r)
{
	size_t n = strlen(r->r.name);
	struct target *t = tg_strmap_get(&c->names, r->r.name, n);

	if (!t) {
		t = malloc(sizeof(*t) + n + 1);
		if (t)
			t->to = tg_dists_find(c->ds, tg_name_canonicalize_to(
							 t->canon, r->r.name));
		if (!t || tg_strmap_put(&c->names, r->r.name, n, t)) {
			free(t);
			tg_envcheck_keep(c, NULL);
			return TG_ENOMEM;
		}
	}
	r->target = t->canon;
	r->to = t->to;
	return 0;
}

static void
parse_reqs(struct ctx *c)
{
	const struct tg_dists *ds = c->ds;
	size_t i, k, n = 0;

	for (i = 0; i < ds->n; i++)
		n += ds->v[i].nrequires;
	c->reqs = tg_envcheck_keep(c, calloc(n ? n : 1, sizeof(*c->reqs)));
	if (!c->reqs)
		return;
	for (i = 0; i < ds->n && !c->rc; i++) {
		const struct tg_dist *d = &ds->v[i];

		for (k = 0; k < d->nrequires && !c->rc; k++) {
			struct req *r = &c->reqs[c->nreqs];
			struct tg_err e;
			int rc;

			/* as TG_ERR_INIT, without clearing the whole message
			 * for each of thousands of requirements */
			e.code = 0;
			e.pos = 0;
			e.has_pos = 0;
			e.msg[0] = '\0';

			r->from = i;
			r->text = d->requires[k];
			rc = tg_requirement_parse_cached(
			    &r->r, r->text, strlen(r->text), &c->cache, &e);
			if (rc == TG_ENOMEM) {
				tg_envcheck_keep(c, NULL);
				break;
			}
			if (rc) {
				char *m = tg_envcheck_fmt(
				    c,
				    "cannot parse 'Requires-Dist: "
				    "%s' in '%s': %s: left out",
				    r->text, d->requires_file, e.msg);

				if (m)
					tg_envcheck_warn(c, d->requires_file,
							 m);
				free(m);
				continue;
			}
			if (target_of(c, r)) {
				tg_requirement_release(&r->r);
				break;
			}
			c->nreqs++;
		}
	}
}

/* The extras each distribution is asked for, to a fixed point. */
static void
resolve_extras(struct ctx *c)
{
	size_t pass, i, k;
	int changed = 1;

	for (pass = 0; pass < EXTRA_PASSES && changed && !c->rc; pass++) {
		changed = 0;
		for (i = 0; i < c->nreqs && !c->rc; i++) {
			struct req *r = &c->reqs[i];

			/* the extras of r's distribution only grow: the
			 * same count is the same set, the same answer */
			if (r->seen == c->active[r->from].n + 1)
				continue;
			r->seen = c->active[r->from].n + 1;
			evaluate(c, r);
			if (!r->applies || !r->to || !r->r.nextras)
				continue;
			for (k = 0; k < r->r.nextras; k++)
				changed |= set_add(
				    c, &c->active[r->to - c->ds->v],
				    tg_envcheck_keep(c, tg_name_canonicalize(
							    r->r.extras[k])));
		}
	}
	for (i = 0; i < c->ds->n; i++)
		if (c->active[i].n > 1)
			qsort(c->active[i].v, c->active[i].n, sizeof(char *),
			      cmp_cstr);
	/* the first extra that makes it apply, in sorted order */
	for (i = 0; i < c->nreqs && !c->rc; i++)
		if (c->reqs[i].via)
			evaluate(c, &c->reqs[i]);
}

/* Whether the installed version ver satisfies r. */
static int
satisfies(struct ctx *c, const struct req *r, const char *ver)
{
	struct tg_version v = TG_VERSION_INIT;
	int ok, parsed, rc;

	if (r->r.url)
		return 1; /* pip check: a URL is satisfied by any version */
	rc = tg_version_parse(&v, ver, strlen(ver), NULL);
	if (rc == TG_ENOMEM)
		tg_envcheck_keep(c, NULL);
	parsed = rc == 0;
	ok = tg_spec_set_contains(&r->r.spec, ver, strlen(ver),
				  parsed ? &v : NULL, TG_PRE_ALLOW);
	if (parsed)
		tg_version_release(&v);
	return ok;
}

/* "with extra 'x'" when an extra made r apply, else "". */
static const char *
why(const struct req *r, char *buf, size_t n)
{
	if (!r->via)
		return "";
	snprintf(buf, n,
		 " (with extra '%s', which an installed "
		 "distribution asks for)",
		 r->via);
	return buf;
}

/* Why r's marker could not be evaluated. */
static char *
undefined(struct ctx *c, const struct req *r)
{
	return tg_envcheck_fmt(
	    c,
	    "its marker names '%s', which is not known for this "
	    "environment%s",
	    r->missing ? r->missing : "?",
	    tg_marker_env_source(r->missing ? r->missing : "") ==
		    TG_MARKER_FROM_PYTHON
		? " (no interpreter was read: --site-packages)"
		: "");
}

static void
dependents(struct ctx *c)
{
	size_t i;
	char w[256];

	for (i = 0; i < c->nreqs && !c->rc; i++) {
		struct req *r = &c->reqs[i];
		const struct tg_dist *d = &c->ds->v[r->from];

		if (strcmp(r->target, "torch") != 0 || d == c->torch_dist)
			continue;
		if (!r->applies && r->missing) {
			tg_envcheck_item(
			    c, TG_ENVCHECK_DEPENDENTS, TG_ENVCHECK_UNKNOWN, d,
			    d->requires_file, r->text, undefined(c, r));
			continue;
		}
		if (!r->applies) {
			tg_envcheck_item(
			    c, TG_ENVCHECK_DEPENDENTS, TG_ENVCHECK_INACTIVE, d,
			    d->requires_file, r->text,
			    tg_envcheck_fmt(
				c, "does not apply here: its marker is "
				   "false"));
			continue;
		}
		c->depends[r->from] = 1;
		if (satisfies(c, r, c->tver))
			tg_envcheck_item(
			    c, TG_ENVCHECK_DEPENDENTS, TG_ENVCHECK_OK, d,
			    d->requires_file, r->text,
			    tg_envcheck_fmt(c, "torch %s satisfies it%s",
					    c->tver, why(r, w, sizeof(w))));
		else
			tg_envcheck_item(
			    c, TG_ENVCHECK_DEPENDENTS, TG_ENVCHECK_BROKEN, d,
			    d->requires_file, r->text,
			    tg_envcheck_fmt(c, "torch %s does not satisfy it%s",
					    c->tver, why(r, w, sizeof(w))));
	}
}

/* ---- torch's own requirements ---- */

static int
cuda_stack(const char *canon)
{
	return strncmp(canon, "nvidia-", 7) == 0 ||
	       strncmp(canon, "cuda-", 5) == 0 || strcmp(canon, "triton") == 0;
}

/* The CUDA major a wheel of the CUDA stack is built for: the -cuNN of
 * its name (nvidia-cudnn-cu13), else the major of its version for the
 * wheels numbered as the toolkit is (nvidia-cuda-runtime 13.0.96,
 * cuda-toolkit 13.0.2); 0 when it does not say (nvidia-cufft 12.0 ships
 * in CUDA 13). */
static int
wheel_cuda_major(const struct tg_dist *d)
{
	static const char *const by_version[] = {
	    "nvidia-cuda-",    "nvidia-nvjitlink", "nvidia-nvtx",
	    "nvidia-cublas",   "nvidia-nvvm",	   "nvidia-nvptxcompiler",
	    "nvidia-nvfatbin", "cuda-toolkit",	   "cuda-bindings",
	};
	const char *p = strrchr(d->canon, '-');
	size_t k;

	if (p && p[1] == 'c' && p[2] == 'u' && p[3] >= '1' && p[3] <= '9') {
		char *end;
		long m = strtol(p + 3, &end, 10);

		if (*end == '\0' && m < 1000)
			return (int)m;
	}
	for (k = 0; k < sizeof(by_version) / sizeof(by_version[0]); k++) {
		size_t l = strlen(by_version[k]);

		if (strncmp(d->canon, by_version[k], l) == 0 &&
		    (by_version[k][l - 1] == '-' || d->canon[l] == '\0' ||
		     d->canon[l] == '-')) {
			long m = strtol(d->version, NULL, 10);

			return m > 0 && m < 1000 ? (int)m : 0;
		}
	}
	return 0;
}

/* The index of the first requirement of dist i in c->reqs (nreqs when
 * none): parse_reqs adds the requirements distribution by
 * distribution, so those of dist i are one run, found by bisection. */
static size_t
first_req(const struct ctx *c, size_t i)
{
	size_t lo = 0, hi = c->nreqs;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (c->reqs[mid].from < i)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static void
torch_reqs(struct ctx *c)
{
	const struct tg_dist **queue;
	size_t nq = 0, qi, i;
	char w[256];

	if (!c->torch_dist)
		return;
	queue = tg_envcheck_keep(c, calloc(c->ds->n + 1, sizeof(*queue)));
	if (!queue)
		return;
	queue[nq++] = c->torch_dist;
	for (qi = 0; qi < nq && !c->rc; qi++) {
		size_t from = (size_t)(queue[qi] - c->ds->v);

		/* the requirements of from: one run of c->reqs */
		for (i = first_req(c, from); i < c->nreqs && !c->rc; i++) {
			struct req *r = &c->reqs[i];
			const struct tg_dist *d = &c->ds->v[r->from];
			size_t k;
			int major;

			if (r->from != from)
				break;
			if (!r->applies && r->missing)
				tg_envcheck_item(c, TG_ENVCHECK_TORCH_REQS,
						 TG_ENVCHECK_UNKNOWN, d,
						 d->requires_file, r->text,
						 undefined(c, r));
			if (!r->applies)
				continue;
			if (!r->to) {
				tg_envcheck_item(
				    c, TG_ENVCHECK_TORCH_REQS,
				    TG_ENVCHECK_BROKEN, d, d->requires_file,
				    r->text,
				    tg_envcheck_fmt(c, "%s is not installed%s",
						    r->r.name,
						    why(r, w, sizeof(w))));
				continue;
			}
			if (!satisfies(c, r, r->to->version)) {
				tg_envcheck_item(
				    c, TG_ENVCHECK_TORCH_REQS,
				    TG_ENVCHECK_BROKEN, d, d->requires_file,
				    r->text,
				    tg_envcheck_fmt(
					c,
					"%s %s is installed, which does not "
					"satisfy it%s",
					r->to->name, r->to->version,
					why(r, w, sizeof(w))));
				continue;
			}
			major = cuda_stack(r->to->canon) && c->cuda_major
				    ? wheel_cuda_major(r->to)
				    : 0;
			if (major && major != c->cuda_major)
				tg_envcheck_item(
				    c, TG_ENVCHECK_TORCH_REQS,
				    TG_ENVCHECK_BROKEN, d, d->requires_file,
				    r->text,
				    tg_envcheck_fmt(
					c,
					"%s %s is installed, built for CUDA "
					"%d; torch is built for CUDA %d.%d",
					r->to->name, r->to->version, major,
					c->cuda_major, c->cuda_minor));
			else if (major)
				tg_envcheck_item(
				    c, TG_ENVCHECK_TORCH_REQS, TG_ENVCHECK_OK,
				    d, d->requires_file, r->text,
				    tg_envcheck_fmt(
					c,
					"%s %s is installed, for CUDA %d as "
					"torch",
					r->to->name, r->to->version, major));
			else
				tg_envcheck_item(
				    c, TG_ENVCHECK_TORCH_REQS, TG_ENVCHECK_OK,
				    d, d->requires_file, r->text,
				    tg_envcheck_fmt(c, "%s %s is installed",
						    r->to->name,
						    r->to->version));
			if (!cuda_stack(r->to->canon))
				continue;
			for (k = 0; k < nq && queue[k] != r->to; k++)
				;
			if (k == nq && nq < c->ds->n)
				queue[nq++] = r->to;
		}
	}
	free(queue);
}

/* ---- the torch family: CUDA variants ---- */

/* A build variant, from a local label ("cu128", "cpu", "rocm6.2") or a
 * version.py cuda value ("12.8"). */
struct variant {
	int known;
	int cuda_major, cuda_minor; /* 0 0: not a CUDA build */
	char text[64];		    /* as found */
};

/* The variant a local label names: cuXY[Z] is CUDA X[Y].Z. */
static int
variant_of_label(const char *label, struct variant *v)
{
	size_t n;

	memset(v, 0, sizeof(*v));
	if (strncasecmp(label, "cu", 2) == 0) {
		const char *p = label + 2;

		for (n = 0; p[n] >= '0' && p[n] <= '9'; n++)
			;
		if (n < 2 || n > 4 || p[n] != '\0')
			return 0;
		v->cuda_minor = p[n - 1] - '0';
		v->cuda_major = (int)strtol(p, NULL, 10) / 10;
		v->known = 1;
	} else if (strcasecmp(label, "cpu") == 0 ||
		   strncasecmp(label, "rocm", 4) == 0 ||
		   strncasecmp(label, "xpu", 3) == 0) {
		v->known = 1;
	} else {
		return 0;
	}
	snprintf(v->text, sizeof(v->text), "+%s", label);
	return 1;
}

static int
variant_of_cuda(const char *cuda, struct variant *v)
{
	char *end;

	memset(v, 0, sizeof(*v));
	v->cuda_major = (int)strtol(cuda, &end, 10);
	if (*end != '.' || v->cuda_major <= 0)
		return 0;
	v->cuda_minor = (int)strtol(end + 1, NULL, 10);
	v->known = 1;
	snprintf(v->text, sizeof(v->text), "cuda = '%s'", cuda);
	return 1;
}

/* The local label of version text s ("cu130"), into buf; NULL when none. */
const char *
tg_envcheck_local_label(const char *s, char *buf, size_t n)
{
	const char *p = strchr(s, '+');
	size_t k;

	if (!p || !p[1])
		return NULL;
	snprintf(buf, n, "%s", p + 1);
	for (k = 0; buf[k]; k++)
		if (buf[k] >= 'A' && buf[k] <= 'Z')
			buf[k] = (char)(buf[k] - 'A' + 'a');
	return buf;
}

static const char *
cuda_text(char *buf, size_t n, int major, int minor)
{
	if (major)
		snprintf(buf, n, "CUDA %d.%d", major, minor);
	else
		snprintf(buf, n, "no CUDA");
	return buf;
}

static int
family_name(const char *canon)
{
	static const char *const names[] = {
	    "torchvision", "torchaudio", "torchtext",  "torchdata",
	    "torchrec",	   "torchao",	 "torchcodec", "torch-tensorrt",
	    "fbgemm-gpu",  "torchtune",	 "xformers",   NULL,
	};
	size_t k;

	for (k = 0; names[k]; k++)
		if (strcmp(canon, names[k]) == 0)
			return 1;
	return 0;
}

/* The applying requirement of dist i on torch that pins it (==), or
 * NULL. parse_reqs adds the requirements distribution by distribution,
 * so those of dist i are one run of c->reqs, found by bisection. */
static const struct req *
torch_pin(const struct ctx *c, size_t i)
{
	size_t k, j;

	for (k = first_req(c, i); k < c->nreqs && c->reqs[k].from == i; k++) {
		const struct req *r = &c->reqs[k];

		if (!r->applies || strcmp(r->target, "torch") != 0)
			continue;
		for (j = 0; j < r->r.spec.n; j++)
			if (r->r.spec.specs[j].op == TG_OP_EQ ||
			    r->r.spec.specs[j].op == TG_OP_ARBITRARY)
				return r;
	}
	return NULL;
}

static void
family(struct ctx *c)
{
	struct variant tvar;
	char lb[128];
	size_t i;

	memset(&tvar, 0, sizeof(tvar));
	if (c->cuda_major) {
		tvar.known = 1;
		tvar.cuda_major = c->cuda_major;
		tvar.cuda_minor = c->cuda_minor;
	} else if (c->t->vp.f[TG_VPY_CUDA].set) {
		tvar.known = 1; /* cuda = None: not a CUDA build */
	}
	for (i = 0; i < c->ds->n && !c->rc; i++) {
		const struct tg_dist *d = &c->ds->v[i];
		const struct req *pin = torch_pin(c, i);
		struct variant v;
		const char *label, *file = d->metadata;
		char *vpath = NULL, *under = NULL, pinbuf[512] = "";
		struct tg_versionpy vp;
		int absent = 0, vrc;
		size_t k;

		if (d == c->torch_dist || (!pin && !family_name(d->canon)))
			continue;
		if (pin)
			snprintf(pinbuf, sizeof(pinbuf), "; pinned by '%s'",
				 pin->text);
		memset(&v, 0, sizeof(v));
		label = tg_envcheck_local_label(d->version, lb, sizeof(lb));
		if (!label || !variant_of_label(label, &v)) {
			/* its version.py, as torchvision and torchaudio
			 * write it */
			under = tg_envcheck_keep(
			    c, tg_str_ndup(d->canon, strlen(d->canon)));
			for (k = 0; under && under[k]; k++)
				if (under[k] == '-')
					under[k] = '_';
			vpath = under ? tg_envcheck_fmt(c, "%s/%s/version.py",
							c->sp->e[d->entry].dir,
							under)
				      : NULL;
			memset(&vp, 0, sizeof(vp));
			vrc = vpath ? tg_versionpy_load_lenient(&vp, vpath,
								&absent, NULL)
				    : -1;
			if (vrc == TG_ENOMEM)
				tg_envcheck_keep(c, NULL);
			if (vrc == 0 && !absent) {
				if (vp.f[TG_VPY_CUDA].set &&
				    vp.f[TG_VPY_CUDA].s &&
				    variant_of_cuda(vp.f[TG_VPY_CUDA].s, &v))
					file = vpath;
				else if (vp.f[TG_VPY_CUDA].set &&
					 !vp.f[TG_VPY_CUDA].s) {
					v.known = 1;
					snprintf(v.text, sizeof(v.text),
						 "cuda = None");
					file = vpath;
				}
				/* the local label of its __version__, as
				 * the PyPI wheels write it ('0.26.0+cu130')
				 * where the metadata's version has none */
				if (!v.known && vp.f[TG_VPY_VERSION].s &&
				    (label = tg_envcheck_local_label(
					 vp.f[TG_VPY_VERSION].s, lb,
					 sizeof(lb))) &&
				    variant_of_label(label, &v))
					file = vpath;
				tg_versionpy_release(&vp);
			}
		}
		if (!v.known || !tvar.known)
			tg_envcheck_item(
			    c, TG_ENVCHECK_FAMILY, TG_ENVCHECK_UNKNOWN, d, file,
			    pin ? pin->text : NULL,
			    tg_envcheck_fmt(
				c, "no CUDA variant to compare: %s%s",
				v.known
				    ? "torch records none"
				    : "no local label, no version.py cuda or "
				      "__version__ label",
				pinbuf));
		else if (v.cuda_major != tvar.cuda_major ||
			 v.cuda_minor != tvar.cuda_minor) {
			char tv[64], dv[64];

			cuda_text(tv, sizeof(tv), tvar.cuda_major,
				  tvar.cuda_minor);
			cuda_text(dv, sizeof(dv), v.cuda_major, v.cuda_minor);
			tg_envcheck_item(
			    c, TG_ENVCHECK_FAMILY, TG_ENVCHECK_BROKEN, d, file,
			    pin ? pin->text : NULL,
			    tg_envcheck_fmt(
				c,
				"built for %s (%s), torch %s is built for "
				"%s%s",
				dv, v.text, c->tver, tv, pinbuf));
		} else
			tg_envcheck_item(
			    c, TG_ENVCHECK_FAMILY, TG_ENVCHECK_OK, d, file,
			    pin ? pin->text : NULL,
			    tg_envcheck_fmt(c, "built for %s (%s), as torch%s",
					    cuda_text(lb, sizeof(lb),
						      v.cuda_major,
						      v.cuda_minor),
					    v.text, pinbuf));
		free(vpath);
		free(under);
	}
}

/* "X.Y..." into major and minor. */
int
tg_envcheck_major_minor(const char *s, int *major, int *minor)
{
	char *end;

	*major = (int)strtol(s, &end, 10);
	if (end == s || *end != '.')
		return 0;
	*minor = (int)strtol(end + 1, NULL, 10);
	return 1;
}

/* ---- torch on the path ---- */

static void
copies(struct ctx *c, const struct tg_probe *pr)
{
	size_t k;

	for (k = 0; k < pr->ncopies && !c->rc; k++) {
		const struct tg_torch *t = &pr->copies[k];
		const char *v = t->version ? t->version : "(no version)";
		const char *cuda = t->vp.f[TG_VPY_CUDA].s;

		tg_envcheck_item(
		    c, TG_ENVCHECK_COPIES, TG_ENVCHECK_OK, NULL,
		    t->meta_dir ? t->meta_dir : t->dir, NULL,
		    k == 0
			? tg_envcheck_fmt(c,
					  "torch %s at '%s' is the one Python "
					  "imports: %s%s, C++11 ABI %s",
					  v, t->dir, cuda ? "CUDA " : "no CUDA",
					  cuda ? cuda : "",
					  tg_envext_abi_name(t->cxx11_abi))
			: tg_envcheck_fmt(c, "torch %s at '%s' is shadowed", v,
					  t->dir));
	}
}

int
tg_envcheck_run(struct tg_envcheck *ec, const struct tg_probe *pr,
		const struct tg_syspath *sp, const struct tg_dists *ds,
		const struct tg_envcheck_opts *o, struct tg_err *err)
{
	struct ctx c;
	const char *cuda;
	size_t i;

	memset(&c, 0, sizeof(c));
	c.ec = ec;
	c.ds = ds;
	c.sp = sp;
	c.elf = o->elf;
	if (!pr->ncopies)
		return tg_err_set(err, TG_ENOENT, "no torch on the path");
	c.t = &pr->copies[0];
	c.tver = c.t->version ? c.t->version : "";
	i = (size_t)tg_version_parse(&c.tv, c.tver, strlen(c.tver), NULL);
	c.have_tv = i == 0;
	if ((int)i == TG_ENOMEM)
		tg_envcheck_keep(&c, NULL);
	cuda = c.t->vp.f[TG_VPY_CUDA].s;
	if (cuda &&
	    !tg_envcheck_major_minor(cuda, &c.cuda_major, &c.cuda_minor))
		c.cuda_major = c.cuda_minor = 0;
	for (i = 0; i < ds->n; i++)
		if (c.t->meta_dir && strcmp(ds->v[i].dir, c.t->meta_dir) == 0)
			c.torch_dist = &ds->v[i];
	if (!c.torch_dist)
		c.torch_dist = tg_dists_find(ds, "torch");
	if (tg_marker_env_fill(&c.env, o->markers, NULL) ||
	    tg_marker_env_set(&c.env, "extra", "", NULL, 0))
		tg_envcheck_keep(&c, NULL);
	if (!c.rc) {
		c.extra_at = c.env.n - 1;
		c.extra_own = c.env.vars[c.extra_at].value;
	}
	c.active = tg_envcheck_keep(&c, calloc(ds->n + 1, sizeof(*c.active)));
	c.depends = tg_envcheck_keep(&c, calloc(ds->n + 1, sizeof(*c.depends)));
	if (!c.rc)
		copies(&c, pr);
	if (!c.rc)
		parse_reqs(&c);
	if (!c.rc)
		resolve_extras(&c);
	if (!c.rc)
		dependents(&c);
	if (!c.rc)
		torch_reqs(&c);
	if (!c.rc)
		family(&c);
	if (!c.rc)
		tg_envext_check(&c);
	/* clean up */
	for (i = 0; i < c.nreqs; i++) {
		tg_requirement_release(&c.reqs[i].r);
	}
	free(c.reqs);
	tg_requirement_cache_release(&c.cache);
	tg_strmap_release(&c.plain, free);
	tg_strmap_release(&c.names, free);
	for (i = 0; c.active && i < ds->n; i++) {
		size_t k;

		for (k = 0; k < c.active[i].n; k++)
			free(c.active[i].v[k]);
		free(c.active[i].v);
		free(c.active[i].slot);
	}
	free(c.active);
	free(c.depends);
	for (i = 0; i < c.nlibs; i++)
		tg_elfsym_release(&c.libs[i]);
	free(c.libs);
	free(c.syms.slot);
	if (c.have_tv)
		tg_version_release(&c.tv);
	tg_marker_env_release(&c.env);
	if (c.rc)
		return tg_err_set(err, c.rc, "out of memory");
	return 0;
}

void
tg_envcheck_release(struct tg_envcheck *ec)
{
	size_t i, k;

	for (i = 0; i < ec->n; i++) {
		struct tg_envcheck_item *it = &ec->v[i];

		free(it->dist);
		free(it->file);
		free(it->requirement);
		free(it->message);
		for (k = 0; k < it->ndetails; k++)
			free(it->details[k]);
		free(it->details);
	}
	free(ec->v);
	tg_diag_list_release(&ec->problems);
	memset(ec, 0, sizeof(*ec));
}

const char *
tg_envcheck_section_name(enum tg_envcheck_section s)
{
	static const char *const n[] = {
	    "copies", "dependents", "torch_requires", "family", "extensions"};

	return (size_t)s < sizeof(n) / sizeof(n[0]) ? n[s] : "?";
}

const char *
tg_envcheck_status_name(enum tg_envcheck_status s)
{
	static const char *const n[] = {"ok", "broken", "inactive", "unknown"};

	return (size_t)s < sizeof(n) / sizeof(n[0]) ? n[s] : "?";
}
