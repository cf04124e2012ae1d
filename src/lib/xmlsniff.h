/*
 * libxmlsniff: which encoding an XML entity is in, and why; whether its
 * labels agree and every byte is legal; and the entity re-encoded with
 * the BOM and declaration RFC 7303 section 3.3 and XML 1.0 section 4.3.3
 * require.  The library's one interface (xmlsniff(3)).
 *
 * Objects: options (built once, then read by any number of threads),
 * a checker (one entity, fed in pieces), its result, and a transcoder.
 * No function exits, aborts, prints or sets a global; each reports a
 * status (enum xmlsniff_status) and keeps a message on its object.
 * Pointers documented as never NULL are the caller's contract; an object
 * is used by one thread at a time, and a result by any number (it does
 * not change but by xmlsniff_result_set_fix).
 */
#ifndef XMLSNIFF_H
#define XMLSNIFF_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The library is built with hidden symbols: what this header declares
 * is what it exports (and its version script, libxmlsniff.map). */
#if defined(__GNUC__) && __GNUC__ >= 4
#pragma GCC visibility push(default)
#endif

/* The version of this header; xmlsniff_version() is the library's.  make
 * writes the three numbers from the Makefile's VERSION. */
#define XMLSNIFF_VERSION_MAJOR	1
#define XMLSNIFF_VERSION_MINOR	1
#define XMLSNIFF_VERSION_PATCH	0
#define XMLSNIFF_STRINGIFY_(x)	#x
#define XMLSNIFF_VERSION_STR_(a, b, c)	XMLSNIFF_STRINGIFY_(a) "." \
	XMLSNIFF_STRINGIFY_(b) "." XMLSNIFF_STRINGIFY_(c)
#define XMLSNIFF_VERSION_STRING	XMLSNIFF_VERSION_STR_(XMLSNIFF_VERSION_MAJOR, \
	XMLSNIFF_VERSION_MINOR, XMLSNIFF_VERSION_PATCH)
#define XMLSNIFF_VERSION_NUMBER	(XMLSNIFF_VERSION_MAJOR * 10000 + \
	XMLSNIFF_VERSION_MINOR * 100 + XMLSNIFF_VERSION_PATCH)

const char	*xmlsniff_version(void);
int		 xmlsniff_version_number(void);

enum xmlsniff_status {
	XMLSNIFF_OK = 0,
	XMLSNIFF_ERR_ARGUMENT,	/* an unknown option, a bad value */
	XMLSNIFF_ERR_MEMORY,	/* out of memory */
	XMLSNIFF_ERR_READ,	/* the descriptor could not be read */
	XMLSNIFF_ERR_STATE,	/* out of order: a feed after finish */
	XMLSNIFF_ERR_ENCODING,	/* a target this system cannot write */
	XMLSNIFF_ERR_REFUSED,	/* no faithful transcode of this input */
	XMLSNIFF_ERR_WRITE,	/* the caller's writer failed */
	XMLSNIFF_ERR_MARKER	/* the input's own policy marker is bad */
};

/* "ok", "argument", "memory", "read", "state", "encoding", "refused",
 * "write", "marker"; NULL for any other value. */
const char	*xmlsniff_status_name(int);

/*
 * The one-time choices of the process, made by the first object made (or
 * here): which kernels run, from the environment variable XMLSNIFF_SIMD
 * (xmlsniff(1)).  XMLSNIFF_ERR_ARGUMENT, with the message in err (may be
 * NULL), when it names none: the fastest run then.
 */
int		 xmlsniff_init(char *, size_t);

/*
 * What this build and system have, by name: "kernels" (the instruction
 * set in use), "guess" (what ranks the guesses of the real encoding),
 * "http-codings" (the content codings --http decodes).  NULL for another
 * name.  The strings live as long as the process.
 */
const char	*xmlsniff_about(const char *);

/* The registered encodings this system's iconv knows, by index from 0
 * (--list-encodings); NULL past the last. */
const char	*xmlsniff_encoding(size_t);

/*
 * The diagnostic codes (xmlsniff(1), DIAGNOSTICS), by index from 0 in the
 * manual's order; NULL past the last.  xmlsniff_code_info gives one field
 * of code: "severity" (its default, "error" or "warning"), "summary",
 * "description", "clause", "example", "fix"; NULL for an unknown code or
 * field.  xmlsniff_code_suggest: the code nearest to a name that is none,
 * or NULL.
 */
const char	*xmlsniff_code(size_t);
const char	*xmlsniff_code_info(const char *, const char *);
const char	*xmlsniff_code_suggest(const char *);

