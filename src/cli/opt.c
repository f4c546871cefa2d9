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

/* The synopsis is written piece by piece; a piece that would pass
 * USAGE_WIDTH goes on a new line under the first option (one column
 * further inside a group). Lines stay under 80 columns. */
#define USAGE_WIDTH 79
#define MAX_GROUP 16

struct usage_line {
	FILE *f;
	size_t col, indent;
};

/* A new line, indented under the first option (inside: one more). */
static void
usage_break(struct usage_line *u, size_t inside)
{
	fprintf(u->f, "\n%*s", (int)(u->indent + inside - 1), "");
	u->col = u->indent + inside - 1;
}

static void
usage_piece(struct usage_line *u, const char *s, size_t inside)
{
	size_t n = strlen(s);

	if (u->col + 1 + n > USAGE_WIDTH && u->col >= u->indent)
		usage_break(u, inside);
	fputc(' ', u->f);
	fputs(s, u->f);
	u->col += n + 1;
}

/* "--all", "--floor V", "--format=text|json", into out. */
static void
spell(char *out, size_t size, const struct cli_opt *o)
{
	size_t used, k;

	if (o->kind == CLI_OPT_CHOICE && o->choices) {
		used = (size_t)snprintf(out, size, "--%s=", o->name);
		for (k = 0; o->choices[k] && used < size; k++)
			used +=
			    (size_t)snprintf(out + used, size - used, "%s%s",
					     k ? "|" : "", o->choices[k]);
		return;
	}
	snprintf(out, size, "--%s%s%s", o->name,
		 !o->value_name		     ? ""
		 : o->kind == CLI_OPT_CHOICE ? "="
					     : " ",
		 o->value_name ? o->value_name : "");
}

/* A switch with a short name goes into the leading "[-q]". */
static int
short_switch(const struct cli_opt *o)
{
	return o->alias && o->kind == CLI_OPT_SWITCH;
}

/* Whether o joins the item of the option before it, as flag says. */
static int
follows(const struct cli_opt *o, unsigned flag)
{
	return (o->usage & flag) && !short_switch(o);
}

void
cli_opt_usage(FILE *f, const char *lead, const char *words, const char *first,
	      const struct cli_opt *const *tables, const char *operands)
{
	struct merged m = {{NULL}, 0};
	struct usage_line u = {f, 0, 0};
	char item[512], one[120], shorts[MAX_OPTS + 4] = "[-";
	size_t t, k, j, ns = 2;

	for (t = 0; tables[t]; t++)
		for (k = 0; tables[t][k].kind != CLI_OPT_END; k++)
			if (m.n < MAX_OPTS)
				m.o[m.n++] = &tables[t][k];
	fprintf(f, "%s%s", lead, words);
	u.col = strlen(lead) + strlen(words);
	u.indent = u.col + 1;
	if (first && *first)
		usage_piece(&u, first, 0);
	for (k = 0; k < m.n; k++)
		if (short_switch(m.o[k]))
			shorts[ns++] = m.o[k]->alias;
	if (ns > 2) {
		shorts[ns++] = ']';
		shorts[ns] = '\0';
		usage_piece(&u, shorts, 0);
	}
	for (k = 0; k < m.n; k = j) {
		size_t start = k, used;

		j = k + 1;
		if (short_switch(m.o[k]))
			continue;
		if (j < m.n && follows(m.o[j], CLI_OPT_USAGE_OR)) {
			/* "[--a |", "--b |", "--c]": a piece each, so that a
			 * long group breaks between its alternatives */
			char group[MAX_GROUP][128];
			size_t n = 0, len = 0, g;

			for (;;) {
				int last = !(j < m.n &&
					     follows(m.o[j], CLI_OPT_USAGE_OR));

				spell(one, sizeof(one), m.o[k]);
				if (n < MAX_GROUP)
					snprintf(group[n++], sizeof(group[0]),
						 "%s%s%s%s",
						 k == start ? "[" : "", one,
						 m.o[k]->kind == CLI_OPT_LIST
						     ? "..."
						     : "",
						 last ? "]" : " |");
				if (last)
					break;
				k = j++;
			}
			for (g = 0; g < n; g++)
				len += strlen(group[g]) + (g > 0);
			/* a group that fits on a line of its own starts one */
			if (u.col + 1 + len > USAGE_WIDTH &&
			    u.indent + len <= USAGE_WIDTH)
				usage_break(&u, 0);
			for (g = 0; g < n; g++)
				usage_piece(&u, group[g], g > 0);
			continue;
		}
		spell(one, sizeof(one), m.o[k]);
		snprintf(item, sizeof(item), "[%s", one);
		for (; j < m.n && follows(m.o[j], CLI_OPT_USAGE_WITH); j++) {
			used = strlen(item);
			spell(one, sizeof(one), m.o[j]);
			snprintf(item + used, sizeof(item) - used, " [%s]%s",
				 one,
				 m.o[j]->kind == CLI_OPT_LIST ? "..." : "");
		}
		used = strlen(item);
		snprintf(item + used, sizeof(item) - used, "]%s",
			 m.o[k]->kind == CLI_OPT_LIST ? "..." : "");
		usage_piece(&u, item, 0);
	}
	if (operands && *operands)
		usage_piece(&u, operands, 0);
	fputc('\n', f);
}
