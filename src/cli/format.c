/*
 * The report formats for CI (xmlsniff(1), --format): GitHub Actions
 * workflow commands, one SARIF 2.1.0 log, a GitLab Code Quality report
 * and checkstyle XML, all on standard output; and --list-codes and
 * --explain, which print the table of diag.c.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io.h"

/* The values of --format, in the order of formats_of. */
const char *const format_names[FMT_NAMES] = {
	"text", "json", "github", "sarif", "gitlab", "checkstyle"
};
static const enum fmt formats_of[FMT_NAMES] = {
	FMT_TEXT, FMT_JSON, FMT_GITHUB, FMT_SARIF, FMT_GITLAB, FMT_CHECKSTYLE
};

/* SARIF: the results written so far, and the notifications of inputs
 * that could not be read, kept for the invocation at the end. */
static struct {
	unsigned long	 nresults;
	unsigned long	 nnotes;
	FILE		*notes;
	char		*notes_p;
	size_t		 notes_n;
} sarif;

/* GitLab: the issues written so far. */
static unsigned long nissues;

/* -j: separators are always written (format_jobs); what the parent has
 * put out so far (format_splice). */
static struct {
	int		 on;
	unsigned long	 out;
	unsigned long	 notes;
} jobs;

/* How put_text escapes. */
enum esc {
	ESC_GH_MSG,	/* a workflow command's message */
	ESC_GH_PROP,	/* a workflow command's property value */
	ESC_XML,	/* an XML 1.0 attribute value in double quotes */
	ESC_MD		/* Markdown text (GFM), in a table cell */
};

/* Set *fmt to the format called name; return 0, or -1 if none is. */
int
format_lookup(const char *name, enum fmt *fmt)
{
	size_t i;

	for (i = 0; i < FMT_NAMES; i++)
		if (strcmp(format_names[i], name) == 0) {
			*fmt = formats_of[i];
			return 0;
		}
	return -1;
}

/*
 * Write s escaped for mode: the one rule of each of these formats, for
 * every string they write (file names, messages with the charset and
 * declaration values they quote).  The workflow commands take the
 * escapes of GitHub's actions/toolkit (% CR LF, and : , in property
 * values); XML gets its five predefined entities and character references
 * for the white space that attribute-value normalisation would turn into
 * spaces (XML 1.0 section 3.3.3); Markdown a backslash before the
 * punctuation that GFM acts on in a table cell.  The rest is the text
 * format's rule (put_escaped): a backslash doubled, TAB as \t, bytes
 * that are not UTF-8, other control characters and the non-characters
 * U+FFFE and U+FFFF, which XML 1.0 production [2] does not allow, as \xHH
 * or \uHHHH, so the output stays valid UTF-8 and reads back unambiguously.
 */
static void
put_text(FILE *f, const char *s, enum esc mode)
{
	const unsigned char *p = (const unsigned char *)s;
	const unsigned char *end = p + strlen(s);

	while (p < end) {
		uint32_t c;
		int r = utf8_dec(p, (size_t)(end - p), &c);

		if (r > 1) {
			if (c == 0xFFFE || c == 0xFFFF)
				fprintf(f, "\\u%04X", (unsigned)c);
			else
				fwrite(p, 1, (size_t)r, f);
			p += r;
			continue;
		}
		c = *p++;
		if (mode == ESC_MD && c != '\0' && strchr("\\`*_[]<>|~&",
		    (int)c) != NULL) {
			putc('\\', f);
			putc((int)c, f);
		} else if (mode == ESC_MD && (c == '\r' || c == '\n'))
			fprintf(f, "\\x%02X", (unsigned)c);
		else if (mode != ESC_XML && (c == '%' || c == '\r' || c == '\n' ||
		    (mode == ESC_GH_PROP && (c == ':' || c == ','))))
			fprintf(f, "%%%02X", (unsigned)c);
		else if (c == '\\')
			fputs("\\\\", f);
		else if (mode != ESC_XML && c == '\t')
			fputs("\\t", f);
		else if (mode == ESC_XML && c == '&')
			fputs("&amp;", f);
		else if (mode == ESC_XML && c == '<')
			fputs("&lt;", f);
		else if (mode == ESC_XML && c == '>')
			fputs("&gt;", f);
		else if (mode == ESC_XML && c == '"')
			fputs("&quot;", f);
		else if (mode == ESC_XML && (c == '\t' || c == '\n' ||
		    c == '\r'))
			fprintf(f, "&#%u;", (unsigned)c);
		else if (c >= 0x80 || c < 0x20 || c == 0x7F)
			fprintf(f, "\\x%02X", (unsigned)c);
		else
			putc((int)c, f);
	}
}

