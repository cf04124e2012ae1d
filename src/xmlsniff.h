/*
 * xmlsniff: the encoding of XML entities.
 *
 * Data flow: bytes -> sniff (bom.c, decl.c, enc.c, mt.c, sniff.c) ->
 * validate (validate.c) -> report (report.c) or transcode (transcode.c,
 * with target.h, xmllex.h, iconvcap.h, xc.h, iconvout.h and dest.h).
 * Everything but main.c and the transcode's destination (dest.c) works on
 * memory only.  doc/DESIGN.md has the map.
 * Below them all is the text layer (utf.c), which uses no other part.
 */
#ifndef XMLSNIFF_H
#define XMLSNIFF_H

#include <iconv.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* utf.c: decoders, the UTF-8 encoder, XML Char, lines and columns. */
#include "utf.h"

#define XMLSNIFF_VERSION "1.0.0"

/* Bytes read from the start of an input before it is sniffed. */
#define HEAD_MAX	(256 * 1024)
/* Longest declaration read, in characters (a longer one is malformed). */
#define DECL_MAX	(16 * 1024)

/* input.c: the input buffer.  Reads land page-aligned at mem + IN_PAD
 * (unaligned copies from the page cache are many times slower on some
 * CPUs); bytes carried over from the last read go just before them. */

#define IN_PAD		4096
#define IN_SIZE		(HEAD_MAX + 64 * 1024)

struct inbuf {
	int		 fd;
	unsigned char	*mem;		/* IN_PAD + IN_SIZE bytes, page-aligned */
	unsigned char	*p;		/* the bytes not yet used */
	size_t		 n;
	int		 eof;		/* p[0..n) runs to the end of input */
	long long	 size;		/* a regular file's size, else -1 */
	int		 trust_size;	/* stop reading at size (no read to see
					 * the end); never when transcoding */
	long long	 got;		/* bytes read so far */
};

int		 in_refill(struct inbuf *, size_t);

/* simd/select.c: the kernels for a run (XMLSNIFF_SIMD, see the man page) */

enum simd {
	SIMD_REF,	/* a character at a time */
	SIMD_NONE,	/* portable, a word at a time */
	SIMD_SSE2,
	SIMD_AVX2,
	SIMD_NEON
};

int		 simd_init(const char *);
void		 simd_set(enum simd);
enum simd	 simd_level(void);
const char	*simd_name(enum simd);

/* bom.c */

enum bom {
	BOM_NONE,
	BOM_UTF8,
	BOM_UTF16BE,
	BOM_UTF16LE,
	BOM_UTF32BE,
	BOM_UTF32LE,
	BOM_UCS4_2143,
	BOM_UCS4_3412
};

/* Byte patterns of XML Appendix F, for entities without a BOM. */
enum pat {
	PAT_UNKNOWN,
	PAT_32BE,
	PAT_32LE,
	PAT_32_2143,
	PAT_32_3412,
	PAT_16BE,
	PAT_16LE,
	PAT_ASCII,
	PAT_EBCDIC
};

/* How the characters of a declaration are laid out in bytes. */
enum unit {
	UNIT_8,
	UNIT_16BE,
	UNIT_16LE,
	UNIT_32BE,
	UNIT_32LE,
	UNIT_32_2143,
	UNIT_32_3412,
	UNIT_EBCDIC
};

enum bom	 bom_sniff(const unsigned char *, size_t, size_t *);
const char	*bom_name(enum bom);
enum pat	 pat_sniff(const unsigned char *, size_t);
const char	*pat_name(enum pat);
enum unit	 unit_of_bom(enum bom);
enum unit	 unit_of_pat(enum pat);
int		 unit_size(enum unit);
long		 unit_get(enum unit, const unsigned char *, size_t, size_t);

/* enc.c */

