/*
 * xmlsniff._core: the C part of the Python binding over libxmlsniff
 * (xmlsniff(3)).  The Python package (__init__.py) turns keywords into
 * options and sources into calls of this module; this module holds the
 * library's objects, releases the GIL while the library works, and turns
 * its statuses into the package's exceptions.
 *
 * Threads: options are built once and then only read (xmlsniff.h allows
 * any number of threads on them); a result is only read; a checker or a
 * transcoder is one object fed by one thread at a time, which a lock of
 * its own enforces, so that two threads sharing one never race in C.
 */
#ifndef XMLSNIFF_PY_CORE_H
#define XMLSNIFF_PY_CORE_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "xmlsniff.h"

typedef struct {
	PyObject_HEAD
	xmlsniff_options	*opts;
	PyObject		*pairs;		/* the (name, value) tuple given */
} OptionsObject;

typedef struct {
	PyObject_HEAD
	xmlsniff_result		*res;
	PyObject		*owner;		/* the options it was made with */
} ResultObject;

extern PyTypeObject	OptionsType;
extern PyTypeObject	ResultBaseType;
extern PyTypeObject	CheckerType;
extern PyTypeObject	TranscoderType;

/* Free a result that may be NULL (a failed call may leave none). */
static inline void
free_result(xmlsniff_result *res)
{
	if (res != NULL)
		xmlsniff_result_free(res);
}

/* _core.c */
PyObject	*core_str(const char *);
PyObject	*core_new_result(xmlsniff_result *, PyObject *);
void		 core_raise(int, const char *, xmlsniff_result *, PyObject *);
int		 core_lock(PyThread_type_lock);
int		 core_name(PyObject *, PyObject **, const char **);

/* _result.c */
int		 result_init_type(void);

/* _transcode.c */
int		 transcode_init_type(void);

#endif
