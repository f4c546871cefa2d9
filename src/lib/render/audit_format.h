/* audit_format.h - an audit written out: text, JSON, SARIF, GitHub
 * SPDX-License-Identifier: MIT
 *
 * Renders what the command kept of the analyzers' results: the findings
 * that matter for the torch judged (each with its rank and whether it
 * fails the run), the dead version branches and the notes. JSON follows
 * the schema in torchgate-audit(1) (schema_version 1); SARIF is 2.1.0
 * with one rule per table entry used; GitHub output is workflow
 * commands. Output is a function of the report only.
 */
#ifndef TG_LIB_RENDER_AUDIT_FORMAT_H
#define TG_LIB_RENDER_AUDIT_FORMAT_H

#include <stddef.h>

#include "lib/audit/audit.h"
#include "lib/util/buf.h"
#include "lib/util/diag.h"
#include "lib/util/jsonw.h"

#define TG_AUDIT_SCHEMA_VERSION 1

enum tg_audit_format {
	TG_AUDIT_TEXT,
	TG_AUDIT_JSON,
	TG_AUDIT_SARIF,
	TG_AUDIT_GITHUB,
};

struct tg_audit_item {
	const char *path; /* as the walk named it, from the operand given */
	const struct tg_audit_finding *f;
	enum tg_audit_rank rank;
	int fails; /* in code, not guarded, at or above --min-status */
	/* JSON and SARIF: the fix it offers (fix/offer), or NULL or one
	 * without edits: none */
	const struct tg_audit_fix *fix;
};

struct tg_audit_dead {
	const char *path;
	const struct tg_audit_branch *b;
};

struct tg_audit_report {
	const char *tool_version;
	const char *torch;	/* the version judged */
	const char *torch_from; /* "option", "environment", "table" */
	const char *floor;	/* or NULL */
	/* where the floor came from: "option", or "declared" with the file,
	 * line and requirement text (each NULL for "option") */
	const char *floor_from;
	const char *floor_path;
	size_t floor_line;
	const char *floor_requirement;
	const char *min_status;
	size_t files; /* files analyzed */
	const struct tg_audit_item *items;
	size_t nitems;
	const struct tg_audit_dead *dead;
	size_t ndead;
	const struct tg_diag_list *notes; /* skipped files, warnings */
};

/* A report written as it is found: begin (what the run judged by), the
 * findings in output order in as many calls as the caller likes, then
 * end (the counts, dead branches, notes and, for SARIF, the rules). Each
 * call appends to out, which the caller may write out and clear between
 * calls once it has checked its error; each returns out's first failure.
 * So memory holds one batch of findings, never the whole report. SARIF
 * writes the results before the tool and its rules, which follow in the
 * order of their first use (ruleIndex). */
/* A run of a finding's members as written once, and what decides it:
 * an entry and its rank, or an unguarded finding's kind and in. */
struct tg_audit_frag {
	const void *key; /* the entry, the kind; NULL: a free slot */
	int what, a, depth;
	size_t off, len, members;
};

struct tg_audit_writer {
	enum tg_audit_format fmt;
	struct tg_buf *out;
	struct tg_jsonw w;
	struct tg_buf tmp;
	const struct tg_api **rules; /* SARIF: the entries used, first use
					first */
	size_t nrules, caprules;
	/* JSON: runs of members as written once (TG_AUDIT_FRAGS slots,
	 * open addressing; text in frag_text) */
	struct tg_audit_frag *frags;
	struct tg_buf frag_text;
};

void tg_audit_format_begin(struct tg_audit_writer *wr,
			   const struct tg_audit_report *rep,
			   enum tg_audit_format fmt, struct tg_buf *out);
int tg_audit_format_items(struct tg_audit_writer *wr,
			  const struct tg_audit_item *items, size_t n);
int tg_audit_format_end(struct tg_audit_writer *wr,
			const struct tg_audit_report *rep);
void tg_audit_format_release(struct tg_audit_writer *wr); /* after end */

/* Items rendered apart, on another thread, then spliced into the report
 * in order. tg_audit_format_part_begin makes wr a writer of fmt's items
 * alone, into out, laid out as items that follow others (a JSON item
 * after a comma); tg_audit_format_items renders into it, and
 * tg_audit_format_release frees it. tg_audit_format_splice appends such
 * a text of n items to the report's writer wr, as tg_audit_format_items
 * would have written them there, so the report is byte for byte the
 * same. Only for formats tg_audit_format_parts says yes of: SARIF
 * numbers its rules in the order of first use, so its items are
 * rendered in order by the report's writer. */
int tg_audit_format_parts(enum tg_audit_format fmt);
void tg_audit_format_part_begin(struct tg_audit_writer *wr,
				enum tg_audit_format fmt, struct tg_buf *out);
int tg_audit_format_splice(struct tg_audit_writer *wr, const char *text,
			   size_t len, size_t n);

/* All at once: begin, rep's items, end. Text holds the findings and dead
 * branches only (the caller prints the notes on stderr); the others hold
 * everything. */
int tg_audit_format_write(const struct tg_audit_report *rep,
			  enum tg_audit_format fmt, struct tg_buf *out);

/* The one-line description of a finding (text and the other formats'
 * messages): "AT_CHECK (removed in 1.5; deprecated since 1.2; use
 * TORCH_CHECK(cond, msg...), available since 1.2)". */
int tg_audit_format_message(struct tg_buf *b, const struct tg_audit_item *it);

#endif
