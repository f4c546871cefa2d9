/* emit.c - the generated files: a C/C++ guard header, a Python module
 * SPDX-License-Identifier: MIT
 *
 * The header is C89-clean so that it compiles as C11 and C++17 under
 * -Wall -Wextra -Werror -pedantic: only #define lines of integer and
 * string constants and one function-like macro, all usable in #if. The
 * hex version packs major, minor and patch in 8 bits each (0xMMmmpp). The Python module
 * imports only the standard library, and only inside check_runtime().
 */
#include "lib/render/emit.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int
tg_emit_is_identifier(const char *s)
{
	if (!s || !((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
		    *s == '_'))
		return 0;
	for (s++; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
		      (*s >= '0' && *s <= '9') || *s == '_'))
			return 0;
	return 1;
}

void
tg_emit_release(struct tg_emit *e)
{
	size_t k;

	for (k = 0; k < e->napis; k++)
		free(e->apis[k].stem);
	free(e->apis);
	e->apis = NULL;
	e->napis = 0;
}

int
tg_emit_add_apis(struct tg_emit *e, const struct tg_table *table,
		 const char *const *ids, size_t n, struct tg_err *err)
{
	size_t k, j;

	e->apis = calloc(n ? n : 1, sizeof(*e->apis));
	if (!e->apis)
		return tg_err_set(err, TG_ENOMEM, "out of memory");
	for (k = 0; k < n; k++) {
		const struct tg_api *a = tg_table_find(table, ids[k]);

		if (!a)
			return tg_err_set(err, TG_EINVAL,
					  "'%s' is not in the table", ids[k]);
		for (j = 0; j < e->napis; j++)
			if (e->apis[j].api == a)
				break;
		if (j < e->napis)
			continue; /* asked twice */
		e->apis[e->napis].api = a;
		e->apis[e->napis].status = tg_api_status(a, e->torch);
		e->apis[e->napis].stem = tg_api_macro_name(a->id);
		if (!e->apis[e->napis].stem)
			return tg_err_set(err, TG_ENOMEM, "out of memory");
		for (j = 0; j < e->napis; j++)
			if (strcmp(e->apis[j].stem, e->apis[e->napis].stem) ==
			    0) {
				tg_err_set(err, TG_EINVAL,
					   "'%s' and '%s' give the same macro "
					   "name %s",
					   e->apis[j].api->id, a->id,
					   e->apis[e->napis].stem);
				free(e->apis[e->napis].stem);
				e->apis[e->napis].stem = NULL;
				return TG_EINVAL;
			}
		e->napis++;
	}
	return 0;
}

/* release component k of v: 0 when absent, UINT_MAX when above 10^6 */
static unsigned
part(const struct tg_version *v, size_t k)
{
	unsigned x = 0;
	size_t i;

	if (k >= v->nrelease)
		return 0;
	if (v->release[k].n > 6)
		return UINT_MAX;
	for (i = 0; i < v->release[k].n; i++)
		x = x * 10 + (unsigned)(v->release[k].p[i] - '0');
	return x;
}

/* "13.0" -> 13, 0; 0 when s is NULL or does not start with digits */
static void
major_minor(const char *s, unsigned *maj, unsigned *min)
{
	*maj = *min = 0;
	if (!s)
		return;
	if (sscanf(s, "%u.%u", maj, min) < 1)
		*maj = *min = 0;
	if (*maj > 9999)
		*maj = 0;
	if (*min > 999)
		*min = 0;
}

/* A C string literal: quotes, backslashes and non-printables escaped. */
static void
c_string(struct tg_buf *b, const char *s)
{
	tg_buf_addc(b, '"');
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\') {
			tg_buf_addc(b, '\\');
			tg_buf_addc(b, (char)c);
		} else if (c < 0x20 || c >= 0x7f || c == '?') {
			tg_buf_addf(b, "\\%03o", c);
		} else {
			tg_buf_addc(b, (char)c);
		}
	}
	tg_buf_addc(b, '"');
}

/* A Python string literal: quotes, backslashes and control characters
 * escaped; other bytes (UTF-8) as they are, the module being UTF-8. */
static void
py_string(struct tg_buf *b, const char *s)
{
	if (!s) {
		tg_buf_adds(b, "None");
		return;
	}
	tg_buf_addc(b, '"');
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\') {
			tg_buf_addc(b, '\\');
			tg_buf_addc(b, (char)c);
		} else if (c < 0x20 || c == 0x7f) {
			tg_buf_addf(b, "\\x%02x", c);
		} else {
			tg_buf_addc(b, (char)c);
		}
	}
	tg_buf_addc(b, '"');
}

/* FNV-1a 64 (Fowler, Noll, Vo): small, well known, good enough to tell
 * two inputs apart; not a defence against someone forging a pair. */
