/*
 * xmlsniff._core: the C part of the Python binding over libxmlsniff
 * (xmlsniff(3)).  The Python package (__init__.py) turns keywords into
 * options and sources into calls of this module; this module holds the
 * library's objects, releases the GIL while the library works, and turns
 * its statuses into the package's exceptions.
 *
 * Its files stand in layers, each calling only those below it:
 *
 *	_core.c		the module: the one-call checks, and the init that
 *			adds the types
 *	_checker.c	Checker, _result.c ResultBase, _transcode.c
 *			Transcoder: a type each, none calling another
 *	_base.c		what they all use: the Options type, the package's
 *			classes, strings, exceptions, locks, input names
 *
 * Threads: options are built once and then only read (xmlsniff.h allows
 * any number of threads on them); a result is only read; a checker or a
 * transcoder is one object fed by one thread at a time, which a lock of
 * its own enforces, so that two threads sharing one never race in C.
 */
#ifndef XMLSNIFF_PY_BASE_H
#define XMLSNIFF_PY_BASE_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "xmlsniff.h"

typedef struct {
	PyObject_HEAD
	xmlsniff_options	*opts;
	PyObject		*pairs;		/* the (name, value) tuple given */
} OptionsObject;

/* The layout of ResultBase (_result.c) and of the package's Result
 * derived from it, which base_new_result() makes. */
typedef struct {
	PyObject_HEAD
	xmlsniff_result		*res;
	PyObject		*owner;		/* the options it was made with */
} ResultObject;

extern PyTypeObject	OptionsType;

/* Free a result that may be NULL (a failed call may leave none). */
static inline void
free_result(xmlsniff_result *res)
{
	if (res != NULL)
		xmlsniff_result_free(res);
}

void		 base_set_classes(PyTypeObject *, PyObject *);
PyObject	*base_str(const char *);
PyObject	*base_new_result(xmlsniff_result *, PyObject *);
void		 base_raise(int, const char *, xmlsniff_result *, PyObject *);
int		 base_lock(PyThread_type_lock);

/* What base_feed() calls: an object's feed, and its last message. */
struct base_feeder {
	int		 (*feed)(void *, const void *, size_t);
	const char	*(*error)(void *);
};
/* base_feed(): the object takes no more input (no library status). */
#define BASE_DONE	(-2)

int		 base_feed(PyObject *, PyThread_type_lock, const int *,
		    const struct base_feeder *, void *, char *, size_t);
int		 base_name(PyObject *, PyObject **, const char **);
int		 base_check_options(PyObject *);

#endif
