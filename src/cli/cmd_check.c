/* cmd_check.c - torchgate check: lifecycle status of torch APIs
 * SPDX-License-Identifier: MIT
 *
 * For the probed torch (or --torch-version V): each API's status from
 * the table and, with an install, whether the installed files confirm
 * it. Exit 1 when an API asked for by name is removed or not yet in that
 * torch, so that `torchgate check torch.amp.custom_fwd` gates a build.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cli_env.h"
#include "cli/commands.h"
#include "lib/util/buf.h"
#include "lib/util/jsonw.h"
#include "lib/table/evidence.h"
#include "lib/table/table.h"
#include "lib/pep/version.h"

#define CMD "check"

static const char usage_text[] =
    "usage: torchgate check [--table FILE] [--format=text|json] [--quiet]\n"
    "                       [--torch-version V | --python PATH |\n"
    "                        --prefix DIR | --site-packages DIR...] [API...]\n"
    "\n"
    "The lifecycle status of torch APIs (all the table's, or the ones\n"
    "named) in the installed torch or in torch V: available, deprecated\n"
    "(since when, the replacement, whether it exists in that torch),\n"
    "removed or not-yet; private APIs say so. With an install, the\n"
    "installed files are searched for each API's evidence: confirmed,\n"
    "contradicted (the files say otherwise: a nightly, a backport, a\n"
    "table error) or unverifiable.\n"
    "\n"
    "  --table FILE       use FILE instead of the built-in table\n"
    "  --torch-version V  judge for torch V, no install needed\n"
    "  --format=F         text (default) or json\n"
    "  --quiet            no warnings on stderr\n" CLI_ENV_HELP "\n"
    "Exit status: 0 every named API is available or deprecated, 1 one is\n"
    "removed or not yet there, 2 usage (an API not in the table), 3 no\n"
    "torch found, 4 a bad table or bad torch metadata, 5 I/O failure.\n";

struct row {
	const struct tg_api *api;
	enum tg_api_status status;
	int repl_exists;
	int checked;
	struct tg_evidence ev;
};

static void
text_row(const struct row *r)
{
	const struct tg_api *a = r->api;

	printf("%s: %s", a->id, tg_api_status_name(r->status));
	switch (r->status) {
	case TG_API_DEPRECATED:
		printf(" since %s", a->deprecated.version);
		if (a->repl_text && a->repl_since)
			printf("; use %s (%s in this torch)", a->repl_text,
			       r->repl_exists ? "present" : "not yet");
		else if (a->repl_text)
			printf("; use %s", a->repl_text);
		if (a->deprecated.announced_by)
			printf(" (its removal in %s was announced and did not "
			       "happen)",
			       a->deprecated.announced_by);
		break;
	case TG_API_REMOVED:
		printf(" in %s", a->removed.version);
		if (a->repl_text)
			printf("; use %s", a->repl_text);
		break;
	case TG_API_NOT_YET:
		printf(" (introduced in %s)", a->introduced.version);
		break;
	default:
		break;
	}
	if (a->is_private)
		fputs(" [private]", stdout);
	if (r->checked)
		printf(" [%s%s%s]", tg_evidence_name(r->ev.verdict),
		       r->ev.detail[0] ? ": " : "", r->ev.detail);
	putchar('\n');
}

static void
json_event(struct tg_jsonw *w, const char *key, const struct tg_event *e)
{
	tg_jsonw_key(w, key);
	tg_jsonw_object(w, TG_JSONW_FLOW);
	tg_jsonw_kstr(w, "version", e->version);
	tg_jsonw_kstr(w, "status", tg_api_fact_name(e->status));
	tg_jsonw_end(w);
}

static void
json_row(struct tg_jsonw *w, const struct row *r)
{
	const struct tg_api *a = r->api;

	tg_jsonw_object(w, TG_JSONW_FLOW);
	tg_jsonw_kstr(w, "id", a->id);
	tg_jsonw_kstr(w, "status", tg_api_status_name(r->status));
	tg_jsonw_kbool(w, "private", a->is_private);
	json_event(w, "introduced", &a->introduced);
	json_event(w, "deprecated", &a->deprecated);
	json_event(w, "removed", &a->removed);
	tg_jsonw_key(w, "replacement");
	tg_jsonw_object(w, TG_JSONW_FLOW);
	tg_jsonw_kstr(w, "id", a->repl_id);
	tg_jsonw_kstr(w, "text", a->repl_text);
	tg_jsonw_kstr(w, "since", a->repl_since);
	tg_jsonw_key(w, "exists");
	tg_jsonw_tristate(w, a->repl_since ? r->repl_exists : -1);
	tg_jsonw_end(w);
	tg_jsonw_key(w, "warning");
	tg_jsonw_object(w, TG_JSONW_FLOW);
	tg_jsonw_kstr(w, "category", a->warn_category);
	tg_jsonw_kstr(w, "since", a->warn_since);
	tg_jsonw_end(w);
	tg_jsonw_key(w, "evidence");
	if (r->checked) {
		tg_jsonw_object(w, TG_JSONW_FLOW);
		tg_jsonw_kstr(w, "verdict", tg_evidence_name(r->ev.verdict));
		tg_jsonw_kstr(w, "detail",
			      r->ev.detail[0] ? r->ev.detail : NULL);
		tg_jsonw_end(w);
	} else {
		tg_jsonw_null(w);
	}
	tg_jsonw_end(w);
}

/* The whole JSON report into out; 0 or the buffer's failure. */
static int
json_report(struct tg_buf *out, const struct tg_torch *t,
	    const char *torch_version, const struct row *rows, size_t n)
{
	struct tg_jsonw w;
	size_t k;

	tg_jsonw_init(&w, out);
	tg_jsonw_object(&w, TG_JSONW_BLOCK);
	tg_jsonw_kint(&w, "schema_version", 1);
	tg_jsonw_key(&w, "torch");
	tg_jsonw_object(&w, TG_JSONW_FLOW);
	tg_jsonw_kstr(&w, "version", t ? t->version : torch_version);
	tg_jsonw_kstr(&w, "from", t ? "install" : "--torch-version");
	tg_jsonw_end(&w);
	tg_jsonw_key(&w, "apis");
	tg_jsonw_array(&w, TG_JSONW_BLOCK);
	for (k = 0; k < n; k++)
		json_row(&w, &rows[k]);
	tg_jsonw_end(&w);
	tg_jsonw_end(&w);
	return tg_jsonw_finish(&w);
}