/* The message of e as the text format gives it, with its count. */
static void
message(const struct dent *e, char *buf, size_t size)
{
	if (e->count > 1)
		snprintf(buf, size, "%s (%llu times)", e->msg,
		    (unsigned long long)e->count);
	else
		snprintf(buf, size, "%s", e->msg);
}

static const char *
severity(enum code c)
{
	return diag_error_in(perfile_policy(), c) ? "error" : "warning";
}

/* s for github.c: as the workflow commands escape a message (how 0) or
 * a property value (1), or as Markdown text (2). */
void
gh_text(FILE *f, const char *s, int how)
{
	put_text(f, s, how == 2 ? ESC_MD : how ? ESC_GH_PROP : ESC_GH_MSG);
}

/*
 * name as a URI reference (RFC 3986 section 4.1): a relative path with
 * every byte but the unreserved characters and "/" percent-encoded, so
 * that spaces, "%", "#", "?", a ":" in the first segment and bytes that
 * are not UTF-8 all read back; an absolute path as a file URI (RFC 8089).
 */
void
format_uri(FILE *f, const char *name)
{
	const unsigned char *p = (const unsigned char *)name;

	if (*p == '/')
		fputs("file://", f);
	for (; *p != '\0'; p++)
		if ((*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z') ||
		    (*p >= '0' && *p <= '9') || strchr("-._~/", *p) != NULL)
			putc(*p, f);
		else
			fprintf(f, "%%%02X", *p);
}

/*
 * SARIF: the artifactLocation of input name: below the repository root a
 * relative URI from SRCROOT (SARIF 2.1.0 section 3.4.4), elsewhere an
 * absolute file URI, as a relative one would be relative to nothing the
 * log says; standard input has no URI.
 */
static void
sarif_artifact(FILE *f, const char *name)
{
	char *p, *abs;
	int inside;

	if (strcmp(name, "-") == 0) {
		fputs("{\"description\":{\"text\":\"standard input\"}}", f);
		return;
	}
	p = repo_path(name, &inside);
	abs = inside || p == NULL ? NULL : repo_abs(p);
	fputs("{\"uri\":\"", f);
	format_uri(f, abs != NULL ? abs : p != NULL ? p : name);
	fputs(inside ? "\",\"uriBaseId\":\"SRCROOT\"}" : "\"}", f);
	free(abs);
	free(p);
}

/* A text member of SARIF: {"text":"s"}. */
static void
sarif_text(FILE *f, const char *member, const char *s, int comma)
{
	fprintf(f, "%s\"%s\":{\"text\":", comma ? "," : "", member);
	json_string(f, s);
	putc('}', f);
}

/*
 * FNV-1a, 64 bits (draft-eastlake-fnv), over the file name, the code
 * and the decimal offset, each ended by a NUL: a finding's fingerprint
 * for GitLab, the same on every run over the same bytes.
 */
static void
fingerprint(const char *name, const char *code, uint64_t off, char *hex)
{
	char offs[24];
	const char *parts[3];
	uint64_t h = 0xcbf29ce484222325ULL;
	int i;

	snprintf(offs, sizeof(offs), "%llu", (unsigned long long)off);
	parts[0] = name;
	parts[1] = code;
	parts[2] = offs;
	for (i = 0; i < 3; i++) {
		const unsigned char *p = (const unsigned char *)parts[i];

		do {
			h ^= *p;
			h *= 0x100000001b3ULL;
		} while (*p++ != '\0');
	}
	snprintf(hex, 17, "%016llx", (unsigned long long)h);
}

/* GitLab Code Quality: one issue; error 1 is major, 0 minor, -1 info. */
static void
gitlab_issue(FILE *f, const char *name, const char *code, int error,
    const char *msg, uint64_t off, uint64_t line)
{
	char fp[17];

	fingerprint(name, code, off, fp);
	fputs(nissues++ ? ",\n{\"description\":" : "\n{\"description\":", f);
	json_string(f, msg);
	fprintf(f, ",\"check_name\":\"%s\",\"fingerprint\":\"%s\","
	    "\"severity\":\"%s\",\"location\":{\"path\":", code, fp,
	    error < 0 ? "info" : error ? "major" : "minor");
	json_string(f, name);
	fprintf(f, ",\"lines\":{\"begin\":%llu}}}", (unsigned long long)line);
}

/* The notification descriptors of the SARIF log, in their order. */
static const char *const sarif_notes[][2] = {
	{ "unreadable", "An input could not be read, so it was not checked." },
	{ "max-errors", "--max-errors cut the list of an input's diagnostics; "
	    "the rest are counted, not listed." },
};

/*
 * SARIF: a toolExecutionNotification (section 3.58) of the descriptor
 * number id of sarif_notes, for the invocation at the end: kept in
 * memory, or with -j a record for descriptor 3 that the parent keeps
 * (format_splice).  Without memory to keep it, stderr has it.
 */
static void
sarif_note(const char *name, int id, const char *level, const char *text)
{
	FILE *f;

	if (!jobs.on && sarif.notes == NULL && (sarif.notes =
	    open_memstream(&sarif.notes_p, &sarif.notes_n)) == NULL) {
		report_warn(name, 0, "%s", text);
		return;
	}
	f = jobs.on ? rec_open(3) : sarif.notes;
	fprintf(f, "%s{\"descriptor\":{\"id\":\"%s\",\"index\":%d},"
	    "\"level\":\"%s\"", sarif.nnotes++ ? "," : "", sarif_notes[id][0],
	    id, level);
	sarif_text(f, "message", text, 1);
	fputs(",\"locations\":[{\"physicalLocation\":"
	    "{\"artifactLocation\":", f);
	sarif_artifact(f, name);
	fputs("}}]}", f);
	if (jobs.on)
		rec_close(f);
}

/*
 * --all: the note that the list of s was cut, as each format has notes: a
 * notice command, a SARIF notification of level note (a result must have
 * a rule, and this is none), an info issue, an error of severity info.
 * f: the input's record, for gitlab and checkstyle.
 */
static void
format_cut(FILE *f, const char *name, const struct sniff *s, enum fmt fmt)
{
	char note[160];

	diag_cut_note(&s->dg, note, sizeof(note));
	switch (fmt) {
	case FMT_GITHUB:
		gh_finding(GH_NOTE, name, "", 0, 0, 0, note);
		break;
	case FMT_SARIF:
		sarif_note(name, 1, "note", note);
		break;
	case FMT_GITLAB:
		gitlab_issue(f, name, "max-errors", -1, note, 0, 1);
		break;
	default:
		fputs("<error line=\"1\" severity=\"info\" message=\"", f);
		put_text(f, note, ESC_XML);
		fputs("\" source=\"xmlsniff.max-errors\"/>\n", f);
		break;
	}
}

/*
 * SARIF: the rule of code i (section 3.49): the --list-codes summary as
 * its short description, what --explain prints as its full description
 * and help, its severity as the default level.
 */
static void
sarif_rule(FILE *f, int i)
{
	const struct code_info *ci = diag_info((enum code)i);
	char full[4096];

	snprintf(full, sizeof(full), "%s\n\nClause: %s\n\nExample: $ %s\n\n"
	    "Fix: %s", ci->full, ci->clause, ci->example, ci->fix);
	fprintf(f, "%s{\"id\":\"%s\"", i ? "," : "", ci->code);
	sarif_text(f, "shortDescription", ci->summary, 1);
	sarif_text(f, "fullDescription", full, 1);
	sarif_text(f, "help", ci->fix, 1);
	fprintf(f, ",\"helpUri\":\"" XMLSNIFF_URL "#%s\",\"defaultConfiguration\":"
	    "{\"level\":\"%s\"}}", ci->code, severity((enum code)i));
}

/* SARIF: the log up to its results: the tool with its rules and
 * notifications, the repository root as SRCROOT. */
static void
sarif_start(FILE *f)
{
	const char *root = repo_root();
	int i;

	fputs("{\"version\":\"2.1.0\",\"$schema\":\"https://docs.oasis-"
	    "open.org/sarif/sarif/v2.1.0/errata01/os/schemas/"
	    "sarif-schema-2.1.0.json\",\"runs\":[{\"tool\":{\"driver\":"
	    "{\"name\":\"xmlsniff\",\"version\":\"" XMLSNIFF_VERSION "\","
	    "\"semanticVersion\":\"" XMLSNIFF_VERSION "\",\"informationUri\":"
	    "\"" XMLSNIFF_URL "\",\"rules\":[", f);
	for (i = 0; i < D_NCODES; i++)
		sarif_rule(f, i);
	fputs("],\"notifications\":[", f);
	for (i = 0; i < 2; i++) {
		fprintf(f, "%s{\"id\":\"%s\"", i ? "," : "", sarif_notes[i][0]);
		sarif_text(f, "shortDescription", sarif_notes[i][1], 1);
		putc('}', f);
	}
	fputs("]}}", f);
	if (root != NULL) {
		fputs(",\"originalUriBaseIds\":{\"SRCROOT\":{\"uri\":\"", f);
		format_uri(f, root);
		fputs(strcmp(root, "/") == 0 ? "\"}}" : "/\"}}", f);
	}
	fputs(",\"columnKind\":\"unicodeCodePoints\",\"results\":[", f);
}

/* The beginning of the run's document, for the formats that have one;
 * the repository root found before any worker starts. */
void
format_start(enum fmt fmt)
{
	FILE *f;

	if (fmt <= FMT_JSON)
		return;
	repo_init();
	if (fmt == FMT_GITHUB) {
		gh_start();
		return;
	}
	f = rec_open(1);
	if (fmt == FMT_GITLAB)
		fputs("[", f);
	else if (fmt == FMT_CHECKSTYLE)
		fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		    "<checkstyle version=\"4.3\">\n", f);
	else
		sarif_start(f);
	rec_close(f);
}

