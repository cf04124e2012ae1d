/*
 * xmlsniff._core.ResultBase: a library result (xmlsniff_result), read
 * only, its members those of the --json record.  The package's Result
 * derives from it and adds the objects made of several members
 * (declaration, guess, diagnostics) and to_dict().
 */
#include "_result.h"

static void
result_dealloc(ResultObject *self)
{
	if (self->res != NULL)
		xmlsniff_result_free(self->res);
	Py_XDECREF(self->owner);
	Py_TYPE(self)->tp_free((PyObject *)self);
}

/* A getter per string member: NULL in C is None (null in the record). */
#define STR_MEMBER(m)						\
static PyObject *						\
result_get_##m(ResultObject *self, void *unused)		\
{								\
	(void)unused;						\
	return base_str(xmlsniff_result_##m(self->res));	\
}
STR_MEMBER(encoding)
STR_MEMBER(source)
STR_MEMBER(bom)
STR_MEMBER(charset)
STR_MEMBER(mime)
STR_MEMBER(browser)
STR_MEMBER(summary)

static PyObject *
result_get_errors(ResultObject *self, void *unused)
{
	(void)unused;
	return PyLong_FromUnsignedLongLong(xmlsniff_result_errors(self->res));
}

static PyObject *
result_get_warnings(ResultObject *self, void *unused)
{
	(void)unused;
	return PyLong_FromUnsignedLongLong(
	    xmlsniff_result_warnings(self->res));
}

/* None where the record has no "unlisted" (without "all"). */
static PyObject *
result_get_unlisted(ResultObject *self, void *unused)
{
	int64_t n = xmlsniff_result_unlisted(self->res);

	(void)unused;
	if (n < 0)
		Py_RETURN_NONE;
	return PyLong_FromLongLong((long long)n);
}

/* The record less "file", as the library writes it, without a newline. */
static PyObject *
result_to_json(ResultObject *self, PyObject *unused)
{
	const char *j = xmlsniff_result_json(self->res);
	size_t n;

	(void)unused;
	if (j == NULL)
		return PyErr_NoMemory();
	n = strlen(j);
	while (n > 0 && j[n - 1] == '\n')
		n--;
	return PyUnicode_DecodeUTF8(j, (Py_ssize_t)n, "surrogateescape");
}

/* (kind, version, encoding, standalone), or None without a declaration. */
static PyObject *
result_declaration(ResultObject *self, PyObject *unused)
{
	const xmlsniff_result *r = self->res;

	(void)unused;
	if (xmlsniff_result_decl_kind(r) == NULL)
		Py_RETURN_NONE;
	return Py_BuildValue("(O&O&O&O&)",
	    base_str, xmlsniff_result_decl_kind(r),
	    base_str, xmlsniff_result_decl_version(r),
	    base_str, xmlsniff_result_decl_encoding(r),
	    base_str, xmlsniff_result_decl_standalone(r));
}

/* (encoding, sample), or None where nothing was guessed. */
static PyObject *
result_guess(ResultObject *self, PyObject *unused)
{
	const xmlsniff_result *r = self->res;

	(void)unused;
	if (xmlsniff_result_guess_encoding(r) == NULL)
		Py_RETURN_NONE;
	return Py_BuildValue("(O&O&)",
	    base_str, xmlsniff_result_guess_encoding(r),
	    base_str, xmlsniff_result_guess_sample(r));
}

/* One diagnostic as (severity, code, offset, line, column, count,
 * message, excerpt, occ); occ (a new reference) is taken over. */
static PyObject *
diag_tuple(const xmlsniff_diagnostic *d, PyObject *occ)
{
	return Py_BuildValue("(O&O&KKKKO&O&N)",
	    base_str, xmlsniff_diagnostic_severity(d),
	    base_str, xmlsniff_diagnostic_code(d),
	    (unsigned long long)xmlsniff_diagnostic_offset(d),
	    (unsigned long long)xmlsniff_diagnostic_line(d),
	    (unsigned long long)xmlsniff_diagnostic_column(d),
	    (unsigned long long)xmlsniff_diagnostic_count(d),
	    base_str, xmlsniff_diagnostic_message(d),
	    base_str, xmlsniff_diagnostic_excerpt(d), occ);
}

/*
 * The diagnostics in the record's order, each a tuple of diag_tuple's
 * members whose last is the list of its occurrences (tuples of the same
 * form, their last None) where the record lists them ("all"), else None.
 */
static PyObject *
result_diagnostics(ResultObject *self, PyObject *unused)
{
	const xmlsniff_result *r = self->res;
	PyObject *list, *t, *occ, *o;
	size_t i, j, n = xmlsniff_result_ndiagnostics(r);
	int listing = xmlsniff_result_unlisted(r) >= 0;

	(void)unused;
	if ((list = PyList_New((Py_ssize_t)n)) == NULL)
		return NULL;
	for (i = 0; i < n; i++) {
		const xmlsniff_diagnostic *d = xmlsniff_result_diagnostic(r, i);
		size_t no = xmlsniff_diagnostic_noccurrences(d);

		if (!listing) {
			Py_INCREF(Py_None);
			occ = Py_None;
		} else if ((occ = PyList_New((Py_ssize_t)no)) == NULL)
			goto fail;
		for (j = 0; listing && j < no; j++) {
			Py_INCREF(Py_None);
			o = diag_tuple(xmlsniff_diagnostic_occurrence(d, j),
			    Py_None);
			if (o == NULL) {
				Py_DECREF(occ);
				goto fail;
			}
			PyList_SET_ITEM(occ, (Py_ssize_t)j, o);
		}
		if ((t = diag_tuple(d, occ)) == NULL)
			goto fail;
		PyList_SET_ITEM(list, (Py_ssize_t)i, t);
	}
	return list;
fail:
	Py_DECREF(list);
	return NULL;
}

static PyGetSetDef result_getset[] = {
	{ "encoding", (getter)result_get_encoding, NULL,
	  "The encoding the entity is read in (its name as the record "
	  "has it), or None.", NULL },
	{ "source", (getter)result_get_source, NULL,
	  "Where the encoding comes from: \"bom\", \"charset\", "
	  "\"declaration\", \"default\", ...", NULL },
	{ "bom", (getter)result_get_bom, NULL,
	  "The byte order mark found, or None.", NULL },
	{ "charset", (getter)result_get_charset, NULL,
	  "The raw charset parameter of the content type, or None.", NULL },
	{ "mime", (getter)result_get_mime, NULL,
	  "The Content-Type to serve the entity with.", NULL },
	{ "browser", (getter)result_get_browser, NULL,
	  "With browser=True: the encoding a web browser reads the "
	  "entity in (WHATWG); else None.", NULL },
	{ "summary", (getter)result_get_summary, NULL,
	  "xmlsniff(1)'s line for the input, after \"NAME: \".", NULL },
	{ "errors", (getter)result_get_errors, NULL,
	  "How many codes of severity error are present.", NULL },
	{ "warnings", (getter)result_get_warnings, NULL,
	  "How many codes of severity warning are present.", NULL },
	{ "unlisted", (getter)result_get_unlisted, NULL,
	  "With all=True: how many occurrences were not listed; "
	  "else None.", NULL },
	{ NULL, NULL, NULL, NULL, NULL }
};

static PyMethodDef result_methods[] = {
	{ "to_json", (PyCFunction)result_to_json, METH_NOARGS,
	  "to_json() -> str: the --json record of xmlsniff(1), less "
	  "\"file\", as the command line writes it (no newline)." },
	{ "_declaration", (PyCFunction)result_declaration, METH_NOARGS,
	  NULL },
	{ "_guess", (PyCFunction)result_guess, METH_NOARGS, NULL },
	{ "_diagnostics", (PyCFunction)result_diagnostics, METH_NOARGS,
	  NULL },
	{ NULL, NULL, 0, NULL }
};

static PyObject *
result_new_refused(PyTypeObject *type, PyObject *args, PyObject *kw)
{
	(void)args;
	(void)kw;
	PyErr_Format(PyExc_TypeError, "%.100s objects are made by "
	    "xmlsniff.check(), Checker.finish() and transcode()",
	    type->tp_name);
	return NULL;
}

PyTypeObject ResultBaseType = {
	PyVarObject_HEAD_INIT(NULL, 0)
	.tp_name = "xmlsniff._core.ResultBase",
	.tp_doc = "The analysis of one entity: the members of the --json "
	    "record.",
	.tp_basicsize = sizeof(ResultObject),
	.tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
	.tp_new = result_new_refused,
	.tp_dealloc = (destructor)result_dealloc,
	.tp_getset = result_getset,
	.tp_methods = result_methods,
};
