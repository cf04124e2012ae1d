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
 * Pointers documented as never NULL are the caller's contract.
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
	XMLSNIFF_ERR_WRITE	/* the caller's writer failed */
};

/* "ok", "argument", "memory", "read", "state", "encoding", "refused",
 * "write"; NULL for any other value. */
const char	*xmlsniff_status_name(int);

typedef struct xmlsniff_options		xmlsniff_options;
typedef struct xmlsniff_checker		xmlsniff_checker;
typedef struct xmlsniff_result		xmlsniff_result;
typedef struct xmlsniff_diagnostic	xmlsniff_diagnostic;
typedef struct xmlsniff_transcoder	xmlsniff_transcoder;

/*
 * Options: every setting of the command line that changes the analysis,
 * by its long option's name and value as xmlsniff(1) spells them
 * ("content-type", "encoding", "default-encoding", "browser", "error",
 * "ignore", "allow-encoding", "all", "max-errors", "http", ... and the
 * transcoding ones: "fallback", "utf8-bom", "byte-order"); a flag takes
 * "yes" or "no".  A bad name or value is XMLSNIFF_ERR_ARGUMENT, with
 * xmlsniff_options_error() saying why, and changes nothing.  Set them
 * all before the options are shared: checkers only read them.
 */
xmlsniff_options *xmlsniff_options_new(void);
xmlsniff_options *xmlsniff_options_copy(const xmlsniff_options *);
int		 xmlsniff_options_set(xmlsniff_options *, const char *,
		    const char *);
const char	*xmlsniff_options_error(const xmlsniff_options *);
void		 xmlsniff_options_free(xmlsniff_options *);

/*
 * The checker: one entity, fed in pieces of any size, then finished.
 * name (may be NULL) is what diagnostics call the input and what the
 * role is guessed from (".dtd", ".ent": an external entity).  The
 * options must outlive the checker.  After finish, or after a feed
 * that failed, every feed is XMLSNIFF_ERR_STATE.
 */
xmlsniff_checker *xmlsniff_checker_new(const xmlsniff_options *,
		    const char *);
int		 xmlsniff_checker_feed(xmlsniff_checker *, const void *,
		    size_t);
int		 xmlsniff_checker_finish(xmlsniff_checker *,
		    xmlsniff_result **);
const char	*xmlsniff_checker_error(const xmlsniff_checker *);
void		 xmlsniff_checker_free(xmlsniff_checker *);

/*
 * One call: a buffer, or a descriptor read to its end (its offset is
 * left where reading stopped).  err (may be NULL) receives the message
 * of a status other than XMLSNIFF_OK, cut to errlen bytes.
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
const char	*xmlsniff_result_json(const xmlsniff_result *);
const char	*xmlsniff_result_encoding(const xmlsniff_result *);
const char	*xmlsniff_result_source(const xmlsniff_result *);
const char	*xmlsniff_result_bom(const xmlsniff_result *);
const char	*xmlsniff_result_charset(const xmlsniff_result *);
const char	*xmlsniff_result_mime(const xmlsniff_result *);
const char	*xmlsniff_result_browser(const xmlsniff_result *);
/* The declaration: its kind ("xml" or "text"), NULL when there is none. */
const char	*xmlsniff_result_decl_kind(const xmlsniff_result *);
const char	*xmlsniff_result_decl_version(const xmlsniff_result *);
const char	*xmlsniff_result_decl_encoding(const xmlsniff_result *);
const char	*xmlsniff_result_decl_standalone(const xmlsniff_result *);
/* The guess: what the entity is really in, and a sample so read. */
const char	*xmlsniff_result_guess_encoding(const xmlsniff_result *);
const char	*xmlsniff_result_guess_sample(const xmlsniff_result *);
uint64_t	 xmlsniff_result_errors(const xmlsniff_result *);
uint64_t	 xmlsniff_result_warnings(const xmlsniff_result *);
/* Occurrences not listed ("all"): -1 when the record has no "unlisted". */
int64_t		 xmlsniff_result_unlisted(const xmlsniff_result *);
/* The text of xmlsniff(1)'s per-input line after "NAME: ". */
const char	*xmlsniff_result_summary(const xmlsniff_result *);
void		 xmlsniff_result_free(xmlsniff_result *);

/* The diagnostics, in the record's order; each lives as its result. */
size_t		 xmlsniff_result_ndiagnostics(const xmlsniff_result *);
const xmlsniff_diagnostic *xmlsniff_result_diagnostic(
		    const xmlsniff_result *, size_t);
const char	*xmlsniff_diagnostic_severity(const xmlsniff_diagnostic *);
const char	*xmlsniff_diagnostic_code(const xmlsniff_diagnostic *);
uint64_t	 xmlsniff_diagnostic_offset(const xmlsniff_diagnostic *);
uint64_t	 xmlsniff_diagnostic_line(const xmlsniff_diagnostic *);
uint64_t	 xmlsniff_diagnostic_column(const xmlsniff_diagnostic *);
uint64_t	 xmlsniff_diagnostic_count(const xmlsniff_diagnostic *);
const char	*xmlsniff_diagnostic_message(const xmlsniff_diagnostic *);
/* The line, a caret and the bytes under it ("excerpt"), or NULL. */
const char	*xmlsniff_diagnostic_excerpt(const xmlsniff_diagnostic *);
/* "all": each occurrence listed, as a diagnostic of count 1. */
size_t		 xmlsniff_diagnostic_noccurrences(const xmlsniff_diagnostic *);
const xmlsniff_diagnostic *xmlsniff_diagnostic_occurrence(
		    const xmlsniff_diagnostic *, size_t);

/*
 * The transcoder: the entity re-encoded in the target encoding with the
 * BOM and declaration RFC 7303 section 3.3 and XML 1.0 section 4.3.3
 * require, written through write (which returns 0, or anything else to
 * stop with XMLSNIFF_ERR_WRITE).  Whatever was written before a failure
 * is to be thrown away by the caller.  A target this system cannot
 * write is reported by the first feed or by finish.
 */
typedef int	(*xmlsniff_write_fn)(void *, const void *, size_t);
xmlsniff_transcoder *xmlsniff_transcoder_new(const xmlsniff_options *,
		    const char *, const char *, xmlsniff_write_fn, void *);
int		 xmlsniff_transcoder_feed(xmlsniff_transcoder *, const void *,
		    size_t);
int		 xmlsniff_transcoder_finish(xmlsniff_transcoder *,
		    xmlsniff_result **);
const char	*xmlsniff_transcoder_error(const xmlsniff_transcoder *);
void		 xmlsniff_transcoder_free(xmlsniff_transcoder *);

#if defined(__GNUC__) && __GNUC__ >= 4
#pragma GCC visibility pop
#endif

#ifdef __cplusplus
}
#endif

#endif