enum family {
	ENC_F_UTF8,
	ENC_F_16,	/* UTF-16 or UCS-2, byte order from the BOM */
	ENC_F_16BE,
	ENC_F_16LE,
	ENC_F_32,
	ENC_F_32BE,
	ENC_F_32LE,
	ENC_F_ASCII,	/* "<?xml" is 3C 3F 78 6D 6C */
	ENC_F_EBCDIC,	/* "<?xml" is 4C 6F A7 94 93 */
	ENC_F_OTHER,
	ENC_F_UCS2,	/* ISO-10646-UCS-2: 16-bit, byte order from the BOM
			 * or the pattern, big-endian by default */
	ENC_F_UCS4	/* ISO-10646-UCS-4: the same, 32-bit */
};

struct enc_entry {
	const char	*name;		/* preferred MIME name, else registry name */
	const char	*iconv;		/* the names to try with iconv_open,
					 * each ended by a NUL, the list by an
					 * empty name */
	unsigned char	 family;
};

struct enc_label {
	const char	*label;
	int		 idx;
};

/* The result of looking up an encoding name. */
struct enc {
	char		 name[256];	/* the name to report */
	int		 entry;		/* 1 + its index in the table; 0 if none */
	char		 iconv_only[64]; /* a name only iconv knows, as given */
	enum family	 family;
	int		 registered;	/* the label is in the IANA registry */
	int		 known;		/* registry or iconv knows it */
};

int		 enc_lookup(const char *, struct enc *);
const char	*enc_iconv(const struct enc *);
const char	*enc_family_name(enum family);
int		 enc_is_utf16(enum family);
int		 enc_is_utf32(enum family);
int		 enc_is_16(enum family);
int		 enc_is_32(enum family);
int		 enc_compatible(const struct enc *, const struct enc *);
int		 enc_same(const struct enc *, const struct enc *);
void		 enc_lower(char *, const char *, size_t);

/* iconvcap.c: what this system's iconv can do (iconvcap.h has the
 * probes of a transcoding target) */

int		 enc_iconv_ok(const char *);
const char	*enc_u32le(void);
enum family	 icap_family(const char *);
int		 sb_build(iconv_t, uint32_t *);
int		 icap_stateless(iconv_t);
int		 icap_starts_char(iconv_t, const unsigned char *, size_t);

/* decl.c */

enum role {
	ROLE_DOCUMENT,
	ROLE_ENTITY,	/* external parsed entity: TextDecl grammar */
	ROLE_DTD	/* external subset: TextDecl grammar */
};

struct decl {
	int		 present;	/* "<?xml" at the very start */
	int		 has_version;
	char		 version[16];
	int		 has_encoding;
	char		 encoding[256];	/* the value as written, characters of
					 * 16/32-bit and EBCDIC layouts in
					 * UTF-8 (cut at 255 bytes) */
	int		 enc_ok;	/* the value is a well-formed EncName */
	int		 standalone;	/* -1 absent, 0 no, 1 yes */
	char		 quote;		/* quote around the encoding value */
	/* Byte offsets from the first byte of the input. */
	size_t		 start;		/* of "<?xml" */
	size_t		 end;		/* just past "?>" */
	int		 closed;	/* "?>" was found */
	size_t		 enc_off;	/* of the encoding value */
	size_t		 enc_end;	/* just past the encoding value */
	size_t		 ver_end;	/* just past the version's closing quote */
	/* The first syntax error, if any. */
	int		 bad;
	size_t		 bad_off;
	char		 bad_msg[200];
	int		 upper;		/* "<?XML" or another case */
	/* A declaration found after other content (decl-not-at-start). */
	int		 late;
	size_t		 late_off;
	char		 late_what[40];
	/* A U+FEFF before the root element (bom-in-prolog, documents). */
	int		 feff;
	size_t		 feff_off;
	enum role	 role;
};

void		 decl_read(const unsigned char *, size_t, size_t, enum unit,
		    int, struct decl *);
int		 decl_encname_ok(const char *);

/* mt.c */

struct mt {
	char		 type[128];	/* type/subtype, lower case */
	int		 has_charset;
	char		 charset[128];	/* raw value, unquoted */
	int		 xml;		/* an XML media type (RFC 7303 sections 4, 9) */
	enum role	 role;		/* what the type says the entity is */
	int		 role_known;
};