#define FNV_OFFSET 14695981039346656037ULL
#define FNV_PRIME 1099511628211ULL

static unsigned long long
fnv_bytes(unsigned long long h, const void *p, size_t n)
{
	const unsigned char *c = p;

	while (n--) {
		h ^= *c++;
		h *= FNV_PRIME;
	}
	return h;
}

/* A field: its text and a NUL; NULL as one 0xff byte and a NUL, so
 * that no two sequences of fields hash the same bytes. */
static unsigned long long
fnv_field(unsigned long long h, const char *s)
{
	static const unsigned char none = 0xff;

	if (s)
		h = fnv_bytes(h, s, strlen(s));
	else
		h = fnv_bytes(h, &none, 1);
	return fnv_bytes(h, "", 1);
}

static unsigned long long
fnv_int(unsigned long long h, long long v)
{
	char n[32];

	snprintf(n, sizeof(n), "%lld", v);
	return fnv_field(h, n);
}

void
tg_emit_fingerprint(const struct tg_emit *e,
		    char out[TG_EMIT_FINGERPRINT_LEN + 1])
{
	unsigned long long h = FNV_OFFSET;
	size_t k;

	h = fnv_field(h, "torchgate emit 1");
	h = fnv_field(h, e->prefix);
	h = fnv_field(h, e->version_text);
	for (k = 0; k < 3; k++)
		h = fnv_int(h, part(e->torch, k));
	h = fnv_int(h, e->from_install);
	h = fnv_field(h, e->from_install ? e->cuda : NULL);
	h = fnv_field(h, e->from_install ? e->hip : NULL);
	h = fnv_int(h, e->from_install ? e->cxx11_abi : -1);
	h = fnv_int(h, e->cxx_standard);
	h = fnv_int(h, (long long)e->napis);
	for (k = 0; k < e->napis; k++) {
		h = fnv_field(h, e->apis[k].api->id);
		h = fnv_field(h, tg_api_status_name(e->apis[k].status));
	}
	snprintf(out, TG_EMIT_FINGERPRINT_LEN + 1, "%016llx", h);
}

/* 0, or the buffer's first failure as an error. */
static int
finished(const struct tg_buf *b, struct tg_err *err)
{
	int rc = tg_buf_error(b);

	return rc ? tg_err_set(err, rc, "out of memory") : 0;
}

