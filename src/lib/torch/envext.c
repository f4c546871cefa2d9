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
 * Two passes. The first runs on as many threads as the process has
 * CPUs (COLLECT_THREADS_MAX at most, one per COLLECT_PER_THREAD
 * distributions at most): a thread takes the next distribution, records
 * in order what it meets (struct job, a list per distribution): each
 * shared object, each file that may be torchgate emit's module, each
 * warning (a link out noted, a walk's limit, a RECORD cut), then asks
 * of each of its objects whose distribution does not require torch
 * whether it links torch (tg_elfsym_needs: the headers and the
 * DT_NEEDED names in two or three pread()s, no stat when an lstat found
 * it a regular file, no section headers, symbols or allocation). A
 * thread writes only its own copy of the run's ctx (its rc: the first
 * failure ends the run) and the lists of the distributions it took. The
 * second, on the calling thread, replays the lists in the
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
 * used;
 * anything the cheap read cannot make sense of is read in full, with
 * its warning as before.
 *
 * A RECORD entry is proved inside its sys.path entry with an lstat()
 * per entry when no link is on its way (tg_path_plain, whose proved
 * directory is the thread's: the next distribution's entries in the
 * same directory cost one lstat() each), else with tg_path_beneath's
 * realpath() calls; each entry's own lstat() is always made, so a link
 * beside a plain file is noted and not followed. Worst case: one open
 * and a few reads per shared object of the environment (EXT_MAX_OBJECTS
 * checked at most), a job per object, file and warning met, and a few
 * cache lines per torch symbol an extension needs.
 */
#include "lib/torch/envcheck.h"

#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/pyenv/editable.h"
#include "lib/torch/demangle.h"
#include "lib/torch/elfsym.h"
#include "lib/torch/envctx.h"
#include "lib/util/buf.h"
#include "lib/util/cpus.h"
#include "lib/util/file.h"
#include "lib/util/path.h"
#include "lib/util/str.h"
#include "lib/util/walk.h"
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

/* What a distribution's collection meets, in its order: a shared
 * object to check, a file that may be torchgate emit's module, a
 * warning. Collected and asked about on threads (collect_run), then
 * replayed in order on the calling thread, which alone reads further
 * and writes the report: items and warnings come in the order they
 * always came. */
enum job_kind { JOB_OBJECT, JOB_GENERATED, JOB_WARN };

struct job {
	enum job_kind kind;
	const struct tg_dist *d;
	int depends;
	/* 1: found a regular file a moment ago (an lstat), for both reads;
	 * 2: so found by a walk, for tg_elfsym_needs only (the full read
	 * stats it as it always did); 0: not known */
	int walked;
	char *path;
	char *msg;		    /* JOB_WARN's */
	enum tg_elfsym_needs needs; /* JOB_OBJECT's, filled in by a thread */
};

struct jobs {
	struct job *v;
	size_t n, cap;
};

/* A job at the end of j; path and msg (NULL: out of memory already
 * kept) are taken. */
static void
job_add(struct ctx *c, struct jobs *j, enum job_kind kind,
	const struct tg_dist *d, int depends, int walked, char *path, char *msg)
{
	struct job *o;

	if (!path || (kind == JOB_WARN && !msg) ||
	    TG_GROW(j->v, j->n + 1, j->cap)) {
		free(path);
		free(msg);
		tg_envcheck_keep(c, NULL);
		return;
	}
	o = &j->v[j->n++];
	o->kind = kind;
	o->d = d;
	o->depends = depends;
	o->walked = walked;
	o->path = path;
	o->msg = msg;
	o->needs = TG_ELFSYM_NEEDS_ASK;
}

static void
jobs_release(struct jobs *j)
{
	size_t k;

	for (k = 0; k < j->n; k++) {
		free(j->v[k].path);
		free(j->v[k].msg);
	}
	free(j->v);
	memset(j, 0, sizeof(*j));
}

