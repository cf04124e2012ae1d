/*
 * xmlsniff._core.Transcoder: the library's streaming transcoder
 * (xmlsniff_transcoder), the entity re-encoded with the BOM and
 * declaration RFC 7303 section 3.3 and XML 1.0 section 4.3.3 require.
 *
 * What the library writes is gathered in a buffer of ours without the
 * GIL; with a sink (a callable taking bytes) the buffer is handed to it
 * whenever it holds FLUSH bytes, the GIL taken back for that call only,
 * so that memory stays bounded on a stream of any length.  The package
 * gives a spool as the sink and copies it to the caller's file only once
 * the transcode has succeeded: no half-written output (xmlsniff.h: what
 * was written before a failure is to be thrown away).
 */
#include <stdlib.h>
#include <string.h>

#include "_transcode.h"

#define FLUSH	(1024 * 1024)

typedef struct {
	PyObject_HEAD
	xmlsniff_transcoder	*tc;
	PyObject		*owner;		/* the Options */
	PyObject		*sink;		/* None: keep it all */
	PyThread_type_lock	 lock;
	char			*buf;
	size_t			 len, cap;
	int			 nomem;		/* the buffer could not grow */
	PyObject		*etype, *evalue, *etb;	/* the sink's */
	int			 finished;
} TranscoderObject;

/* Hand the buffer to the sink, with the GIL (the caller has none).
 * -1 when the sink raised: its exception is kept for the caller. */
static int
tc_flush_nogil(TranscoderObject *self)
{
	PyGILState_STATE g;
	PyObject *b, *r = NULL;

	if (self->len == 0)
		return 0;
	g = PyGILState_Ensure();
	b = PyBytes_FromStringAndSize(self->buf, (Py_ssize_t)self->len);
	if (b != NULL) {
		r = PyObject_CallOneArg(self->sink, b);
		Py_DECREF(b);
	}
	if (r == NULL && self->etype == NULL)
		PyErr_Fetch(&self->etype, &self->evalue, &self->etb);
	PyErr_Clear();
	Py_XDECREF(r);
	PyGILState_Release(g);
	self->len = 0;
	return r == NULL ? -1 : 0;
}

/* The library's writer (xmlsniff_write_fn), called without the GIL. */
static int
tc_write(void *ctx, const void *p, size_t n)
{
	TranscoderObject *self = ctx;

	if (n > self->cap - self->len) {
		size_t cap = self->cap ? self->cap : 65536;
		char *nb;

		while (cap - self->len < n) {
			if (cap > ((size_t)-1) / 2) {
				self->nomem = 1;
				return -1;
			}
			cap *= 2;
		}
		if ((nb = realloc(self->buf, cap)) == NULL) {
			self->nomem = 1;
			return -1;
		}
		self->buf = nb;
		self->cap = cap;
	}
	memcpy(self->buf + self->len, p, n);
	self->len += n;
	if (self->sink != Py_None && self->len >= FLUSH)
		return tc_flush_nogil(self);
	return 0;
}

/* Transcoder(options, name, to, sink) */
static PyObject *
tc_new(PyTypeObject *type, PyObject *args, PyObject *kw)
{
	TranscoderObject *self;
	PyObject *opts, *nameobj, *keep, *sink;
	const char *name, *to;

	if (kw != NULL && PyDict_GET_SIZE(kw) > 0) {
		PyErr_SetString(PyExc_TypeError, "Transcoder takes no keywords");
		return NULL;
	}
	if (!PyArg_ParseTuple(args, "O!OsO:Transcoder", &OptionsType, &opts,
	    &nameobj, &to, &sink))
		return NULL;
	if (base_name(nameobj, &keep, &name) < 0)
		return NULL;
	if (sink != Py_None && !PyCallable_Check(sink)) {
		PyErr_SetString(PyExc_TypeError, "sink: a callable or None");
		return NULL;
	}
	if ((self = (TranscoderObject *)type->tp_alloc(type, 0)) == NULL)
		return NULL;
	Py_INCREF(opts);
	self->owner = opts;
	Py_INCREF(sink);
	self->sink = sink;
	if ((self->lock = PyThread_allocate_lock()) == NULL) {
		Py_DECREF(self);
		return PyErr_NoMemory();
	}
	self->tc = xmlsniff_transcoder_new(((OptionsObject *)opts)->opts, name,
	    to, tc_write, self);
	if (self->tc == NULL) {
		Py_DECREF(self);
		return PyErr_NoMemory();
	}
	return (PyObject *)self;
}