/*
 * The record's escapes, for a caller that writes its own lines around
 * it: s into buf (size bytes, NUL-terminated when size > 0), returning
 * the length it needs, as snprintf does.  XMLSNIFF_ESCAPE_NAME: control
 * characters, backslash and bytes that are not UTF-8 as C escapes, so
 * that any name reads back unambiguously; _QUOTED: the double quote too;
 * _JSON: a JSON string in its quotes, a byte that is not UTF-8 as \udcXX.
 */
#define XMLSNIFF_ESCAPE_NAME	0
#define XMLSNIFF_ESCAPE_QUOTED	1
#define XMLSNIFF_ESCAPE_JSON	2
size_t		 xmlsniff_escape(char *, size_t, const char *, int);

/* The name of names (n of them) nearest to word by edit distance, as
 * the messages' "did you mean" finds it; NULL when none is near. */
const char	*xmlsniff_nearest(const char *, const char *const *, size_t);

typedef struct xmlsniff_options		xmlsniff_options;
typedef struct xmlsniff_checker		xmlsniff_checker;
typedef struct xmlsniff_result		xmlsniff_result;
typedef struct xmlsniff_diagnostic	xmlsniff_diagnostic;
typedef struct xmlsniff_transcoder	xmlsniff_transcoder;

/*
 * Options: every setting of the command line that changes the analysis or
 * a transcode, by its long option's name and value as xmlsniff(1) spells
 * them: "content-type", "encoding", "default-encoding", "browser",
 * "error", "ignore", "allow-encoding", "all", "max-errors", "excerpt"
 * and "color" ("always" or "never": excerpts are part of each
 * diagnostic), "http", "strict", "fix", "dry-run", and the transcoding
 * ones: "transcode-to", "fallback", "utf8-bom", "byte-order".  A flag
 * takes "yes" or "no".  The library's own: "guess" (look for the real
 * encoding of an entity whose bytes refute its label; yes), "marker"
 * (read an input's own <!-- xmlsniff: ... --> marker; yes),
 * "config-error", "config-ignore", "config-allow-encoding" (a layer of
 * the policy below the marker, as .xmlsniffrc's), "mmap" (map a big
 * regular file instead of reading it, and mend its pages with a SIGBUS
 * handler should it shrink; no: page faults cost more than the copy of
 * a read on some machines), "lookahead" (a second thread reads a
 * regular file of 5 MiB or more ahead, or searches a mapped file
 * ahead; yes).  A bad name or value is XMLSNIFF_ERR_ARGUMENT, with
 * xmlsniff_options_error() saying why as the command line does, and
 * changes nothing.  Set them all before the options are shared: checkers
 * only read them, and they must outlive every checker, transcoder and
 * result made from them.
 */
xmlsniff_options *xmlsniff_options_new(void);
xmlsniff_options *xmlsniff_options_copy(const xmlsniff_options *);
int		 xmlsniff_options_set(xmlsniff_options *, const char *,
		    const char *);
const char	*xmlsniff_options_error(const xmlsniff_options *);
void		 xmlsniff_options_free(xmlsniff_options *);

/*
 * The checker: one entity, fed in pieces of any size, then finished; any
 * split gives the result one buffer gives.  name (may be NULL; "-" is no
 * name) is what the guess's note calls the input and what the role is
 * guessed from (".dtd", ".ent": an external entity).  After finish, or
 * after a feed that failed, every feed is XMLSNIFF_ERR_STATE; reset makes
 * it ready for another entity, with options (never NULL), keeping its
 * buffers and decoders.
 */
xmlsniff_checker *xmlsniff_checker_new(const xmlsniff_options *,
		    const char *);
int		 xmlsniff_checker_feed(xmlsniff_checker *, const void *,
		    size_t);
int		 xmlsniff_checker_finish(xmlsniff_checker *,
		    xmlsniff_result **);
int		 xmlsniff_checker_reset(xmlsniff_checker *,
		    const xmlsniff_options *, const char *);
const char	*xmlsniff_checker_error(const xmlsniff_checker *);
void		 xmlsniff_checker_free(xmlsniff_checker *);

/*
 * A descriptor read to its end through a checker or a transcoder, as the
 * only input (then finish).  size: XMLSNIFF_SIZE_ASK, and a regular file
 * (fstat(2) says) is read from its start, mapped when big, and read again
 * for positions, excerpts and guesses; anything else is read once, as a
 * pipe, as with XMLSNIFF_SIZE_STREAM; a size of 0 or more says that the
 * descriptor is a regular file of that size, read from its start (no
 * call is spent on asking).  A read that fails is XMLSNIFF_ERR_READ (a
 * directory, a closed descriptor).
 */
