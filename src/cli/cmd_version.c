/* cmd_version.c - `torchgate version`: PEP 440 / PEP 508 for scripts
 * SPDX-License-Identifier: MIT
 *
 * normalize, sort, cmp, match, req and marker, each a thin loop around the
 * library; --batch answers one stdin line per line, in order, and never
 * stops at a bad line ("invalid" / "error" are answers there).
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>

#include "cli/cli.h"
#include "cli/commands.h"
#include "cli/opt.h"
#include "cli/setup.h"
#include "lib/pep/marker.h"
#include "lib/pep/requirement.h"
#include "lib/pep/spec.h"
#include "lib/pep/version.h"
#include "lib/pyenv/interp.h"
#include "lib/table/policy.h"

#define CMD "version"

static const char *pre_name, *policy_name;
static int batch;
static const char *const pre_modes[] = {"auto", "allow", "deny", NULL};
static const char *const policies[] = {"strict", "base", "release", NULL};
static const struct cli_opt opts[] = {
    {CLI_OPT_SWITCH, "batch", 0, &batch, NULL,
     "answer each line of standard input (normalize,\nmatch, marker)", NULL, 0},
    {CLI_OPT_CHOICE, "prereleases", 0, &pre_name, "P",
     "match: auto (default), allow or deny\npre-releases", pre_modes, 0},
    {CLI_OPT_CHOICE, "policy", 0, &policy_name, "P",
     "match: strict (default), base or release", policies, 0},
    {CLI_OPT_END, NULL, 0, NULL, NULL, NULL, NULL, 0},
};

/* The subcommands, for "did you mean", and the synopsis: each line's
 * options are a run of opts[] (batch, then prereleases and policy). */
static const char *const subcommands[] = {"normalize", "sort", "cmp",
					  "match",     "req",  "marker"};
static const struct cli_usage usage[] = {
    {"normalize", &opts[0], 1, 0, "VERSION..."},
    {"sort", NULL, 0, 0, "< versions"},
    {"cmp", NULL, 0, 0, "A B"},
    {"match", &opts[1], 2, 0, "SPEC VERSION..."},
    {"match --batch", &opts[1], 2, 0,
     "< 'SPEC<TAB>VERSION[<TAB>true|false]' lines"},
    {"req", NULL, 0, 0, "REQUIREMENT"},
    {"marker", NULL, 0, CLI_ENV, "MARKER [ENV-JSON]"},
    {"marker --batch", NULL, 0, CLI_ENV, "< 'MARKER<TAB>ENV-JSON' lines"},
    {NULL, NULL, 0, 0, NULL},
};

struct opts {
	int batch;
	enum tg_prereleases pre;
	enum tg_policy policy;
};

static void
print_err(const char *what, const struct tg_err *err)
{
	if (err->has_pos)
		cli_error(CMD, "%s: column %zu: %s", what, err->pos + 1,
			  err->msg);
	else
		cli_error(CMD, "%s: %s", what, err->msg);
}

static int
answer_normalize(char *line, size_t len, void *ctx)
{
	struct tg_version v;
	int rc = tg_version_parse(&v, line, len, NULL);

	(void)ctx;
	if (rc == TG_ENOMEM)
		return rc;
	if (rc) {
		puts("invalid");
		return 0;
	}
	puts(v.str);
	tg_version_release(&v);
	return 0;
}

static int
do_normalize(const struct opts *o, int argc, char **argv)
{
	struct tg_buf out = TG_BUF_INIT;
	struct tg_version v;
	struct tg_err err = TG_ERR_INIT;
	int i, r, status = CLI_OK;

	if (o->batch)
		return cli_batch(CMD, answer_normalize, NULL);
	if (argc < 1)
		return cli_usage_error(CMD, "normalize needs a version");
	/* all or nothing: no partial answer when one is invalid */
	for (i = 0; i < argc; i++) {
		if ((r = tg_version_parse(&v, argv[i], strlen(argv[i]),
					  &err))) {
			cli_error(CMD, "%s", err.msg);
			if (status != CLI_IO)
				status = cli_exit_for(r);
			continue;
		}
		tg_buf_adds(&out, v.str);
		tg_buf_addc(&out, '\n');
		tg_version_release(&v);
	}
	if (tg_buf_error(&out)) {
		tg_buf_release(&out);
		return cli_out_of_memory(CMD);
	}
	if (status == CLI_OK && out.len)
		fwrite(out.data, 1, out.len, stdout);
	tg_buf_release(&out);
	return status;
}