static void
tc_dealloc(TranscoderObject *self)
{
	if (self->tc != NULL)
		xmlsniff_transcoder_free(self->tc);
	if (self->lock != NULL)
		PyThread_free_lock(self->lock);
	free(self->buf);
	Py_XDECREF(self->owner);
	Py_XDECREF(self->sink);
	Py_XDECREF(self->etype);
	Py_XDECREF(self->evalue);
	Py_XDECREF(self->etb);
	Py_TYPE(self)->tp_free((PyObject *)self);
}

/*
 * Raise for status st of the library (err its message, res a result that
 * came with it): the sink's own exception where the sink failed,
 * MemoryError where our buffer could not grow, else the status's class.
 */
static void
tc_raise(TranscoderObject *self, int st, const char *err,
    xmlsniff_result *res)
{
	if (st == XMLSNIFF_ERR_WRITE && self->etype != NULL) {
		free_result(res);
		PyErr_Restore(self->etype, self->evalue, self->etb);
		self->etype = self->evalue = self->etb = NULL;
	} else if (st == XMLSNIFF_ERR_WRITE && self->nomem) {
		free_result(res);
		PyErr_NoMemory();
	} else
		base_raise(st, err, res, self->owner);
}

static PyObject *
tc_finished_error(void)
{
	base_raise(XMLSNIFF_ERR_STATE, "the transcoder is finished", NULL,
	    NULL);
	return NULL;
}

static int
tc_feed_one(void *tc, const void *p, size_t n)
{
	return xmlsniff_transcoder_feed(tc, p, n);
}

static const char *
tc_error(void *tc)
{
	return xmlsniff_transcoder_error(tc);
}

static const struct base_feeder tc_feeder = { tc_feed_one, tc_error };

/* feed(data): the next piece of the entity, read in place. */
static PyObject *
tc_feed(TranscoderObject *self, PyObject *data)
{
	char err[1024];
	int st;

	st = base_feed(data, self->lock, &self->finished, &tc_feeder,
	    self->tc, err, sizeof(err));
	if (st == BASE_DONE)
		return tc_finished_error();
	if (st == -1)
		return NULL;
	if (st != XMLSNIFF_OK) {
		tc_raise(self, st, err, NULL);
		return NULL;
	}
	Py_RETURN_NONE;
}

/*
 * finish() -> (Result, bytes or None): the analysis and, without a
 * sink, the whole output; with one, the rest is handed to it first.  A
 * transcode that cannot be done faithfully raises TranscodeError with
 * the result (its diagnostics say why).
 */
static PyObject *
tc_finish(TranscoderObject *self, PyObject *unused)
{
	xmlsniff_result *res = NULL;
	PyObject *r, *out;
	char err[1024];
	int st;

	(void)unused;
	base_lock(self->lock);
	if (self->finished) {
		PyThread_release_lock(self->lock);
		return tc_finished_error();
	}
	self->finished = 1;
	Py_BEGIN_ALLOW_THREADS
	st = xmlsniff_transcoder_finish(self->tc, &res);
	if (st != XMLSNIFF_OK)
		(void)snprintf(err, sizeof(err), "%s",
		    xmlsniff_transcoder_error(self->tc));
	else if (self->sink != Py_None && tc_flush_nogil(self) < 0)
		st = XMLSNIFF_ERR_WRITE;
	Py_END_ALLOW_THREADS
	PyThread_release_lock(self->lock);
	if (st != XMLSNIFF_OK) {
		tc_raise(self, st, err, res);
		return NULL;
	}
	if (self->sink != Py_None) {
		out = Py_None;
		Py_INCREF(out);
	} else if ((out = PyBytes_FromStringAndSize(self->buf,
	    (Py_ssize_t)self->len)) == NULL) {
		free_result(res);
		return NULL;
	}
	free(self->buf);
	self->buf = NULL;
	self->len = self->cap = 0;
	if ((r = base_new_result(res, self->owner)) == NULL) {
		Py_DECREF(out);
		return NULL;
	}
	return Py_BuildValue("(NN)", r, out);
}

static PyMethodDef tc_methods[] = {
	{ "feed", (PyCFunction)tc_feed, METH_O,
	  "feed(data): the next piece of the entity (bytes-like)." },
	{ "finish", (PyCFunction)tc_finish, METH_NOARGS,
	  "finish() -> (Result, bytes or None)" },
	{ NULL, NULL, 0, NULL }
};

PyTypeObject TranscoderType = {
	PyVarObject_HEAD_INIT(NULL, 0)
	.tp_name = "xmlsniff._core.Transcoder",
	.tp_doc = "Transcoder(options, name, to, sink): one entity re-encoded "
	    "in the encoding to.",
	.tp_basicsize = sizeof(TranscoderObject),
	.tp_flags = Py_TPFLAGS_DEFAULT,
	.tp_new = tc_new,
	.tp_dealloc = (destructor)tc_dealloc,
	.tp_methods = tc_methods,
};