/* A warning, in its place among the jobs. */
static void
defer_warn(struct ctx *c, struct jobs *j, const char *path, const char *msg)
{
	job_add(c, j, JOB_WARN, NULL, 0, 0, tg_envcheck_sdup(c, path),
		tg_envcheck_sdup(c, msg));
}

/* The jobs in their order, on the calling thread. */
static void
replay(struct ctx *c, const struct jobs *j)
{
	size_t k;

	for (k = 0; k < j->n && !c->rc; k++) {
		const struct job *o = &j->v[k];

		if (o->kind == JOB_WARN)
			tg_envcheck_warn(c, o->path, o->msg);
		else if (o->kind == JOB_GENERATED)
			generated(c, o->d, o->path);
		else
			extension(c, o->d, o->depends, o->path, o->walked == 1,
				  o->needs);
	}
}

struct walkctx {
	struct ctx *c;
	const struct tg_dist *d;
	int depends;
	const char *site;    /* d's sys.path entry: the bound of what is read */
	struct strset noted; /* the links out of it noted for d */
	int say_limits;	     /* a walk's limits are warnings */
	/* entries proved inside site cheaply: the thread's, so that a
	 * directory proved for one distribution is not again for the next */
	struct tg_path_plain *plain;
	struct jobs *jobs; /* what was met, in order */
};

/* Note, once per link and distribution, a link out of the sys.path
 * entry: what d installed is read only inside it (a RECORD entry or a
 * top-level name through evil -> /usr/lib would map the system's
 * libraries as d's extensions). */
static void
note_out(struct walkctx *w, const char *link, const char *target)
{
	struct ctx *c = w->c;
	size_t k;
	char *m;

	for (k = 0; k < w->noted.n; k++)
		if (strcmp(w->noted.v[k], link) == 0)
			return;
	m = tg_envcheck_sdup(c, link);
	if (!m || TG_GROW(w->noted.v, w->noted.n + 1, w->noted.cap)) {
		free(m);
		tg_envcheck_keep(c, NULL);
		return;
	}
	w->noted.v[w->noted.n++] = m;
	m = tg_envcheck_fmt(c,
			    "skipped '%s' of %s %s: a symlink to '%s', "
			    "outside '%s'",
			    link, w->d->name, w->d->version,
			    target ? target : "?", w->site);
	if (m)
		job_add(c, w->jobs, JOB_WARN, NULL, 0, 0,
			tg_envcheck_sdup(c, link), m);
}

static void
noted_release(struct walkctx *w)
{
	size_t k;

	for (k = 0; k < w->noted.n; k++)
		free(w->noted.v[k]);
	free(w->noted.v);
	memset(&w->noted, 0, sizeof(w->noted));
}

/* Whether site/rel stays inside site (else it is noted): 1 or 0; 2 when
 * it does and lstat found it a regular file (no stat before its open).
 * Proved with an lstat() per entry where no link is on its way; the
 * two realpath() calls of tg_path_beneath, a readlink() per component
 * each, only otherwise (they were 7,903 of env's 12,383 system calls on
 * a venv of 616 extension modules). */
static int
stays(struct walkctx *w, const char *rel)
{
	char *link = NULL, *target = NULL;
	int rc = tg_path_plain(w->plain, w->site, rel);

	if (rc == 1)
		return w->plain->regular ? 2 : 1;
	if (rc < 0) {
		tg_envcheck_keep(w->c, NULL);
		return 0;
	}
	rc = tg_path_beneath(w->site, rel, &link, &target, NULL);

	if (rc == 0)
		note_out(w, link, target);
	else if (rc < 0)
		tg_envcheck_keep(w->c, NULL);
	free(link);
	free(target);
	return rc == 1;
}

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

	int regular = e->st && !e->is_link && S_ISREG(e->st->st_mode);

	job_add(w->c, w->jobs, is_so(e->name) ? JOB_OBJECT : JOB_GENERATED,
		w->d, w->depends, regular ? 2 : 0,
		tg_envcheck_sdup(w->c, e->path), NULL);
	return w->c->rc;
}

