/* test_versionpy.c - unit tests for lib/versionpy: torch/version.py as text
 * SPDX-License-Identifier: MIT
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "lib/torch/versionpy.h"

static void
forms(void)
{
	static const char untyped[] =
	    "__version__ = '1.13.0a0'\ndebug = False\ncuda = None\n"
	    "git_version = 'Unknown'\nhip = None\n";
	static const char annotated[] =
	    "from typing import Optional\n\n__all__ = ['__version__', "
	    "'debug', 'cuda']\n__version__ = '2.11.0+cu130'\r\ndebug = "
	    "True  # built with DEBUG=1\ncuda: Optional[str] = \"13.0\"\n"
	    "hip: Optional[str] = None\nrocm : str = '6.2'\n"
	    "git_version = '70d9'\ncuda = '12.8'\n";
	struct tg_versionpy vp;
	struct tg_err err = TG_ERR_INIT;

	CHECK(tg_versionpy_parse(&vp, untyped, strlen(untyped), "v", &err) == 0,
	      "untyped: %s", err.msg);
	CHECK_STR(vp.f[TG_VPY_VERSION].s, "1.13.0a0", "untyped version");
	CHECK(vp.f[TG_VPY_CUDA].set && !vp.f[TG_VPY_CUDA].s, "cuda None");
	CHECK_STR(vp.f[TG_VPY_DEBUG].s, "False", "debug");
	CHECK(!vp.f[TG_VPY_ROCM].set, "rocm absent");
	CHECK(vp.f[TG_VPY_HIP].line == 5, "hip on line 5");
	tg_versionpy_release(&vp);

	CHECK(tg_versionpy_parse(&vp, annotated, strlen(annotated), "v",
				 &err) == 0,
	      "annotated: %s", err.msg);
	CHECK_STR(vp.f[TG_VPY_VERSION].s, "2.11.0+cu130", "CRLF line");
	CHECK_STR(vp.f[TG_VPY_DEBUG].s, "True", "comment after value");
	CHECK_STR(vp.f[TG_VPY_CUDA].s, "12.8", "the last assignment wins");
	CHECK_STR(vp.f[TG_VPY_ROCM].s, "6.2", "blank before the annotation");
	CHECK(vp.f[TG_VPY_HIP].set && !vp.f[TG_VPY_HIP].s, "hip None");
	tg_versionpy_release(&vp);

	/* universal newlines: a lone CR ends a line as Python reads it */
	{
		static const char cr[] = "__version__ = '2.11.0'\rdebug = "
					 "False\r\rcuda = None\r\nhip = '6'";

		CHECK(tg_versionpy_parse(&vp, cr, strlen(cr), "v", &err) == 0,
		      "CR: %s", err.msg);
		CHECK(vp.f[TG_VPY_VERSION].s &&
			  strcmp(vp.f[TG_VPY_VERSION].s, "2.11.0") == 0,
		      "CR version");
		CHECK(vp.f[TG_VPY_CUDA].line == 4 && vp.f[TG_VPY_HIP].line == 5,
		      "CR line numbers %zu %zu", vp.f[TG_VPY_CUDA].line,
		      vp.f[TG_VPY_HIP].line);
	}
	tg_versionpy_release(&vp);
}

