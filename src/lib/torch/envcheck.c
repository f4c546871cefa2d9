/* envcheck.c - a whole environment checked against its torch, from files
 * SPDX-License-Identifier: MIT
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
 * nvidia-cublas wheel it pins.
 *
 * ELF. Every shared object that an installed distribution's RECORD
 * lists (or, without RECORD, that its top-level directories hold;
 * torch's own and the nvidia-* wheels' left out) is mapped, and kept
 * when its distribution requires torch or it links libc10.so or a
 * libtorch*.so. Its undefined symbols in torch's namespaces (c10::,
 * at::, torch::, caffe2::, and the THP* C functions of libtorch_python)
 * are looked up in the libraries of torch/lib, mapped when the first
 * extension needs them, through each one's .gnu.hash (or a hash set of
 * the symbols of a library without one); a name none defines is then
 * looked for in the libraries the extension ships beside itself or on
 * its $ORIGIN run path (torchaudio's _torchaudio.so and
 * lib/libtorchaudio.so) before it is called missing. Only section
 * headers, .dynsym, its strings, .dynamic and .gnu.hash are read
 * (elfsym.c). Worst case: one open and mapping per shared object of the
 * environment, and a few cache lines per torch symbol an extension
 * needs.
 */
#include "lib/torch/envcheck.h"

#include <dirent.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "lib/pep/name.h"
#include "lib/pep/requirement.h"
#include "lib/pep/spec.h"
#include "lib/pep/version.h"
#include "lib/torch/demangle.h"
#include "lib/torch/elfsym.h"
#include "lib/util/buf.h"
#include "lib/util/file.h"
#include "lib/util/path.h"
#include "lib/util/str.h"
#include "lib/util/walk.h"

#define EXTRA_PASSES 16
#define DS_INFO_MAX ((size_t)64 * 1024)
#define EXT_MAX_OBJECTS 100000

struct req {
	size_t from;		 /* index in ds->v */
	const char *text;	 /* borrowed from the dist */
	struct tg_requirement r; /* parsed */
	char *target;		 /* canonical name */
	const struct tg_dist *to;
	int applies;
	const char *via;     /* the extra that made it apply, or NULL */
	const char *missing; /* a variable the marker needs, not known */
	size_t seen;	     /* 1 + the extras count it was evaluated for */
};

struct strset {
	char **v;
	size_t n;
};

struct symset {
	const char **slot;
	size_t cap, n;
};

struct ctx {
	struct tg_envcheck *ec;
	const struct tg_dists *ds;
	const struct tg_syspath *sp;
	const struct tg_torch *t;
	const struct tg_dist *torch_dist;
	struct tg_marker_env env;
	size_t extra_at; /* env.vars index of "extra" */
	char *extra_own; /* its own value, restored before release */
	struct req *reqs;
	size_t nreqs;
	struct strset *active; /* per dist: extras asked for */
	int *depends;	       /* per dist: a requirement on torch applies */
	struct tg_version tv;
	int have_tv;
	const char *tver;	    /* torch's version text */
	int cuda_major, cuda_minor; /* torch's CUDA; 0 0 for none */
	struct tg_elfsym *libs;
	size_t nlibs;
	struct symset syms;
	int elf;
	int syms_loaded; /* torch's symbols are read when first needed */
	int rc;		 /* the first failure: TG_ENOMEM */
};

static void *
keep(struct ctx *c, void *p)
{
	if (!p && !c->rc)
		c->rc = TG_ENOMEM;
	return p;
}

static char *fmt(struct ctx *c, const char *f, ...) TG_PRINTF(2, 3);

static char *
fmt(struct ctx *c, const char *f, ...)
{
	va_list ap;
	char *s;
	int n;

	va_start(ap, f);
	n = vsnprintf(NULL, 0, f, ap);
	va_end(ap);
	if (n < 0)
		return keep(c, NULL);
	s = keep(c, malloc((size_t)n + 1));
	if (!s)
		return NULL;
	va_start(ap, f);
	vsnprintf(s, (size_t)n + 1, f, ap);
	va_end(ap);
	return s;
}

static char *
sdup(struct ctx *c, const char *s)
{
	return s ? keep(c, tg_str_ndup(s, strlen(s))) : NULL;
}

static char *
dist_label(struct ctx *c, const struct tg_dist *d)
{
	return d ? fmt(c, "%s %s", d->name, d->version) : NULL;
}

/* Append an item; takes message (and nothing else). */
static struct tg_envcheck_item *
item(struct ctx *c, enum tg_envcheck_section s, enum tg_envcheck_status st,
     const struct tg_dist *d, const char *file, const char *req, char *message)
{
	struct tg_envcheck *ec = c->ec;
	struct tg_envcheck_item *nv, *it;

	if (c->rc) {
		free(message);
		return NULL;
	}
	nv = keep(c, realloc(ec->v, (ec->n + 1) * sizeof(*nv)));
	if (!nv) {
		free(message);
		return NULL;
	}
	ec->v = nv;
	it = &ec->v[ec->n++];
	memset(it, 0, sizeof(*it));
	it->section = s;
	it->status = st;
	it->dist = dist_label(c, d);
	it->file = sdup(c, file);
	it->requirement = sdup(c, req);
	it->message = message;
	if (!message)
		keep(c, NULL);
	ec->count[s]++;
	if (st == TG_ENVCHECK_BROKEN)
		ec->nbroken++;
	return it;
}

