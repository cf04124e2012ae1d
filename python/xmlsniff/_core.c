/*
 * xmlsniff._core: the module, its options, the one-call checks of a
 * buffer and of a path, and the streaming checker.  _result.c has the
 * result, _transcode.c the transcoder.
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "_core.h"

#ifndef O_CLOEXEC
#define O_CLOEXEC	0
#endif

/* Set once by the package (_set_classes): the Result class to make and
 * the exception class of each status name. */
static PyTypeObject	*result_class;
static PyObject		*error_classes;

/* A string of the library's as str: UTF-8, a byte that is not UTF-8 as
 * the lone surrogate U+DCxx, the rule of the --json record's \udcXX (so
 * that an attribute equals what json.loads makes of the record). */
PyObject *
core_str(const char *s)
{
	if (s == NULL)
		Py_RETURN_NONE;
	return PyUnicode_DecodeUTF8(s, (Py_ssize_t)strlen(s),
	    "surrogateescape");
}

/* A new Result owning res (freed with it); owner (the options) is kept
 * alive as long as the result is. */
PyObject *
core_new_result(xmlsniff_result *res, PyObject *owner)
{
	ResultObject *r;

	if (result_class == NULL) {
		free_result(res);
		PyErr_SetString(PyExc_RuntimeError,
		    "xmlsniff._core is used without the xmlsniff package");
		return NULL;
	}
	r = (ResultObject *)result_class->tp_alloc(result_class, 0);
	if (r == NULL) {
		free_result(res);
		return NULL;
	}
	r->res = res;
	Py_XINCREF(owner);
	r->owner = owner;
	return (PyObject *)r;
}

/*
 * Raise the exception of status st with message msg: MemoryError for
 * XMLSNIFF_ERR_MEMORY, else the class the package gave for the status's
 * name, called as cls(message, result) with the result that came with
 * the failure (a refused transcode's diagnostics), or None.  res is
 * taken over in any case.
 */
void
core_raise(int st, const char *msg, xmlsniff_result *res, PyObject *owner)
{
	PyObject *cls = NULL, *m, *r, *exc;
	const char *sname = xmlsniff_status_name(st);

	if (st == XMLSNIFF_ERR_MEMORY) {
		free_result(res);
		PyErr_NoMemory();
		return;
	}
	if (error_classes != NULL && sname != NULL)
		cls = PyDict_GetItemString(error_classes, sname);
	if (cls == NULL)
		cls = PyExc_RuntimeError;
	if (msg == NULL || *msg == '\0')
		msg = sname != NULL ? sname : "unknown status";
	if (res != NULL) {
		if ((r = core_new_result(res, owner)) == NULL)
			return;
	} else {
		Py_INCREF(Py_None);
		r = Py_None;
	}
	if ((m = core_str(msg)) == NULL) {
		Py_DECREF(r);
		return;
	}
	exc = PyObject_CallFunctionObjArgs(cls, m, r, NULL);
	Py_DECREF(m);
	Py_DECREF(r);
	if (exc == NULL)
		return;
	PyErr_SetObject((PyObject *)Py_TYPE(exc), exc);
	Py_DECREF(exc);
}

/* Take lock, waiting without the GIL when another thread holds it. */
int
core_lock(PyThread_type_lock lock)
{
	if (!PyThread_acquire_lock(lock, NOWAIT_LOCK)) {
		Py_BEGIN_ALLOW_THREADS
		PyThread_acquire_lock(lock, WAIT_LOCK);
		Py_END_ALLOW_THREADS
	}
	return 0;
}

/* The name of an input: None (NULL) or bytes (the package encodes a
 * str with os.fsencode).  -1 with TypeError for anything else. */
int
core_name(PyObject *o, PyObject **keep, const char **name)
{
	*keep = NULL;
	*name = NULL;
	if (o == Py_None)
		return 0;
	if (!PyBytes_Check(o)) {
		PyErr_Format(PyExc_TypeError, "name: bytes or None expected, "
		    "not %.100s", Py_TYPE(o)->tp_name);
		return -1;
	}
	*name = PyBytes_AS_STRING(o);
	if (strlen(*name) != (size_t)PyBytes_GET_SIZE(o)) {
		PyErr_SetString(PyExc_ValueError, "name: embedded NUL byte");
		return -1;
	}
	*keep = o;
	return 0;
}

/* Options ---------------------------------------------------------- */

/* Options(pairs): each (name, value) of str set in order; the first the
 * library refuses raises OptionError with its message. */
