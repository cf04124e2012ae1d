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
	ESC_XML		/* an XML 1.0 attribute value in double quotes */
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
 * Write s escaped for mode.  The workflow commands take the escapes of
 * GitHub's actions/toolkit (% CR LF, and : , in property values); XML
 * gets its five predefined entities and character references for the
 * white space that attribute-value normalisation would turn into spaces
 * (XML 1.0 section 3.3.3).  Bytes that are not UTF-8, other control
 * characters and the non-characters U+FFFE and U+FFFF, which XML 1.0
 * production [2] does not allow, are written visibly as \xHH or \uHHHH,
 * as the text format writes names, so the output stays valid UTF-8.
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
		if (mode != ESC_XML && (c == '%' || c == '\r' || c == '\n' ||
		    (mode == ESC_GH_PROP && (c == ':' || c == ','))))
			fprintf(f, "%%%02X", (unsigned)c);
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
		else if (c >= 0x80 || (c < 0x20 && c != '\t') || c == 0x7F)
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
	return diag_is_error(c) ? "error" : "warning";
}

/*
 * name as a URI reference (RFC 3986 section 4.1): a relative path with
 * every byte but the unreserved characters and "/" percent-encoded, so
 * that spaces, "%", "#", "?", a ":" in the first segment and bytes that
 * are not UTF-8 all read back; an absolute path as a file URI (RFC 8089).
 */
static void
put_uri(FILE *f, const char *name)
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

