/*
 * xmlsniff._core.Checker: the library's streaming checker
 * (xmlsniff_checker), one entity fed in pieces and its Result at the
 * end.  One feed or finish runs at a time (a lock of its own), without
 * the GIL while the library works.
 */
#include "_checker.h"

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
	if (base_check_options(opts) < 0 || base_name(nameobj, &keep, &name) < 0)
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
	base_raise(XMLSNIFF_ERR_STATE, "the checker is closed", NULL, NULL);
	return NULL;
}

static int
ck_feed(void *ck, const void *p, size_t n)
{
	return xmlsniff_checker_feed(ck, p, n);
}

static const char *
ck_error(void *ck)
{
	return xmlsniff_checker_error(ck);
}

static const struct base_feeder ck_feeder = { ck_feed, ck_error };

/* feed(data): the next piece of the entity, read in place. */
static PyObject *
checker_feed(CheckerObject *self, PyObject *data)
{
	char err[1024];
	int st;

	st = base_feed(data, self->lock, &self->closed, &ck_feeder, self->ck,
	    err, sizeof(err));
	if (st == BASE_DONE)
		return checker_closed_error();
	if (st == -1)
		return NULL;
	if (st != XMLSNIFF_OK) {
		base_raise(st, err, NULL, NULL);
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
	base_lock(self->lock);
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
		base_raise(st, err, res, self->owner);
		return NULL;
	}
	return base_new_result(res, self->owner);
}

/* close(): free the library's checker now; any later call raises. */
static PyObject *
checker_close(CheckerObject *self, PyObject *unused)
{
	(void)unused;
	base_lock(self->lock);
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
