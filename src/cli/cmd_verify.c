/* cmd_verify.c - torchgate verify SPEC: gate a build on the installed torch
 * SPDX-License-Identifier: MIT
 *
 * The torch is installed, so pre-releases are admitted the way
 * packaging's SpecifierSet.contains(..., installed=True) admits them;
 * --policy decides how the version is compared. A failure names the
 * first bound that fails, in pkg-config's manner.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cli_env.h"
#include "cli/commands.h"
#include "cli/opt.h"
#include "cli/setup.h"
#include "lib/util/buf.h"
#include "lib/pep/marker.h"
#include "lib/pep/name.h"
#include "lib/pep/requirement.h"
#include "lib/pep/spec.h"
#include "lib/pep/version.h"
#include "lib/table/policy.h"

#define CMD "verify"

static const char *policy_name;
static const char *const policies[] = {"strict", "base", "release", NULL};
static const struct cli_opt opts[] = {
    {CLI_OPT_CHOICE, "policy", 0, &policy_name, "P",
     "strict (default): PEP 440 as is; base: compare the\n"
     "release only (2.4.0a0+gitabc satisfies >=2.4);\n"
     "release: a pre-release of a released torch counts\n"
     "as that release",
     policies, 0},
    {CLI_OPT_END, NULL, 0, NULL, NULL, NULL, NULL, 0},
};

/* The specifier of SPEC: a requirement on torch or a bare specifier. */
static int
parse_spec(const char *spec, struct tg_specset *set, struct tg_buf *text)
{
	struct tg_err err = TG_ERR_INIT;
	struct tg_requirement req = TG_REQUIREMENT_INIT;
	const char *p = spec;
	int rc;

	while (*p == ' ' || *p == '\t')
		p++;
	if (!*p)
		return cli_usage_error(CMD, "SPEC is empty");
	if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
	    (*p >= '0' && *p <= '9')) {
		char *name;

		if ((rc = tg_requirement_parse(&req, spec, strlen(spec), &err)))
			return rc == TG_ENOMEM
				   ? cli_out_of_memory(CMD)
				   : cli_usage_error(CMD,
						     "cannot parse '%s': %s",
						     spec, err.msg);
		name = tg_name_canonicalize(req.name);
		if (!name) {
			tg_requirement_release(&req);
			return cli_out_of_memory(CMD);
		}
		rc = strcmp(name, "torch") != 0;
		if (rc && strspn(req.name, "0123456789.") == strlen(req.name))
			cli_usage_error(
			    CMD,
			    "'%s' is a project name to PEP 508, not "
			    "a version; did you mean '==%s'?",
			    spec, req.name);
		else if (rc)
			cli_usage_error(CMD,
					"'%s' is a requirement on '%s', not "
					"on torch",
					spec, req.name);
		else if (req.url)
			rc = cli_usage_error(CMD,
					     "'%s' names a URL, not a "
					     "version range",
					     spec);
		else if (req.marker)
			rc = cli_usage_error(CMD,
					     "'%s' has a marker; verify does "
					     "not evaluate markers: give the "
					     "version range alone",
					     spec);
		free(name);
		if (!rc) {
			*set = req.spec;
			req.spec = (struct tg_specset)TG_SPECSET_INIT;
		}
		tg_requirement_release(&req);
		if (rc)
			return CLI_USAGE;
	} else if ((rc = tg_spec_set_parse(set, spec, strlen(spec), &err))) {
		return rc == TG_ENOMEM ? cli_out_of_memory(CMD)
				       : cli_usage_error(CMD, "%s", err.msg);
	}
	if (tg_spec_set_format(set, text))
		return cli_out_of_memory(CMD);
	return CLI_OK;
}

/* "2.4.0": the release numbers of v */
static void
add_release(struct tg_buf *b, const struct tg_version *v)
{
	size_t k;

	for (k = 0; k < v->nrelease; k++)
		tg_buf_addf(b, "%s%.*s", k ? "." : "", (int)v->release[k].n,
			    v->release[k].p);
}

/* What a policy compares, written out: [N!]release[+local]. The policy
 * views drop pre/post/dev parts only. */
static void
add_policy_view(struct tg_buf *b, const struct tg_version *v)
{
	size_t k;

	if (!(v->epoch.n == 1 && v->epoch.p[0] == '0'))
		tg_buf_addf(b, "%.*s!", (int)v->epoch.n, v->epoch.p);
	add_release(b, v);
	for (k = 0; k < v->nlocal; k++)
		tg_buf_addf(b, "%c%.*s", k ? '.' : '+', (int)v->local[k].n,
			    v->local[k].p);
}