static PyObject *
options_new(PyTypeObject *type, PyObject *args, PyObject *kw)
{
	OptionsObject *self;
	PyObject *pairs, *seq;
	Py_ssize_t i, n;

	if (!PyArg_ParseTuple(args, "O:Options", &pairs))
		return NULL;
	if (kw != NULL && PyDict_GET_SIZE(kw) > 0) {
		PyErr_SetString(PyExc_TypeError, "Options takes no keywords");
		return NULL;
	}
	if ((seq = PySequence_Tuple(pairs)) == NULL)
		return NULL;
	if ((self = (OptionsObject *)type->tp_alloc(type, 0)) == NULL) {
		Py_DECREF(seq);
		return NULL;
	}
	self->pairs = seq;
	if ((self->opts = xmlsniff_options_new()) == NULL) {
		Py_DECREF(self);
		return PyErr_NoMemory();
	}
	n = PyTuple_GET_SIZE(seq);
	for (i = 0; i < n; i++) {
		const char *k, *v;
		int st;

		if (!PyArg_ParseTuple(PyTuple_GET_ITEM(seq, i), "ss", &k, &v)) {
			Py_DECREF(self);
			return NULL;
		}
		st = xmlsniff_options_set(self->opts, k, v);
		if (st != XMLSNIFF_OK) {
			core_raise(st, xmlsniff_options_error(self->opts),
			    NULL, NULL);
			Py_DECREF(self);
			return NULL;
		}
	}
	return (PyObject *)self;
}

static void
options_dealloc(OptionsObject *self)
{
	if (self->opts != NULL)
		xmlsniff_options_free(self->opts);
	Py_XDECREF(self->pairs);
	Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *
options_repr(OptionsObject *self)
{
	return PyUnicode_FromFormat("xmlsniff._core.Options(%R)", self->pairs);
}

static PyObject *
options_get_pairs(OptionsObject *self, void *unused)
{
	(void)unused;
	Py_INCREF(self->pairs);
	return self->pairs;
}

static PyGetSetDef options_getset[] = {
	{ "pairs", (getter)options_get_pairs, NULL,
	  "The (name, value) pairs set, in order.", NULL },
	{ NULL, NULL, NULL, NULL, NULL }
};

PyTypeObject OptionsType = {
	PyVarObject_HEAD_INIT(NULL, 0)
	.tp_name = "xmlsniff._core.Options",
	.tp_doc = "Options(pairs): settings of the analysis, by the long "
	    "option names of xmlsniff(1); built once, then shared read-only.",
	.tp_basicsize = sizeof(OptionsObject),
	.tp_flags = Py_TPFLAGS_DEFAULT,
	.tp_new = options_new,
	.tp_dealloc = (destructor)options_dealloc,
	.tp_repr = (reprfunc)options_repr,
	.tp_getset = options_getset,
};

/* The one-call checks ---------------------------------------------- */

static int
check_options(PyObject *o)
{
	if (!PyObject_TypeCheck(o, &OptionsType)) {
		PyErr_Format(PyExc_TypeError, "Options expected, not %.100s",
		    Py_TYPE(o)->tp_name);
		return -1;
	}
	return 0;
}

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
	if (check_options(args[0]) < 0 || core_name(args[1], &keep, &name) < 0)
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
		core_raise(st, err, res, args[0]);
		return NULL;
	}
	return core_new_result(res, args[0]);
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
	if (check_options(args[0]) < 0 || core_name(args[1], &keep, &name) < 0)
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
		core_raise(st, err, res, args[0]);
		return NULL;
	}
	return core_new_result(res, args[0]);
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
		core_raise(st, "", NULL, NULL);
		return NULL;
	}
	return PyFloat_FromDouble((double)(t1.tv_sec - t0.tv_sec) +
	    (double)(t1.tv_nsec - t0.tv_nsec) / 1e9);
}

/* The streaming checker -------------------------------------------- */

typedef struct {
	PyObject_HEAD
	xmlsniff_checker	*ck;
	PyObject		*owner;		/* the Options */
	PyThread_type_lock	 lock;		/* one feed or finish at once */
	int			 closed;
} CheckerObject;

/* Checker(options, name) */
static PyObject *
checker_new(PyTypeObject *type, PyObject *args, PyObject *kw)
{
	CheckerObject *self;
	PyObject *opts, *nameobj, *keep;
	const char *name;

	if (kw != NULL && PyDict_GET_SIZE(kw) > 0) {
		PyErr_SetString(PyExc_TypeError, "Checker takes no keywords");
		return NULL;
	}
	if (!PyArg_ParseTuple(args, "OO:Checker", &opts, &nameobj))
		return NULL;
	if (check_options(opts) < 0 || core_name(nameobj, &keep, &name) < 0)
		return NULL;
	if ((self = (CheckerObject *)type->tp_alloc(type, 0)) == NULL)
		return NULL;
	Py_INCREF(opts);
	self->owner = opts;
	if ((self->lock = PyThread_allocate_lock()) == NULL) {
		Py_DECREF(self);
		return PyErr_NoMemory();
	}
	self->ck = xmlsniff_checker_new(((OptionsObject *)opts)->opts, name);
	if (self->ck == NULL) {
		Py_DECREF(self);
		return PyErr_NoMemory();
	}
	return (PyObject *)self;
}