int
tg_emit_header(const struct tg_emit *e, struct tg_buf *b, struct tg_err *err)
{
	const char *P = e->prefix;
	char fp[TG_EMIT_FINGERPRINT_LEN + 1];
	unsigned maj = part(e->torch, 0), min = part(e->torch, 1),
		 pat = part(e->torch, 2), cmaj, cmin, hmaj, hmin;
	size_t k;

	if (maj > 255 || min > 255 || pat > 255)
		return tg_err_set(err, TG_ELIMIT,
				  "torch %s does not fit the header's version "
				  "numbers (each at most 255)",
				  e->version_text);

	major_minor(e->cuda, &cmaj, &cmin);
	major_minor(e->hip, &hmaj, &hmin);
	tg_buf_addf(b,
		    "/* Generated by torchgate emit: do not edit.\n"
		    " * torch %s%s */\n"
		    "#ifndef %s_TORCH_GATE_H\n#define %s_TORCH_GATE_H\n\n",
		    e->version_text,
		    e->from_install
			? ""
			: ", given with --torch-version: no install was "
			  "read,\n * so CUDA, HIP and the C++11 ABI are "
			  "not defined",
		    P, P);
	tg_emit_fingerprint(e, fp);
	tg_buf_addf(
	    b,
	    "/* One fingerprint for this header and the Python module "
	    "of the same emit\n"
	    " * (its FINGERPRINT): a hash of the facts and APIs "
	    "below. For the module's\n"
	    " * check_runtime() to see that the extension was built "
	    "with this header,\n"
	    " * hand the string to Python from the extension, as pybind11's\n"
	    " *   m.attr(\"FINGERPRINT\") = %s_TORCHGATE_FINGERPRINT;\n"
	    " * and call check_runtime(header_fingerprint=ext.FINGERPRINT). "
	    "*/\n"
	    "#define %s_TORCHGATE_FINGERPRINT \"%s\"\n",
	    P, P, fp);
	tg_buf_addf(b,
		    "#define %s_TORCH_FROM_INSTALL %d\n"
		    "#define %s_TORCH_VERSION_MAJOR %u\n"
		    "#define %s_TORCH_VERSION_MINOR %u\n"
		    "#define %s_TORCH_VERSION_PATCH %u\n"
		    "/* (major << 16) | (minor << 8) | patch */\n"
		    "#define %s_TORCH_VERSION_HEX 0x%02x%02x%02xL\n"
		    "#define %s_TORCH_VERSION_STRING ",
		    P, e->from_install, P, maj, P, min, P, pat, P, maj, min,
		    pat, P);
	c_string(b, e->version_text);
	tg_buf_addf(b,
		    "\n#define %s_TORCH_AT_LEAST(major, minor, patch) "
		    "\\\n\t(%s_TORCH_VERSION_HEX >= \\\n"
		    "\t ((major) * 65536L + (minor) * 256L + (patch)))\n\n",
		    P, P);
	if (e->from_install)
		tg_buf_addf(b,
			    "/* CUDA and HIP of the torch build, 0 when "
			    "none. VERSION is major * 1000 +\n"
			    " * minor * 10 for CUDA (as CUDART_VERSION), "
			    "major * 100 + minor for HIP. */\n"
			    "#define %s_TORCH_CUDA_VERSION_MAJOR %u\n"
			    "#define %s_TORCH_CUDA_VERSION_MINOR %u\n"
			    "#define %s_TORCH_CUDA_VERSION %u\n"
			    "#define %s_TORCH_HIP_VERSION_MAJOR %u\n"
			    "#define %s_TORCH_HIP_VERSION_MINOR %u\n"
			    "#define %s_TORCH_HIP_VERSION %u\n",
			    P, cmaj, P, cmin, P, cmaj * 1000 + cmin * 10, P,
			    hmaj, P, hmin, P, hmaj * 100 + hmin);
	if (e->from_install && e->cxx11_abi >= 0)
		tg_buf_addf(b, "#define %s_TORCH_CXX11_ABI %d\n", P,
			    e->cxx11_abi);
	else
		tg_buf_addf(b,
			    "/* %s_TORCH_CXX11_ABI is not defined: no "
			    "file proves the ABI of this torch. */\n",
			    P);
	if (e->cxx_standard)
		tg_buf_addf(b,
			    "/* the C++ standard torch's headers need */\n"
			    "#define %s_TORCH_CXX_STANDARD %d\n",
			    P, e->cxx_standard);
	else
		tg_buf_addf(b,
			    "/* %s_TORCH_CXX_STANDARD is not defined: "
			    "not known. */\n",
			    P);
	for (k = 0; k < e->napis; k++) {
		const struct tg_emit_api *a = &e->apis[k];
		int has = a->status == TG_API_AVAILABLE ||
			  a->status == TG_API_DEPRECATED;

		tg_buf_addf(b,
			    "\n/* %s: %s */\n"
			    "#define %s_HAS_%s %d\n"
			    "#define %s_DEPRECATED_%s %d\n"
			    "#define %s_REMOVED_%s %d\n",
			    a->api->id, tg_api_status_name(a->status), P,
			    a->stem, has, P, a->stem,
			    a->status == TG_API_DEPRECATED, P, a->stem,
			    a->status == TG_API_REMOVED);
	}
	tg_buf_addf(b, "\n#endif /* %s_TORCH_GATE_H */\n", P);
	return finished(b, err);
}