/*
 * SARIF: one result.  Its partial fingerprint is FNV-1a 64 of the path,
 * the code and ord, the how-manieth diagnostic of that code in the input
 * it is, so that it stays when lines are added above it.
 */
static void
sarif_result(FILE *f, const char *name, const char *path,
    const struct dent *e, const char *msg, unsigned ord)
{
	char fp[17];

	fingerprint(path, diag_code(e->code), ord, fp);
	fprintf(f, "%s{\"ruleId\":\"%s\",\"ruleIndex\":%d,\"level\":\"%s\"",
	    sarif.nresults++ ? "," : "", diag_code(e->code), (int)e->code,
	    severity(e->code));
	sarif_text(f, "message", msg, 1);
	fputs(",\"locations\":[{\"physicalLocation\":{\"artifactLocation\":",
	    f);
	sarif_artifact(f, name);
	fprintf(f, ",\"region\":{\"startLine\":%llu,\"startColumn\":%llu,"
	    "\"byteOffset\":%llu}}}],\"partialFingerprints\":"
	    "{\"xmlsniff/v1\":\"%s\"}}", (unsigned long long)e->line,
	    (unsigned long long)e->col, (unsigned long long)e->off, fp);
}

/* One diagnostic e of input name (path: as the CI formats write it),
 * the ord-th of its code, with message msg. */