static void
checker_dealloc(CheckerObject *self)
{
	if (self->ck != NULL)
		xmlsniff_checker_free(self->ck);
	if (self->lock != NULL)
		PyThread_free_lock(self->lock);
	Py_XDECREF(self->owner);
	Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *
checker_closed_error(void)
{
	core_raise(XMLSNIFF_ERR_STATE, "the checker is closed", NULL, NULL);
	return NULL;
}

/* feed(data): the next piece of the entity, read in place. */
static PyObject *
checker_feed(CheckerObject *self, PyObject *data)
{
	Py_buffer view;
	char err[1024];
	int st;

	if (PyObject_GetBuffer(data, &view, PyBUF_SIMPLE) < 0)
		return NULL;
	core_lock(self->lock);
	if (self->closed) {
		PyThread_release_lock(self->lock);
		PyBuffer_Release(&view);
		return checker_closed_error();
	}
	Py_BEGIN_ALLOW_THREADS
	st = xmlsniff_checker_feed(self->ck, view.buf, (size_t)view.len);
	if (st != XMLSNIFF_OK)
		(void)snprintf(err, sizeof(err), "%s",
		    xmlsniff_checker_error(self->ck));
	Py_END_ALLOW_THREADS
	PyThread_release_lock(self->lock);
	PyBuffer_Release(&view);
	if (st != XMLSNIFF_OK) {
		core_raise(st, err, NULL, NULL);
		return NULL;
	}
	Py_RETURN_NONE;
}

/* finish(): the result of what was fed. */
static PyObject *
checker_finish(CheckerObject *self, PyObject *unused)
{
	xmlsniff_result *res = NULL;
	char err[1024];
	int st;

	(void)unused;
	core_lock(self->lock);
	if (self->closed) {
		PyThread_release_lock(self->lock);
		return checker_closed_error();
	}
	Py_BEGIN_ALLOW_THREADS
	st = xmlsniff_checker_finish(self->ck, &res);
	if (st != XMLSNIFF_OK)
		(void)snprintf(err, sizeof(err), "%s",
		    xmlsniff_checker_error(self->ck));
	Py_END_ALLOW_THREADS
	PyThread_release_lock(self->lock);
	if (st != XMLSNIFF_OK) {
		core_raise(st, err, res, self->owner);
		return NULL;
	}
	return core_new_result(res, self->owner);
}

/* close(): free the library's checker now; any later call raises. */
static PyObject *
checker_close(CheckerObject *self, PyObject *unused)
{
	(void)unused;
	core_lock(self->lock);
	if (!self->closed) {
		xmlsniff_checker_free(self->ck);
		self->ck = NULL;
		self->closed = 1;
	}
	PyThread_release_lock(self->lock);
	Py_RETURN_NONE;
}

static PyObject *
checker_get_closed(CheckerObject *self, void *unused)
{
	(void)unused;
	return PyBool_FromLong(self->closed);
}

static PyMethodDef checker_methods[] = {
	{ "feed", (PyCFunction)checker_feed, METH_O,
	  "feed(data): the next piece of the entity (bytes-like)." },
	{ "finish", (PyCFunction)checker_finish, METH_NOARGS,
	  "finish(): the Result of what was fed." },
	{ "close", (PyCFunction)checker_close, METH_NOARGS,
	  "close(): release the checker." },
	{ NULL, NULL, 0, NULL }
};

static PyGetSetDef checker_getset[] = {
	{ "closed", (getter)checker_get_closed, NULL,
	  "True once close() was called.", NULL },
	{ NULL, NULL, NULL, NULL, NULL }
};

PyTypeObject CheckerType = {
	PyVarObject_HEAD_INIT(NULL, 0)
	.tp_name = "xmlsniff._core.Checker",
	.tp_doc = "Checker(options, name): one entity fed in pieces.",
	.tp_basicsize = sizeof(CheckerObject),
	.tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
	.tp_new = checker_new,
	.tp_dealloc = (destructor)checker_dealloc,
	.tp_methods = checker_methods,
	.tp_getset = checker_getset,
};

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
	Py_INCREF(cls);
	Py_XDECREF(result_class);
	result_class = (PyTypeObject *)cls;
	Py_INCREF(errs);
	Py_XSETREF(error_classes, errs);
	Py_RETURN_NONE;
}

static PyObject *
core_status_name(PyObject *mod, PyObject *arg)
{
	long v = PyLong_AsLong(arg);

	(void)mod;
	if (v == -1 && PyErr_Occurred())
		return NULL;
	return core_str(xmlsniff_status_name((int)v));
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

	if (result_init_type() < 0 || transcode_init_type() < 0)
		return NULL;
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