int
tg_emit_module(const struct tg_emit *e, struct tg_buf *b, struct tg_err *err)
{
	char fp[TG_EMIT_FINGERPRINT_LEN + 1];
	size_t k;

	tg_emit_fingerprint(e, fp);
	tg_buf_adds(b,
		    "\"\"\"torch facts for this package's build, written by "
		    "torchgate emit: do not edit.\n\n"
		    "Imports nothing but the standard library, and that only "
		    "in check_runtime().\n\"\"\"\n\n"
		    "TORCH_VERSION = ");
	py_string(b, e->version_text);
	tg_buf_addf(b, "\nTORCH_VERSION_TUPLE = (%u, %u, %u)\n",
		    part(e->torch, 0), part(e->torch, 1), part(e->torch, 2));
	tg_buf_addf(b, "TORCH_FROM_INSTALL = %s\nTORCH_CUDA = ",
		    e->from_install ? "True" : "False");
	py_string(b, e->from_install ? e->cuda : NULL);
	tg_buf_adds(b, "\nTORCH_HIP = ");
	py_string(b, e->from_install ? e->hip : NULL);
	tg_buf_addf(b, "\nTORCH_CXX11_ABI = %s\n",
		    !e->from_install || e->cxx11_abi < 0 ? "None"
		    : e->cxx11_abi			 ? "True"
							 : "False");
	if (e->cxx_standard)
		tg_buf_addf(b, "TORCH_CXX_STANDARD = %d\n", e->cxx_standard);
	else
		tg_buf_adds(b, "TORCH_CXX_STANDARD = None\n");
	for (k = 0; k < e->napis; k++) {
		const struct tg_emit_api *a = &e->apis[k];
		int has = a->status == TG_API_AVAILABLE ||
			  a->status == TG_API_DEPRECATED;

		tg_buf_addf(b,
			    "\n# %s: %s\nHAS_%s = %s\nDEPRECATED_%s = %s\n"
			    "REMOVED_%s = %s\n",
			    a->api->id, tg_api_status_name(a->status), a->stem,
			    has ? "True" : "False", a->stem,
			    a->status == TG_API_DEPRECATED ? "True" : "False",
			    a->stem,
			    a->status == TG_API_REMOVED ? "True" : "False");
	}
	tg_buf_adds(b, "\nAPI_STATUS = {");
	for (k = 0; k < e->napis; k++) {
		tg_buf_adds(b, "\n    ");
		py_string(b, e->apis[k].api->id);
		tg_buf_adds(b, ": ");
		py_string(b, tg_api_status_name(e->apis[k].status));
		tg_buf_adds(b, ",");
	}
	tg_buf_adds(b, e->napis ? "\n}\n" : "}\n");
	tg_buf_addf(b,
		    "\n# the fingerprint of the emit that wrote this module, "
		    "and the header it\n"
		    "# wrote with it (as <PREFIX>_TORCHGATE_FINGERPRINT), "
		    "relative to this file's\n"
		    "# directory; None: no header was written with it\n"
		    "FINGERPRINT = \"%s\"\nHEADER = ",
		    fp);
	py_string(b, e->header_path);
	tg_buf_addf(b, "\nHEADER_PREFIX = \"%s\"\n", e->prefix);
	tg_buf_adds(
	    b,
	    "\n\ndef torch_at_least(major, minor=0, patch=0):\n"
	    "    \"\"\"True when the build-time torch is at least "
	    "major.minor.patch.\"\"\"\n"
	    "    return TORCH_VERSION_TUPLE >= (major, minor, patch)\n"
	    "\n\n"
	    "def check_runtime(header_fingerprint=None):\n"
	    "    \"\"\"Check, when the package is imported, that it was built "
	    "as this\n"
	    "    module says. Raise ImportError when header_fingerprint (the\n"
	    "    extension's <PREFIX>_TORCHGATE_FINGERPRINT, passed on by it) "
	    "is not\n"
	    "    FINGERPRINT; when the header at HEADER is still there and "
	    "holds\n"
	    "    another fingerprint (a header and a module of different "
	    "emits); when\n"
	    "    torch is not installed or its major.minor differ from the "
	    "build's\n"
	    "    (read from its metadata, importlib.metadata; torch is not "
	    "imported).\n"
	    "    Return the installed torch's version.\n"
	    "    \"\"\"\n"
	    "    import importlib.metadata\n"
	    "    import os\n"
	    "    import re\n"
	    "\n"
	    "    if header_fingerprint is not None and header_fingerprint != "
	    "FINGERPRINT:\n"
	    "        raise ImportError(\"built with the header of another "
	    "torchgate emit \"\n"
	    "                          \"(fingerprint %s, this module's is "
	    "%s)\"\n"
	    "                          % (header_fingerprint, FINGERPRINT))\n"
	    "    if HEADER is not None:\n"
	    "        here = os.path.dirname(os.path.abspath(__file__))\n"
	    "        path = os.path.normpath(os.path.join(here, HEADER))\n"
	    "        try:\n"
	    "            with open(path, \"rb\") as f:\n"
	    "                text = f.read(1 << 20)\n"
	    "        except OSError:\n"
	    "            text = None\n"
	    "        if text is not None:\n"
	    "            m = re.search(rb\"^#define \" + "
	    "HEADER_PREFIX.encode()\n"
	    "                          + rb'_TORCHGATE_FINGERPRINT "
	    "\"([0-9a-f]*)\"', text,\n"
	    "                          re.M)\n"
	    "            found = m.group(1).decode() if m else None\n"
	    "            if found != FINGERPRINT:\n"
	    "                raise ImportError(\"'%s' is from another "
	    "torchgate emit \"\n"
	    "                                  \"(fingerprint %s, this "
	    "module's is %s): \"\n"
	    "                                  \"run it again\" % (path, "
	    "found, FINGERPRINT))\n"
	    "    try:\n"
	    "        running = importlib.metadata.version(\"torch\")\n"
	    "    except importlib.metadata.PackageNotFoundError:\n"
	    "        raise ImportError(\"built for torch %s, but torch is not "
	    "installed\"\n"
	    "                          % TORCH_VERSION) from None\n"
	    "    m = re.match(r\"\\s*v?(?:[0-9]+!)?([0-9]+)(?:\\.([0-9]+))?\", "
	    "running)\n"
	    "    found = (int(m.group(1)), int(m.group(2) or 0)) if m else "
	    "None\n"
	    "    if found != TORCH_VERSION_TUPLE[:2]:\n"
	    "        raise ImportError(\"built for torch %s, running %s\"\n"
	    "                          % (TORCH_VERSION, running))\n"
	    "    return running\n");
	return finished(b, err);
}
