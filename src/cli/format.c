/*
 * The report formats for CI (xmlsniff(1), --format): GitHub Actions
 * workflow commands, one SARIF 2.1.0 log, a GitLab Code Quality report
 * and checkstyle XML, all on standard output, from the library's results;
 * and --list-codes and --explain, which print what the library says of
 * each code (xmlsniff_code_info).
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

/* The message of d as the text format gives it, with its count. */
static void
message(const xmlsniff_diagnostic *d, char *buf, size_t size)
{
	if (xmlsniff_diagnostic_count(d) > 1)
		snprintf(buf, size, "%s (%llu times)",
		    xmlsniff_diagnostic_message(d),
		    (unsigned long long)xmlsniff_diagnostic_count(d));
	else
		snprintf(buf, size, "%s", xmlsniff_diagnostic_message(d));
}

/* The severity of code where no input says it: as the policy last
 * applied has it (perfile.c). */
static const char *
severity(const char *code)
{
	return perfile_severity(code);
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
format_cut(FILE *f, const char *name, const xmlsniff_result *res,
    enum fmt fmt)
{
	const char *note = xmlsniff_result_unlisted_note(res);

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
	const char *code = xmlsniff_code((size_t)i);
	char full[4096];

	snprintf(full, sizeof(full), "%s\n\nClause: %s\n\nExample: $ %s\n\n"
	    "Fix: %s", xmlsniff_code_info(code, "description"),
	    xmlsniff_code_info(code, "clause"),
	    xmlsniff_code_info(code, "example"),
	    xmlsniff_code_info(code, "fix"));
	fprintf(f, "%s{\"id\":\"%s\"", i ? "," : "", code);
	sarif_text(f, "shortDescription", xmlsniff_code_info(code, "summary"),
	    1);
	sarif_text(f, "fullDescription", full, 1);
	sarif_text(f, "help", xmlsniff_code_info(code, "fix"), 1);
	fprintf(f, ",\"helpUri\":\"" XMLSNIFF_URL "#%s\",\"defaultConfiguration\":"
	    "{\"level\":\"%s\"}}", code, severity(code));
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
	for (i = 0; i < ncodes(); i++)
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
    const xmlsniff_diagnostic *d, const char *msg, unsigned ord)
{
	const char *code = xmlsniff_diagnostic_code(d);
	char fp[17];

	fingerprint(path, code, ord, fp);
	fprintf(f, "%s{\"ruleId\":\"%s\",\"ruleIndex\":%d,\"level\":\"%s\"",
	    sarif.nresults++ ? "," : "", code, code_index(code),
	    xmlsniff_diagnostic_severity(d));
	sarif_text(f, "message", msg, 1);
	fputs(",\"locations\":[{\"physicalLocation\":{\"artifactLocation\":",
	    f);
	sarif_artifact(f, name);
	fprintf(f, ",\"region\":{\"startLine\":%llu,\"startColumn\":%llu,"
	    "\"byteOffset\":%llu}}}],\"partialFingerprints\":"
	    "{\"xmlsniff/v1\":\"%s\"}}",
	    (unsigned long long)xmlsniff_diagnostic_line(d),
	    (unsigned long long)xmlsniff_diagnostic_column(d),
	    (unsigned long long)xmlsniff_diagnostic_offset(d), fp);
}

/* One diagnostic d of input name (path: as the CI formats write it),
 * the ord-th of its code, with message msg. */
static void
format_one(FILE *f, const char *name, const char *path, enum fmt fmt,
    const xmlsniff_diagnostic *d, const char *msg, unsigned ord)
{
	const char *code = xmlsniff_diagnostic_code(d);
	int err = strcmp(xmlsniff_diagnostic_severity(d), "error") == 0;

	switch (fmt) {
	case FMT_GITHUB:
		gh_finding(err ? GH_ERROR : GH_WARNING, path, code,
		    xmlsniff_diagnostic_line(d), xmlsniff_diagnostic_column(d),
		    xmlsniff_diagnostic_count(d), msg);
		break;
	case FMT_SARIF:
		sarif_result(f, name, path, d, msg, ord);
		break;
	case FMT_GITLAB:
		gitlab_issue(f, path, code, err, msg,
		    xmlsniff_diagnostic_offset(d), xmlsniff_diagnostic_line(d));
		break;
	default:
		fprintf(f, "<error line=\"%llu\" column=\"%llu\" "
		    "severity=\"%s\" message=\"",
		    (unsigned long long)xmlsniff_diagnostic_line(d),
		    (unsigned long long)xmlsniff_diagnostic_column(d),
		    xmlsniff_diagnostic_severity(d));
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
format_diags(const char *name, const xmlsniff_result *res, enum fmt fmt)
{
	const xmlsniff_diagnostic *d;
	char msg[512], *rp;
	const char *path;
	unsigned ord[NCODES_MAX] = { 0 };
	FILE *f = NULL;
	size_t i;
	int inside, c;

	if (fmt != FMT_GITHUB && fmt != FMT_CHECKSTYLE &&
	    xmlsniff_result_ndiagnostics(res) == 0)
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
	for (i = 0; (d = xmlsniff_result_line(res, i)) != NULL; i++) {
		message(d, msg, sizeof(msg));
		c = code_index(xmlsniff_diagnostic_code(d));
		format_one(f, name, path, fmt, d, msg, ord[c]++);
	}
	if (xmlsniff_result_unlisted_note(res) != NULL && fmt != FMT_SARIF)
		format_cut(f, path, res, fmt);
	if (fmt == FMT_CHECKSTYLE)
		fputs("</file>\n", f);
	if (f != NULL)
		rec_close(f);
	/* A record of its own: the notification is one with -j. */
	if (xmlsniff_result_unlisted_note(res) != NULL && fmt == FMT_SARIF)
		format_cut(NULL, name, res, fmt);
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
	const char *c;
	size_t i;
	int w = 0;

	for (i = 0; (c = xmlsniff_code(i)) != NULL; i++)
		if ((int)strlen(c) > w)
			w = (int)strlen(c);
	for (i = 0; (c = xmlsniff_code(i)) != NULL; i++)
		printf("%-*s  %-7s  %s\n", w, c, severity(c),
		    xmlsniff_code_info(c, "summary"));
}

/* --explain=name: what the code means, its clause, bytes that draw it
 * and the fix; return -1 if there is no such code. */
int
explain_code(const char *name)
{
	if (code_index(name) < 0)
		return -1;
	printf("%s (%s): %s\n\n", name, severity(name),
	    xmlsniff_code_info(name, "summary"));
	put_folded(xmlsniff_code_info(name, "description"));
	fputs("\nClause:\n", stdout);
	put_folded(xmlsniff_code_info(name, "clause"));
	printf("\nExample:\n  $ %s\n\nFix:\n", xmlsniff_code_info(name,
	    "example"));
	put_folded(xmlsniff_code_info(name, "fix"));
	return 0;
}
