/* test_declared.c - unit tests for lib/audit/declared: the declared floor
 * SPDX-License-Identifier: MIT
 *
 * Each case writes up to three files into a fresh directory and expects
 * the floor, the file and line it came from and the requirement, or no
 * floor: pyproject.toml (basic and literal strings, comments, escapes, a
 * multi-line string, dotted keys, other tables), setup.cfg (same line,
 * indented lines, comments), setup.py (code only, literal lists only),
 * requirements*.txt (options, hashes, order),
 * the order of the sources, and requirements without a lower bound.
 */
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "lib/audit/declared.h"

struct file {
	const char *name, *text;
};

static const struct {
	struct file files[3];
	const char *floor; /* NULL: none */
	const char *from;  /* file:line */
	const char *req;
} cases[] = {
    {{{"pyproject.toml", "[project]\nname = \"x\"\ndependencies = "
			 "[\"numpy\", \"torch>=2.4\"]\n"}},
     "2.4",
     "pyproject.toml:3",
     "torch>=2.4"},
    /* several lines, comments, a literal string, the lowest of two */
    {{{"pyproject.toml",
       "[build-system]\nrequires = [\"torch>=1.0\"]\n[project]\n"
       "dependencies = [\n  # torch>=9\n  'torch >=2.1, <3',  # c\n"
       "  \"Torch>=2.2; python_version>\\\"3.9\\\"\",\n]\n"}},
     "2.1",
     "pyproject.toml:6",
     "torch >=2.1, <3"},
    /* ~=, ==X.*, > and the highest lower bound of one requirement */
    {{{"pyproject.toml", "[project]\ndependencies = [\"torch~=2.3.1\"]\n"}},
     "2.3.1",
     "pyproject.toml:2",
     "torch~=2.3.1"},
    {{{"pyproject.toml", "[project]\ndependencies = [\"torch==2.5.*\"]\n"}},
     "2.5",
     "pyproject.toml:2",
     "torch==2.5.*"},
    {{{"pyproject.toml",
       "[project]\ndependencies = [\"torch>1.9,>=2.0,!=2.1\"]\n"}},
     "2.0",
     "pyproject.toml:2",
     "torch>1.9,>=2.0,!=2.1"},
    /* a dotted key at the root; a quoted key */
    {{{"pyproject.toml", "project.dependencies = [\"torch>=1.13\"]\n"}},
     "1.13",
     "pyproject.toml:1",
     "torch>=1.13"},
    {{{"pyproject.toml", "[project]\n\"dependencies\" = [\"torch>=1.12\"]\n"}},
     "1.12",
     "pyproject.toml:2",
     "torch>=1.12"},
    /* torch without a lower bound: no floor, and no fallback */
    {{{"pyproject.toml", "[project]\ndependencies = [\"torch\", "
			 "\"torch>=2.0; sys_platform=='linux'\"]\n"},
      {"requirements.txt", "torch>=2.4\n"}},
     NULL,
     NULL,
     NULL},
    {{{"pyproject.toml", "[project]\ndependencies = [\"torch<3\"]\n"}},
     NULL,
     NULL,
     NULL},
    /* only a build requirement, dependencies elsewhere: the next source */
    {{{"pyproject.toml", "[build-system]\nrequires = [\"torch>=2.0\"]\n"
			 "[project.optional-dependencies]\n"
			 "dependencies = [\"torch>=9\"]\n"},
      {"setup.cfg", "[metadata]\nname = x\n[options]\ninstall_requires =\n"
		    "    numpy\n    # torch>=9\n    torch>=1.8\n\n"
		    "python_requires = >=3.8\n"}},
     "1.8",
     "setup.cfg:7",
     "torch>=1.8"},
    /* a multi-line string: TOML is read exactly (util/toml) */
    {{{"pyproject.toml",
       "[project]\ndependencies = [\"\"\"torch>=2.0\"\"\"]\n"}},
     "2.0",
     "pyproject.toml:2",
     "torch>=2.0"},
    /* a pyproject.toml that is not TOML is left out: the next source */
    {{{"pyproject.toml", "[project]\ndependencies = [\"torch>=9\"\n"},
      {"requirements.txt", "torch>=2.1\n"}},
     "2.1",
     "requirements.txt:1",
     "torch>=2.1"},
    /* setup.cfg on the key's line; a key that only starts the same */
    {{{"setup.cfg", "[options]\ninstall_requires_x = torch>=9\n"
		    "install_requires = torch >= 2.0\n"}},
     "2.0",
     "setup.cfg:3",
     "torch >= 2.0"},
    /* requirements files: options, hashes, comments, all of them */
    {{{"requirements.txt",
       "-r base.txt\n--index-url https://x\nnumpy  # torch>=9\n"
       "torch==2.4.1 --hash=sha256:00\n"},
      {"requirements-dev.txt", "torch>=2.2\n"},
      {"requirements-old.txt", "torch>=2.3#c\n"}},
     "2.2",
     "requirements-dev.txt:1",
     "torch>=2.2"},
    /* setup.py: code only, never a comment or a string; with
     * setup.cfg, the lowest; before requirements files */
    {{{"setup.py",
       "# install_requires=['torch>=1.0']\n\"\"\"\ninstall_requires = "
       "['torch>=1.1']\n\"\"\"\nsetup(\n  install_requires = [\n"
       "    'numpy',  # torch>=1.2\n    \"torch>=2.1\",\n  ],\n)\n"},
      {"requirements.txt", "torch>=1.3\n"}},
     "2.1",
     "setup.py:8",
     "torch>=2.1"},
    {{{"setup.py", "setup(install_requires=['torch>=2.3'])\n"},
      {"setup.cfg", "[options]\ninstall_requires = torch>=2.4\n"}},
     "2.3",
     "setup.py:1",
     "torch>=2.3"},
    /* not a plain literal list: none from setup.py */
    {{{"setup.py", "reqs = ['torch>=2.0']\n"
		   "setup(install_requires=reqs + ['numpy'],\n"
		   "      setup_requires=['torch>=' + V])\n"}},
     NULL,
     NULL,
     NULL},
    {{{"requirements.txt", "torch @ https://x/torch.whl\n"}}, NULL, NULL, NULL},
    {{{"README", "torch>=2.0\n"}}, NULL, NULL, NULL},
};