static int
walk_skipped(void *ctx, const struct tg_walk_entry *e, enum tg_walk_why why,
	     const char *msg)
{
	struct walkctx *w = ctx;
	char *target = NULL;

	/* loops and the rest: not this dist's; a link out is noted */
	if (w->say_limits && (why == TG_WALK_DEPTH || why == TG_WALK_ENTRIES ||
			      why == TG_WALK_BYTES)) {
		target = tg_envcheck_fmt(
		    w->c, "%s; the rest of '%s' (%s %s) not checked", msg,
		    w->site, w->d->name, w->d->version);
		if (target)
			defer_warn(w->c, w->jobs, e->path, target);
	} else if (why == TG_WALK_OUTSIDE) {
		/* out of memory is no "a symlink to '?'" */
		errno = 0;
		target = tg_path_realpath(e->path);
		if (!target && errno == ENOMEM)
			tg_envcheck_keep(w->c, NULL);
		else
			note_out(w, e->path, target);
	}
	free(target);
	return w->c->rc;
}

/* The shared objects directly in site directory k, sorted. */
static void
site_objects(struct ctx *c, size_t k, char ***out, size_t *n)
{
	DIR *dp = opendir(c->sp->e[k].dir);
	struct dirent *de;
	size_t cap = 0;

	*out = NULL;
	*n = 0;
	if (!dp) {
		if (errno == ENOMEM)
			tg_envcheck_keep(c, NULL);
		return;
	}
	while ((de = readdir(dp)) && !c->rc) {
		if (!is_so(de->d_name))
			continue;
		if (TG_GROW(*out, *n + 1, cap)) {
			tg_envcheck_keep(c, NULL);
			break;
		}
		(*out)[*n] = tg_envcheck_sdup(c, de->d_name);
		if ((*out)[*n])
			(*n)++;
	}
	closedir(dp);
	if (*n)
		qsort(*out, *n, sizeof(**out), cmp_cstr_p);
}

/* The extensions of editable installs and in-place builds, which no
 * RECORD lists: the directories pyenv/editable.h finds (each inside
 * its project, never the environment's own), walked as a top-level
 * directory is, bounded by EDITABLE_WALK_ENTRIES names each, the limits
 * said; checked with their distribution's other extensions. */
#define EDITABLE_WALK_ENTRIES 100000

/* The roots of r that belong to distribution i. */
static void
editables(struct ctx *c, const struct tg_editable_roots *r, size_t i,
	  struct tg_path_plain *plain, struct jobs *jobs)
{
	const struct tg_dist *d = &c->ds->v[i];
	struct tg_walk_opts wo;
	size_t k;

	memset(&wo, 0, sizeof(wo));
	wo.max_depth = 32;
	wo.max_entries = EDITABLE_WALK_ENTRIES;
	wo.want = walk_want;
	wo.file = walk_file;
	wo.skipped = walk_skipped;
	for (k = 0; k < r->n && !c->rc; k++) {
		struct walkctx w = {c,
				    d,
				    c->depends[i],
				    r->v[k].path,
				    {NULL, 0, 0, NULL, 0},
				    1,
				    plain,
				    jobs};

		if (r->v[k].dist != i)
			continue;
		wo.ctx = &w;
		if (tg_path_is_dir(r->v[k].path)) {
			if (tg_walk(r->v[k].path, &wo, NULL) == TG_ENOMEM)
				tg_envcheck_keep(c, NULL);
		} else if (is_so(tg_path_basename(r->v[k].path))) {
			job_add(c, jobs, JOB_OBJECT, d, c->depends[i], 0,
				tg_envcheck_sdup(c, r->v[k].path), NULL);
		}
		noted_release(&w);
	}
}

/* The shared objects directly in one site directory, listed for the
 * distributions without RECORD there: a worker's, kept while the next
 * distribution it takes is in the same entry. */