static void
detail(struct ctx *c, struct tg_envcheck_item *it, char *s)
{
	char **nv;

	if (!it || !s) {
		free(s);
		keep(c, s);
		return;
	}
	if (it->ndetails >= TG_ENVCHECK_DETAILS) {
		it->more++;
		free(s);
		return;
	}
	nv = keep(c, realloc(it->details, (it->ndetails + 1) * sizeof(*nv)));
	if (!nv) {
		free(s);
		return;
	}
	it->details = nv;
	it->details[it->ndetails++] = s;
}

static void
warn(struct ctx *c, const char *path, const char *msg)
{
	if (tg_diag_add(&c->ec->problems, TG_SEV_WARNING, 0, path, 0, 0,
			"env-unreadable", NULL, "%s", msg))
		keep(c, NULL);
}

/* ---- requirements and extras ---- */

static int
set_has(const struct strset *s, const char *x)
{
	size_t k;

	for (k = 0; k < s->n; k++)
		if (strcmp(s->v[k], x) == 0)
			return 1;
	return 0;
}

/* Add x (taken) to s; 1 when it was new. */
static int
set_add(struct ctx *c, struct strset *s, char *x)
{
	char **nv;

	if (!x)
		return 0;
	if (set_has(s, x)) {
		free(x);
		return 0;
	}
	nv = keep(c, realloc(s->v, (s->n + 1) * sizeof(*nv)));
	if (!nv) {
		free(x);
		return 0;
	}
	s->v = nv;
	s->v[s->n++] = x;
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
	struct tg_err e = TG_ERR_INIT;
	int res = 0, rc;

	c->env.vars[c->extra_at].value = (char *)x;
	rc = tg_marker_evaluate(r->r.marker, &c->env, &res, &e);
	c->env.vars[c->extra_at].value = c->extra_own;
	if (rc == TG_ENOMEM)
		keep(c, NULL);
	return rc ? -1 : res;
}

/* Evaluate r for its distribution's extras: sets applies, via and,
 * when the marker names a variable the environment does not know,
 * missing (applies is then 0). */
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
	h = holds(c, r, "");
	if (h == 1)
		return;
	for (k = 0; k < ex->n && h != 1; k++) {
		h = holds(c, r, ex->v[k]);
		if (h == 1)
			r->via = ex->v[k];
	}
	r->applies = h == 1;
	if (h < 0)
		r->missing = tg_marker_missing(r->r.marker, &c->env);
}