static int
rm_one(const char *p, const struct stat *st, int flag, struct FTW *f)
{
	(void)st;
	(void)flag;
	(void)f;
	return remove(p);
}

/* A pyproject.toml that is a link out of the directory is not read:
 * the floor comes from the requirements.txt inside, and the link is a
 * note naming it, its target and the directory; kept when no floor is
 * found too. */
static void
links_out(void)
{
	char dir[] = "/tmp/test_declared.XXXXXX", p[300], q[300], want[1200];
	struct tg_declared d = TG_DECLARED_INIT;
	struct tg_err err = TG_ERR_INIT;
	char *real;
	FILE *f;
	int rc;

	if (!mkdtemp(dir)) {
		CHECK(0, "mkdtemp");
		return;
	}
	real = realpath(dir, NULL);
	snprintf(p, sizeof(p), "%s/pkg", dir);
	CHECK(mkdir(p, 0755) == 0, "mkdir");
	snprintf(p, sizeof(p), "%s/out.toml", dir);
	if ((f = fopen(p, "w"))) {
		fputs("[project]\ndependencies = [\"torch>=2.6\"]\n", f);
		fclose(f);
	}
	snprintf(p, sizeof(p), "%s/pkg/requirements.txt", dir);
	if ((f = fopen(p, "w"))) {
		fputs("torch>=2.1\n", f);
		fclose(f);
	}
	snprintf(p, sizeof(p), "%s/pkg/pyproject.toml", dir);
	CHECK(symlink("../out.toml", p) == 0, "symlink");
	snprintf(q, sizeof(q), "%s/pkg", dir);
	rc = tg_declared_floor(&d, q, &err);
	CHECK(rc == 0, "rc %d (%s)", rc, err.msg);
	CHECK(rc || strcmp(d.floor.str, "2.1") == 0, "floor %s",
	      rc ? "-" : d.floor.str);
	CHECK(d.notes.n == 1, "notes %zu", d.notes.n);
	snprintf(want, sizeof(want),
		 "skipped '%s/pkg/pyproject.toml': a symlink to '%s/out.toml', "
		 "outside '%s/pkg'",
		 dir, real ? real : "?", dir);
	if (d.notes.n == 1)
		CHECK_STR(d.notes.v[0].message, want, "note");
	tg_declared_release(&d);
	snprintf(p, sizeof(p), "%s/pkg/requirements.txt", dir);
	unlink(p);
	rc = tg_declared_floor(&d, q, &err);
	CHECK(rc == TG_ENOENT && d.notes.n == 1, "no floor: rc %d, notes %zu",
	      rc, d.notes.n);
	tg_declared_release(&d);
	nftw(dir, rm_one, 16, FTW_DEPTH | FTW_PHYS);
	free(real);
}

int
main(void)
{
	size_t k, j;

	links_out();

	for (k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		char dir[] = "/tmp/test_declared.XXXXXX", path[256], from[300];
		struct tg_declared d = TG_DECLARED_INIT;
		struct tg_err err = TG_ERR_INIT;
		int rc;

		if (!mkdtemp(dir)) {
			CHECK(0, "mkdtemp");
			break;
		}
		for (j = 0; j < 3 && cases[k].files[j].name; j++) {
			FILE *f;

			snprintf(path, sizeof(path), "%s/%s", dir,
				 cases[k].files[j].name);
			f = fopen(path, "w");
			CHECK(f != NULL, "cannot write %s", path);
			if (f) {
				fputs(cases[k].files[j].text, f);
				fclose(f);
			}
		}
		rc = tg_declared_floor(&d, dir, &err);
		if (!cases[k].floor) {
			CHECK(rc == TG_ENOENT, "case %zu: rc %d, floor %s", k,
			      rc, d.floor.str ? d.floor.str : "-");
			CHECK(strstr(err.msg, "no literal torch floor"),
			      "case %zu: message '%s'", k, err.msg);
		} else {
			CHECK(rc == 0, "case %zu: rc %d (%s)", k, rc, err.msg);
			if (!rc) {
				CHECK_STR(d.floor.str, cases[k].floor, "floor");
				snprintf(from, sizeof(from), "%s/%s", dir,
					 cases[k].from);
				*strrchr(from, ':') = '\0';
				CHECK_STR(d.path, from, "path");
				CHECK(d.line ==
					  (size_t)atoi(
					      strrchr(cases[k].from, ':') + 1),
				      "case %zu: line %zu", k, d.line);
				CHECK_STR(d.requirement, cases[k].req,
					  "requirement");
			}
		}
		tg_declared_release(&d);
		nftw(dir, rm_one, 16, FTW_DEPTH | FTW_PHYS);
	}
	return check_result("test_declared");
}
