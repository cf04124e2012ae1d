/*
 * xmlsniff._core's ground floor (_base.h): the Options type and what
 * every type of the module uses to speak Python -- the package's Result
 * and exception classes, strings, exceptions, locks and input names.
 * It calls nothing of the files above it.
 */
#include <string.h>

#include "_base.h"

/* Set once by the package (_set_classes in _core.c): the Result class to
 * make and the exception class of each status name. */
static PyTypeObject	*result_class;
static PyObject		*error_classes;

/* Keep cls (a subclass of ResultBase, which the caller has checked) and
 * errs (a dict of status names to exception classes). */
void
base_set_classes(PyTypeObject *cls, PyObject *errs)
{
	Py_INCREF(cls);
	Py_XDECREF(result_class);
	result_class = cls;
	Py_INCREF(errs);
	Py_XSETREF(error_classes, errs);
}

/* A string of the library's as str: UTF-8, a byte that is not UTF-8 as
 * the lone surrogate U+DCxx, the rule of the --json record's \udcXX (so
 * that an attribute equals what json.loads makes of the record). */
PyObject *
base_str(const char *s)
{
	if (s == NULL)
		Py_RETURN_NONE;
	return PyUnicode_DecodeUTF8(s, (Py_ssize_t)strlen(s),
	    "surrogateescape");
}

/* A new Result owning res (freed with it); owner (the options) is kept
 * alive as long as the result is. */
PyObject *
base_new_result(xmlsniff_result *res, PyObject *owner)
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
base_raise(int st, const char *msg, xmlsniff_result *res, PyObject *owner)
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
		if ((r = base_new_result(res, owner)) == NULL)
			return;
	} else {
		Py_INCREF(Py_None);
		r = Py_None;
	}
	if ((m = base_str(msg)) == NULL) {
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
base_lock(PyThread_type_lock lock)
{
	if (!PyThread_acquire_lock(lock, NOWAIT_LOCK)) {
		Py_BEGIN_ALLOW_THREADS
		PyThread_acquire_lock(lock, WAIT_LOCK);
		Py_END_ALLOW_THREADS
	}
	return 0;
}

/*
 * The body of a feed(data) method: data's bytes, read in place, fed to obj
 * by f->feed under lock with the GIL let go.  BASE_DONE, nothing fed, when
 * *done says obj takes no more input; -1, a Python exception set, when
 * data has no buffer; else the library's status, with obj's message in
 * err (size errsz) when it is not XMLSNIFF_OK.
 */
int
base_feed(PyObject *data, PyThread_type_lock lock, const int *done,
    const struct base_feeder *f, void *obj, char *err, size_t errsz)
{
	Py_buffer view;
	int st;

	if (PyObject_GetBuffer(data, &view, PyBUF_SIMPLE) < 0)
		return -1;
	base_lock(lock);
	if (*done) {
		PyThread_release_lock(lock);
		PyBuffer_Release(&view);
		return BASE_DONE;
	}
	Py_BEGIN_ALLOW_THREADS
	st = f->feed(obj, view.buf, (size_t)view.len);
	if (st != XMLSNIFF_OK)
		(void)snprintf(err, errsz, "%s", f->error(obj));
	Py_END_ALLOW_THREADS
	PyThread_release_lock(lock);
	PyBuffer_Release(&view);
	return st;
}

/* The name of an input: None (NULL) or bytes (the package encodes a
 * str with os.fsencode).  -1 with TypeError for anything else. */
int
base_name(PyObject *o, PyObject **keep, const char **name)
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
			base_raise(st, xmlsniff_options_error(self->opts),
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

/* 0 when o is an Options, else -1 with TypeError. */
int
base_check_options(PyObject *o)
{
	if (!PyObject_TypeCheck(o, &OptionsType)) {
		PyErr_Format(PyExc_TypeError, "Options expected, not %.100s",
		    Py_TYPE(o)->tp_name);
		return -1;
	}
	return 0;
}