static void
format_one(FILE *f, const char *name, const char *path, enum fmt fmt,
    const struct dent *e, const char *msg, unsigned ord)
{
	const char *code = diag_code(e->code);

	switch (fmt) {
	case FMT_GITHUB:
		gh_finding(diag_error_in(perfile_policy(), e->code) ? GH_ERROR : GH_WARNING,
		    path, code, e->line, e->col, e->count, msg);
		break;
	case FMT_SARIF:
		sarif_result(f, name, path, e, msg, ord);
		break;
	case FMT_GITLAB:
		gitlab_issue(f, path, code,
		    diag_error_in(perfile_policy(), e->code), msg,
		    e->off, e->line);
		break;
	default:
		fprintf(f, "<error line=\"%llu\" column=\"%llu\" "
		    "severity=\"%s\" message=\"", (unsigned long long)e->line,
		    (unsigned long long)e->col, severity(e->code));
		put_text(f, msg, ESC_XML);
		fprintf(f, "\" source=\"xmlsniff.%s\"/>\n", code);
		break;
	}
}

/* The diagnostics of one input: the github findings each a record of
 * its own (github.c orders them); the input's part of the document in
 * one record for the others.  With --all, one result an occurrence
 * listed, then a note if the list was cut. */
void
format_diags(const char *name, const struct sniff *s, enum fmt fmt)
{
	struct diter it;
	struct dent e;
	char msg[512], *rp;
	const char *path;
	unsigned ord[D_NCODES] = { 0 };
	FILE *f = NULL;
	int inside;

	diag_iter(&it, &s->dg);
	if (fmt != FMT_GITHUB && fmt != FMT_CHECKSTYLE && it.n == 0)
		return;
	rp = repo_path(name, &inside);
	path = rp != NULL ? rp : name;
	if (fmt == FMT_GITHUB)
		gh_finding(GH_FILE, path, "", 0, 0, 0, "");
	else
		f = rec_open(1);
	if (fmt == FMT_CHECKSTYLE) {
		fputs("<file name=\"", f);
		put_text(f, path, ESC_XML);
		fputs("\">\n", f);
	}
	while (diag_next(&it, &e)) {
		message(&e, msg, sizeof(msg));
		format_one(f, name, path, fmt, &e, msg, ord[e.code]++);
	}
	if (s->dg.unlisted > 0 && fmt != FMT_SARIF)
		format_cut(f, path, s, fmt);
	if (fmt == FMT_CHECKSTYLE)
		fputs("</file>\n", f);
	if (f != NULL)
		rec_close(f);
	/* A record of its own: the notification is one with -j. */
	if (s->dg.unlisted > 0 && fmt == FMT_SARIF)
		format_cut(NULL, name, s, fmt);
	free(rp);
}

