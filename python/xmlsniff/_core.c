/*
 * xmlsniff._core: the module -- the one-call checks of a buffer and of a
 * path, the package's hooks (_set_classes, status_name, _bench) and the
 * init that adds the types.  The top of the extension's layers (_base.h
 * draws them): each type it adds has a file of its own, and what they
 * share is in _base.c.
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "_base.h"
#include "_checker.h"
#include "_result.h"
#include "_transcode.h"

#ifndef O_CLOEXEC
#define O_CLOEXEC	0
#endif

/* The one-call checks ---------------------------------------------- */

/* check_buffer(options, name, data): data is any contiguous bytes-like
 * object, read in place (no copy) while the GIL is released. */
static PyObject *
core_check_buffer(PyObject *mod, PyObject *const *args, Py_ssize_t nargs)
{
	OptionsObject *o;
	PyObject *keep;
	xmlsniff_result *res = NULL;
	Py_buffer view;
	const char *name;
	char err[1024];
	int st;

	(void)mod;
	if (nargs != 3) {
		PyErr_SetString(PyExc_TypeError,
		    "check_buffer(options, name, data)");
		return NULL;
	}
	if (base_check_options(args[0]) < 0 || base_name(args[1], &keep, &name) < 0)
		return NULL;
	o = (OptionsObject *)args[0];
	if (PyObject_GetBuffer(args[2], &view, PyBUF_SIMPLE) < 0)
		return NULL;
	err[0] = '\0';
	Py_BEGIN_ALLOW_THREADS
	st = xmlsniff_check_buffer(o->opts, name, view.buf, (size_t)view.len,
	    &res, err, sizeof(err));
	Py_END_ALLOW_THREADS
	PyBuffer_Release(&view);
	if (st != XMLSNIFF_OK) {
		base_raise(st, err, res, args[0]);
		return NULL;
	}
	return base_new_result(res, args[0]);
}

/*
 * check_path(options, name, path): path is bytes (os.fsencode); opened,
 * checked through xmlsniff_check_fd and closed without the GIL.  A path
 * that cannot be opened, or a directory, raises the OSError subclass of
 * its errno (FileNotFoundError, PermissionError, IsADirectoryError).
 */
static PyObject *
core_check_path(PyObject *mod, PyObject *const *args, Py_ssize_t nargs)
{
	OptionsObject *o;
	PyObject *keep;
	xmlsniff_result *res = NULL;
	struct stat sb;
	const char *name, *path;
	char err[1024];
	int fd, st = XMLSNIFF_OK, e = 0;

	(void)mod;
	if (nargs != 3 || !PyBytes_Check(args[2])) {
		PyErr_SetString(PyExc_TypeError,
		    "check_path(options, name, path: bytes)");
		return NULL;
	}
	if (base_check_options(args[0]) < 0 || base_name(args[1], &keep, &name) < 0)
		return NULL;
	o = (OptionsObject *)args[0];
	path = PyBytes_AS_STRING(args[2]);
	if (strlen(path) != (size_t)PyBytes_GET_SIZE(args[2])) {
		PyErr_SetString(PyExc_ValueError, "embedded null byte");
		return NULL;
	}
	err[0] = '\0';
	Py_BEGIN_ALLOW_THREADS
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		e = errno;
	else {
		if (fstat(fd, &sb) < 0)
			e = errno;
		else if (S_ISDIR(sb.st_mode))
			e = EISDIR;
		else
			st = xmlsniff_check_fd(o->opts, name, fd, &res, err,
			    sizeof(err));
		(void)close(fd);
	}
	Py_END_ALLOW_THREADS
	if (e != 0) {
		errno = e;
		return PyErr_SetFromErrnoWithFilenameObject(PyExc_OSError,
		    args[2]);
	}
	if (st != XMLSNIFF_OK) {
		base_raise(st, err, res, args[0]);
		return NULL;
	}
	return base_new_result(res, args[0]);
}

/*
 * _bench(options, data, n) -> seconds of the thread's CPU time: n
 * one-call checks of data in C,
 * each result freed, without the GIL: the library's own time, which
 * bench/python subtracts from check()'s to find the binding's cost.
 */