static void
errors(void)
{
	static const struct {
		const char *text;
		size_t len;
		const char *msg;
	} cases[] = {
	    {"__version__ = __import__('os').system('x')\n", 0,
	     "cannot parse 'V': line 1: __version__ is not a literal"},
	    {"cuda = '1' + '2'\n", 0,
	     "cannot parse 'V': line 1: cuda is not a literal"},
	    {"x = 1\n__version__ = f'{x}'\n", 0,
	     "cannot parse 'V': line 2: __version__ is not a literal"},
	    {"if 1:\n    __version__ = '2.0'\n", 0,
	     "cannot parse 'V': line 2: __version__ is assigned inside a "
	     "block"},
	    {"__version__ = '2.\\x30'\n", 0,
	     "cannot parse 'V': line 1: __version__ is a string with escapes"},
	    {"__version__ = '2.0\n", 0,
	     "cannot parse 'V': line 1: __version__ is an unterminated "
	     "string"},
	    {"debug = 'yes'\n", 0,
	     "cannot parse 'V': line 1: debug is not True or False"},
	    {"cuda = True\n", 0,
	     "cannot parse 'V': line 1: cuda is not a string or None"},
	    {"__version__ += 'x'\n", 0,
	     "cannot parse 'V': line 1: __version__ is not a plain "
	     "assignment"},
	    {"__version__ = '1'\0\n", 18,
	     "cannot parse 'V': binary data (a NUL byte)"},
	    {"__version__ = '1\xc3'\n", 0,
	     "cannot parse 'V': invalid UTF-8 at byte 16"},
	};
	size_t k;

	for (k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		struct tg_versionpy vp;
		struct tg_err err = TG_ERR_INIT;
		size_t len =
		    cases[k].len ? cases[k].len : strlen(cases[k].text);

		CHECK(tg_versionpy_parse(&vp, cases[k].text, len, "V", &err) ==
			  TG_EINVAL,
		      "case %zu accepted", k);
		CHECK_STR(err.msg, cases[k].msg, "message");
		CHECK(!vp.f[TG_VPY_VERSION].set && !vp.f[TG_VPY_VERSION].s,
		      "case %zu: released", k);
	}
}

static void
ignored(void)
{
	static const char text[] =
	    "import os\n__version__ = '2.0'\ncuda_home = os.environ['X']\n"
	    "print(cuda)\n# hip = 'x'\n";
	struct tg_versionpy vp;
	struct tg_err err = TG_ERR_INIT;

	CHECK(tg_versionpy_parse(&vp, text, strlen(text), "v", &err) == 0,
	      "other code is ignored: %s", err.msg);
	CHECK_STR(vp.f[TG_VPY_VERSION].s, "2.0", "version");
	CHECK(!vp.f[TG_VPY_CUDA].set && !vp.f[TG_VPY_HIP].set,
	      "no cuda, no hip");
	tg_versionpy_release(&vp);
}

/* torchvision's version.py, read leniently: cuda is unknown (computed at
 * import), __version__ is read; strictly, the file is refused. */
static void
lenient(void)
{
	static const char text[] =
	    "__version__ = '0.26.0+cu130'\n"
	    "cuda = '12.8'\n"
	    "from torchvision.extension import _check_cuda_version\n"
	    "if _check_cuda_version() > 0:\n"
	    "    cuda = _check_cuda_version()\n";
	char path[] = "/tmp/test_versionpy.XXXXXX";
	struct tg_versionpy vp;
	struct tg_err err = TG_ERR_INIT;
	int fd = mkstemp(path), absent = 0;

	CHECK(fd >= 0 && write(fd, text, strlen(text)) == (ssize_t)strlen(text),
	      "temp file");
	if (fd >= 0)
		close(fd);
	CHECK(tg_versionpy_load(&vp, path, &absent, &err) == TG_EINVAL &&
		  strstr(err.msg, "line 5: cuda is assigned inside a block"),
	      "strict: refused: %s", err.msg);
	CHECK(tg_versionpy_load_lenient(&vp, path, &absent, &err) == 0,
	      "lenient: read: %s", err.msg);
	CHECK_STR(vp.f[TG_VPY_VERSION].s, "0.26.0+cu130", "lenient version");
	CHECK(!vp.f[TG_VPY_CUDA].set && vp.unknown[TG_VPY_CUDA] == 5,
	      "lenient: cuda unknown from line 5 (the last assignment)");
	tg_versionpy_release(&vp);
	unlink(path);
}

int
main(void)
{
	forms();
	errors();
	ignored();
	lenient();
	return check_result("test_versionpy");
}
