/* cmd_version.c - `torchgate version`: PEP 440 / PEP 508 for scripts
 * SPDX-License-Identifier: MIT
 *
 * normalize, sort, cmp, match, req and marker, each a thin loop around the
 * library; --batch answers one stdin line per line, in order, and never
 * stops at a bad line ("invalid" / "error" are answers there).
 */
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/commands.h"
#include "cli/opt.h"
#include "cli/setup.h"
#include "lib/pep/marker.h"
#include "lib/pep/requirement.h"
#include "lib/pep/spec.h"
#include "lib/pep/version.h"
#include "lib/table/policy.h"

#define CMD "version"

static const char *pre_name, *policy_name;
static int batch;
static const char *const pre_modes[] = {"auto", "allow", "deny", NULL};
static const char *const policies[] = {"strict", "base", "release", NULL};
static const struct cli_opt opts[] = {
    {CLI_OPT_SWITCH, "batch", 0, &batch, NULL,
     "answer each line of standard input (normalize,\nmatch, marker)", NULL},
    {CLI_OPT_CHOICE, "prereleases", 0, &pre_name, "P",
     "match: auto (default), allow or deny\npre-releases", pre_modes},
    {CLI_OPT_CHOICE, "policy", 0, &policy_name, "P",
     "match: strict (default), base or release", policies},
    {CLI_OPT_END, NULL, 0, NULL, NULL, NULL, NULL},
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
		if (tg_buf_adds(&out, v.str) || tg_buf_addc(&out, '\n'))
			status = CLI_IO;
		tg_version_release(&v);
	}
	if (status == CLI_OK && out.len)
		fwrite(out.data, 1, out.len, stdout);
	tg_buf_release(&out);
	return status;
}

struct sort_item {
	struct tg_version v;
	char *text;
	size_t seq;
};

static int
cmp_items(const void *a, const void *b)
{
	const struct sort_item *x = a, *y = b;
	int c = tg_version_cmp(&x->v, &y->v);

	if (c)
		return c;
	return (x->seq > y->seq) - (x->seq < y->seq); /* stable */
}

static int
do_sort(void)
{
	struct tg_buf line = TG_BUF_INIT;
	struct sort_item *items = NULL, *p;
	struct tg_err err = TG_ERR_INIT;
	size_t n = 0, cap = 0, k, lineno = 0;
	int rc, status = CLI_OK;

	while ((rc = cli_read_line(stdin, &line)) == 1) {
		size_t b = 0, e = line.len;

		lineno++;
		while (b < e && (line.data[b] == ' ' || line.data[b] == '\t' ||
				 line.data[b] == '\r'))
			b++;
		if (b == e)
			continue; /* blank lines are not versions */
		if (n == cap) {
			cap = cap ? cap * 2 : 64;
			p = realloc(items, cap * sizeof(*items));
			if (!p) {
				status = CLI_IO;
				cli_error(CMD, "out of memory");
				goto out;
			}
			items = p;
		}
		if ((rc = tg_version_parse(&items[n].v, line.data, line.len,
					   &err))) {
			cli_error(CMD, "line %zu: %s", lineno, err.msg);
			status = cli_exit_for(rc);
			goto out;
		}
		items[n].text = strdup(line.data);
		items[n].seq = n;
		if (!items[n].text) {
			tg_version_release(&items[n].v);
			cli_error(CMD, "out of memory");
			status = CLI_IO;
			goto out;
		}
		n++;
	}
	if (rc < 0) {
		status = cli_read_error(CMD, rc, lineno + 1);
		goto out;
	}
	if (n > 1)
		qsort(items, n, sizeof(*items), cmp_items);
	for (k = 0; k < n; k++)
		puts(items[k].text);
out:
	for (k = 0; k < n; k++) {
		tg_version_release(&items[k].v);
		free(items[k].text);
	}
	free(items);
	tg_buf_release(&line);
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

/* Evaluate marker text against env JSON: 1, 0, or <0 with err set. */
static int
eval_marker(const char *m, size_t mlen, const char *env, size_t elen,
	    struct tg_err *err)
{
	struct tg_marker *mk = NULL;
	struct tg_marker_env e = TG_MARKER_ENV_INIT;
	int r = 0, rc;

	rc = tg_marker_parse(&mk, m, mlen, err);
	if (!rc)
		rc = tg_marker_env_parse_json(&e, env, elen, err);
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

	(void)ctx;
	if (!tab) {
		puts("error");
		return 0;
	}
	r = eval_marker(line, (size_t)(tab - line), tab + 1,
			len - (size_t)(tab + 1 - line), NULL);
	if (r == TG_ENOMEM)
		return r;
	puts(r < 0 ? "error" : r ? "true" : "false");
	return 0;
}

static int
do_marker(const struct opts *o, int argc, char **argv)
{
	struct tg_err err = TG_ERR_INIT;
	const char *env = "{}";
	int rc;

	if (o->batch)
		return cli_batch(CMD, answer_marker, NULL);
	if (argc < 1 || argc > 2)
		return cli_usage_error(CMD, "marker needs a marker and an "
					    "optional JSON environment");
	if (argc == 2)
		env = argv[1];
	rc = eval_marker(argv[0], strlen(argv[0]), env, strlen(env), &err);
	if (rc < 0) {
		char what[256];

		snprintf(what, sizeof(what), "cannot evaluate marker '%.200s'",
			 argv[0]);
		print_err(what, &err);
		return cli_exit_for(rc);
	}
	puts(rc ? "true" : "false");
	return rc ? CLI_OK : CLI_FAILED;
}

static int
run(struct cli_ctx *ctx, int argc, char **argv)
{
	const struct cli_opt *tables[] = {opts, NULL};
	struct opts o = {0, TG_PRE_AUTO, TG_POLICY_STRICT};
	const char *sub;
	int first, help;

	(void)ctx;
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
		return do_marker(&o, argc, argv);
	return cli_usage_error(CMD, "unknown subcommand '%s'", sub);
}

const struct cli_command cmd_version = {
    .name = CMD,
    .summary = "PEP 440 / PEP 508 utilities",
    .setup = CLI_OWN_ARGS,
    .opts = opts,
    .synopsis =
	"usage: torchgate version normalize [--batch] VERSION...\n"
	"       torchgate version sort < versions\n"
	"       torchgate version cmp A B\n"
	"       torchgate version match [--prereleases=auto|allow|deny]\n"
	"                               [--policy=strict|base|release] SPEC "
	"VERSION...\n"
	"       torchgate version match --batch [--prereleases=P] "
	"[--policy=P]\n"
	"                               < 'SPEC<TAB>VERSION[<TAB>true|false]' "
	"lines\n"
	"       torchgate version req REQUIREMENT\n"
	"       torchgate version marker MARKER [ENV-JSON]\n"
	"       torchgate version marker --batch < 'MARKER<TAB>ENV-JSON' "
	"lines",
    .about = "Versions, specifiers, requirements and markers as "
	     "pypa/packaging 26.x\nreads them.",
    .exits = "Exit status: 0 yes/success, 1 no match, 2 usage, 4 bad input, "
	     "5 I/O\nfailure.",
    .run = run,
};