static PyObject *
core_bench(PyObject *mod, PyObject *args)
{
	PyObject *opts;
	Py_buffer view;
	Py_ssize_t i, n;
	struct timespec t0, t1;
	int st = XMLSNIFF_OK;

	(void)mod;
	if (!PyArg_ParseTuple(args, "O!y*n:_bench", &OptionsType, &opts,
	    &view, &n))
		return NULL;
	Py_BEGIN_ALLOW_THREADS
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t0);
	for (i = 0; i < n && st == XMLSNIFF_OK; i++) {
		xmlsniff_result *res = NULL;

		st = xmlsniff_check_buffer(((OptionsObject *)opts)->opts, NULL,
		    view.buf, (size_t)view.len, &res, NULL, 0);
		free_result(res);
	}
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t1);
	Py_END_ALLOW_THREADS
	PyBuffer_Release(&view);
	if (st != XMLSNIFF_OK) {
		base_raise(st, "", NULL, NULL);
		return NULL;
	}
	return PyFloat_FromDouble((double)(t1.tv_sec - t0.tv_sec) +
	    (double)(t1.tv_nsec - t0.tv_nsec) / 1e9);
}

/* The module ------------------------------------------------------- */

/* _set_classes(result_class, errors): the package's Result (a subclass
 * of ResultBase) and its exception class for each status name. */
static PyObject *
core_set_classes(PyObject *mod, PyObject *args)
{
	PyObject *cls, *errs;

	(void)mod;
	if (!PyArg_ParseTuple(args, "O!O!:_set_classes", &PyType_Type, &cls,
	    &PyDict_Type, &errs))
		return NULL;
	if (!PyType_IsSubtype((PyTypeObject *)cls, &ResultBaseType)) {
		PyErr_SetString(PyExc_TypeError,
		    "the result class must derive from ResultBase");
		return NULL;
	}
	base_set_classes((PyTypeObject *)cls, errs);
	Py_RETURN_NONE;
}

static PyObject *
core_status_name(PyObject *mod, PyObject *arg)
{
	long v = PyLong_AsLong(arg);

	(void)mod;
	if (v == -1 && PyErr_Occurred())
		return NULL;
	return base_str(xmlsniff_status_name((int)v));
}

static PyMethodDef core_methods[] = {
	{ "check_buffer", (PyCFunction)(void (*)(void))core_check_buffer,
	  METH_FASTCALL, "check_buffer(options, name, data) -> Result" },
	{ "check_path", (PyCFunction)(void (*)(void))core_check_path,
	  METH_FASTCALL, "check_path(options, name, path) -> Result" },
	{ "_bench", core_bench, METH_VARARGS,
	  "_bench(options, data, n) -> seconds of n checks in C alone." },
	{ "status_name", core_status_name, METH_O,
	  "status_name(n): the library's name of status n, or None." },
	{ "_set_classes", core_set_classes, METH_VARARGS,
	  "_set_classes(result_class, errors): set by the package." },
	{ NULL, NULL, 0, NULL }
};

static struct PyModuleDef core_module = {
	PyModuleDef_HEAD_INIT,
	.m_name = "xmlsniff._core",
	.m_doc = "The C part of the xmlsniff package: libxmlsniff's objects.",
	.m_size = -1,
	.m_methods = core_methods,
};

static int
add_type(PyObject *m, PyTypeObject *t, const char *name)
{
	if (PyType_Ready(t) < 0)
		return -1;
	Py_INCREF(t);
	if (PyModule_AddObject(m, name, (PyObject *)t) < 0) {
		Py_DECREF(t);
		return -1;
	}
	return 0;
}

PyMODINIT_FUNC
PyInit__core(void)
{
	PyObject *m;

	if ((m = PyModule_Create(&core_module)) == NULL)
		return NULL;
	if (add_type(m, &OptionsType, "Options") < 0 ||
	    add_type(m, &ResultBaseType, "ResultBase") < 0 ||
	    add_type(m, &CheckerType, "Checker") < 0 ||
	    add_type(m, &TranscoderType, "Transcoder") < 0 ||
	    PyModule_AddStringConstant(m, "library_version",
	    xmlsniff_version()) < 0 ||
	    PyModule_AddStringConstant(m, "header_version",
	    XMLSNIFF_VERSION_STRING) < 0) {
		Py_DECREF(m);
		return NULL;
	}
	return m;
}
