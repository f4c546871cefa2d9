/* opt.c - command options declared once: parsing and --help from one table
 * SPDX-License-Identifier: MIT
 *
 * getopt_long does the parsing (STYLE.md: use it, do not hand-roll); this
 * file only turns the tables into its arrays and its results into
 * values and messages. Every long option is given a code above 0xff, its
 * index in the merged list, so that options without a short name need
 * no letters of their own.
 */
#include "cli/opt.h"

#include <getopt.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "lib/util/str.h"

#define MAX_OPTS 64
#define CODE_BASE 0x100

struct merged {
	const struct cli_opt *o[MAX_OPTS];
	size_t n;
};

const char *
cli_suggest(const char *word, const char *const *cands, size_t n)
{
	const char *best = NULL, *prefix = NULL;
	size_t k, bestd = (size_t)-1, len = strlen(word), nprefix = 0;

	for (k = 0; k < n; k++) {
		size_t d = tg_str_distance(word, cands[k], SIZE_MAX);

		if (len > 0 && strncmp(cands[k], word, len) == 0) {
			prefix = cands[k];
			nprefix++;
		}
		if (d < bestd) {
			bestd = d;
			best = cands[k];
		}
	}
	if (bestd != (size_t)-1 && bestd > 0 && bestd <= (len + 2) / 3)
		return best;
	return nprefix == 1 ? prefix : NULL;
}

/* "text, json or pc" */
static void
list_choices(char *out, size_t size, const char *const *c)
{
	size_t k, n = 0, used = 0;

	while (c[n])
		n++;
	out[0] = '\0';
	for (k = 0; k < n && used < size; k++) {
		int w = snprintf(out + used, size - used, "%s%s",
				 k == 0	      ? ""
				 : k == n - 1 ? " or "
					      : ", ",
				 c[k]);

		if (w < 0)
			break;
		used += (size_t)w;
	}
}

static int
store(const char *cmd, const struct cli_opt *o, const char *arg)
{
	size_t k;

	switch (o->kind) {
	case CLI_OPT_SWITCH:
		*(int *)o->value = 1;
		return 0;
	case CLI_OPT_CHOICE:
		for (k = 0; o->choices[k]; k++)
			if (strcmp(arg, o->choices[k]) == 0)
				break;
		if (!o->choices[k]) {
			char words[256];

			list_choices(words, sizeof(words), o->choices);
			return cli_usage_error(cmd, "--%s must be %s, not '%s'",
					       o->name, words, arg);
		}
		*(const char **)o->value = arg;
		return 0;
	case CLI_OPT_LIST: {
		struct cli_list *l = o->value;

		if (l->n == l->max)
			return cli_usage_error(cmd, "more than %zu --%s",
					       l->max, o->name);
		l->v[l->n++] = arg;
		return 0;
	}
	default:
		*(const char **)o->value = arg;
		return 0;
	}
}

/* The usage error for what getopt_long rejected at argv[optind - 1]. */
static int
rejected(const char *cmd, int c, char **argv, const struct merged *m)
{
	const char *arg = argv[optind - 1], *names[MAX_OPTS + 1], *near;
	char word[64];
	size_t k, len;

	if (c == ':')
		return cli_usage_error(cmd, "option '%s' needs a value", arg);
	if (optopt > 0 && optopt < CODE_BASE && strncmp(arg, "--", 2) != 0)
		return cli_usage_error(cmd, "unknown option '-%c'", optopt);
	len = strcspn(arg + 2, "=");
	if (strncmp(arg, "--", 2) == 0 && len < sizeof(word)) {
		memcpy(word, arg + 2, len);
		word[len] = '\0';
		for (k = 0; k < m->n; k++)
			names[k] = m->o[k]->name;
		names[m->n] = "help";
		near = cli_suggest(word, names, m->n + 1);
		if (near)
			return cli_usage_error(
			    cmd, "unknown option '%s'; did you mean '--%s'?",
			    arg, near);
	}
	return cli_usage_error(cmd, "unknown option '%s'", arg);
}

int
cli_opt_parse(const char *cmd, const struct cli_opt *const *tables, int argc,
	      char **argv, int *first, int *help)
{
	struct option lo[MAX_OPTS + 2];
	char shorts[2 * MAX_OPTS + 4] = ":h";
	struct merged m = {{NULL}, 0};
	size_t t, k, ns = 2;
	int c;

	*help = 0;
	for (t = 0; tables[t]; t++)
		for (k = 0; tables[t][k].kind != CLI_OPT_END; k++)
			if (m.n < MAX_OPTS)
				m.o[m.n++] = &tables[t][k];
	for (k = 0; k < m.n; k++) {
		lo[k].name = m.o[k]->name;
		lo[k].has_arg = m.o[k]->kind == CLI_OPT_SWITCH
				    ? no_argument
				    : required_argument;
		lo[k].flag = NULL;
		lo[k].val = (int)(CODE_BASE + k);
		if (m.o[k]->alias) {
			shorts[ns++] = m.o[k]->alias;
			if (lo[k].has_arg == required_argument)
				shorts[ns++] = ':';
		}
	}
	shorts[ns] = '\0';
	lo[m.n] = (struct option){"help", no_argument, NULL, 'h'};
	lo[m.n + 1] = (struct option){NULL, 0, NULL, 0};
	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, shorts, lo, NULL)) != -1) {
		const struct cli_opt *o = NULL;

		if (c == 'h') {
			*help = 1;
			return 0;
		}
		if (c >= CODE_BASE && (size_t)(c - CODE_BASE) < m.n)
			o = m.o[c - CODE_BASE];
		for (k = 0; !o && c > 0 && c < CODE_BASE && k < m.n; k++)
			if (m.o[k]->alias == c)
				o = m.o[k];
		if (!o)
			return rejected(cmd, c, argv, &m);
		if (store(cmd, o, optarg))
			return CLI_USAGE;
	}
	*first = optind;
	return 0;
}

void
cli_opt_help(FILE *f, const char *heading, const struct cli_opt *opts)
{
	size_t k;

	if (heading)
		fprintf(f, "\n%s\n", heading);
	for (k = 0; opts[k].kind != CLI_OPT_END; k++) {
		const struct cli_opt *o = &opts[k];
		const char *h = o->help, *nl;
		char name[80], alias[8] = "    ";

		if (o->alias)
			snprintf(alias, sizeof(alias), "-%c, ", o->alias);
		snprintf(name, sizeof(name), "%s--%s%s%s", alias, o->name,
			 !o->value_name		     ? ""
			 : o->kind == CLI_OPT_CHOICE ? "="
						     : " ",
			 o->value_name ? o->value_name : "");
		if (strlen(name) > 21)
			fprintf(f, "  %s\n%24s", name, "");
		else
			fprintf(f, "  %-22s", name);
		while ((nl = strchr(h, '\n')) != NULL) {
			fprintf(f, "%.*s\n%24s", (int)(nl - h), h, "");
			h = nl + 1;
		}
		fprintf(f, "%s\n", h);
	}
}