/* SARIF: the artifactLocation of name; standard input has no URI. */
static void
sarif_artifact(FILE *f, const char *name)
{
	if (strcmp(name, "-") == 0) {
		fputs("{\"description\":{\"text\":\"standard input\"}}", f);
		return;
	}
	fputs("{\"uri\":\"", f);
	put_uri(f, name);
	fputs("\"}", f);
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

/*
 * --all: the note that the list of s was cut, as each format has notes: a
 * notice command, a SARIF result of level note with no rule, an info
 * issue, an error of severity info.  f: the input's record, but for
 * github.
 */
static void
format_cut(FILE *f, const char *name, const struct sniff *s, enum fmt fmt)
{
	char note[160];

	diag_cut_note(&s->dg, note, sizeof(note));
	switch (fmt) {
	case FMT_GITHUB:
		f = rec_open(1);
		fputs("::notice file=", f);
		put_text(f, name, ESC_GH_PROP);
		fputs("::", f);
		put_text(f, note, ESC_GH_MSG);
		putc('\n', f);
		rec_close(f);
		break;
	case FMT_SARIF:
		fprintf(f, "%s{\"level\":\"note\"", sarif.nresults++ ? "," :
		    "");
		sarif_text(f, "message", note, 1);
		fputs(",\"locations\":[{\"physicalLocation\":"
		    "{\"artifactLocation\":", f);
		sarif_artifact(f, name);
		fputs("}}]}", f);
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

/* The beginning of the run's document, for the formats that have one. */
void
format_start(enum fmt fmt)
{
	FILE *f;
	int i;

	if (fmt != FMT_SARIF && fmt != FMT_GITLAB && fmt != FMT_CHECKSTYLE)
		return;
	f = rec_open(1);
	if (fmt == FMT_GITLAB)
		fputs("[", f);
	else if (fmt == FMT_CHECKSTYLE)
		fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		    "<checkstyle version=\"4.3\">\n", f);
	else {
		fputs("{\"version\":\"2.1.0\",\"$schema\":\"https://docs.oasis-"
		    "open.org/sarif/sarif/v2.1.0/errata01/os/schemas/"
		    "sarif-schema-2.1.0.json\",\"runs\":[{\"tool\":{\"driver\":"
		    "{\"name\":\"xmlsniff\",\"version\":\"" XMLSNIFF_VERSION
		    "\",\"rules\":[", f);
		for (i = 0; i < D_NCODES; i++) {
			const struct code_info *ci = diag_info((enum code)i);
			char full[1024];

			snprintf(full, sizeof(full), "%s See %s.", ci->full,
			    ci->clause);
			fprintf(f, "%s{\"id\":\"%s\"", i ? "," : "", ci->code);
			sarif_text(f, "shortDescription", ci->summary, 1);
			sarif_text(f, "fullDescription", full, 1);
			sarif_text(f, "help", ci->fix, 1);
			fprintf(f, ",\"defaultConfiguration\":{\"level\":\"%s\"}}",
			    severity((enum code)i));
		}
		fputs("]}},\"columnKind\":\"unicodeCodePoints\",\"results\":[",
		    f);
	}
	rec_close(f);
}

/* The diagnostics of one input: each workflow command its own record;
 * the input's part of the document in one record for the others.  With
 * --all, one result an occurrence listed, then a note if the list was
 * cut. */
void
format_diags(const char *name, const struct sniff *s, enum fmt fmt)
{
	struct diter it;
	struct dent e;
	char msg[512];
	FILE *f = NULL;

	diag_iter(&it, &s->dg);
	if (fmt == FMT_CHECKSTYLE) {
		f = rec_open(1);
		fputs("<file name=\"", f);
		put_text(f, name, ESC_XML);
		fputs("\">\n", f);
	} else if (fmt != FMT_GITHUB) {
		if (it.n == 0)
			return;
		f = rec_open(1);
	}
	while (diag_next(&it, &e)) {
		const char *code = diag_code(e.code);

		message(&e, msg, sizeof(msg));
		switch (fmt) {
		case FMT_GITHUB:
			f = rec_open(1);
			fprintf(f, "::%s file=", severity(e.code));
			put_text(f, name, ESC_GH_PROP);
			fprintf(f, ",line=%llu,col=%llu,title=%s::",
			    (unsigned long long)e.line,
			    (unsigned long long)e.col, code);
			put_text(f, msg, ESC_GH_MSG);
			putc('\n', f);
			rec_close(f);
			break;
		case FMT_SARIF:
			fprintf(f, "%s{\"ruleId\":\"%s\",\"ruleIndex\":%d,"
			    "\"level\":\"%s\"", sarif.nresults++ ? "," : "",
			    code, (int)e.code, severity(e.code));
			sarif_text(f, "message", msg, 1);
			fputs(",\"locations\":[{\"physicalLocation\":"
			    "{\"artifactLocation\":", f);
			sarif_artifact(f, name);
			fprintf(f, ",\"region\":{\"startLine\":%llu,"
			    "\"startColumn\":%llu,\"byteOffset\":%llu}}}]}",
			    (unsigned long long)e.line,
			    (unsigned long long)e.col,
			    (unsigned long long)e.off);
			break;
		case FMT_GITLAB:
			gitlab_issue(f, name, code, diag_is_error(e.code),
			    msg, e.off, e.line);
			break;
		default:
			fprintf(f, "<error line=\"%llu\" column=\"%llu\" "
			    "severity=\"%s\" message=\"",
			    (unsigned long long)e.line,
			    (unsigned long long)e.col, severity(e.code));
			put_text(f, msg, ESC_XML);
			fprintf(f, "\" source=\"xmlsniff.%s\"/>\n", code);
			break;
		}
	}
	if (s->dg.unlisted > 0)
		format_cut(f, name, s, fmt);
	if (fmt == FMT_CHECKSTYLE)
		fputs("</file>\n", f);
	if (fmt != FMT_GITHUB)
		rec_close(f);
}

/* An input that could not be read, in the document or as a command;
 * for SARIF a notification, written with the invocation at the end. */
void
format_failure(const char *name, const char *why, enum fmt fmt)
{
	FILE *f;

	if (fmt == FMT_SARIF) {
		/* Without memory to keep it, it is not lost: stderr has it.
		 * -j: a record for descriptor 3, kept by format_splice. */
		if (!jobs.on && sarif.notes == NULL && (sarif.notes =
		    open_memstream(&sarif.notes_p, &sarif.notes_n)) == NULL) {
			report_warn(name, 0, "%s", why);
			return;
		}
		f = jobs.on ? rec_open(3) : sarif.notes;
		fprintf(f, "%s{\"level\":\"error\"", sarif.nnotes++ ? "," : "");
		sarif_text(f, "message", why, 1);
		fputs(",\"locations\":[{\"physicalLocation\":"
		    "{\"artifactLocation\":", f);
		sarif_artifact(f, name);
		fputs("}}]}", f);
		if (jobs.on)
			rec_close(f);
		return;
	}
	f = rec_open(1);
	if (fmt == FMT_GITHUB) {
		fputs("::error file=", f);
		put_text(f, name, ESC_GH_PROP);
		fputs("::", f);
		put_text(f, why, ESC_GH_MSG);
		putc('\n', f);
	} else if (fmt == FMT_GITLAB)
		gitlab_issue(f, name, "unreadable", 1, why, 0, 1);
	else {
		fputs("<file name=\"", f);
		put_text(f, name, ESC_XML);
		fputs("\">\n<error severity=\"error\" message=\"", f);
		put_text(f, why, ESC_XML);
		fputs("\" source=\"xmlsniff.unreadable\"/>\n</file>\n", f);
	}
	rec_close(f);
}

/*
 * The end of the run's output, whose exit status is status: the end of
 * the document, then everything gathered is written out.
 */
void
format_end(enum fmt fmt, int status)
{
	FILE *f;

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