/* sort keeps one copy of its input and one 32-bit offset per version
 * line; the lines are compared as text (tg_version_cmp_text), so no
 * version is built. Peak memory: the input, plus 8 bytes per line (the
 * offsets and qsort's merge buffer). */
#define SORT_INPUT_MAX ((size_t)256 << 20)

static const char *sort_text;

static int
cmp_lines(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	const char *p = sort_text + x, *q = sort_text + y;
	int c = strcmp(p, q);

	/* the same spelling is the same version (the common case) */
	if (c && (c = tg_version_cmp_text(p, strlen(p), q, strlen(q))) != 0)
		return c;
	return (x > y) - (x < y); /* stable: input order */
}

/* All of standard input into in (NUL-terminated), at most
 * SORT_INPUT_MAX bytes. */
static int
read_all(struct tg_buf *in)
{
	char chunk[65536];
	struct stat st;
	size_t n;

	/* a regular file says its size: refuse it before reading */
	if (fstat(fileno(stdin), &st) == 0 && S_ISREG(st.st_mode) &&
	    st.st_size > (off_t)SORT_INPUT_MAX) {
		cli_error(CMD, "standard input is larger than 256 MiB");
		return CLI_BAD_INPUT;
	}
	in->max = SORT_INPUT_MAX + 1;
	while ((n = fread(chunk, 1, sizeof(chunk), stdin)) > 0)
		if (tg_buf_add(in, chunk, n))
			break;
	if (tg_buf_error(in) == TG_ELIMIT || in->len > SORT_INPUT_MAX) {
		cli_error(CMD, "standard input is larger than 256 MiB");
		return CLI_BAD_INPUT;
	}
	if (tg_buf_error(in)) {
		cli_error(CMD, "out of memory");
		return CLI_IO;
	}
	if (ferror(stdin)) {
		cli_error(CMD, "cannot read standard input: %s",
			  strerror(errno));
		return CLI_IO;
	}
	return CLI_OK;
}

static int
do_sort(void)
{
	struct tg_buf in = TG_BUF_INIT;
	struct tg_version v;
	struct tg_err err = TG_ERR_INIT;
	uint32_t *lines = NULL;
	size_t n = 0, cap = 1, k, lineno = 0, b, e, eol;
	int rc, status;

	status = read_all(&in);
	if (status != CLI_OK || in.len == 0)
		goto out;
	for (k = 0; k < in.len; k++)
		cap += in.data[k] == '\n';
	lines = malloc(cap * sizeof(*lines));
	if (!lines) {
		cli_error(CMD, "out of memory");
		status = CLI_IO;
		goto out;
	}
	for (b = 0; b < in.len; b = eol + 1) {
		const char *nl = memchr(in.data + b, '\n', in.len - b);

		eol = nl ? (size_t)(nl - in.data) : in.len;
		lineno++;
		if (eol - b > CLI_LINE_MAX) {
			status = cli_read_error(CMD, TG_ELIMIT, lineno);
			goto out;
		}
		in.data[eol] = '\0';
		for (e = b;
		     e < eol && (in.data[e] == ' ' || in.data[e] == '\t' ||
				 in.data[e] == '\r');
		     e++)
			;
		if (e == eol)
			continue; /* blank lines are not versions */
		if ((rc = tg_version_parse(&v, in.data + b, eol - b, &err))) {
			cli_error(CMD, "line %zu: %s", lineno, err.msg);
			status = cli_exit_for(rc);
			goto out;
		}
		tg_version_release(&v);
		/* a NUL in the line makes it invalid: strlen() finds its end */
		lines[n++] = (uint32_t)b;
	}
	sort_text = in.data;
	if (n > 1)
		qsort(lines, n, sizeof(*lines), cmp_lines);
	for (k = 0; k < n; k++)
		puts(in.data + lines[k]);
out:
	free(lines);
	tg_buf_release(&in);
	return status;
}

static int
do_cmp(int argc, char **argv)
{
	struct tg_version a, b;
	struct tg_err err = TG_ERR_INIT;
	int c, rc;

	if (argc != 2)
		return cli_usage_error(CMD, "cmp needs two versions");
	if ((rc = tg_version_parse(&a, argv[0], strlen(argv[0]), &err))) {
		cli_error(CMD, "%s", err.msg);
		return cli_exit_for(rc);
	}
	if ((rc = tg_version_parse(&b, argv[1], strlen(argv[1]), &err))) {
		tg_version_release(&a);
		cli_error(CMD, "%s", err.msg);
		return cli_exit_for(rc);
	}
	c = tg_version_cmp(&a, &b);
	printf("%d\n", c < 0 ? -1 : c > 0);
	tg_version_release(&a);
	tg_version_release(&b);
	return CLI_OK;
}