/* An input that could not be read, in the document or as a command;
 * for SARIF a notification, written with the invocation at the end. */
void
format_failure(const char *name, const char *why, enum fmt fmt)
{
	FILE *f;
	char *rp;
	const char *path;
	int inside;

	if (fmt == FMT_SARIF) {
		sarif_note(name, 0, "error", why);
		return;
	}
	rp = repo_path(name, &inside);
	path = rp != NULL ? rp : name;
	if (fmt == FMT_GITHUB) {
		gh_finding(GH_UNREADABLE, path, "", 0, 0, 0, why);
		free(rp);
		return;
	}
	f = rec_open(1);
	if (fmt == FMT_GITLAB)
		gitlab_issue(f, path, "unreadable", 1, why, 0, 1);
	else {
		fputs("<file name=\"", f);
		put_text(f, path, ESC_XML);
		fputs("\">\n<error severity=\"error\" message=\"", f);
		put_text(f, why, ESC_XML);
		fputs("\" source=\"xmlsniff.unreadable\"/>\n</file>\n", f);
	}
	rec_close(f);
	free(rp);
}

/*
 * The end of the run's output, whose exit status is status: the end of
 * the document, then everything gathered is written out.  Return the
 * status, 2 when the GitHub step summary could not be written.
 */
int
format_end(enum fmt fmt, int status)
{
	FILE *f;

	if (fmt == FMT_GITHUB)
		status = gh_end(status);
	if (fmt == FMT_SARIF || fmt == FMT_GITLAB || fmt == FMT_CHECKSTYLE) {
		f = rec_open(1);
		if (jobs.on)
			nissues = jobs.out;
		if (fmt == FMT_GITLAB)
			fputs(nissues ? "\n]\n" : "]\n", f);
		else if (fmt == FMT_CHECKSTYLE)
			fputs("</checkstyle>\n", f);
		else {
			fprintf(f, "],\"invocations\":[{\"executionSuccessful\":"
			    "%s,\"exitCode\":%d", status < 2 ? "true" : "false",
			    status);
			if (sarif.notes != NULL && fclose(sarif.notes) == 0 &&
			    sarif.nnotes > 0) {
				fputs(",\"toolExecutionNotifications\":[", f);
				fwrite(sarif.notes_p, 1, sarif.notes_n, f);
				putc(']', f);
			}
			fputs("}]}]}\n", f);
			free(sarif.notes_p);
			sarif.notes = NULL;
		}
		rec_close(f);
	}
	rec_flush();
	return status;
}