int
cmd_check(int argc, char **argv)
{
	static const struct option longopts[] = {
	    {"table", required_argument, NULL, 't'},
	    {"torch-version", required_argument, NULL, 'V'},
	    {"format", required_argument, NULL, 'f'},
	    {"quiet", no_argument, NULL, 'q'},
	    {"help", no_argument, NULL, 'h'},
	    CLI_ENV_LONGOPTS,
	    {NULL, 0, NULL, 0},
	};
	struct cli_env env;
	struct tg_table table = TG_TABLE_INIT;
	struct tg_version given = TG_VERSION_INIT;
	struct tg_err err = TG_ERR_INIT;
	struct tg_buf out = TG_BUF_INIT;
	const struct tg_torch *t = NULL;
	const struct tg_version *v;
	const char *table_path = NULL, *torch_version = NULL;
	struct row *rows = NULL;
	size_t n, k;
	int c, r, quiet = 0, json = 0, status = CLI_OK, named;

	cli_env_init(&env);
	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, ":hq", longopts, NULL)) != -1) {
		if ((r = cli_env_option(CMD, &env, c, optarg)) != 0) {
			if (r < 0)
				return CLI_USAGE;
			continue;
		}
		switch (c) {
		case 't':
			table_path = optarg;
			break;
		case 'V':
			torch_version = optarg;
			break;
		case 'f':
			if (cli_text_or_json(CMD, optarg, &json))
				return CLI_USAGE;
			break;
		case 'q':
			quiet = 1;
			break;
		case 'h':
			fputs(usage_text, stdout);
			return CLI_OK;
		default:
			return cli_bad_option(CMD, c, argv);
		}
	}
	if (torch_version && (env.python || env.prefix || env.nsites))
		return cli_usage_error(CMD, "--torch-version excludes "
					    "--python, --prefix and "
					    "--site-packages");
	if (torch_version && tg_version_parse(&given, torch_version,
					      strlen(torch_version), &err))
		return cli_usage_error(CMD, "--torch-version: %s", err.msg);
	status = cli_load_table(CMD, table_path, &table);
	if (status)
		goto out;
	named = argc > optind;
	n = named ? (size_t)(argc - optind) : table.n;
	rows = calloc(n ? n : 1, sizeof(*rows));
	if (!rows) {
		cli_error(CMD, "out of memory");
		status = CLI_IO;
		goto out;
	}
	for (k = 0; k < n; k++) {
		rows[k].api = named ? tg_table_find(&table, argv[optind + k])
				    : &table.apis[k];
		if (!rows[k].api) {
			status = cli_usage_error(
			    CMD,
			    "'%s' is not in the table ('torchgate check' "
			    "lists every API it knows)",
			    argv[optind + k]);
			goto out;
		}
	}
	if (torch_version) {
		v = &given;
	} else {
		status = cli_env_probe(CMD, &env);
		if (!status)
			status = cli_env_torch(CMD, &env, quiet, &t);
		if (status)
			goto out;
		v = &t->src[t->version_from].v;
	}
	for (k = 0; k < n; k++) {
		rows[k].status = tg_api_status(rows[k].api, v);
		rows[k].repl_exists = tg_api_replacement_exists(rows[k].api, v);
		if (t) {
			if (tg_evidence_check(rows[k].api, t, rows[k].status,
					      &rows[k].ev, &err)) {
				cli_error(CMD, "%s", err.msg);
				status = CLI_IO;
				goto out;
			}
			rows[k].checked = 1;
		}
		if (named && (rows[k].status == TG_API_REMOVED ||
			      rows[k].status == TG_API_NOT_YET))
			status = CLI_FAILED;
	}
	if (json) {
		if (json_report(&out, t, torch_version, rows, n)) {
			cli_error(CMD, "out of memory");
			status = CLI_IO;
			goto out;
		}
		fputs(out.data, stdout);
	} else {
		printf("torch %s (%s)\n", t ? t->version : torch_version,
		       t ? t->dir : "--torch-version, no install");
		for (k = 0; k < n; k++)
			text_row(&rows[k]);
	}
out:
	free(rows);
	tg_buf_release(&out);
	tg_version_release(&given);
	tg_table_release(&table);
	cli_env_release(&env);
	return status;
}
