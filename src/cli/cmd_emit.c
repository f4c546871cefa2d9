/* cmd_emit.c - torchgate emit: the guard header and the Python module
 * SPDX-License-Identifier: MIT
 *
 * Facts come from the probe (or --torch-version alone); statuses from
 * the table. Each output is written atomically and only when its content
 * changed, so builds that depend on it do not rebuild for nothing.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/cli_env.h"
#include "cli/commands.h"
#include "cli/opt.h"
#include "cli/setup.h"
#include "lib/util/buf.h"
#include "lib/out/emit.h"
#include "lib/util/file.h"
#include "lib/util/path.h"
#include "lib/table/idlist.h"
#include "lib/table/table.h"
#include "lib/pep/version.h"

#define CMD "emit"
#define MAX_APIS 4096

static const char *header, *module, *prefix, *api_file;
static const char *python, *prefix_dir, *api_v[MAX_APIS], *site_v[64];
static struct cli_list apis = {api_v, 0, MAX_APIS};
static struct cli_list sites = {site_v, 0, 64};
static const struct cli_opt opts[] = {
    {CLI_OPT_VALUE, "header", 0, &header, "FILE", "write the header to FILE",
     NULL},
    {CLI_OPT_VALUE, "module", 0, &module, "FILE",
     "write the Python module to FILE", NULL},
    {CLI_OPT_VALUE, "prefix", 0, &prefix, "P",
     "macro prefix, a C identifier (default TORCH_GATE)", NULL},
    {CLI_OPT_LIST, "api", 0, &apis, "ID", "an API of the table (repeatable)",
     NULL},
    {CLI_OPT_VALUE, "api-file", 0, &api_file, "FILE",
     "API ids, one a line ('#' starts a comment)", NULL},
    {CLI_OPT_VALUE, "python", 0, &python, "PATH",
     "the interpreter whose sys.path to search", NULL},
    {CLI_OPT_VALUE, "prefix-dir", 0, &prefix_dir, "DIR",
     "the environment directory (as probe's --prefix)", NULL},
    {CLI_OPT_LIST, "site-packages", 0, &sites, "DIR",
     "search DIR (repeatable, in order) and nothing\nelse", NULL},
    {CLI_OPT_END, NULL, 0, NULL, NULL, NULL, NULL},
};

/* Append the ids of an --api-file to ids. */
static int
read_api_file(const char *path, char **ids, size_t *n, char **text)
{
	struct tg_err err = TG_ERR_INIT;
	size_t len;
	int rc = tg_file_read(path, (size_t)1 << 20, text, &len, NULL, &err);

	if (rc) {
		cli_error(CMD, "%s", err.msg);
		return cli_exit_for(rc);
	}
	if (tg_idlist_parse(*text, len, ids, n, MAX_APIS, path, &err)) {
		cli_error(CMD, "%s", err.msg);
		return CLI_BAD_INPUT;
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

/* Whether a and b are one file: the same path once made absolute and
 * normal, or, when both exist, the same device and inode (a link, a
 * hard link). */
static int
same_file(const char *a, const char *b)
{
	char cwd[4096];
	char *pa, *pb;
	struct stat sa, sb;
	int same;

	if (stat(a, &sa) == 0 && stat(b, &sb) == 0)
		return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
	if (!getcwd(cwd, sizeof(cwd)))
		return strcmp(a, b) == 0;
	pa = tg_path_abs(a, cwd);
	pb = tg_path_abs(b, cwd);
	same = pa && pb ? strcmp(pa, pb) == 0 : strcmp(a, b) == 0;
	free(pa);
	free(pb);
	return same;
}

static int
check(struct cli_ctx *ctx, int argc, char **argv)
{
	(void)ctx;
	if (argc)
		return cli_usage_error(CMD, "unexpected argument '%s'",
				       argv[0]);
	if (!header && !module)
		return cli_usage_error(CMD, "nothing to write: give --header "
					    "or --module");
	if (header && module && same_file(header, module))
		return cli_usage_error(CMD,
				       "--header and --module name the same "
				       "file '%s'",
				       module);
	if (!tg_emit_is_identifier(prefix ? prefix : "TORCH_GATE"))
		return cli_usage_error(
		    CMD, "--prefix '%s' is not a C identifier", prefix);
	if (ctx->torch_version && (python || prefix_dir || sites.n))
		return cli_usage_error(CMD, "--torch-version excludes "
					    "--python, --prefix-dir and "
					    "--site-packages");
	return CLI_OK;
}

static int
run(struct cli_ctx *ctx, int argc, char **argv)
{
	struct tg_err err = TG_ERR_INIT;
	struct tg_buf hdr = TG_BUF_INIT, mod = TG_BUF_INIT;
	struct tg_emit e;
	const struct tg_torch *t = NULL;
	char **ids = NULL, *api_text = NULL;
	size_t nids = 0, k;
	int r, status = CLI_OK;

	(void)argc;
	(void)argv;
	memset(&e, 0, sizeof(e));
	e.prefix = prefix ? prefix : "TORCH_GATE";
	ids = calloc(MAX_APIS, sizeof(*ids));
	if (!ids)
		return CLI_IO;
	for (k = 0; k < apis.n; k++)
		ids[nids++] = (char *)apis.v[k];
	if (api_file &&
	    (status = read_api_file(api_file, ids, &nids, &api_text)))
		goto out;
	for (k = 0; k < nids; k++)
		if (!tg_table_find(&ctx->table, ids[k])) {
			status = cli_usage_error(
			    CMD, "'%s' is not in the table", ids[k]);
			goto out;
		}
	if (ctx->torch_version) {
		e.torch = &ctx->given;
		e.version_text = ctx->torch_version;
		e.cxx11_abi = -1;
		/* torch 2.0 on needs C++17 (its release history); before,
		 * the standard is left out rather than guessed */
		e.cxx_standard =
		    tg_version_num_cmp(ctx->given.release[0],
				       (struct tg_num){"2", 1}) >= 0
			? 17
			: 0;
	} else {
		ctx->env.python = python;
		ctx->env.prefix = prefix_dir;
		for (k = 0; k < sites.n; k++)
			ctx->env.sites.v[ctx->env.sites.n++] = sites.v[k];
		status = cli_env_probe(CMD, &ctx->env);
		if (!status)
			status = cli_env_torch(CMD, &ctx->env, ctx->quiet, &t);
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
	if (tg_emit_add_apis(&e, &ctx->table, (const char *const *)ids, nids,
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
	if (header && (status = write_out(header, &hdr, ctx->quiet)))
		goto out;
	if (module)
		status = write_out(module, &mod, ctx->quiet);
out:
	tg_emit_release(&e);
	tg_buf_release(&hdr);
	tg_buf_release(&mod);
	free(ids);
	free(api_text);
	return status;
}

const struct cli_command cmd_emit = {
    .name = CMD,
    .summary = "write the guard header and Python constants",
    .setup = CLI_QUIET | CLI_TABLE | CLI_TORCH_VERSION,
    .opts = opts,
    .synopsis =
	"usage: torchgate emit [--header FILE] [--module FILE] [--prefix P]\n"
	"                      [--api ID]... [--api-file FILE] [--table FILE]\n"
	"                      [--torch-version V | --python PATH |\n"
	"                       --prefix-dir DIR | --site-packages DIR...]",
    .about =
	"Write a C/C++ header (<P>_TORCH_VERSION_*, <P>_TORCH_AT_LEAST, CUDA,\n"
	"HIP, C++11 ABI, C++ standard, and <P>_HAS_/_DEPRECATED_/_REMOVED_\n"
	"<STEM> for each API) and a Python module with the same facts,\n"
	"torch_at_least() and check_runtime(). STEM is the API id "
	"upper-cased,\n"
	"'.' and '::' as '_', a leading '_' of a part as 'P_'\n"
	"(torch.cuda.amp.custom_fwd: TORCH_CUDA_AMP_CUSTOM_FWD). Files are\n"
	"written atomically and left alone when unchanged. With\n"
	"--torch-version, CUDA, HIP and the ABI are left out; --quiet prints\n"
	"nothing on success.",
    .exits =
	"Exit status: 0 written or unchanged, 2 usage (an API not in the\n"
	"table, a prefix that is no C identifier), 3 no torch found, 4 a "
	"bad\n"
	"table or a version the header cannot hold, 5 a file could not be\n"
	"read or written.",
    .check = check,
    .run = run,
};
