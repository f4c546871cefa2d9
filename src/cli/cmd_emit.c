/* cmd_emit.c - torchgate emit: the guard header and the Python module
 * SPDX-License-Identifier: MIT
 *
 * Facts come from the probe (or --torch-version alone); statuses from
 * the table. Each output is written atomically and only when its content
 * changed, so builds that depend on it do not rebuild for nothing.
 */
#include <errno.h>
#include <signal.h>
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
#include "lib/render/emit.h"
#include "lib/util/file.h"
#include "lib/util/path.h"
#include "lib/util/str.h"
#include "lib/table/idlist.h"
#include "lib/table/table.h"
#include "lib/pep/version.h"

#define CMD "emit"
#define MAX_APIS 4096

static const char *header, *module, *macro_prefix, *api_file;
static const char *prefix_dir, *api_v[MAX_APIS];
static struct cli_list apis = {api_v, 0, MAX_APIS};
/* The environment options are the shared ones (--python, --prefix DIR,
 * --site-packages), as in every command. Before 0.1.0 emit's --prefix was
 * the macro prefix and --prefix-dir the environment: --prefix-dir is
 * still taken, and a --prefix that names no directory but is a C
 * identifier is refused with the new name (check), so that an old
 * command line never builds against another environment. */
static const struct cli_opt opts[] = {
    {CLI_OPT_VALUE, "header", 0, &header, "FILE", "write the header to FILE",
     NULL, 0},
    {CLI_OPT_VALUE, "module", 0, &module, "FILE",
     "write the Python module to FILE", NULL, 0},
    {CLI_OPT_VALUE, "macro-prefix", 0, &macro_prefix, "P",
     "macro prefix, a C identifier (default TORCH_GATE)", NULL, 0},
    {CLI_OPT_LIST, "api", 0, &apis, "ID", "an API of the table (repeatable)",
     NULL, 0},
    {CLI_OPT_VALUE, "api-file", 0, &api_file, "FILE",
     "API ids, one a line ('#' starts a comment)", NULL, 0},
    {CLI_OPT_VALUE, "prefix-dir", 0, &prefix_dir, "DIR",
     "the old spelling of --prefix DIR", NULL, 0},
    {CLI_OPT_END, NULL, 0, NULL, NULL, NULL, NULL, 0},
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

/* The files being written, for the signal handler: SIGTERM, SIGINT or
 * SIGHUP while a temporary file exists removes it, then the signal kills
 * us as it would have (the exit status says so). */
static struct tg_file_out outs[2] = {TG_FILE_OUT_INIT, TG_FILE_OUT_INIT};
static const int catch_sigs[] = {SIGTERM, SIGINT, SIGHUP};

static void
on_signal(int sig)
{
	size_t k;

	for (k = 0; k < sizeof(outs) / sizeof(outs[0]); k++)
		if (outs[k].armed)
			unlink(outs[k].tmp);
	/* SA_RESETHAND restored the default action; it takes effect once
	 * we return */
	raise(sig);
}

static void
catch_signals(void)
{
	struct sigaction sa, old;
	size_t k;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sa.sa_flags = SA_RESETHAND;
	sigemptyset(&sa.sa_mask);
	for (k = 0; k < sizeof(catch_sigs) / sizeof(catch_sigs[0]); k++)
		sigaddset(&sa.sa_mask, catch_sigs[k]);
	/* over a file-size limit (ulimit -f) write() then fails with
	 * EFBIG, which we report and clean up after, instead of dying with
	 * the temporary file left */
	signal(SIGXFSZ, SIG_IGN);
	for (k = 0; k < sizeof(catch_sigs) / sizeof(catch_sigs[0]); k++)
		/* a signal the caller ignores (nohup) stays ignored */
		if (sigaction(catch_sigs[k], NULL, &old) == 0 &&
		    old.sa_handler != SIG_IGN)
			sigaction(catch_sigs[k], &sa, NULL);
}

/* Block the signals we catch; *saved gets the mask to restore. */
static void
block_signals(sigset_t *saved)
{
	sigset_t set;
	size_t k;

	sigemptyset(&set);
	for (k = 0; k < sizeof(catch_sigs) / sizeof(catch_sigs[0]); k++)
		sigaddset(&set, catch_sigs[k]);
	sigprocmask(SIG_BLOCK, &set, saved);
}

/* Whether syncing a's directory already synced b's (one directory: one
 * fsync, about 5 ms on a disk). */
static int
synced_dir(const struct tg_file_out *a, const struct tg_file_out *b)
{
	char *da, *db;
	int same;

	if (!a->changed || !a->path || !b->path)
		return 0;
	da = tg_path_dirname(a->path);
	db = tg_path_dirname(b->path);
	same = da && db && strcmp(da, db) == 0;
	free(da);
	free(db);
	return same;
}

/* Write the header and the module as one step, as far as a file system
 * allows: both temporary files written and fsynced, then both renamed
 * with our signals blocked (a SIGTERM then arrives after the pair, not
 * between), then their directories fsynced. A failure before the renames
 * leaves both old files as they were. */
static int
write_both(const char *const paths[2], const struct tg_buf *bufs[2], int quiet)
{
	struct tg_err err = TG_ERR_INIT;
	sigset_t saved;
	int status = CLI_OK;
	size_t k;

	catch_signals();
	for (k = 0; k < 2; k++)
		if (paths[k] &&
		    tg_file_out_begin(&outs[k], paths[k],
				      bufs[k]->data ? bufs[k]->data : "",
				      bufs[k]->len, &err)) {
			cli_error(CMD, "%s", err.msg);
			status = CLI_IO;
			goto out;
		}
	block_signals(&saved);
	for (k = 0; k < 2 && !status; k++)
		if (paths[k] && tg_file_out_commit(&outs[k], &err)) {
			cli_error(CMD, "%s", err.msg);
			status = CLI_IO;
		}
	sigprocmask(SIG_SETMASK, &saved, NULL);
	for (k = 0; k < 2 && !status; k++)
		if (paths[k] && !(k == 1 && synced_dir(&outs[0], &outs[1])) &&
		    tg_file_out_sync(&outs[k], &err)) {
			cli_error(CMD, "%s", err.msg);
			status = CLI_IO;
		}
out:
	/* a file replaced is said even when the other failed */
	for (k = 0; k < 2; k++) {
		if (paths[k] && !quiet && (outs[k].changed || !status))
			cli_printf(stdout, "%s %s\n",
				   outs[k].changed ? "wrote" : "unchanged",
				   paths[k]);
		tg_file_out_release(&outs[k]);
	}
	return status;
}

/* Whether a and b are one file: the same path once made absolute and
 * normal, or, when both exist, the same device and inode (a link, a
 * hard link). -1 when out of memory. */
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
	same = pa && pb ? strcmp(pa, pb) == 0 : -1;
	free(pa);
	free(pb);
	return same;
}