/* Whether text (len bytes) is in set under the policy: 1, 0, or
 * TG_ENOMEM. */
static int
matches(const struct tg_specset *set, const char *text, size_t len,
	enum tg_prereleases pre, enum tg_policy policy)
{
	struct tg_version v, view;
	int r;

	r = tg_version_parse(&v, text, len, NULL);
	if (r == TG_ENOMEM)
		return r;
	if (r)
		return tg_spec_set_contains(set, text, len, NULL, pre);
	tg_policy_apply(&v, policy, &view);
	r = tg_spec_set_contains(set, text, len, &view, pre);
	tg_version_release(&v);
	return r;
}

/* SPEC<TAB>VERSION[<TAB>PRERELEASES] -> true | false | error */
static int
answer_match(char *line, size_t len, void *ctx)
{
	const struct opts *o = ctx;
	enum tg_prereleases pre = o->pre;
	struct tg_specset set;
	char *tab1, *tab2;
	int r;

	tab1 = memchr(line, '\t', len);
	if (!tab1) {
		puts("error");
		return 0;
	}
	tab2 = memchr(tab1 + 1, '\t', len - (size_t)(tab1 + 1 - line));
	if (tab2) {
		*tab2 = '\0';
		if (tg_spec_prereleases_parse(tab2 + 1, &pre)) {
			puts("error");
			return 0;
		}
	} else {
		tab2 = line + len;
	}
	r = tg_spec_set_parse(&set, line, (size_t)(tab1 - line), NULL);
	if (r == TG_ENOMEM)
		return r;
	if (r) {
		puts("error");
		return 0;
	}
	r = matches(&set, tab1 + 1, (size_t)(tab2 - tab1 - 1), pre, o->policy);
	tg_spec_set_release(&set);
	if (r < 0)
		return r;
	puts(r ? "true" : "false");
	return 0;
}

static int
do_match(const struct opts *o, int argc, char **argv)
{
	struct tg_specset set;
	struct tg_err err = TG_ERR_INIT;
	int i, all = 1, r;

	if (o->batch)
		return cli_batch(CMD, answer_match, (void *)o);
	if (argc < 2)
		return cli_usage_error(CMD,
				       "match needs a specifier and a version");
	if ((r = tg_spec_set_parse(&set, argv[0], strlen(argv[0]), &err))) {
		cli_error(CMD, "%s", err.msg);
		return cli_exit_for(r);
	}
	for (i = 1; i < argc; i++) {
		r = matches(&set, argv[i], strlen(argv[i]), o->pre, o->policy);
		if (r < 0) {
			tg_spec_set_release(&set);
			cli_error(CMD, "out of memory");
			return CLI_IO;
		}
		printf("%s %s\n", argv[i], r ? "true" : "false");
		all &= r;
	}
	tg_spec_set_release(&set);
	return all ? CLI_OK : CLI_FAILED;
}

static int
do_req(int argc, char **argv)
{
	struct tg_requirement req;
	struct tg_buf out = TG_BUF_INIT;
	struct tg_jsonw w;
	struct tg_err err = TG_ERR_INIT;
	int rc;

	if (argc != 1)
		return cli_usage_error(CMD, "req needs one requirement");
	if ((rc = tg_requirement_parse(&req, argv[0], strlen(argv[0]), &err))) {
		char what[256];

		if (rc == TG_ENOMEM) {
			cli_error(CMD, "out of memory");
			return CLI_IO;
		}
		snprintf(what, sizeof(what), "invalid requirement '%.200s'",
			 argv[0]);
		print_err(what, &err);
		return CLI_BAD_INPUT;
	}
	tg_jsonw_init(&w, &out);
	rc = tg_requirement_write_json(&req, &w, &err);
	if (!rc && (rc = tg_jsonw_finish(&w)) != 0)
		tg_err_set(&err, rc, "out of memory");
	if (rc)
		cli_error(CMD, "%s", err.msg);
	else
		fputs(out.data, stdout);
	tg_buf_release(&out);
	tg_requirement_release(&req);
	return rc ? cli_exit_for(rc) : CLI_OK;
}

/* The default environment (packaging's default_environment()), worked
 * out once, when a marker first names a variable its JSON environment
 * does not give: from the interpreter the environment options select
 * (its files, never run) and uname(2). What cannot be worked out is
 * left out, with the reason kept for the message. */
struct defaults {
	struct cli_env *cenv;
	int done, have_py, have_full, have_uname;
	struct tg_marker_env env;
	struct tg_err why_py, why_full;
	struct utsname uts;
};

