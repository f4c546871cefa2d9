/* envext.c - the extensions of an environment: built for which torch
 * SPDX-License-Identifier: MIT
 *
 * The extensions section of `torchgate env` (envcheck.c runs it, envctx.h
 * says what they share): DeepSpeed's git_version_info_installed.py,
 * wheel local tags in the flash-attn style, torchgate emit's module, and
 * the symbols of every extension module.
 *
 * ELF. Every shared object that an installed distribution's RECORD
 * lists (or, without RECORD, that its top-level directories hold;
 * torch's own and the nvidia-* wheels' left out), and every one under
 * the directories its editable install maps (pyenv/editable.h: an
 * in-place build that no RECORD lists), is looked at, and kept
 * when its distribution requires torch or it links libc10.so or a
 * libtorch*.so. Its undefined symbols in torch's namespaces (c10::,
 * at::, torch::, caffe2::, and the THP* C functions of libtorch_python)
 * are looked up in the libraries of torch/lib, opened when the first
 * extension needs them, through each one's .gnu.hash (or a hash set of
 * the symbols of a library without one); a name none defines is then
 * looked for in the libraries the extension ships beside itself or on
 * its $ORIGIN run path (torchaudio's _torchaudio.so and
 * lib/libtorchaudio.so) before it is called missing.
 *
 * Two passes. The first (envobjects.c) runs on as many threads as the
 * process may use: a thread takes the next distribution, records in
 * order what it meets (struct envjob, a list per distribution): each
 * shared object, each file that may be torchgate emit's module, each
 * warning (a link out noted, a walk's limit, a RECORD cut), then asks
 * of each of its objects whose distribution does not require torch
 * whether it links torch (tg_elfsym_needs: the headers and the
 * DT_NEEDED names in two or three pread()s, no stat when an lstat found
 * it a regular file, no section headers, symbols or allocation). The
 * second, here, on the calling thread, replays the lists in the
 * distributions' order: an object that does not link torch is passed
 * by, every other (it links torch, its distribution requires torch, or
 * the cheap read could not tell) is read as before (elfsym.c: section
 * headers, .dynsym, its strings, .dynamic and .gnu.hash, read or mapped
 * for torch's large libraries), and everything the report holds is
 * written here only, in the order the serial walk always had: the same
 * report whatever the threads did. On most environments nearly every
 * object belongs to another package (scipy, pandas, cupy...) and is
 * only asked. So a malformed section table, .dynsym or .gnu.hash of an
 * object that does not link torch is not warned about: nothing in it is
 * used; anything the cheap read cannot make sense of is read in full,
 * with its warning as before. Worst case: one open and a few reads per
 * shared object of the environment (EXT_MAX_OBJECTS checked at most),
 * and a few cache lines per torch symbol an extension needs.
 */
#include "lib/torch/envcheck.h"

#include <dirent.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/torch/demangle.h"
#include "lib/torch/elfsym.h"
#include "lib/torch/envctx.h"
#include "lib/torch/envobjects.h"
#include "lib/util/buf.h"
#include "lib/util/file.h"
#include "lib/util/path.h"
#include "lib/util/str.h"
#include "lib/util/grow.h"

#define DS_INFO_MAX ((size_t)64 * 1024)
#define EXT_MAX_OBJECTS 100000

const char *
tg_envext_abi_name(int abi)
{
	return abi < 0 ? "unknown" : abi ? "on" : "off";
}

static void
detail(struct ctx *c, struct tg_envcheck_item *it, char *s)
{

	if (!it || !s) {
		if (!s)
			tg_envcheck_keep(c, NULL);
		free(s);
		return;
	}
	if (it->ndetails >= TG_ENVCHECK_DETAILS) {
		it->more++;
		free(s);
		return;
	}
	if (TG_GROW(it->details, it->ndetails + 1, it->capdetails)) {
		tg_envcheck_keep(c, NULL);
		free(s);
		return;
	}
	it->details[it->ndetails++] = s;
}