struct siteobjs {
	size_t entry;
	char **v;
	size_t n;
};

static void
siteobjs_release(struct siteobjs *so)
{
	size_t k;

	for (k = 0; k < so->n; k++)
		free(so->v[k]);
	free(so->v);
	so->v = NULL;
	so->n = 0;
	so->entry = (size_t)-1;
}

/* Distribution i's shared objects, files and warnings, in order, into
 * jobs: those of its editable roots, then its RECORD's entries (or,
 * without RECORD, what its top-level names hold). */
static void
collect(struct ctx *c, const struct tg_editable_roots *er, size_t i,
	struct jobs *jobs, struct tg_path_plain *plain, struct siteobjs *so)
{
	const struct tg_dist *d = &c->ds->v[i];
	const char *site = c->sp->e[d->entry].dir;
	struct walkctx w = {
	    c, d, c->depends[i], site, {NULL, 0, 0, NULL, 0}, 0, plain, jobs};
	struct tg_walk_opts wo;
	char **rec = NULL;
	size_t k, j, nrec = 0;
	int absent, cut;

	if (d == c->torch_dist || strncmp(d->canon, "nvidia-", 7) == 0)
		return;
	editables(c, er, i, plain, jobs);
	memset(&wo, 0, sizeof(wo));
	wo.max_depth = 32;
	wo.want = walk_want;
	wo.file = walk_file;
	wo.skipped = walk_skipped;
	wo.ctx = &w;
	if (tg_dists_record_objects(d, &rec, &nrec, &absent, &cut, NULL)) {
		tg_envcheck_keep(c, NULL);
		return;
	}
	if (cut) {
		char *msg = tg_envcheck_fmt(
		    c,
		    "'%s/RECORD' lists more than %d files to check: "
		    "those after the first %d are not checked",
		    d->dir, TG_DISTS_MAX, TG_DISTS_MAX);

		if (msg)
			job_add(c, jobs, JOB_WARN, NULL, 0, 0,
				tg_envcheck_sdup(c, d->dir), msg);
	}
	for (k = 0; !absent && k < nrec && !c->rc; k++) {
		int in = stays(&w, rec[k]);
		char *p = in ? tg_envcheck_fmt(c, "%s/%s", site, rec[k]) : NULL;

		if (p && is_so(tg_path_basename(p)))
			job_add(c, jobs, JOB_OBJECT, d, c->depends[i], in == 2,
				p, NULL);
		else if (p && c->depends[i])
			job_add(c, jobs, JOB_GENERATED, d, c->depends[i], 0, p,
				NULL);
		else
			free(p);
	}
	for (k = 0; k < nrec; k++)
		free(rec[k]);
	free(rec);
	if (!absent || c->rc) {
		noted_release(&w);
		return; /* RECORD lists what was installed */
	}
	if (d->entry != so->entry) {
		siteobjs_release(so);
		site_objects(c, d->entry, &so->v, &so->n);
		so->entry = d->entry;
	}
	for (k = 0; k < d->ntop && !c->rc; k++) {
		char *p = tg_envcheck_fmt(c, "%s/%s", site, d->top[k]);
		size_t tl = strlen(d->top[k]);

		if (p && strcmp(d->top[k], "torch") != 0 && tg_path_is_dir(p) &&
		    stays(&w, d->top[k]) && tg_walk(p, &wo, NULL) == TG_ENOMEM)
			tg_envcheck_keep(c, NULL);
		free(p);
		for (j = 0; j < so->n && !c->rc; j++) {
			int in;

			if (strncmp(so->v[j], d->top[k], tl) != 0 ||
			    so->v[j][tl] != '.' || !(in = stays(&w, so->v[j])))
				continue;
			job_add(c, jobs, JOB_OBJECT, d, c->depends[i],
				in == 2 ? 2 : 0,
				tg_envcheck_fmt(c, "%s/%s", site, so->v[j]),
				NULL);
		}
	}
	noted_release(&w);
}