#define XMLSNIFF_SIZE_ASK	(-1)
#define XMLSNIFF_SIZE_STREAM	(-2)
int		 xmlsniff_checker_read(xmlsniff_checker *, int, int64_t);

/*
 * One call: a buffer, or a descriptor read to its end (as
 * xmlsniff_checker_read; its offset is left where reading stopped).  err
 * (may be NULL) receives the message of a status other than XMLSNIFF_OK,
 * cut to errlen bytes.  The options keep a checker for these calls, taken
 * by one thread at a time (another makes its own): a run of calls makes
 * it once.  The answer is the same either way.
 */
int		 xmlsniff_check_buffer(const xmlsniff_options *, const char *,
		    const void *, size_t, xmlsniff_result **, char *, size_t);
int		 xmlsniff_check_fd(const xmlsniff_options *, const char *, int,
		    xmlsniff_result **, char *, size_t);

/*
 * The result: the members of xmlsniff(1)'s --json record.  A string
 * member that the record has as null is NULL here; the strings live as
 * long as the result.
 */
/* The record itself: the --json line less "file" and the newline. */
const char	*xmlsniff_result_json(const xmlsniff_result *);
/* The text of xmlsniff(1)'s per-input line after "NAME: ". */
const char	*xmlsniff_result_summary(const xmlsniff_result *);
const char	*xmlsniff_result_encoding(const xmlsniff_result *);
const char	*xmlsniff_result_source(const xmlsniff_result *);
const char	*xmlsniff_result_bom(const xmlsniff_result *);
const char	*xmlsniff_result_charset(const xmlsniff_result *);
/* The Content-Type to serve it with (-i), and its charset label alone
 * (--mime-encoding; NULL: none is reliably known). */
const char	*xmlsniff_result_mime(const xmlsniff_result *);
const char	*xmlsniff_result_mime_encoding(const xmlsniff_result *);
const char	*xmlsniff_result_browser(const xmlsniff_result *);
/* The declaration: its kind ("xml" or "text"), NULL when there is none. */
const char	*xmlsniff_result_decl_kind(const xmlsniff_result *);
const char	*xmlsniff_result_decl_version(const xmlsniff_result *);
const char	*xmlsniff_result_decl_encoding(const xmlsniff_result *);
const char	*xmlsniff_result_decl_standalone(const xmlsniff_result *);
/* --http: the last response's status (-1: none, or not a response),
 * its one Content-Type and its content coding. */
int		 xmlsniff_result_http_status(const xmlsniff_result *);
const char	*xmlsniff_result_http_content_type(const xmlsniff_result *);
const char	*xmlsniff_result_http_content_encoding(
		    const xmlsniff_result *);
/* The guess: what the entity is really in, a sample so read, and the
 * note the text report prints. */
const char	*xmlsniff_result_guess_encoding(const xmlsniff_result *);
const char	*xmlsniff_result_guess_sample(const xmlsniff_result *);
const char	*xmlsniff_result_guess_note(const xmlsniff_result *);
uint64_t	 xmlsniff_result_errors(const xmlsniff_result *);
uint64_t	 xmlsniff_result_warnings(const xmlsniff_result *);
/* Occurrences not listed ("all"): -1 when the record has no "unlisted";
 * and the note that says so, or NULL. */
int64_t		 xmlsniff_result_unlisted(const xmlsniff_result *);
const char	*xmlsniff_result_unlisted_note(const xmlsniff_result *);
/* Whether the entity is XML at all (not-xml says why not); whether its
 * bytes were looked at (not a --http body with a coding not decoded). */
int		 xmlsniff_result_is_xml(const xmlsniff_result *);
int		 xmlsniff_result_examined(const xmlsniff_result *);
/* The severity ("error", "warning") of code under the input's policy,
 * or under the options' alone; NULL for an unknown code. */
const char	*xmlsniff_result_severity(const xmlsniff_result *,
		    const char *);
const char	*xmlsniff_options_severity(const xmlsniff_options *,
		    const char *);
/* The offset of its content: past the BOM and the declaration. */
uint64_t	 xmlsniff_result_content_offset(const xmlsniff_result *);
void		 xmlsniff_result_free(xmlsniff_result *);

/* The diagnostics, in the record's order (each code once, its count the
 * code's); each lives as its result. */
size_t		 xmlsniff_result_ndiagnostics(const xmlsniff_result *);
const xmlsniff_diagnostic *xmlsniff_result_diagnostic(
		    const xmlsniff_result *, size_t);