static int
load_defaults(struct defaults *d, struct tg_err *err)
{
	struct tg_marker_python py;
	struct tg_marker_uname u;
	struct tg_interp_version iv;
	int rc;

	if (d->done)
		return 0;
	memset(&py, 0, sizeof(py));
	rc = cli_env_interp(d->cenv, &d->why_py);
	if (rc == TG_ENOMEM || rc == TG_EIO)
		return tg_err_set(err, rc, "%s", d->why_py.msg);
	if (!rc && !d->cenv->have_interp)
		tg_err_set(&d->why_py, TG_ENOENT,
			   "--site-packages names no interpreter");
	if (!rc && d->cenv->have_interp) {
		d->have_py = 1;
		py.major = d->cenv->interp.major;
		py.minor = d->cenv->interp.minor;
		rc =
		    tg_interp_full_version(&d->cenv->interp, &iv, &d->why_full);
		if (rc == TG_ENOMEM)
			return tg_err_set(err, rc, "%s", d->why_full.msg);
		if (!rc) {
			d->have_full = 1;
			py.micro = iv.micro;
			py.releaselevel = iv.releaselevel;
			py.serial = iv.serial;
			snprintf(py.full, sizeof(py.full), "%s", iv.full);
		}
	}
	d->have_uname = uname(&d->uts) == 0;
	u.sysname = d->uts.sysname;
	u.release = d->uts.release;
	u.version = d->uts.version;
	u.machine = d->uts.machine;
	rc = tg_marker_env_default(&d->env, d->have_py ? &py : NULL,
				   d->have_uname ? &u : NULL, err);
	if (!rc)
		d->done = 1;
	return rc;
}

/* Why the default environment has no name. */
static int
not_known(const struct defaults *d, const char *name, struct tg_err *err)
{
	const char *exe = d->cenv->interp.executable;

	switch (tg_marker_env_source(name)) {
	case TG_MARKER_FROM_PYTHON:
		if (!d->have_py)
			return tg_err_set(err, TG_EUNDEF,
					  "no '%s' in the environment and no "
					  "interpreter to read it from: %s",
					  name, d->why_py.msg);
		return tg_err_set(err, TG_EUNDEF,
				  "no '%s' in the environment and none from "
				  "Python '%s': %s",
				  name, exe ? exe : d->cenv->interp.prefix,
				  d->why_full.msg);
	case TG_MARKER_FROM_SYSTEM:
		if (!d->have_uname)
			return tg_err_set(err, TG_EUNDEF,
					  "no '%s' in the environment and "
					  "uname(2) failed",
					  name);
		return tg_err_set(err, TG_EUNDEF,
				  "no '%s' in the environment and none known "
				  "for system '%s'",
				  name, d->uts.sysname);
	case TG_MARKER_FROM_NONE:
		break;
	}
	return tg_err_set(err, TG_EUNDEF,
			  "the environment has no variable '%s'", name);
}

/* Evaluate marker text against env JSON, filled in from the default
 * environment: 1, 0, or <0 with err set. */
static int
eval_marker(const char *m, size_t mlen, const char *env, size_t elen,
	    struct defaults *d, struct tg_err *err)
{
	struct tg_marker *mk = NULL;
	struct tg_marker_env e = TG_MARKER_ENV_INIT;
	const char *name;
	int r = 0, rc;

	rc = tg_marker_parse(&mk, m, mlen, err);
	if (!rc)
		rc = tg_marker_env_parse_json(&e, env, elen, err);
	if (!rc && tg_marker_missing(mk, &e)) {
		rc = load_defaults(d, err);
		if (!rc)
			rc = tg_marker_env_fill(&e, &d->env, err);
		if (!rc && (name = tg_marker_missing(mk, &e)) != NULL)
			rc = not_known(d, name, err);
	}
	if (!rc)
		rc = tg_marker_evaluate(mk, &e, &r, err);
	tg_marker_free(mk);
	tg_marker_env_release(&e);
	return rc ? rc : r;
}

/* MARKER<TAB>ENV-JSON -> true | false | error */
static int
answer_marker(char *line, size_t len, void *ctx)
{
	char *tab = memchr(line, '\t', len);
	int r;

	if (!tab) {
		puts("error");
		return 0;
	}
	r = eval_marker(line, (size_t)(tab - line), tab + 1,
			len - (size_t)(tab + 1 - line), ctx, NULL);
	if (r == TG_ENOMEM)
		return r;
	puts(r < 0 ? "error" : r ? "true" : "false");
	return 0;
}