int		 mt_parse(const char *, struct mt *, char *, size_t);

/* diag.c */

enum code {
	D_DECL_MISMATCH,
	D_BOM_CHARSET_CONFLICT,
	D_BOM_FORBIDDEN,
	D_BOM_MISSING,
	D_BAD_DECLARATION,
	D_DECL_NOT_AT_START,
	D_BOM_IN_PROLOG,
	D_ILLEGAL_SEQUENCE,
	D_ILLEGAL_CHAR,
	D_UNSUPPORTED_ENCODING,
	D_NO_DECLARATION,
	D_UNREPRESENTABLE,
	D_ENCODING_NOT_ALLOWED,
	D_CHARSET_DECL_CONFLICT,
	D_UTF8_BOM,
	D_UTF32,
	D_MISSING_DECL,
	D_UNREGISTERED_NAME,
	D_NOT_XML_MEDIA_TYPE,
	D_SUSPICIOUS_LABEL,
	D_NCODES
};

struct diag {
	uint64_t	 count;		/* 0: not present */
	uint64_t	 off;
	uint64_t	 line;
	uint64_t	 col;
	uint64_t	 seq;		/* order of first occurrence */
	char		 msg[400];
};

struct diags {
	struct diag	 d[D_NCODES];
	uint64_t	 nseq;
	int		 errors;
	int		 warnings;
};

/* What xmlsniff(1) says of a code; the rules of --format=sarif. */
struct code_info {
	const char	*code;
	int		 error;		/* the default severity */
	const char	*summary;	/* one line */
	const char	*full;
	const char	*clause;	/* where the rule comes from */
	const char	*example;	/* a command line that draws it */
	const char	*fix;
};

const char	*diag_code(enum code);
int		 diag_is_error(enum code);
int		 diag_ignored(enum code);
int		 diag_lookup(const char *);
int		 diag_policy(const char *, int, char *, size_t);
const struct code_info *diag_info(enum code);
void		 diag_add(struct diags *, enum code, uint64_t, uint64_t,
		    uint64_t, const char *, ...)
		    __attribute__((format(printf, 6, 7)));
int		 diag_order(const struct diags *, enum code *);

/* sniff.c */

enum source {
	SRC_NONE,
	SRC_BOM,
	SRC_CHARSET,
	SRC_DECLARATION,
	SRC_DEFAULT,
	SRC_SNIFFED
};

/* How the content is decoded for validation and transcoding. */
enum dec {
	DEC_NONE,	/* cannot be decoded */
	DEC_UTF8,
	DEC_UTF16BE,
	DEC_UTF16LE,
	DEC_UTF32BE,
	DEC_UTF32LE,
	DEC_ICONV
};

struct sniff {
	enum bom	 bom;
	size_t		 bomlen;
	enum pat	 pat;
	struct decl	 decl;
	const struct mt	*mt;		/* --content-type, or NULL */
	struct enc	 cs;		/* the charset parameter, if any */
	struct enc	 de;		/* the declared encoding, if any */
	int		 have_enc;	/* enc below means something */
	struct enc	 enc;		/* the encoding the entity is read with */
	char		 encname[256];	/* reported name, byte order included */
	enum source	 source;
	enum dec	 dec;
	char		 dec_iconv[64];	/* iconv name for DEC_ICONV */
	int		 xml11;
	int		 ws_lead;	/* the head is white space only, so a late
					 * "<?xml" may come after it */
	enum role	 role;
	int		 doubt;		/* the bytes refute the BOM: nothing is
					 * transcoded */
	struct diags	 dg;
	const struct fixres *fix;	/* --fix, --in-place: what was done */
};

void		 sniff(const unsigned char *, size_t, int, const struct mt *,
		    const char *, struct sniff *);
const char	*source_name(enum source);

/* late.c: "<?xml" after the start (decl-not-at-start) */

