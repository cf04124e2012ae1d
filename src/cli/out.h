/*
 * The command line's output primitives, below its formats: each record
 * written whole (record.c), escaped names, JSON strings and the program's
 * own one-line messages (escape.c).
 */
#ifndef OUT_H
#define OUT_H

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>

/* record.c */

FILE		*rec_open(int);
void		 rec_close(FILE *);
void		 rec_batch(int);
int		 rec_flush(void);
int		 rec_error(void);
void		 rec_divert(void (*)(int, const char *, size_t));
void		 rec_put(int, const char *, size_t);
int		 rec_write_all(int, const char *, size_t);

/* How put_text escapes (escape.c). */
enum esc {
	ESC_GH_MSG,	/* a workflow command's message */
	ESC_GH_PROP,	/* a workflow command's property value */
	ESC_XML,	/* an XML 1.0 attribute value in double quotes */
	ESC_MD		/* Markdown text (GFM), in a table cell */
};

/* escape.c */

int		 utf8_char(const unsigned char *, size_t, uint32_t *);
void		 put_escaped(FILE *, const char *, int);
void		 put_name(const char *);
void		 put_name_err(const char *);
void		 report_warn(const char *, int, const char *, ...)
		    __attribute__((format(printf, 3, 4)));
void		 report_vwarn(const char *, int, const char *, va_list)
		    __attribute__((format(printf, 3, 0)));
void		 put_json_string(const char *);
void		 json_string(FILE *, const char *);
void		 put_text(FILE *, const char *, enum esc);
void		 format_uri(FILE *, const char *);

#endif
