/* cmd_emit.c - torchgate emit: the guard header and the Python module
 * SPDX-License-Identifier: MIT
 *
 * Facts come from the probe (or --torch-version alone); statuses from
 * the table. Each output is written atomically and only when its content
 * changed, so builds that depend on it do not rebuild for nothing.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cli_env.h"
#include "cli/commands.h"
#include "lib/util/buf.h"
#include "lib/out/emit.h"
#include "lib/util/file.h"
#include "lib/table/table.h"
#include "lib/pep/version.h"

#define CMD "emit"
#define MAX_APIS 4096

static const char usage_text[] =
    "usage: torchgate emit [--header FILE] [--module FILE] [--prefix P]\n"
    "                      [--api ID]... [--api-file FILE] [--table FILE]\n"
    "                      [--torch-version V | --python PATH |\n"
    "                       --prefix-dir DIR | --site-packages DIR...]\n"
    "\n"
    "Write a C/C++ header (<P>_TORCH_VERSION_*, <P>_TORCH_AT_LEAST, CUDA,\n"
    "HIP, C++11 ABI, C++ standard, and <P>_HAS_/_DEPRECATED_/_REMOVED_\n"
    "<STEM> for each API) and a Python module with the same facts,\n"
    "torch_at_least() and check_runtime(). STEM is the API id upper-cased,\n"
    "'.' and '::' as '_', a leading '_' of a part as 'P_'\n"
    "(torch.cuda.amp.custom_fwd: TORCH_CUDA_AMP_CUSTOM_FWD). Files are\n"
    "written atomically and left alone when unchanged.\n"
    "\n"
    "  --header FILE      write the header to FILE\n"
    "  --module FILE      write the Python module to FILE\n"
    "  --prefix P         macro prefix, a C identifier (default TORCH_GATE)\n"
    "  --api ID           an API of the table (repeatable)\n"
    "  --api-file FILE    API ids, one a line ('#' starts a comment)\n"
    "  --table FILE       use FILE instead of the built-in table\n"
    "  --torch-version V  emit for torch V without an install (CUDA, HIP\n"
    "                     and the ABI are then left out)\n"
    "  --prefix-dir DIR   the environment directory (as probe's --prefix)\n"
    "  --quiet            print nothing on success\n"
    "  --python PATH, --site-packages DIR: as for probe\n"
    "\n"
    "Exit status: 0 written or unchanged, 2 usage (an API not in the\n"
    "table, a prefix that is no C identifier), 3 no torch found, 4 a bad\n"
    "table or a version the header cannot hold, 5 a file could not be\n"
    "read or written.\n";

/* Append the ids of an --api-file to ids. */
static int
read_api_file(const char *path, char **ids, size_t *n, char **text)
{
	struct tg_err err = TG_ERR_INIT;
	size_t len, i = 0;
	char *s;
	int rc = tg_file_read(path, (size_t)1 << 20, text, &len, NULL, &err);

	if (rc) {
		cli_error(CMD, "%s", err.msg);
		return cli_exit_for(rc);
	}
	s = *text;
	while (i < len) {
		size_t e = i, b;

		while (e < len && s[e] != '\n')
			e++;
		s[e] = '\0';
		b = i;
		/* whitespace-separated ids up to a '#' */
		while (b < e && s[b] != '#') {
			size_t t;

			while (b < e && strchr(" \t\r", s[b]))
				b++;
			t = b;
			while (t < e && !strchr(" \t\r#", s[t]))
				t++;
			if (t == b)
				break;
			if (*n == MAX_APIS) {
				cli_error(CMD, "'%s': more than %d APIs", path,
					  MAX_APIS);
				return CLI_BAD_INPUT;
			}
			ids[(*n)++] = s + b;
			b = t;
			if (b < e && s[b] != '#')
				s[b++] = '\0';
			else if (b < e) {
				s[b] = '\0';
				break;
			}
		}
		i = e + 1;
	}
	return CLI_OK;
}

static int
write_out(const char *path, const struct tg_buf *b, int quiet)
{
	struct tg_err err = TG_ERR_INIT;
	int changed = 0;

	if (tg_file_write_atomic(path, b->data ? b->data : "", b->len, &changed,
				 &err)) {
		cli_error(CMD, "%s", err.msg);
		return CLI_IO;
	}
	if (!quiet)
		printf("%s %s\n", changed ? "wrote" : "unchanged", path);
	return CLI_OK;
}