static void
parse_reqs(struct ctx *c)
{
	const struct tg_dists *ds = c->ds;
	size_t i, k, n = 0;

	for (i = 0; i < ds->n; i++)
		n += ds->v[i].nrequires;
	c->reqs = keep(c, calloc(n ? n : 1, sizeof(*c->reqs)));
	if (!c->reqs)
		return;
	for (i = 0; i < ds->n && !c->rc; i++) {
		const struct tg_dist *d = &ds->v[i];

		for (k = 0; k < d->nrequires && !c->rc; k++) {
			struct req *r = &c->reqs[c->nreqs];
			struct tg_err e = TG_ERR_INIT;
			int rc;

			r->from = i;
			r->text = d->requires[k];
			rc = tg_requirement_parse(&r->r, r->text,
						  strlen(r->text), &e);
			if (rc == TG_ENOMEM) {
				keep(c, NULL);
				break;
			}
			if (rc) {
				char *m = fmt(c,
					      "cannot parse 'Requires-Dist: "
					      "%s' in '%s': %s: left out",
					      r->text, d->requires_file, e.msg);

				if (m)
					warn(c, d->requires_file, m);
				free(m);
				continue;
			}
			r->target = keep(c, tg_name_canonicalize(r->r.name));
			if (!r->target) {
				tg_requirement_release(&r->r);
				break;
			}
			r->to = tg_dists_find(ds, r->target);
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
				    keep(c,
					 tg_name_canonicalize(r->r.extras[k])));
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
		keep(c, NULL);
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
	return fmt(c,
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
			item(c, TG_ENVCHECK_DEPENDENTS, TG_ENVCHECK_UNKNOWN, d,
			     d->requires_file, r->text, undefined(c, r));
			continue;
		}
		if (!r->applies) {
			item(c, TG_ENVCHECK_DEPENDENTS, TG_ENVCHECK_INACTIVE, d,
			     d->requires_file, r->text,
			     fmt(c, "does not apply here: its marker is "
				    "false"));
			continue;
		}
		c->depends[r->from] = 1;
		if (satisfies(c, r, c->tver))
			item(c, TG_ENVCHECK_DEPENDENTS, TG_ENVCHECK_OK, d,
			     d->requires_file, r->text,
			     fmt(c, "torch %s satisfies it%s", c->tver,
				 why(r, w, sizeof(w))));
		else
			item(c, TG_ENVCHECK_DEPENDENTS, TG_ENVCHECK_BROKEN, d,
			     d->requires_file, r->text,
			     fmt(c, "torch %s does not satisfy it%s", c->tver,
				 why(r, w, sizeof(w))));
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

static void
torch_reqs(struct ctx *c)
{
	const struct tg_dist **queue;
	size_t nq = 0, qi, i;
	char w[256];

	if (!c->torch_dist)
		return;
	queue = keep(c, calloc(c->ds->n + 1, sizeof(*queue)));
	if (!queue)
		return;
	queue[nq++] = c->torch_dist;
	for (qi = 0; qi < nq && !c->rc; qi++) {
		size_t from = (size_t)(queue[qi] - c->ds->v);

		for (i = 0; i < c->nreqs && !c->rc; i++) {
			struct req *r = &c->reqs[i];
			const struct tg_dist *d = &c->ds->v[r->from];
			size_t k;
			int major;

			if (r->from != from)
				continue;
			if (!r->applies && r->missing)
				item(c, TG_ENVCHECK_TORCH_REQS,
				     TG_ENVCHECK_UNKNOWN, d, d->requires_file,
				     r->text, undefined(c, r));
			if (!r->applies)
				continue;
			if (!r->to) {
				item(c, TG_ENVCHECK_TORCH_REQS,
				     TG_ENVCHECK_BROKEN, d, d->requires_file,
				     r->text,
				     fmt(c, "%s is not installed%s", r->r.name,
					 why(r, w, sizeof(w))));
				continue;
			}
			if (!satisfies(c, r, r->to->version)) {
				item(c, TG_ENVCHECK_TORCH_REQS,
				     TG_ENVCHECK_BROKEN, d, d->requires_file,
				     r->text,
				     fmt(c,
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
				item(c, TG_ENVCHECK_TORCH_REQS,
				     TG_ENVCHECK_BROKEN, d, d->requires_file,
				     r->text,
				     fmt(c,
					 "%s %s is installed, built for CUDA "
					 "%d; torch is built for CUDA %d.%d",
					 r->to->name, r->to->version, major,
					 c->cuda_major, c->cuda_minor));
			else if (major)
				item(c, TG_ENVCHECK_TORCH_REQS, TG_ENVCHECK_OK,
				     d, d->requires_file, r->text,
				     fmt(c,
					 "%s %s is installed, for CUDA %d as "
					 "torch",
					 r->to->name, r->to->version, major));
			else
				item(c, TG_ENVCHECK_TORCH_REQS, TG_ENVCHECK_OK,
				     d, d->requires_file, r->text,
				     fmt(c, "%s %s is installed", r->to->name,
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
static const char *
local_label(const char *s, char *buf, size_t n)
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
 * NULL. */
static const struct req *
torch_pin(const struct ctx *c, size_t i)
{
	size_t k, j;

	for (k = 0; k < c->nreqs; k++) {
		const struct req *r = &c->reqs[k];

		if (r->from != i || !r->applies ||
		    strcmp(r->target, "torch") != 0)
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
		label = local_label(d->version, lb, sizeof(lb));
		if (!label || !variant_of_label(label, &v)) {
			/* its version.py, as torchvision and torchaudio
			 * write it */
			under =
			    keep(c, tg_str_ndup(d->canon, strlen(d->canon)));
			for (k = 0; under && under[k]; k++)
				if (under[k] == '-')
					under[k] = '_';
			vpath = under ? fmt(c, "%s/%s/version.py",
					    c->sp->e[d->entry].dir, under)
				      : NULL;
			memset(&vp, 0, sizeof(vp));
			vrc = vpath ? tg_versionpy_load_lenient(&vp, vpath,
								&absent, NULL)
				    : -1;
			if (vrc == TG_ENOMEM)
				keep(c, NULL);
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
				    (label = local_label(vp.f[TG_VPY_VERSION].s,
							 lb, sizeof(lb))) &&
				    variant_of_label(label, &v))
					file = vpath;
				tg_versionpy_release(&vp);
			}
		}
		if (!v.known || !tvar.known)
			item(c, TG_ENVCHECK_FAMILY, TG_ENVCHECK_UNKNOWN, d,
			     file, pin ? pin->text : NULL,
			     fmt(c, "no CUDA variant to compare: %s%s",
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
			item(c, TG_ENVCHECK_FAMILY, TG_ENVCHECK_BROKEN, d, file,
			     pin ? pin->text : NULL,
			     fmt(c,
				 "built for %s (%s), torch %s is built for "
				 "%s%s",
				 dv, v.text, c->tver, tv, pinbuf));
		} else
			item(c, TG_ENVCHECK_FAMILY, TG_ENVCHECK_OK, d, file,
			     pin ? pin->text : NULL,
			     fmt(c, "built for %s (%s), as torch%s",
				 cuda_text(lb, sizeof(lb), v.cuda_major,
					   v.cuda_minor),
				 v.text, pinbuf));
		free(vpath);
		free(under);
	}
}

/* ---- extensions: what they were built for ---- */

static int
torch_minor(const struct ctx *c, int *major, int *minor)
{
	if (!c->have_tv || c->tv.nrelease < 2)
		return 0;
	*major = (int)strtol(c->tv.release[0].p, NULL, 10);
	*minor = (int)strtol(c->tv.release[1].p, NULL, 10);
	return 1;
}

/* "X.Y..." into major and minor. */
static int
major_minor(const char *s, int *major, int *minor)
{
	char *end;

	*major = (int)strtol(s, &end, 10);
	if (end == s || *end != '.')
		return 0;
	*minor = (int)strtol(end + 1, NULL, 10);
	return 1;
}

/* The string value of 'key' (or "key") in a Python dict literal
 * text[0..n), into out; 0 when absent. */
static int
dict_str(const char *text, size_t n, const char *key, char *out, size_t cap)
{
	size_t kl = strlen(key), i, j;

	for (i = 0; i + kl + 2 < n; i++) {
		char q = text[i];

		if ((q != '\'' && q != '"') || memcmp(text + i + 1, key, kl) ||
		    text[i + 1 + kl] != q)
			continue;
		j = i + kl + 2;
		while (j < n && (text[j] == ' ' || text[j] == '\t'))
			j++;
		if (j >= n || text[j] != ':')
			continue;
		j++;
		while (j < n && (text[j] == ' ' || text[j] == '\t'))
			j++;
		if (j >= n || (text[j] != '\'' && text[j] != '"'))
			return 0;
		q = text[j++];
		for (i = j; i < n && text[i] != q && text[i] != '\n'; i++)
			;
		if (i >= n || text[i] != q || i - j >= cap)
			return 0;
		memcpy(out, text + j, i - j);
		out[i - j] = '\0';
		return 1;
	}
	return 0;
}

static void
deepspeed(struct ctx *c, const struct tg_dist *d)
{
	char *path, *text = NULL, ver[64], cuda[64] = "";
	const char *p, *e;
	size_t len = 0;
	int absent = 0, rc, tmaj, tmin, maj, min, cmaj, cmin;
	struct tg_err err = TG_ERR_INIT;

	path = fmt(c, "%s/deepspeed/git_version_info_installed.py",
		   c->sp->e[d->entry].dir);
	if (!path)
		return;
	rc = tg_file_read(path, DS_INFO_MAX, &text, &len, &absent, &err);
	if (rc == TG_ENOMEM)
		keep(c, NULL);
	else if (rc)
		warn(c, path, err.msg);
	if (rc || absent)
		goto out;
	p = strstr(text, "torch_info");
	e = p ? strchr(p, '}') : NULL;
	if (!p || !e ||
	    !dict_str(p, (size_t)(e - p), "version", ver, sizeof(ver))) {
		item(c, TG_ENVCHECK_EXTENSIONS, TG_ENVCHECK_UNKNOWN, d, path,
		     NULL, fmt(c, "no torch_info version to compare"));
		goto out;
	}
	dict_str(p, (size_t)(e - p), "cuda_version", cuda, sizeof(cuda));
	if (!torch_minor(c, &tmaj, &tmin) || !major_minor(ver, &maj, &min)) {
		item(c, TG_ENVCHECK_EXTENSIONS, TG_ENVCHECK_UNKNOWN, d, path,
		     NULL,
		     fmt(c, "built for torch %s, which cannot be compared",
			 ver));
		goto out;
	}
	if (maj != tmaj || min != tmin)
		item(c, TG_ENVCHECK_EXTENSIONS, TG_ENVCHECK_BROKEN, d, path,
		     NULL,
		     fmt(c,
			 "DeepSpeed was built for torch %s%s%s; installed "
			 "torch is %d.%d: its compiled ops will not load",
			 ver, cuda[0] ? ", CUDA " : "", cuda, tmaj, tmin));
	else if (cuda[0] && c->cuda_major && major_minor(cuda, &cmaj, &cmin) &&
		 cmaj && cmaj != c->cuda_major)
		item(c, TG_ENVCHECK_EXTENSIONS, TG_ENVCHECK_BROKEN, d, path,
		     NULL,
		     fmt(c,
			 "DeepSpeed was built for CUDA %s; installed torch "
			 "is built for CUDA %d.%d",
			 cuda, c->cuda_major, c->cuda_minor));
	else
		item(c, TG_ENVCHECK_EXTENSIONS, TG_ENVCHECK_OK, d, path, NULL,
		     fmt(c,
			 "DeepSpeed was built for torch %s%s%s, as installed",
			 ver, cuda[0] ? ", CUDA " : "", cuda));
out:
	free(text);
	free(path);
}

/* A local label in the flash-attn style: cu12torch2.4cxx11abiFALSE. */
static void
wheel_tag(struct ctx *c, const struct tg_dist *d)
{
	char lb[128], tv[32] = "";
	const char *l = local_label(d->version, lb, sizeof(lb)), *p;
	int cu, maj, min, abi, tmaj, tmin, bad = 0;
	char *end;
	struct tg_buf why = TG_BUF_INIT;

	if (!l || strncmp(l, "cu", 2) != 0)
		return;
	cu = (int)strtol(l + 2, &end, 10);
	if (end == l + 2 || strncmp(end, "torch", 5) != 0)
		return;
	p = end + 5;
	maj = (int)strtol(p, &end, 10);
	if (end == p || *end != '.')
		return;
	p = end + 1;
	min = (int)strtol(p, &end, 10);
	if (end == p || strncmp(end, "cxx11abi", 8) != 0)
		return;
	if (strcmp(end + 8, "true") == 0)
		abi = 1;
	else if (strcmp(end + 8, "false") == 0)
		abi = 0;
	else
		return;
	if (torch_minor(c, &tmaj, &tmin)) {
		snprintf(tv, sizeof(tv), "%d.%d", tmaj, tmin);
		if (tmaj != maj || tmin != min)
			bad = 1;
	}
	if (c->t->cxx11_abi >= 0 && c->t->cxx11_abi != abi)
		bad = 1;
	/* cu12 is a major; cu118, cu121 carry the minor too */
	if (c->cuda_major && (cu >= 100 ? cu / 10 : cu) != c->cuda_major)
		bad = 1;
	tg_buf_addf(&why,
		    "wheel tag %s: built for torch %d.%d, CUDA %d, C++11 ABI "
		    "%s; installed torch is %s, CUDA %d.%d, C++11 ABI %s",
		    strchr(d->version, '+'), maj, min, cu >= 100 ? cu / 10 : cu,
		    abi ? "on" : "off", tv[0] ? tv : c->tver, c->cuda_major,
		    c->cuda_minor,
		    c->t->cxx11_abi < 0 ? "unknown"
		    : c->t->cxx11_abi	? "on"
					: "off");
	if (tg_buf_error(&why))
		keep(c, NULL);
	else
		item(c, TG_ENVCHECK_EXTENSIONS,
		     bad ? TG_ENVCHECK_BROKEN : TG_ENVCHECK_OK, d, d->metadata,
		     NULL, tg_buf_detach(&why));
	tg_buf_release(&why);
}

/* torchgate emit's module, read as text: TORCH_VERSION = '...' */
static void
generated(struct ctx *c, const struct tg_dist *d, const char *path)
{
	static const char head[] = "\"\"\"torch facts for this package's "
				   "build, written by torchgate emit";
	char *text = NULL, ver[128];
	const char *p, *q;
	size_t len = 0;
	int rc, tmaj, tmin, maj, min, trunc = 0;

	rc = tg_file_read_head(path, sizeof(head) - 1, &text, &len, &trunc,
			       NULL, NULL);
	if (rc == TG_ENOMEM)
		keep(c, NULL);
	if (rc || len < sizeof(head) - 1 ||
	    memcmp(text, head, sizeof(head) - 1) != 0) {
		free(text);
		return;
	}
	free(text);
	text = NULL;
	rc = tg_file_read(path, DS_INFO_MAX, &text, &len, NULL, NULL);
	if (rc) {
		if (rc == TG_ENOMEM)
			keep(c, NULL);
		return;
	}
	p = strstr(text, "\nTORCH_VERSION = ");
	if (p) {
		p += strlen("\nTORCH_VERSION = ");
		if (*p == '"' || *p == '\'') {
			q = strchr(p + 1, *p);
			p++;
		} else {
			q = NULL;
		}
	}
	if (!p || !q || (size_t)(q - p) >= sizeof(ver)) {
		free(text);
		return;
	}
	memcpy(ver, p, (size_t)(q - p));
	ver[q - p] = '\0';
	free(text);
	if (!torch_minor(c, &tmaj, &tmin) || !major_minor(ver, &maj, &min))
		item(c, TG_ENVCHECK_EXTENSIONS, TG_ENVCHECK_UNKNOWN, d, path,
		     NULL, fmt(c, "torchgate emit's module for torch %s", ver));
	else
		item(c, TG_ENVCHECK_EXTENSIONS,
		     maj == tmaj && min == tmin ? TG_ENVCHECK_OK
						: TG_ENVCHECK_BROKEN,
		     d, path, NULL,
		     fmt(c,
			 "torchgate emit's module was written for torch %s; "
			 "installed torch is %s",
			 ver, c->tver));
}

static uint64_t
hash(const char *s)
{
	uint64_t h = 1469598103934665603ULL;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 1099511628211ULL;
	return h;
}

static int
sym_has(const struct symset *s, const char *name)
{
	size_t i;

	if (!s->cap)
		return 0;
	for (i = hash(name) & (s->cap - 1); s->slot[i];
	     i = (i + 1) & (s->cap - 1))
		if (strcmp(s->slot[i], name) == 0)
			return 1;
	return 0;
}

static void
sym_add(struct symset *s, const char *name)
{
	size_t i;

	for (i = hash(name) & (s->cap - 1); s->slot[i];
	     i = (i + 1) & (s->cap - 1))
		if (strcmp(s->slot[i], name) == 0)
			return;
	s->slot[i] = name;
	s->n++;
}

static int
has_substr(const char *s, size_t n, const char *needle)
{
	return memmem(s, n, needle, strlen(needle)) != NULL;
}

/* A symbol in torch's namespaces: c10::, at::, torch::, caffe2:: (also
 * their vtables and type info), or a THP* function of libtorch_python. */
static int
torchish(const char *s)
{
	static const char *const ns[] = {"3c10", "2at", "5torch", "6caffe2"};
	const char *p;
	size_t k;

	if (strncmp(s, "THP", 3) == 0)
		return 1;
	if (s[0] != '_' || s[1] != 'Z')
		return 0;
	p = s + 2;
	if (p[0] == 'T' && (p[1] == 'V' || p[1] == 'I' || p[1] == 'S'))
		p += 2;
	if (*p == 'N')
		p++;
	while (*p == 'K' || *p == 'V' || *p == 'r' || *p == 'R' || *p == 'O')
		p++;
	for (k = 0; k < sizeof(ns) / sizeof(ns[0]); k++) {
		size_t l = strlen(ns[k]);

		/* <length><name>: the length says where the name ends */
		if (strncmp(p, ns[k], l) == 0)
			return 1;
	}
	return 0;
}

static int
cmp_cstr_p(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Map every library in torch/lib; what a library without .gnu.hash
 * defines goes into c->syms. */
static void
load_torch_symbols(struct ctx *c)
{
	const char *dir = c->t->library_dir;
	DIR *dp;
	struct dirent *de;
	char **names = NULL, **nv;
	size_t n = 0, k, i, total = 0, cap;

	if (!dir || !(dp = opendir(dir)))
		return;
	while ((de = readdir(dp)) && !c->rc) {
		if (strncmp(de->d_name, "lib", 3) != 0 ||
		    !strstr(de->d_name, ".so"))
			continue;
		nv = keep(c, realloc(names, (n + 1) * sizeof(*nv)));
		if (!nv)
			break;
		names = nv;
		names[n] = keep(c, tg_path_join(dir, de->d_name));
		if (!names[n])
			break;
		n++;
	}
	closedir(dp);
	if (n)
		qsort(names, n, sizeof(*names), cmp_cstr_p);
	c->libs = keep(c, calloc(n ? n : 1, sizeof(*c->libs)));
	for (k = 0; k < n && c->libs && !c->rc; k++) {
		struct tg_err e = TG_ERR_INIT;
		int rc;

		if (!tg_path_is_file(names[k]))
			continue;
		rc = tg_elfsym_open(&c->libs[c->nlibs], names[k], &e);
		if (rc == TG_ENOMEM)
			keep(c, NULL);
		else if (rc)
			warn(c, names[k], e.msg);
		else
			total += c->libs[c->nlibs++].nsyms;
	}
	for (k = 0; k < n; k++)
		free(names[k]);
	free(names);
	c->ec->torch_libraries = c->nlibs;
	/* a library without .gnu.hash: its symbols into a set of our own */
	for (k = 0, total = 0; k < c->nlibs; k++)
		if (!c->libs[k].gnuhash)
			total += c->libs[k].nsyms;
	if (c->rc || !total)
		return;
	for (cap = 16; cap < total * 2; cap <<= 1)
		;
	c->syms.slot = keep(c, calloc(cap, sizeof(*c->syms.slot)));
	if (!c->syms.slot)
		return;
	c->syms.cap = cap;
	for (k = 0; k < c->nlibs; k++)
		for (i = 0; !c->libs[k].gnuhash && i < c->libs[k].nsyms; i++) {
			const char *name;

			if (tg_elfsym_get(&c->libs[k], i, &name) ==
			    TG_ELFSYM_DEFINED)
				sym_add(&c->syms, name);
		}
}

/* Whether one of torch's libraries defines name. */
static int
torch_defines(const struct ctx *c, const char *name)
{
	size_t k;

	if (sym_has(&c->syms, name))
		return 1;
	for (k = 0; k < c->nlibs; k++)
		if (tg_elfsym_defines(&c->libs[k], name) == 1)
			return 1;
	return 0;
}

static const char *
abi_name(int abi)
{
	return abi < 0 ? "unknown" : abi ? "on" : "off";
}

#define BESIDE_MAX 16

/* Drop from miss[0..n) the names that a library the extension e (at
 * path) needs defines, when that library is one it ships: found in its
 * own directory or on its $ORIGIN run path, as the dynamic linker would
 * find it (torchaudio's _torchaudio.so and its lib/libtorchaudio.so).
 * Returns how many are left. */
static size_t
beside(struct ctx *c, const struct tg_elfsym *e, const char *path, char **miss,
       size_t n)
{
	char *dir = tg_path_dirname(path), *cand = NULL;
	const char *lib, *rp = tg_elfsym_runpath(e);
	size_t k, i, j, nlib = 0;

	if (!dir) {
		keep(c, NULL);
		return n;
	}
	for (k = 0;
	     (lib = tg_elfsym_needed(e, k)) && nlib < BESIDE_MAX && n && !c->rc;
	     k++) {
		const char *p = rp;
		struct tg_elfsym l = TG_ELFSYM_INIT;
		int found = 0;

		if (strncmp(lib, "libc10", 6) == 0 ||
		    strncmp(lib, "libtorch", 8) == 0 || strchr(lib, '/'))
			continue;
		/* its directory, then each run path entry with $ORIGIN */
		for (i = 0; !found && !c->rc; i++) {
			free(cand);
			cand = NULL;
			if (i == 0) {
				cand = fmt(c, "%s/%s", dir, lib);
			} else {
				const char *end;
				size_t len;

				if (!p || !*p)
					break;
				end = strchr(p, ':');
				len = end ? (size_t)(end - p) : strlen(p);
				if (len > 7 && strncmp(p, "$ORIGIN", 7) == 0)
					cand = fmt(c, "%s%.*s/%s", dir,
						   (int)(len - 7), p + 7, lib);
				else if (len > 9 &&
					 strncmp(p, "${ORIGIN}", 9) == 0)
					cand = fmt(c, "%s%.*s/%s", dir,
						   (int)(len - 9), p + 9, lib);
				p = end ? end + 1 : NULL;
				if (!cand)
					continue;
			}
			if (cand && tg_path_is_file(cand) &&
			    tg_elfsym_open(&l, cand, NULL) == 0)
				found = 1;
		}
		if (!found)
			continue;
		nlib++;
		for (i = j = 0; i < n; i++) {
			int has = tg_elfsym_defines(&l, miss[i]);
			size_t s;
			const char *name;

			for (s = 0; has < 0 && s < l.nsyms; s++)
				if (tg_elfsym_get(&l, s, &name) ==
					TG_ELFSYM_DEFINED &&
				    strcmp(name, miss[i]) == 0)
					has = 1;
			if (has != 1)
				miss[j++] = miss[i];
		}
		n = j;
		tg_elfsym_release(&l);
	}
	free(cand);
	free(dir);
	return n;
}

/* One shared object owned by d (which requires torch when depends). */
static void
extension(struct ctx *c, const struct tg_dist *d, int depends, const char *path)
{
	struct tg_elfsym e = TG_ELFSYM_INIT;
	struct tg_err err = TG_ERR_INIT;
	struct tg_envcheck_item *it;
	const char *lib, *name, *old = NULL;
	size_t k, need = 0, missing = 0;
	int links = 0, rc, abi = -1, bad_abi;
	char **miss = NULL;
	size_t nmiss = 0, cap = 0;

	if (c->ec->elf_objects >= EXT_MAX_OBJECTS)
		return;
	rc = tg_elfsym_open(&e, path, &err);
	if (rc) {
		if (rc == TG_ENOMEM)
			keep(c, NULL);
		else
			warn(c, path, err.msg);
		return;
	}
	for (k = 0; (lib = tg_elfsym_needed(&e, k)); k++)
		if (strncmp(lib, "libc10", 6) == 0 ||
		    strncmp(lib, "libtorch", 8) == 0)
			links = 1;
	if (!depends && !links)
		goto out;
	if (!c->syms_loaded) {
		c->syms_loaded = 1;
		load_torch_symbols(c);
	}
	c->ec->elf_objects++;
	for (k = 0; k < e.nsyms && !c->rc; k++) {
		if (tg_elfsym_get(&e, k, &name) != TG_ELFSYM_UNDEF ||
		    !torchish(name))
			continue;
		need++;
		if (!old && strstr(name, "Ss"))
			old = name;
		if (torch_defines(c, name))
			continue;
		if (nmiss == cap) {
			char **nv;

			cap = cap ? cap * 2 : 16;
			nv = keep(c, realloc(miss, cap * sizeof(*nv)));
			if (!nv)
				break;
			miss = nv;
		}
		miss[nmiss++] = (char *)name;
	}
	if (nmiss && !c->rc)
		nmiss = beside(c, &e, path, miss, nmiss);
	missing = nmiss;
	if (!need && !links)
		goto out;
	if (e.str && has_substr(e.str, e.strsz, "St7__cxx11"))
		abi = 1;
	else if (old)
		abi = 0;
	bad_abi = abi >= 0 && c->t->cxx11_abi >= 0 && abi != c->t->cxx11_abi;
	if (!c->nlibs)
		it = item(c, TG_ENVCHECK_EXTENSIONS, TG_ENVCHECK_UNKNOWN, d,
			  path, NULL,
			  fmt(c,
			      "needs %zu symbols from torch, whose "
			      "libraries were not found to compare",
			      need));
	else if (missing || bad_abi)
		it = item(c, TG_ENVCHECK_EXTENSIONS, TG_ENVCHECK_BROKEN, d,
			  path, NULL,
			  fmt(c,
			      "%zu of the %zu symbols it needs from torch are "
			      "defined by none of torch's libraries%s%s%s%s: "
			      "import will fail with 'undefined symbol'",
			      missing, need,
			      bad_abi ? "; built with C++11 ABI " : "",
			      bad_abi ? abi_name(abi) : "",
			      bad_abi ? ", installed torch has it " : "",
			      bad_abi ? abi_name(c->t->cxx11_abi) : ""));
	else
		it = item(c, TG_ENVCHECK_EXTENSIONS, TG_ENVCHECK_OK, d, path,
			  NULL,
			  fmt(c,
			      "the %zu symbols it needs from torch are all "
			      "defined; "
			      "C++11 ABI %s, torch's %s",
			      need, abi_name(abi), abi_name(c->t->cxx11_abi)));
	for (k = 0; it && k < nmiss && k < TG_ENVCHECK_DETAILS && !c->rc; k++) {
		char *dm = tg_demangle(miss[k]);

		detail(c, it,
		       dm ? fmt(c, "%s (%s)", dm, miss[k]) : sdup(c, miss[k]));
		free(dm);
	}
	if (it && missing > it->ndetails)
		it->more = missing - it->ndetails;
	if (it && bad_abi && old && abi == 0)
		detail(c, it, fmt(c, "old-ABI std::string in %s", old));
out:
	free(miss);
	tg_elfsym_release(&e);
}

struct walkctx {
	struct ctx *c;
	const struct tg_dist *d;
	int depends;
};

static int
is_so(const char *name)
{
	size_t n = strlen(name);

	return (n > 3 && strcmp(name + n - 3, ".so") == 0) ||
	       strstr(name, ".so.") != NULL;
}

static int
walk_want(void *ctx, const struct tg_walk_entry *e)
{
	struct walkctx *w = ctx;
	size_t n = strlen(e->name);

	if (e->st && S_ISDIR(e->st->st_mode))
		return strcmp(e->name, "__pycache__") != 0;
	if (is_so(e->name))
		return 1;
	return w->depends && n > 3 && strcmp(e->name + n - 3, ".py") == 0 &&
	       strstr(e->name, "torch") != NULL;
}

static int
walk_file(void *ctx, const struct tg_walk_entry *e)
{
	struct walkctx *w = ctx;

	if (is_so(e->name))
		extension(w->c, w->d, w->depends, e->path);
	else
		generated(w->c, w->d, e->path);
	return w->c->rc;
}

static int
walk_skipped(void *ctx, const struct tg_walk_entry *e, enum tg_walk_why why,
	     const char *msg)
{
	(void)ctx;
	(void)e;
	(void)why;
	(void)msg;
	return 0; /* links out of the tree and loops: not this dist's */
}

/* The shared objects directly in site directory k, sorted. */
static void
site_objects(struct ctx *c, size_t k, char ***out, size_t *n)
{
	DIR *dp = opendir(c->sp->e[k].dir);
	struct dirent *de;
	char **nv;

	*out = NULL;
	*n = 0;
	if (!dp)
		return;
	while ((de = readdir(dp)) && !c->rc) {
		if (!is_so(de->d_name))
			continue;
		nv = keep(c, realloc(*out, (*n + 1) * sizeof(*nv)));
		if (!nv)
			break;
		*out = nv;
		(*out)[*n] = sdup(c, de->d_name);
		if ((*out)[*n])
			(*n)++;
	}
	closedir(dp);
	if (*n)
		qsort(*out, *n, sizeof(**out), cmp_cstr_p);
}

static void
extensions(struct ctx *c)
{
	size_t i, k, j, entry = (size_t)-1, nobj = 0, nrec = 0;
	char **objs = NULL, **rec = NULL;
	int absent;

	for (i = 0; i < c->ds->n && !c->rc; i++) {
		const struct tg_dist *d = &c->ds->v[i];

		if (strcmp(d->canon, "deepspeed") == 0)
			deepspeed(c, d);
		wheel_tag(c, d);
	}
	if (!c->elf)
		return;
	for (i = 0; i < c->ds->n && !c->rc; i++) {
		const struct tg_dist *d = &c->ds->v[i];
		const char *site = c->sp->e[d->entry].dir;
		struct walkctx w = {c, d, c->depends[i]};
		struct tg_walk_opts wo;

		if (d == c->torch_dist || strncmp(d->canon, "nvidia-", 7) == 0)
			continue;
		if (d->entry != entry) {
			for (k = 0; k < nobj; k++)
				free(objs[k]);
			free(objs);
			site_objects(c, d->entry, &objs, &nobj);
			entry = d->entry;
		}
		memset(&wo, 0, sizeof(wo));
		wo.max_depth = 32;
		wo.want = walk_want;
		wo.file = walk_file;
		wo.skipped = walk_skipped;
		wo.ctx = &w;
		if (tg_dists_record_objects(d, &rec, &nrec, &absent, NULL)) {
			keep(c, NULL);
			break;
		}
		for (k = 0; !absent && k < nrec && !c->rc; k++) {
			char *p = fmt(c, "%s/%s", site, rec[k]);

			if (p && is_so(tg_path_basename(p)))
				extension(c, d, c->depends[i], p);
			else if (p && c->depends[i])
				generated(c, d, p);
			free(p);
		}
		for (k = 0; k < nrec; k++)
			free(rec[k]);
		free(rec);
		rec = NULL;
		nrec = 0;
		if (!absent)
			continue; /* RECORD lists what was installed */
		if (d->entry != entry) {
			for (k = 0; k < nobj; k++)
				free(objs[k]);
			free(objs);
			site_objects(c, d->entry, &objs, &nobj);
			entry = d->entry;
		}
		for (k = 0; k < d->ntop && !c->rc; k++) {
			char *p = fmt(c, "%s/%s", site, d->top[k]);
			size_t tl = strlen(d->top[k]);

			if (p && strcmp(d->top[k], "torch") != 0 &&
			    tg_path_is_dir(p) &&
			    tg_walk(p, &wo, NULL) == TG_ENOMEM)
				keep(c, NULL);
			free(p);
			for (j = 0; j < nobj && !c->rc; j++) {
				if (strncmp(objs[j], d->top[k], tl) != 0 ||
				    objs[j][tl] != '.')
					continue;
				p = fmt(c, "%s/%s", site, objs[j]);
				if (p)
					extension(c, d, c->depends[i], p);
				free(p);
			}
		}
	}
	for (k = 0; k < nobj; k++)
		free(objs[k]);
	free(objs);
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

		item(c, TG_ENVCHECK_COPIES, TG_ENVCHECK_OK, NULL,
		     t->meta_dir ? t->meta_dir : t->dir, NULL,
		     k == 0
			 ? fmt(c,
			       "torch %s at '%s' is the one Python "
			       "imports: %s%s, C++11 ABI %s",
			       v, t->dir, cuda ? "CUDA " : "no CUDA",
			       cuda ? cuda : "", abi_name(t->cxx11_abi))
			 : fmt(c, "torch %s at '%s' is shadowed", v, t->dir));
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
		keep(&c, NULL);
	cuda = c.t->vp.f[TG_VPY_CUDA].s;
	if (cuda && !major_minor(cuda, &c.cuda_major, &c.cuda_minor))
		c.cuda_major = c.cuda_minor = 0;
	for (i = 0; i < ds->n; i++)
		if (c.t->meta_dir && strcmp(ds->v[i].dir, c.t->meta_dir) == 0)
			c.torch_dist = &ds->v[i];
	if (!c.torch_dist)
		c.torch_dist = tg_dists_find(ds, "torch");
	if (tg_marker_env_fill(&c.env, o->markers, NULL) ||
	    tg_marker_env_set(&c.env, "extra", "", NULL, 0))
		keep(&c, NULL);
	if (!c.rc) {
		c.extra_at = c.env.n - 1;
		c.extra_own = c.env.vars[c.extra_at].value;
	}
	c.active = keep(&c, calloc(ds->n + 1, sizeof(*c.active)));
	c.depends = keep(&c, calloc(ds->n + 1, sizeof(*c.depends)));
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
		extensions(&c);
	/* clean up */
	for (i = 0; i < c.nreqs; i++) {
		tg_requirement_release(&c.reqs[i].r);
		free(c.reqs[i].target);
	}
	free(c.reqs);
	for (i = 0; c.active && i < ds->n; i++) {
		size_t k;

		for (k = 0; k < c.active[i].n; k++)
			free(c.active[i].v[k]);
		free(c.active[i].v);
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