/* One line on why v fails sp. */
static void
explain(const struct tg_spec *sp, const char *shown, const struct tg_version *v,
	const struct tg_version *cmp, enum tg_policy policy, struct tg_buf *msg)
{
	const char *why;
	int older;

	switch (sp->op) {
	case TG_OP_LT:
		/* below V in order, yet out: "<V" leaves out V's pre-releases */
		why = tg_version_cmp(cmp, &sp->v) < 0
			  ? "is a pre-release of the version this package "
			    "excludes"
			  : "is newer than this package allows";
		break;
	case TG_OP_LE:
		why = "is newer than this package allows";
		break;
	case TG_OP_GT:
		/* above V in order, yet out: ">V" leaves out V's post-releases
		 * and local builds */
		why = tg_version_cmp(cmp, &sp->v) > 0
			  ? "is a post-release or local build of the version "
			    "this package excludes"
			  : "is older than this package requires";
		break;
	case TG_OP_GE:
		why = "is older than this package requires";
		break;
	case TG_OP_COMPATIBLE:
		older = tg_version_cmp(cmp, &sp->v) < 0;
		why = older ? "is older than this package requires"
			    : "is newer than this package allows";
		break;
	case TG_OP_NE:
		why = "is a version this package excludes";
		break;
	case TG_OP_ARBITRARY:
		why = "is not the exact version this package requires";
		break;
	default:
		why = "is not the version this package requires";
		break;
	}
	tg_buf_addf(msg, "torch %s %s (%s)", shown, why, sp->text);
	/* a lower bound (or ==) that only the pre-release tag fails */
	if (policy == TG_POLICY_STRICT &&
	    (tg_version_is_prerelease(v) || v->has_dev) &&
	    (sp->op == TG_OP_GE || sp->op == TG_OP_GT ||
	     sp->op == TG_OP_COMPATIBLE || sp->op == TG_OP_EQ)) {
		struct tg_version base;

		tg_policy_apply(v, TG_POLICY_BASE, &base);
		if (tg_spec_match(sp, v->str, strlen(v->str), &base)) {
			tg_buf_addf(msg, "; %s is a pre-release of ", shown);
			add_release(msg, v);
			tg_buf_adds(msg, ", which PEP 440 orders before it; "
					 "--policy=base accepts it");
		}
	}
}

/* SPEC must parse before anything is probed. */
static int
check(struct cli_ctx *ctx, int argc, char **argv)
{
	struct tg_specset set = TG_SPECSET_INIT;
	struct tg_buf text = TG_BUF_INIT;
	int status;

	(void)ctx;
	if (argc != 1)
		return cli_usage_error(CMD,
				       argc ? "one SPEC only" : "missing SPEC");
	status = parse_spec(argv[0], &set, &text);
	tg_spec_set_release(&set);
	tg_buf_release(&text);
	return status;
}

static int
run(struct cli_ctx *ctx, int argc, char **argv)
{
	struct tg_specset set = TG_SPECSET_INIT;
	struct tg_buf text = TG_BUF_INIT, msg = TG_BUF_INIT;
	struct tg_version cmp;
	const struct tg_torch *t = ctx->torch;
	const struct tg_version *v;
	enum tg_policy policy = TG_POLICY_STRICT;
	int status;
	size_t k;

	(void)argc;
	if (policy_name)
		tg_policy_parse(policy_name, &policy);
	status = parse_spec(argv[0], &set, &text);
	if (status)
		goto out;
	v = &t->src[t->version_from].v;
	tg_policy_apply(v, policy, &cmp);
	if (tg_spec_set_contains(&set, v->str, strlen(v->str), &cmp,
				 TG_PRE_ALLOW)) {
		if (!ctx->quiet)
			cli_printf(stdout, "torch %s satisfies %s\n",
				   t->version,
				   text.len ? text.data : "(any version)");
		status = CLI_OK;
		goto out;
	}
	for (k = 0; k < set.n; k++)
		if (!tg_spec_match(&set.specs[k], v->str, strlen(v->str), &cmp))
			break;
	if (k < set.n)
		explain(&set.specs[k], t->version, v, &cmp, policy, &msg);
	else
		tg_buf_addf(&msg, "torch %s does not satisfy %s", t->version,
			    text.data);
	if (policy != TG_POLICY_STRICT && tg_version_cmp(&cmp, v) != 0) {
		tg_buf_adds(&msg, " (compared as ");
		add_policy_view(&msg, &cmp);
		tg_buf_addf(&msg, " under --policy=%s)",
			    tg_policy_name(policy));
	}
	if (tg_buf_error(&msg)) {
		status = cli_out_of_memory(CMD);
		goto out;
	}
	cli_error(CMD, "%s", msg.data);
	status = CLI_FAILED;
out:
	tg_spec_set_release(&set);
	tg_buf_release(&text);
	tg_buf_release(&msg);
	return status;
}

const struct cli_command cmd_verify = {
    .name = CMD,
    .summary = "exit 0 when the installed torch satisfies SPEC",
    .setup = CLI_QUIET | CLI_ENV | CLI_TORCH,
    .opts = opts,
    .operands = "SPEC",
    .about = "Exit 0 when the torch Python would import satisfies SPEC, a PEP "
	     "508\n"
	     "requirement on torch ('torch>=2.4,<2.12') or a bare specifier\n"
	     "('>=2.4,<2.12'); else exit 1 with a line that says which bound\n"
	     "failed. Markers and URLs are refused: verify checks a version.\n"
	     "--quiet prints nothing on success.",
    .exits = "Exit status: 0 satisfied, 1 not satisfied, 2 usage, 3 no torch\n"
	     "found, 4 bad torch metadata, 5 a torch file cannot be read.",
    .check = check,
    .run = run,
};