/*
 * -j (jobs.c): from here on, every result, issue and notification is
 * written with the separator before it, as if one came before, and a
 * SARIF notification is a record for descriptor 3; the parent splices
 * the records of all processes together in the order of the inputs.
 */
void
format_jobs(void)
{
	jobs.on = 1;
	sarif.nresults = sarif.nnotes = nissues = 1;
}

/*
 * -j: write out record p (n bytes, for descriptor fd) of the run in its
 * place: the separator its writer put first goes when nothing came
 * before it, and a SARIF notification is kept for the invocation.
 */
void
format_splice(enum fmt fmt, int fd, const char *p, size_t n)
{
	if (fd == 3) {
		if (sarif.notes == NULL && (sarif.notes =
		    open_memstream(&sarif.notes_p, &sarif.notes_n)) == NULL)
			return;
		if (n > 0 && *p == ',' && jobs.notes++ == 0) {
			p++;
			n--;
		}
		fwrite(p, 1, n, sarif.notes);
		return;
	}
	if (fd == 1 && fmt == FMT_GITHUB) {
		gh_take(fd, p, n);
		return;
	}
	if (fd == 1 && (fmt == FMT_SARIF || fmt == FMT_GITLAB) && n > 0 &&
	    *p == ',' && jobs.out++ == 0) {
		p++;
		n--;
	}
	rec_put(fd, p, n);
}

/* Write s folded at 72 columns, each line indented by two spaces. */
static void
put_folded(const char *s)
{
	size_t col = 0;

	while (*s != '\0') {
		size_t w;

		while (*s == ' ')
			s++;
		w = strcspn(s, " ");
		if (w == 0)
			break;
		if (col > 0 && col + 1 + w > 72) {
			putchar('\n');
			col = 0;
		}
		if (col == 0) {
			fputs("  ", stdout);
			col = 2;
		} else {
			putchar(' ');
			col++;
		}
		fwrite(s, 1, w, stdout);
		col += w;
		s += w;
	}
	putchar('\n');
}

/* --list-codes: each code, its severity and what it means. */
void
list_codes(void)
{
	int i, w = 0;

	for (i = 0; i < D_NCODES; i++)
		if ((int)strlen(diag_code((enum code)i)) > w)
			w = (int)strlen(diag_code((enum code)i));
	for (i = 0; i < D_NCODES; i++)
		printf("%-*s  %-7s  %s\n", w, diag_code((enum code)i),
		    severity((enum code)i), diag_info((enum code)i)->summary);
}

/* --explain=name: what the code means, its clause, bytes that draw it
 * and the fix; return -1 if there is no such code. */
int
explain_code(const char *name)
{
	const struct code_info *ci;
	int c;

	if ((c = diag_lookup(name)) < 0)
		return -1;
	ci = diag_info((enum code)c);
	printf("%s (%s): %s\n\n", ci->code, severity((enum code)c),
	    ci->summary);
	put_folded(ci->full);
	fputs("\nClause:\n", stdout);
	put_folded(ci->clause);
	printf("\nExample:\n  $ %s\n\nFix:\n", ci->example);
	put_folded(ci->fix);
	return 0;
}