struct late {
	enum unit	 unit;
	size_t		 usz;
	uint64_t	 known[2];	/* declarations already accounted for */
	uint64_t	 pos;		/* absolute offset lexed or searched to */
	int		 st, match;
	long		 quote;
	uint64_t	 lt_off;	/* of the last '<' */
	unsigned char	 lt_byte, q_byte, bang_byte;
	size_t		 lt_at;
	const uint32_t	*map;		/* single-byte: the byte map */
	int		 scan;		/* the bytes of '<', '?', '!' are known */
	int		 decoded;	/* lexed by late_char() only */
	uint64_t	 lt_line, lt_col;	/* of the last '<' (decoded) */
};

void		 late_init(struct late *, const struct sniff *,
		    const uint32_t *);
int		 late_char(struct late *, long, uint64_t, uint64_t,
		    uint64_t);
int		 late_pending(const struct late *);
size_t		 late_next(struct late *, const unsigned char *, size_t,
		    uint64_t, int, int *);

/* validate.c */

struct val;
typedef void	(*val_sink_fn)(void *, uint32_t, uint64_t, uint64_t, uint64_t);
typedef size_t	(*val_run_fn)(void *, const unsigned char *, size_t, int);

enum {
	RUN_UTF8,	/* also ASCII runs of single-byte encodings */
	RUN_UTF16BE,
	RUN_UTF16LE,
	RUN_UTF32LE,
	RUN_UTF32BE,
	RUN_SB,		/* bytes of a single-byte encoding (val_sbmap) */
	RUN_DECODED,	/* a block of decoded characters (UTF-32LE): all
			 * are taken, or none */
	RUN_BLOCKS	/* a question: may characters come in decoded blocks
			 * (RUN_DECODED)?  (1 yes, 0 no) */
};

#define SB_BAD	0xFFFFFFFFu	/* a byte a single-byte encoding lacks */

extern int	 val_char_only;

struct val	*val_new(const struct sniff *, struct diags *);
void		 val_set_sink(struct val *, val_sink_fn, val_run_fn, void *);
const uint32_t	*val_sbmap(const struct val *);
size_t		 val_feed(struct val *, const unsigned char *, size_t, int);
void		 val_free(struct val *);

/* simd/: the kernels (select.c sends each call to the level's table;
 * ref.c, common.c) */

#define CONV_SLACK	64	/* room past the output that may be overwritten */

size_t		 conv_room(int, int, size_t);
size_t		 conv_cut(int, const unsigned char *, size_t, size_t);
size_t		 conv_run(int, int, const unsigned char *, size_t,
		    unsigned char *);
size_t		 conv_find32(const unsigned char *, size_t, uint32_t, uint32_t,
		    uint32_t);

size_t		 plain_utf8(const unsigned char *, size_t, uint64_t *,
		    uint64_t *);
size_t		 plain_utf8_ref(const unsigned char *, size_t, uint64_t *,
		    uint64_t *);
size_t		 plain_utf16(const unsigned char *, size_t, int, uint64_t *,
		    uint64_t *);
size_t		 plain_utf16_ref(const unsigned char *, size_t, int, uint64_t *,
		    uint64_t *);
size_t		 plain_utf32(const unsigned char *, size_t, int, uint64_t *,
		    uint64_t *);
/* The bytes of a single-byte encoding that are plain characters. */
struct plainmap {
	unsigned char	 bits[32];
	unsigned char	 lo[16], hi[16];
};

void		 plain_sb_map(struct plainmap *, const unsigned char *);
size_t		 plain_sb(const unsigned char *, size_t,
		    const struct plainmap *, uint64_t *, uint64_t *);
size_t		 late_find(const struct late *, const unsigned char *, size_t,
		    size_t);

/* report.c */

/* The formats after FMT_JSON are format.c's. */
enum fmt {
	FMT_TEXT,
	FMT_MIME,
	FMT_MIME_ENCODING,
	FMT_JSON,
	FMT_GITHUB,
	FMT_SARIF,
	FMT_GITLAB,
	FMT_CHECKSTYLE
};