/* The path of file as seen from the directory dir, both absolute and
 * normal ("/a/b/h.h" from "/a/c": "../b/h.h"); NULL when out of memory. */
static char *
relative_to(const char *file, const char *dir)
{
	struct tg_buf b = TG_BUF_INIT;
	size_t i = 0, common = 0;

	/* the end of the last whole component both start with */
	while (dir[i] && dir[i] == file[i]) {
		i++;
		if ((dir[i] == '/' || dir[i] == '\0') && file[i] == '/')
			common = i;
	}
	for (i = common; dir[i]; i++)
		if (dir[i] == '/' && dir[i + 1])
			tg_buf_adds(&b, "../");
	tg_buf_adds(&b, file + common + 1);
	if (tg_buf_error(&b)) {
		tg_buf_release(&b);
		return NULL;
	}
	return tg_buf_detach(&b);
}

/* Where the module finds the header: relative to its directory, so the
 * module stays the same bytes wherever the tree is. TG_EIO when the
 * working directory is needed and cannot be read, TG_ENOMEM. */
static int
header_from_module(const char *hdr, const char *mod, char **out)
{
	char cwd[4096] = "/";
	char *h = NULL, *m = NULL, *d = NULL;

	*out = NULL;
	if ((hdr[0] != '/' || mod[0] != '/') && !getcwd(cwd, sizeof(cwd)))
		return TG_EIO;
	h = tg_path_abs(hdr, cwd);
	m = tg_path_abs(mod, cwd);
	d = m ? tg_path_dirname(m) : NULL;
	if (h && d)
		*out = relative_to(h, d);
	free(h);
	free(m);
	free(d);
	return *out ? 0 : TG_ENOMEM;
}

