/*
 * The core: which encoding an entity is in and why, over a buffer in
 * memory (bom.c, enc.c, iconvcap.c, decl.c, mt.c, diag.c, sniff.c).  What
 * the unit driver and the fuzz targets use, and the interface a library
 * would have.  Below it is only the text layer, utf.h.
 */
#ifndef CORE_H
#define CORE_H

#include <iconv.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "suggest.h"
#include "utf.h"

/* Bytes read from the start of an input before it is sniffed. */
#define HEAD_MAX	(256 * 1024)
/* Longest declaration read, in characters (a longer one is malformed). */
#define DECL_MAX	(16 * 1024)

#define SB_BAD	0xFFFFFFFFu	/* a byte a single-byte encoding lacks */

struct fixres;
struct http;
struct guess;

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
struct enc;
int		 bom_allows(enum bom, const struct enc *);
int		 pat_allows(enum pat, const struct enc *);
enum pat	 pat_of_bom(enum bom);
const char	*pat_encoding(enum pat);
const char	*pat_zeros(const unsigned char *, size_t);
int		 pat_reads_clean(const unsigned char *, size_t, enum unit);
int		 pat_markup(const unsigned char *, size_t, enum unit);

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
	char		 given[64];	/* the label as given, when in the table */
	enum family	 family;
	int		 registered;	/* the label is in the IANA registry */
	int		 known;		/* registry or iconv knows it */
};

int		 enc_lookup(const char *, struct enc *);
const char	*enc_iconv(const struct enc *);
const char	*enc_report_name(const struct enc *);
const char	*enc_known(size_t);
const char	*enc_family_name(enum family);
int		 enc_is_utf16(enum family);
int		 enc_is_utf32(enum family);
int		 enc_is_16(enum family);
int		 enc_is_32(enum family);
int		 enc_order_free_16(const struct enc *);
int		 enc_order_free_32(const struct enc *);
int		 enc_compatible(const struct enc *, const struct enc *);
int		 enc_same(const struct enc *, const struct enc *);
void		 enc_lower(char *, const char *, size_t);

/* memo.c: answers kept for the process, each found once */

#define MEMO_SLOTS	64
struct memo_ent;
struct memo {
	_Atomic(struct memo_ent *) e[MEMO_SLOTS];
};

int		 memo_get(struct memo *, const char *, int *);
void		 memo_put(struct memo *, const char *, int);
int		 memo_pair(char *, size_t, const char *, const char *);

/* iconvcap.c: what this system's iconv can do (iconvcap.h has the
 * probes of a transcoding target) */