static int
do_marker(const struct opts *o, struct cli_env *cenv, int argc, char **argv)
{
	struct tg_err err = TG_ERR_INIT;
	struct defaults d;
	const char *env = "{}";
	int rc;

	memset(&d, 0, sizeof(d));
	d.cenv = cenv;
	if ((rc = cli_env_check(CMD, cenv)) != CLI_OK)
		return rc;
	if (o->batch) {
		rc = cli_batch(CMD, answer_marker, &d);
		goto out;
	}
	if (argc < 1 || argc > 2)
		return cli_usage_error(CMD, "marker needs a marker and an "
					    "optional JSON environment");
	if (argc == 2)
		env = argv[1];
	rc = eval_marker(argv[0], strlen(argv[0]), env, strlen(env), &d, &err);
	if (rc < 0) {
		char what[256];

		snprintf(what, sizeof(what), "cannot evaluate marker '%.200s'",
			 argv[0]);
		print_err(what, &err);
		rc = cli_exit_for(rc);
		goto out;
	}
	puts(rc ? "true" : "false");
	rc = rc ? CLI_OK : CLI_FAILED;
out:
	tg_marker_env_release(&d.env);
	return rc;
}

static int
run(struct cli_ctx *ctx, int argc, char **argv)
{
	struct cli_opt env[4];
	const struct cli_opt *tables[] = {opts, env, NULL};
	struct opts o = {0, TG_PRE_AUTO, TG_POLICY_STRICT};
	const char *sub;
	size_t k;
	int first, help;

	cli_env_options(&ctx->env, env);
	if (argc >= 2 &&
	    (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
		cli_command_help(stdout, &cmd_version);
		return CLI_OK;
	}
	if (argc < 2)
		return cli_usage_error(CMD, "missing subcommand (normalize, "
					    "sort, cmp, match, req, marker)");
	sub = argv[1];
	argc--;
	argv++;
	for (k = 0; k < sizeof(subcommands) / sizeof(*subcommands); k++)
		if (strcmp(sub, subcommands[k]) == 0)
			break;
	if (k == sizeof(subcommands) / sizeof(*subcommands)) {
		const char *near = cli_suggest(sub, subcommands, k);

		if (near)
			return cli_usage_error(CMD,
					       "unknown subcommand '%s'; did "
					       "you mean '%s'?",
					       sub, near);
		return cli_usage_error(CMD, "unknown subcommand '%s'", sub);
	}
	/* options may follow operands (GNU order); an operand that starts
	 * with '-' needs "--" before it */
	if (cli_opt_parse(CMD, tables, argc, argv, &first, &help))
		return CLI_USAGE;
	if (help) {
		cli_command_help(stdout, &cmd_version);
		return CLI_OK;
	}
	argc -= first;
	argv += first;
	o.batch = batch;
	if (pre_name)
		tg_spec_prereleases_parse(pre_name, &o.pre);
	if (policy_name)
		tg_policy_parse(policy_name, &o.policy);
	if (o.batch && argc > 0)
		return cli_usage_error(CMD, "--batch reads stdin and takes "
					    "no operands");
	if (o.batch && strcmp(sub, "normalize") != 0 &&
	    strcmp(sub, "match") != 0 && strcmp(sub, "marker") != 0)
		return cli_usage_error(CMD, "--batch is for normalize, match "
					    "and marker");
	if ((ctx->env.python || ctx->env.prefix || ctx->env.sites.n) &&
	    strcmp(sub, "marker") != 0)
		return cli_usage_error(CMD, "--python, --prefix and "
					    "--site-packages are for marker");
	if (strcmp(sub, "normalize") == 0)
		return do_normalize(&o, argc, argv);
	if (strcmp(sub, "sort") == 0)
		return argc ? cli_usage_error(CMD, "sort reads stdin")
			    : do_sort();
	if (strcmp(sub, "cmp") == 0)
		return do_cmp(argc, argv);
	if (strcmp(sub, "match") == 0)
		return do_match(&o, argc, argv);
	if (strcmp(sub, "req") == 0)
		return do_req(argc, argv);
	if (strcmp(sub, "marker") == 0)
		return do_marker(&o, &ctx->env, argc, argv);
	return cli_usage_error(CMD, "unknown subcommand '%s'", sub);
}

const struct cli_command cmd_version = {
    .name = CMD,
    .summary = "PEP 440 / PEP 508 utilities",
    .setup = CLI_OWN_ARGS | CLI_ENV,
    .opts = opts,
    .usage = usage,
    .about = "Versions, specifiers, requirements and markers as "
	     "pypa/packaging 26.x\nreads them.",
    .exits = "Exit status: 0 yes/success, 1 no match, 2 usage, 4 bad input, "
	     "5 I/O\nfailure.",
    .run = run,
};