int
cmd_emit(int argc, char **argv)
{
	enum { OPT_PREFIX_DIR = 0x200 };
	static const struct option longopts[] = {
	    {"header", required_argument, NULL, 'H'},
	    {"module", required_argument, NULL, 'M'},
	    {"prefix", required_argument, NULL, 'p'},
	    {"api", required_argument, NULL, 'a'},
	    {"api-file", required_argument, NULL, 'A'},
	    {"table", required_argument, NULL, 't'},
	    {"torch-version", required_argument, NULL, 'V'},
	    {"prefix-dir", required_argument, NULL, OPT_PREFIX_DIR},
	    {"quiet", no_argument, NULL, 'q'},
	    {"help", no_argument, NULL, 'h'},
	    {"python", required_argument, NULL, CLI_OPT_PYTHON},
	    {"site-packages", required_argument, NULL, CLI_OPT_SITE_PACKAGES},
	    {NULL, 0, NULL, 0},
	};
	struct cli_env env;
	struct tg_table table = TG_TABLE_INIT;
	struct tg_version given = TG_VERSION_INIT;
	struct tg_err err = TG_ERR_INIT;
	struct tg_buf hdr = TG_BUF_INIT, mod = TG_BUF_INIT;
	struct tg_emit e;
	const struct tg_torch *t = NULL;
	const char *header = NULL, *module = NULL, *table_path = NULL;
	const char *torch_version = NULL, *api_file = NULL;
	char **ids = NULL, *api_text = NULL;
	size_t nids = 0, k;
	int c, r, quiet = 0, status = CLI_OK;

	memset(&e, 0, sizeof(e));
	e.prefix = "TORCH_GATE";
	cli_env_init(&env);
	ids = calloc(MAX_APIS, sizeof(*ids));
	if (!ids)
		return CLI_IO;
	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, ":hq", longopts, NULL)) != -1) {
		if (c == OPT_PREFIX_DIR)
			c = CLI_OPT_PREFIX;
		if ((r = cli_env_option(CMD, &env, c, optarg)) != 0) {
			if (r < 0) {
				status = CLI_USAGE;
				goto out;
			}
			continue;
		}
		switch (c) {
		case 'H':
			header = optarg;
			break;
		case 'M':
			module = optarg;
			break;
		case 'p':
			e.prefix = optarg;
			break;
		case 'a':
			if (nids == MAX_APIS) {
				status = cli_usage_error(CMD, "too many --api");
				goto out;
			}
			ids[nids++] = optarg;
			break;
		case 'A':
			api_file = optarg;
			break;
		case 't':
			table_path = optarg;
			break;
		case 'V':
			torch_version = optarg;
			break;
		case 'q':
			quiet = 1;
			break;
		case 'h':
			fputs(usage_text, stdout);
			goto out;
		default:
			status = cli_bad_option(CMD, c, argv);
			goto out;
		}
	}
	if (optind < argc) {
		status = cli_usage_error(CMD, "unexpected argument '%s'",
					 argv[optind]);
		goto out;
	}
	if (!header && !module) {
		status = cli_usage_error(CMD, "nothing to write: give --header "
					      "or --module");
		goto out;
	}
	if (!tg_emit_is_identifier(e.prefix)) {
		status = cli_usage_error(
		    CMD, "--prefix '%s' is not a C identifier", e.prefix);
		goto out;
	}
	if (torch_version && (env.python || env.prefix || env.nsites)) {
		status = cli_usage_error(CMD, "--torch-version excludes "
					      "--python, --prefix-dir and "
					      "--site-packages");
		goto out;
	}
	if (torch_version && tg_version_parse(&given, torch_version,
					      strlen(torch_version), &err)) {
		status = cli_usage_error(CMD, "--torch-version: %s", err.msg);
		goto out;
	}
	if (api_file &&
	    (status = read_api_file(api_file, ids, &nids, &api_text)))
		goto out;
	status = cli_load_table(CMD, table_path, &table);
	if (status)
		goto out;
	for (k = 0; k < nids; k++)
		if (!tg_table_find(&table, ids[k])) {
			status = cli_usage_error(
			    CMD, "'%s' is not in the table", ids[k]);
			goto out;
		}
	if (torch_version) {
		e.torch = &given;
		e.version_text = torch_version;
		e.cxx11_abi = -1;
		/* torch 2.0 on needs C++17 (its release history); before,
		 * the standard is left out rather than guessed */
		e.cxx_standard =
		    tg_version_num_cmp(given.release[0],
				       (struct tg_num){"2", 1}) >= 0
			? 17
			: 0;
	} else {
		status = cli_env_probe(CMD, &env);
		if (!status)
			status = cli_env_torch(CMD, &env, quiet, &t);
		if (status)
			goto out;
		e.torch = &t->src[t->version_from].v;
		e.version_text = t->version;
		e.from_install = 1;
		e.cuda = t->vp.f[TG_VPY_CUDA].s;
		e.hip = t->vp.f[TG_VPY_HIP].s;
		e.cxx11_abi = t->cxx11_abi;
		e.cxx_standard = t->cxx_standard;
	}
	if (tg_emit_add_apis(&e, &table, (const char *const *)ids, nids,
			     &err)) {
		status = err.code == TG_ENOMEM
			     ? CLI_IO
			     : cli_usage_error(CMD, "%s", err.msg);
		goto out;
	}
	if ((header && (r = tg_emit_header(&e, &hdr, &err))) ||
	    (module && (r = tg_emit_module(&e, &mod, &err)))) {
		cli_error(CMD, "%s", err.msg);
		status = cli_exit_for(r);
		goto out;
	}
	if (header && (status = write_out(header, &hdr, quiet)))
		goto out;
	if (module)
		status = write_out(module, &mod, quiet);
out:
	tg_emit_release(&e);
	tg_buf_release(&hdr);
	tg_buf_release(&mod);
	tg_version_release(&given);
	tg_table_release(&table);
	cli_env_release(&env);
	free(ids);
	free(api_text);
	return status;
}