int		 enc_iconv_ok(const char *);
const char	*enc_u32le(void);
iconv_t		 iconv_open_held(const char *, const char *);
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
void		 decl_read_ref(const unsigned char *, size_t, size_t, enum unit,
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
int		 mt_fits(const struct mt *, enum role);

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
	D_HTTP_MALFORMED,
	D_HTTP_NO_CONTENT_TYPE,
	D_HTTP_CONTENT_TYPE,
	D_HTTP_ENCODED,
	D_BROWSER_DIFFERS,
	D_MOJIBAKE,
	D_NOT_XML,
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

/* --all: a further occurrence of a code, past its first (which is d[]). */
struct occ {
	enum code	 code;
	uint64_t	 off;
	uint64_t	 line;
	uint64_t	 col;
	char		 msg[400];
};

/*
 * The policy one input is reported under (xmlsniff(1), PER-FILE POLICY):
 * which codes are ignored or errors, which encodings it may be in, and
 * how many lines --all lists.  Whoever analyses the input lays its
 * layers over each other (the options, the input's own marker, the
 * configuration) and points its diags at the result.
 */
#define ALLOW_MAX	64
/* More than the longest name enc_lookup() knows (its key), so that
 * ALLOW_MAX names always fit the pool. */
#define ALLOW_NAME	128
struct allowset {
	int		 n;
	unsigned short	 at[ALLOW_MAX];	/* where each name begins in pool */
	size_t		 used;		/* of pool */
	/* the canonical names, each ended by a NUL: names only, not whole
	 * struct encs (400 bytes each), since the options hold two sets
	 * and every process makes and copies its options at the start,
	 * writing each of their pages for the first time */
	char		 pool[ALLOW_MAX * ALLOW_NAME];
};
#define ALLOW_NAME_AT(as, k)	((as)->pool + (as)->at[k])

/* The bits of a code in a layer of the policy (diag_policy). */
#define DP_IGNORE	1
#define DP_ERROR	2

struct dpolicy {
	unsigned char	 code[D_NCODES];	/* DP_IGNORE, DP_ERROR; ignoring
						 * wins when both */
	const struct allowset *allow;	/* NULL or empty: any encoding */
	size_t		 keep;		/* --all: lines listed an input at
					 * most; 0: the first of each code */
	int		 keep_asked;	/* keep is --max-errors's, not --all's
					 * default */
};

struct diags {
	const struct dpolicy *pol;	/* NULL: none (nothing ignored) */
	uint32_t	 present;	/* bit c: d[c].count is above 0 (set
					 * with the first, by diag_add) */
	struct diag	 d[D_NCODES];
	uint64_t	 nseq;
	int		 errors;
	int		 warnings;
	/* --all: the further occurrences listed, by offset; those past
	 * the cap are only counted in unlisted (diag_free ends the list). */
	struct occ	*occ;
	size_t		 nocc;
	size_t		 occcap;
	uint64_t	 unlisted;
};

/* --all without --max-errors: occurrences listed per input. */
#define DIAG_ALL_MAX	1000
/* The largest --max-errors. */
#define DIAG_MAX_MAX	100000

/* One diagnostic line as the reports list it (diag_next). */
struct dent {
	enum code	 code;
	uint64_t	 off;
	uint64_t	 line;
	uint64_t	 col;
	uint64_t	 count;		/* the code's count on its first line;
					 * 0 on the others */
	const char	*msg;
};

struct diter {
	const struct diags *dg;
	enum code	 order[D_NCODES];
	int		 n, i;
	size_t		 j;
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
int		 diag_is_error(const struct diags *, enum code);
int		 diag_error_in(const struct dpolicy *, enum code);
int		 diag_error_of(const unsigned char *, enum code);
int		 diag_ignored(const struct diags *, enum code);
int		 diag_lookup(const char *);
const char	*diag_suggest(const char *);
int		 diag_policy(const char *, unsigned char *, int, char *,
		    size_t);
const struct code_info *diag_info(enum code);
void		 diag_add(struct diags *, enum code, uint64_t, uint64_t,
		    uint64_t, const char *, ...)
		    __attribute__((format(printf, 6, 7)));
int		 diag_order(const struct diags *, enum code *);
void		 diag_repeat(struct diags *, enum code, uint64_t);
size_t		 diag_listing(const struct diags *);
int		 diag_wants(const struct diags *, enum code);
void		 diag_free(struct diags *);
void		 diag_clear(struct diags *);
void		 diag_cut_note(const struct diags *, char *, size_t);
void		 diag_iter(struct diter *, const struct diags *);
int		 diag_next(struct diter *, struct dent *);

/* policy.c: --allow-encoding */

int		 policy_allow(struct allowset *, const char *, char *, size_t);
int		 policy_active(const struct dpolicy *);
const char	*policy_first(const struct dpolicy *);
int		 policy_allows_name(const struct dpolicy *, const char *);

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
/*
 * A form characters are decoded from or written in: the Unicode encoding
 * forms in their byte orders, the bytes of a single-byte encoding (through
 * its byte map), or any other encoding, through iconv.  sniff() says which
 * one an entity is read in (struct sniff, dec); the kernels' runs and the
 * transcoder's targets (struct xopts, kind) are named by it too.
 */
enum form {
	FORM_NONE,	/* cannot be decoded */
	FORM_UTF8,	/* runs: also ASCII runs of single-byte encodings */
	FORM_UTF16BE,
	FORM_UTF16LE,
	FORM_UTF32BE,
	FORM_UTF32LE,
	FORM_SB,	/* runs only: bytes of a single-byte encoding */
	FORM_ICONV
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
	enum form	 dec;
	char		 dec_iconv[64];	/* iconv name for FORM_ICONV */
	int		 xml11;
	int		 ws_lead;	/* the head is white space only, so a late
					 * "<?xml" may come after it */
	enum role	 role;
	int		 doubt;		/* the bytes refute the BOM: nothing is
					 * transcoded */
	struct diags	 dg;
	const struct fixres *fix;	/* --fix, --in-place: what was done */
	const struct http *http;	/* --http: the response's head */
	const struct guess *guess;	/* what it is really in, or NULL */
	const char	*browser;	/* --browser: what a browser reads it
					 * as, or NULL */
	int		 not_xml;	/* not XML at all (notxml.c) */
	int		 clean;		/* as sniff_clear left it: sniff_set
					 * need not clear it again */
};

/* What sniff_set() is told besides the bytes and the name. */
struct sset {
	const struct mt	*mt;		/* the Content-Type, or NULL */
	const struct enc *dflt;		/* --default-encoding, or NULL: UTF-8 */
	const struct dpolicy *pol;	/* the input's policy, or NULL */
};

int		 sniff_odd_order(const struct sniff *);
void		 sniff(const unsigned char *, size_t, int, const struct mt *,
		    const char *, struct sniff *);
void		 sniff_set(const unsigned char *, size_t, int,
		    const struct sset *, const char *, struct sniff *);
void		 sniff_clear(struct sniff *);
const char	*source_name(enum source);
int		 policy_allows(const struct sniff *);
void		 policy_check(struct sniff *);

/* notxml.c */

void		 sniff_not_xml(const unsigned char *, size_t, int,
		    struct sniff *);

#endif