static int
torch_minor(const struct ctx *c, int *major, int *minor)
{
	if (!c->have_tv || c->tv.nrelease < 2)
		return 0;
	*major = (int)strtol(c->tv.release[0].p, NULL, 10);
	*minor = (int)strtol(c->tv.release[1].p, NULL, 10);
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

	path = tg_envcheck_fmt(c, "%s/deepspeed/git_version_info_installed.py",
			       c->sp->e[d->entry].dir);
	if (!path)
		return;
	rc = tg_file_read(path, DS_INFO_MAX, &text, &len, &absent, &err);
	if (rc == TG_ENOMEM)
		tg_envcheck_keep(c, NULL);
	else if (rc)
		tg_envcheck_warn(c, path, err.msg);
	if (rc || absent)
		goto out;
	p = strstr(text, "torch_info");
	e = p ? strchr(p, '}') : NULL;
	if (!p || !e ||
	    !dict_str(p, (size_t)(e - p), "version", ver, sizeof(ver))) {
		tg_envcheck_item(
		    c, TG_ENVCHECK_EXTENSIONS, TG_ENVCHECK_UNKNOWN, d, path,
		    NULL,
		    tg_envcheck_fmt(c, "no torch_info version to compare"));
		goto out;
	}
	dict_str(p, (size_t)(e - p), "cuda_version", cuda, sizeof(cuda));
	if (!torch_minor(c, &tmaj, &tmin) ||
	    !tg_envcheck_major_minor(ver, &maj, &min)) {
		tg_envcheck_item(
		    c, TG_ENVCHECK_EXTENSIONS, TG_ENVCHECK_UNKNOWN, d, path,
		    NULL,
		    tg_envcheck_fmt(
			c, "built for torch %s, which cannot be compared",
			ver));
		goto out;
	}
	if (maj != tmaj || min != tmin)
		tg_envcheck_item(
		    c, TG_ENVCHECK_EXTENSIONS, TG_ENVCHECK_BROKEN, d, path,
		    NULL,
		    tg_envcheck_fmt(
			c,
			"DeepSpeed was built for torch %s%s%s; installed "
			"torch is %d.%d: its compiled ops will not load",
			ver, cuda[0] ? ", CUDA " : "", cuda, tmaj, tmin));
	else if (cuda[0] && c->cuda_major &&
		 tg_envcheck_major_minor(cuda, &cmaj, &cmin) && cmaj &&
		 cmaj != c->cuda_major)
		tg_envcheck_item(
		    c, TG_ENVCHECK_EXTENSIONS, TG_ENVCHECK_BROKEN, d, path,
		    NULL,
		    tg_envcheck_fmt(
			c,
			"DeepSpeed was built for CUDA %s; installed torch "
			"is built for CUDA %d.%d",
			cuda, c->cuda_major, c->cuda_minor));
	else
		tg_envcheck_item(
		    c, TG_ENVCHECK_EXTENSIONS, TG_ENVCHECK_OK, d, path, NULL,
		    tg_envcheck_fmt(
			c, "DeepSpeed was built for torch %s%s%s, as installed",
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
	const char *l = tg_envcheck_local_label(d->version, lb, sizeof(lb)), *p;
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
		tg_envcheck_keep(c, NULL);
	else
		tg_envcheck_item(c, TG_ENVCHECK_EXTENSIONS,
				 bad ? TG_ENVCHECK_BROKEN : TG_ENVCHECK_OK, d,
				 d->metadata, NULL, tg_buf_detach(&why));
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
		tg_envcheck_keep(c, NULL);
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
			tg_envcheck_keep(c, NULL);
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
	if (!torch_minor(c, &tmaj, &tmin) ||
	    !tg_envcheck_major_minor(ver, &maj, &min))
		tg_envcheck_item(
		    c, TG_ENVCHECK_EXTENSIONS, TG_ENVCHECK_UNKNOWN, d, path,
		    NULL,
		    tg_envcheck_fmt(c, "torchgate emit's module for torch %s",
				    ver));
	else
		tg_envcheck_item(
		    c, TG_ENVCHECK_EXTENSIONS,
		    maj == tmaj && min == tmin ? TG_ENVCHECK_OK
					       : TG_ENVCHECK_BROKEN,
		    d, path, NULL,
		    tg_envcheck_fmt(
			c,
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
	char **names = NULL;
	size_t n = 0, ncap = 0, k, i, total = 0, cap;

	if (!dir)
		return;
	if (!(dp = opendir(dir))) {
		/* out of memory is no "torch's libraries were not found" */
		if (errno == ENOMEM)
			tg_envcheck_keep(c, NULL);
		return;
	}
	while ((de = readdir(dp)) && !c->rc) {
		if (strncmp(de->d_name, "lib", 3) != 0 ||
		    !strstr(de->d_name, ".so"))
			continue;
		if (TG_GROW(names, n + 1, ncap)) {
			tg_envcheck_keep(c, NULL);
			break;
		}
		names[n] = tg_envcheck_keep(c, tg_path_join(dir, de->d_name));
		if (!names[n])
			break;
		n++;
	}
	closedir(dp);
	if (n)
		qsort(names, n, sizeof(*names), cmp_cstr_p);
	c->libs = tg_envcheck_keep(c, calloc(n ? n : 1, sizeof(*c->libs)));
	for (k = 0; k < n && c->libs && !c->rc; k++) {
		struct tg_err e = TG_ERR_INIT;
		int rc;

		if (!tg_path_is_file(names[k]))
			continue;
		rc = tg_elfsym_open(&c->libs[c->nlibs], names[k], &e);
		if (rc == TG_ENOMEM)
			tg_envcheck_keep(c, NULL);
		else if (rc)
			tg_envcheck_warn(c, names[k], e.msg);
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
	c->syms.slot = tg_envcheck_keep(c, calloc(cap, sizeof(*c->syms.slot)));
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
	uint32_t h;

	if (sym_has(&c->syms, name))
		return 1;
	h = tg_elfsym_gnu_hash(name);
	for (k = 0; k < c->nlibs; k++)
		if (tg_elfsym_defines_hashed(&c->libs[k], name, h) == 1)
			return 1;
	return 0;
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
		tg_envcheck_keep(c, NULL);
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
				cand = tg_envcheck_fmt(c, "%s/%s", dir, lib);
			} else {
				const char *end;
				size_t len;

				if (!p || !*p)
					break;
				end = strchr(p, ':');
				len = end ? (size_t)(end - p) : strlen(p);
				if (len > 7 && strncmp(p, "$ORIGIN", 7) == 0)
					cand = tg_envcheck_fmt(
					    c, "%s%.*s/%s", dir, (int)(len - 7),
					    p + 7, lib);
				else if (len > 9 &&
					 strncmp(p, "${ORIGIN}", 9) == 0)
					cand = tg_envcheck_fmt(
					    c, "%s%.*s/%s", dir, (int)(len - 9),
					    p + 9, lib);
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

/* One shared object owned by d (which requires torch when depends);
 * walked: found a regular file a moment ago; needs: what
 * tg_elfsym_needs said of it (TG_ELFSYM_NEEDS_ASK when not asked). */
static void
extension(struct ctx *c, const struct tg_dist *d, int depends, const char *path,
	  int walked, enum tg_elfsym_needs needs)
{
	struct tg_elfsym e = TG_ELFSYM_INIT;
	struct tg_err err = TG_ERR_INIT;
	struct tg_envcheck_item *it;
	const char *lib, *name, *old = NULL;
	size_t k, need = 0, missing = 0;
	int links = 0, rc, abi = -1, bad_abi;
	char **miss = NULL;
	size_t nmiss = 0, cap = 0;

	if (c->ec->elf_objects >= EXT_MAX_OBJECTS) {
		/* said once, at the first one left */
		if (!c->objects_cut) {
			char *msg = tg_envcheck_fmt(
			    c,
			    "more than %d extension modules: '%s' and those "
			    "after it are not checked",
			    EXT_MAX_OBJECTS, path);

			c->objects_cut = 1;
			if (msg)
				tg_envcheck_warn(c, path, msg);
			free(msg);
		}
		return;
	}
	/* the one answer that needs no more: no torch, read cheaply */
	if (!depends && needs == TG_ELFSYM_NEEDS_NONE)
		return;
	rc = walked ? tg_elfsym_open_walked(&e, path, &err)
		    : tg_elfsym_open(&e, path, &err);
	if (rc) {
		if (rc == TG_ENOMEM)
			tg_envcheck_keep(c, NULL);
		else
			tg_envcheck_warn(c, path, err.msg);
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
		if (TG_GROW(miss, nmiss + 1, cap)) {
			tg_envcheck_keep(c, NULL);
			break;
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
		it = tg_envcheck_item(
		    c, TG_ENVCHECK_EXTENSIONS, TG_ENVCHECK_UNKNOWN, d, path,
		    NULL,
		    tg_envcheck_fmt(c,
				    "needs %zu symbols from torch, whose "
				    "libraries were not found to compare",
				    need));
	else if (missing || bad_abi)
		it = tg_envcheck_item(
		    c, TG_ENVCHECK_EXTENSIONS, TG_ENVCHECK_BROKEN, d, path,
		    NULL,
		    tg_envcheck_fmt(
			c,
			"%zu of the %zu symbols it needs from torch are "
			"defined by none of torch's libraries%s%s%s%s: "
			"import will fail with 'undefined symbol'",
			missing, need, bad_abi ? "; built with C++11 ABI " : "",
			bad_abi ? tg_envext_abi_name(abi) : "",
			bad_abi ? ", installed torch has it " : "",
			bad_abi ? tg_envext_abi_name(c->t->cxx11_abi) : ""));
	else
		it = tg_envcheck_item(
		    c, TG_ENVCHECK_EXTENSIONS, TG_ENVCHECK_OK, d, path, NULL,
		    tg_envcheck_fmt(
			c,
			"the %zu symbols it needs from torch are all "
			"defined; "
			"C++11 ABI %s, torch's %s",
			need, tg_envext_abi_name(abi),
			tg_envext_abi_name(c->t->cxx11_abi)));
	for (k = 0; it && k < nmiss && k < TG_ENVCHECK_DETAILS && !c->rc; k++) {
		char *dm = tg_demangle(miss[k]);

		detail(c, it,
		       dm ? tg_envcheck_fmt(c, "%s (%s)", dm, miss[k])
			  : tg_envcheck_sdup(c, miss[k]));
		free(dm);
	}
	if (it && missing > it->ndetails)
		it->more = missing - it->ndetails;
	if (it && bad_abi && old && abi == 0)
		detail(c, it,
		       tg_envcheck_fmt(c, "old-ABI std::string in %s", old));
out:
	free(miss);
	tg_elfsym_release(&e);
}

/* The jobs in their order, on the calling thread. */
static void
replay(struct ctx *c, const struct envjobs *j)
{
	size_t k;

	for (k = 0; k < j->n && !c->rc; k++) {
		const struct envjob *o = &j->v[k];

		if (o->kind == JOB_WARN)
			tg_envcheck_warn(c, o->path, o->msg);
		else if (o->kind == JOB_GENERATED)
			generated(c, o->d, o->path);
		else
			extension(c, o->d, o->depends, o->path, o->walked == 1,
				  o->needs);
	}
}

void
tg_envext_check(struct ctx *c)
{
	size_t i, k;
	struct tg_editable_roots er = TG_EDITABLE_ROOTS_INIT;
	struct envjobs *per;

	for (i = 0; i < c->ds->n && !c->rc; i++) {
		const struct tg_dist *d = &c->ds->v[i];

		if (strcmp(d->canon, "deepspeed") == 0)
			deepspeed(c, d);
		wheel_tag(c, d);
	}
	if (!c->elf || c->rc)
		return;
	if (tg_editable_roots(&er, c->sp, c->ds, NULL)) {
		tg_envcheck_keep(c, NULL);
		return;
	}
	for (k = 0; k < er.notes.n && !c->rc; k++)
		tg_envcheck_warn(c, er.notes.v[k].path, er.notes.v[k].message);
	per = c->rc ? NULL
		    : tg_envcheck_keep(
			  c, calloc(c->ds->n ? c->ds->n : 1, sizeof(*per)));
	if (per) {
		tg_envobjects_collect(c, &er, per);
		for (i = 0; i < c->ds->n; i++) {
			replay(c, &per[i]);
			tg_envobjects_release(&per[i]);
		}
	}
	free(per);
	tg_editable_roots_release(&er);
}