/* Whether each object of jobs whose distribution does not require torch
 * links libc10* or libtorch*, by tg_elfsym_needs, which allocates
 * nothing. */
static void
ask(struct jobs *j)
{
	static const char *const torch_libs[] = {"libc10", "libtorch"};
	size_t k;

	for (k = 0; k < j->n; k++) {
		struct job *o = &j->v[k];

		if (o->kind == JOB_OBJECT && !o->depends)
			o->needs = tg_elfsym_needs(o->path, o->walked != 0,
						   torch_libs, 2);
	}
}

/* The most threads that collect, the calling one included, and the
 * fewest distributions worth a thread of its own. */
#define COLLECT_THREADS_MAX 16
#define COLLECT_PER_THREAD 4

struct collector {
	struct ctx *c; /* the run's: read only while threads run */
	const struct tg_editable_roots *er;
	struct jobs *per; /* a job list per distribution */
	atomic_size_t next;
	atomic_int rc; /* the first failure */
};

/* Take the next distribution, collect its jobs and ask about its
 * objects, until none is left or one failed. A thread has a ctx of its
 * own, a copy of the run's whose rc alone it writes (the rest it only
 * reads), its own lstat cache and site listing; it writes only the job
 * lists of the distributions it took. */
static void *
collect_run(void *arg)
{
	struct collector *k = arg;
	struct ctx wc = *k->c;
	struct tg_path_plain plain = TG_PATH_PLAIN_INIT;
	struct siteobjs so = {(size_t)-1, NULL, 0};
	size_t i;

	wc.rc = 0;
	while (!atomic_load(&k->rc) &&
	       (i = atomic_fetch_add(&k->next, 1)) < wc.ds->n) {
		collect(&wc, k->er, i, &k->per[i], &plain, &so);
		if (wc.rc) {
			int none = 0;

			atomic_compare_exchange_strong(&k->rc, &none, wc.rc);
			break;
		}
		ask(&k->per[i]);
	}
	tg_path_plain_release(&plain);
	siteobjs_release(&so);
	return NULL;
}

/* collect_run on as many threads as CPUs the process may use
 * (util/cpus, as audit's engine counts them), COLLECT_THREADS_MAX
 * at most, one per COLLECT_PER_THREAD distributions at most. A thread
 * that cannot be started leaves its share to the others and the
 * calling thread: slower, never another answer. */
static void
collect_all(struct collector *k)
{
	pthread_t th[COLLECT_THREADS_MAX - 1];
	size_t n, want = tg_cpus_usable(), nth;

	if (want > COLLECT_THREADS_MAX)
		want = COLLECT_THREADS_MAX;
	n = k->c->ds->n / COLLECT_PER_THREAD;
	if (want > n)
		want = n ? n : 1;
	for (nth = 0; nth + 1 < want; nth++)
		if (pthread_create(&th[nth], NULL, collect_run, k) != 0)
			break;
	collect_run(k);
	while (nth)
		pthread_join(th[--nth], NULL);
}

void
tg_envext_check(struct ctx *c)
{
	size_t i, k;
	struct tg_editable_roots er = TG_EDITABLE_ROOTS_INIT;
	struct collector col;

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
	col.c = c;
	col.er = &er;
	col.per = c->rc ? NULL
			: tg_envcheck_keep(c, calloc(c->ds->n ? c->ds->n : 1,
						     sizeof(*col.per)));
	atomic_init(&col.next, 0);
	atomic_init(&col.rc, 0);
	if (col.per) {
		collect_all(&col);
		if (atomic_load(&col.rc))
			tg_envcheck_keep(c, NULL);
		for (i = 0; i < c->ds->n; i++) {
			replay(c, &col.per[i]);
			jobs_release(&col.per[i]);
		}
	}
	free(col.per);
	tg_editable_roots_release(&er);
}