static int
check(struct cli_ctx *ctx, int argc, char **argv)
{
	int same;

	(void)ctx;
	(void)argc;
	(void)argv;
	if (!header && !module)
		return cli_usage_error(CMD, "nothing to write: give --header "
					    "or --module");
	same = header && module ? same_file(header, module) : 0;
	if (same < 0)
		return cli_out_of_memory(CMD);
	if (same)
		return cli_usage_error(CMD,
				       "--header and --module name the same "
				       "file '%s'",
				       module);
	if (!tg_emit_is_identifier(macro_prefix ? macro_prefix : "TORCH_GATE"))
		return cli_usage_error(CMD,
				       "--macro-prefix '%s' is not a C "
				       "identifier",
				       macro_prefix);
	if (prefix_dir && ctx->env.prefix)
		return cli_usage_error(CMD, "--prefix and --prefix-dir (its "
					    "old spelling) exclude each other");
	if (ctx->env.prefix && !tg_path_is_dir(ctx->env.prefix) &&
	    tg_emit_is_identifier(ctx->env.prefix))
		return cli_usage_error(
		    CMD,
		    "--prefix '%s' is no directory: --prefix DIR is the "
		    "environment, as in every command; the macro prefix is "
		    "--macro-prefix %s (emit's --prefix before 0.1.0)",
		    ctx->env.prefix, ctx->env.prefix);
	if (prefix_dir) {
		if (ctx->env.python || ctx->env.sites.n)
			return cli_usage_error(CMD, "--python, --prefix and "
						    "--site-packages exclude "
						    "each other");
		ctx->env.prefix = prefix_dir;
	}
	return CLI_OK;
}

static int
run(struct cli_ctx *ctx, int argc, char **argv)
{
	struct tg_err err = TG_ERR_INIT;
	struct tg_buf hdr = TG_BUF_INIT, mod = TG_BUF_INIT;
	struct tg_emit e;
	const struct tg_torch *t = NULL;
	char **ids = NULL, *api_text = NULL, *hdr_rel = NULL;
	size_t nids = 0, k, bad;
	int r, status = CLI_OK;

	(void)argc;
	(void)argv;
	memset(&e, 0, sizeof(e));
	e.prefix = macro_prefix ? macro_prefix : "TORCH_GATE";
	ids = calloc(MAX_APIS, sizeof(*ids));
	if (!ids)
		return cli_out_of_memory(CMD);
	for (k = 0; k < apis.n; k++)
		ids[nids++] = (char *)apis.v[k];
	if (api_file &&
	    (status = read_api_file(api_file, ids, &nids, &api_text)))
		goto out;
	for (k = 0; k < nids; k++)
		if (!tg_table_find(&ctx->table, ids[k])) {
			status = cli_unknown_api(CMD, &ctx->table, ids[k]);
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
			     ? cli_out_of_memory(CMD)
			     : cli_usage_error(CMD, "%s", err.msg);
		goto out;
	}
	if (header && module) {
		r = header_from_module(header, module, &hdr_rel);
		if (r == TG_ENOMEM) {
			status = cli_out_of_memory(CMD);
			goto out;
		}
		if (r) {
			cli_error(CMD,
				  "cannot find the path from '%s' to '%s': "
				  "cannot read the working directory: %s",
				  module, header, strerror(errno));
			status = CLI_IO;
			goto out;
		}
		/* the module names the header in a Python string literal,
		 * which must be UTF-8 for the module to compile */
		if (!tg_str_utf8_valid(hdr_rel, strlen(hdr_rel), &bad)) {
			status = cli_usage_error(
			    CMD,
			    "--header '%s': the module cannot name a path "
			    "that is not UTF-8",
			    header);
			goto out;
		}
		e.header_path = hdr_rel;
	}
	if ((header && (r = tg_emit_header(&e, &hdr, &err))) ||
	    (module && (r = tg_emit_module(&e, &mod, &err)))) {
		cli_error(CMD, "%s", err.msg);
		status = cli_exit_for(r);
		goto out;
	}
	{
		const char *const paths[2] = {header, module};
		const struct tg_buf *bufs[2] = {&hdr, &mod};

		status = write_both(paths, bufs, ctx->quiet);
	}
out:
	tg_emit_release(&e);
	tg_buf_release(&hdr);
	tg_buf_release(&mod);
	free(ids);
	free(api_text);
	free(hdr_rel);
	return status;
}

const struct cli_command cmd_emit = {
    .name = CMD,
    .summary = "write the guard header and Python constants",
    .setup =
	CLI_QUIET | CLI_TABLE | CLI_ENV | CLI_TORCH_VERSION | CLI_NO_OPERANDS,
    .opts = opts,
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
	"table, a macro prefix that is no C identifier, a --prefix that is\n"
	"one but no directory), 3 no torch found, 4 a "
	"bad\n"
	"table or a version the header cannot hold, 5 a file could not be\n"
	"read or written.",
    .check = check,
    .run = run,
};