void		 report_line(const char *, const struct sniff *, enum fmt, int);
void		 report_diags(const char *, const struct sniff *, enum fmt);
void		 report_failure(const char *, const char *, enum fmt, int);
void		 report_mime(const struct sniff *, char *, size_t);

/* escape.c */

void		 put_escaped(FILE *, const char *, int);
void		 put_name(const char *);
void		 put_name_err(const char *);
char		*report_escaped(const char *);
void		 report_warn(const char *, int, const char *, ...)
		    __attribute__((format(printf, 3, 4)));
void		 report_vwarn(const char *, int, const char *, va_list)
		    __attribute__((format(printf, 3, 0)));
void		 put_json_string(const char *);
void		 json_string(FILE *, const char *);

/* format.c */

int		 format_lookup(const char *, enum fmt *);
void		 format_start(enum fmt);
void		 format_diags(const char *, const struct sniff *, enum fmt);
void		 format_failure(const char *, const char *, enum fmt);
void		 format_end(enum fmt, int);
void		 list_codes(void);
int		 explain_code(const char *);

/* record.c */

FILE		*rec_open(int);
void		 rec_close(FILE *);
void		 rec_batch(int);
int		 rec_flush(void);
int		 rec_error(void);

/* transcode.c (target_resolve: target.c, transcode_signals: dest.c) */

enum fallback {
	FB_ERROR,
	FB_NCR
};

/* How the target is written. */
enum tkind {
	T_UTF8,
	T_UTF16BE,
	T_UTF16LE,
	T_UTF32BE,
	T_UTF32LE,
	T_ICONV
};

struct xopts {
	struct enc	 to;		/* the target */
	enum tkind	 kind;
	int		 bom;		/* RFC 7303 section 3.3: write a BOM */
	int		 need_decl;	/* the output must declare its encoding */
	char		 declname[64];	/* the name the declaration gives */
	char		 iconv[64];	/* iconv name, for T_ICONV */
	enum fallback	 fallback;
	int		 utf8_bom;
	/* --fix (fix.c) */
	int		 keep_decl;	/* keep the declared value as it is */
	int		 same_content;	/* refuse unless the bytes after the
					 * declaration stay the same */
	int		 dry_run;	/* never replace the file */
};

int		 target_resolve(const char *, int, int, struct xopts *, char *,
		    size_t);
int		 transcode(const char *, struct inbuf *, struct sniff *,
		    const struct xopts *, int, const char *, int);
void		 transcode_signals(void);
int		 transcode_changed(void);
const char	*transcode_refusal(void);

/* policy.c */

int		 policy_allow(const char *, char *, size_t);
int		 policy_active(void);
const char	*policy_first(void);
int		 policy_allows(const struct sniff *);
void		 policy_check(struct sniff *);

/* fix.c */

#define FIX_MAX		6

/* What --fix or --in-place did to one file. */
struct fixres {
	const char	*action;	/* written, unchanged, would-write,
					 * refused, failed */
	char		 why[400];	/* refused, failed: the reason */
	int		 nchanges;
	char		 changes[FIX_MAX][160];
};

int		 fix_plan(const struct sniff *, int, struct xopts *,
		    struct fixres *);

/* walk.c */

struct gitset;

/* What -r selects besides git: the --include and --exclude globs. */
struct walkopts {
	const char	**incl;
	size_t		  nincl;
	const char	**excl;
	size_t		  nexcl;
};

int		 walk_xml_name(const char *);
int		 walk_glob(const char *, const char *, int);
int		 walk_wanted(const struct walkopts *, const char *, int);
struct gitset	*walk_git(const char *);
void		 walk_git_free(struct gitset *);
int		 walk_git_has(const struct gitset *, const char *, int);

/* config.c */

struct option;
int		 config_args(int, char **, const struct option *, const char *,
		    char ***);
int		 config_line(int, const char **);

#endif