/* The lines of the text report, in its order: each code's first, and
 * with "all" each further occurrence listed (count 0). */
size_t		 xmlsniff_result_nlines(const xmlsniff_result *);
const xmlsniff_diagnostic *xmlsniff_result_line(const xmlsniff_result *,
		    size_t);
const char	*xmlsniff_diagnostic_severity(const xmlsniff_diagnostic *);
const char	*xmlsniff_diagnostic_code(const xmlsniff_diagnostic *);
uint64_t	 xmlsniff_diagnostic_offset(const xmlsniff_diagnostic *);
uint64_t	 xmlsniff_diagnostic_line(const xmlsniff_diagnostic *);
uint64_t	 xmlsniff_diagnostic_column(const xmlsniff_diagnostic *);
uint64_t	 xmlsniff_diagnostic_count(const xmlsniff_diagnostic *);
const char	*xmlsniff_diagnostic_message(const xmlsniff_diagnostic *);
/* With "excerpt": the line, a caret and the bytes under it, three lines
 * each ended by a newline, or NULL. */
const char	*xmlsniff_diagnostic_excerpt(const xmlsniff_diagnostic *);
/* "all": each occurrence listed, the first included. */
size_t		 xmlsniff_diagnostic_noccurrences(const xmlsniff_diagnostic *);
const xmlsniff_diagnostic *xmlsniff_diagnostic_occurrence(
		    const xmlsniff_diagnostic *, size_t);

/*
 * --fix ("fix"): the record's "fix" member.  The action is NULL without
 * "fix", else "unchanged" (nothing to change), "refused" (the reason
 * says why), or "would-write" for the rewrite still to be done, which
 * xmlsniff_transcoder_fix() carries out.  Whoever writes the file says
 * what came of it ("written", "would-write", "unchanged", "refused",
 * "failed", with a reason or NULL), for the record and the summary;
 * --in-place's outcome is said the same way on a transcoder's result.
 */
const char	*xmlsniff_result_fix_action(const xmlsniff_result *);
const char	*xmlsniff_result_fix_reason(const xmlsniff_result *);
size_t		 xmlsniff_result_fix_nchanges(const xmlsniff_result *);
const char	*xmlsniff_result_fix_change(const xmlsniff_result *, size_t);
int		 xmlsniff_result_fix_keeps_content(const xmlsniff_result *);
int		 xmlsniff_result_set_fix(xmlsniff_result *, const char *,
		    const char *);

/*
 * The transcoder: the entity re-encoded in the target encoding (NULL:
 * the options' "transcode-to") with the BOM and declaration RFC 7303
 * section 3.3 and XML 1.0 section 4.3.3 require, written through write,
 * which returns 0, or anything else to stop with XMLSNIFF_ERR_WRITE.
 * write is called first with no bytes (NULL, 0) when the transcode
 * begins, once the input's head passed the transcoder's checks: where
 * the caller opens its destination, or refuses for its own reasons.
 * Whatever was written before a failure is to be thrown away by the
 * caller.  A refusal (a faithful transcode cannot be done) is
 * XMLSNIFF_ERR_REFUSED, its reason the message, which
 * xmlsniff_transcoder_reported() says a diagnostic of the result already
 * gives.  A target this system cannot write is reported by the first feed
 * or by finish.  The result of finish is the analysis the transcode made.
 */
typedef int	(*xmlsniff_write_fn)(void *, const void *, size_t);
xmlsniff_transcoder *xmlsniff_transcoder_new(const xmlsniff_options *,
		    const char *, const char *, xmlsniff_write_fn, void *);
/* The rewrite a checker's result planned ("fix": "would-write"), of the
 * same entity fed again from its start. */
xmlsniff_transcoder *xmlsniff_transcoder_fix(const xmlsniff_options *,
		    const xmlsniff_result *, const char *, xmlsniff_write_fn,
		    void *);
int		 xmlsniff_transcoder_feed(xmlsniff_transcoder *, const void *,
		    size_t);
int		 xmlsniff_transcoder_read(xmlsniff_transcoder *, int,
		    int64_t);
int		 xmlsniff_transcoder_finish(xmlsniff_transcoder *,
		    xmlsniff_result **);
const char	*xmlsniff_transcoder_error(const xmlsniff_transcoder *);
int		 xmlsniff_transcoder_reported(const xmlsniff_transcoder *);
void		 xmlsniff_transcoder_free(xmlsniff_transcoder *);

#if defined(__GNUC__) && __GNUC__ >= 4
#pragma GCC visibility pop
#endif

#ifdef __cplusplus
}
#endif

#endif
