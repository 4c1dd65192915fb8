/* A C extension that leans on the object layouts and calling conventions an interpreter shares
 * with the extensions it loads: reference counts read and changed by the macros, a statically
 * initialized PyTypeObject, the GC header, weak references, the number/mapping/iterator slots,
 * calls back into Python (tuple+dict, vectorcall with keyword names, methods), iteration and
 * exceptions crossing C in both directions. tests/check_abi.py compiles it against one set of
 * headers and tests/abi/exercise.py calls it from several interpreters. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <structmember.h>

static PyObject *Error;  /* abi_c.Error */

/* --- module functions ------------------------------------------------------------------- */

static PyObject *
refcnt(PyObject *self, PyObject *obj)
{
    return PyLong_FromSsize_t(Py_REFCNT(obj));
}

static PyObject *
incref_n(PyObject *self, PyObject *args)
{
    PyObject *obj;
    Py_ssize_t n;
    if (!PyArg_ParseTuple(args, "On", &obj, &n)) {
        return NULL;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        Py_INCREF(obj);
    }
    Py_RETURN_NONE;
}

static PyObject *
decref_n(PyObject *self, PyObject *args)
{
    PyObject *obj;
    Py_ssize_t n;
    if (!PyArg_ParseTuple(args, "On", &obj, &n)) {
        return NULL;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        Py_DECREF(obj);
    }
    Py_RETURN_NONE;
}

/* What the compiled-in PyTypeObject and PyVarObject layouts say about obj's type. */
static PyObject *
type_info(PyObject *self, PyObject *obj)
{
    PyTypeObject *tp = Py_TYPE(obj);
    return Py_BuildValue("(snnkn)", tp->tp_name, tp->tp_basicsize, tp->tp_itemsize,
                         tp->tp_flags, PyTuple_Check(obj) ? Py_SIZE(obj) : (Py_ssize_t)-1);
}

/* call(f, *args, **kwargs): f(*args, **kwargs) through PyObject_Call. */
static PyObject *
call(PyObject *self, PyObject *args, PyObject *kwargs)
{
    if (PyTuple_GET_SIZE(args) < 1) {
        PyErr_SetString(PyExc_TypeError, "call() needs a callable");
        return NULL;
    }
    PyObject *rest = PyTuple_GetSlice(args, 1, PyTuple_GET_SIZE(args));
    if (rest == NULL) {
        return NULL;
    }
    PyObject *result = PyObject_Call(PyTuple_GET_ITEM(args, 0), rest, kwargs);
    Py_DECREF(rest);
    return result;
}

/* vcall(f, a, b): f(a, key=b) through PyObject_Vectorcall with a keyword-names tuple. */
static PyObject *
vcall(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 3) {
        PyErr_SetString(PyExc_TypeError, "vcall(f, a, b)");
        return NULL;
    }
    PyObject *kwnames = Py_BuildValue("(s)", "key");
    if (kwnames == NULL) {
        return NULL;
    }
    PyObject *result = PyObject_Vectorcall(args[0], args + 1, 1, kwnames);
    Py_DECREF(kwnames);
    return result;
}

/* call_method(obj, name, arg): obj.name(arg). */
static PyObject *
call_method(PyObject *self, PyObject *args)
{
    PyObject *obj, *name, *arg;
    if (!PyArg_ParseTuple(args, "OUO", &obj, &name, &arg)) {
        return NULL;
    }
    return PyObject_CallMethodObjArgs(obj, name, arg, NULL);
}

/* sum_iter(iterable): the items added up with PyNumber_Add; an error in the iterator propagates. */
static PyObject *
sum_iter(PyObject *self, PyObject *iterable)
{
    PyObject *it = PyObject_GetIter(iterable);
    if (it == NULL) {
        return NULL;
    }
    PyObject *total = PyLong_FromLong(0), *item;
    while (total != NULL && (item = PyIter_Next(it)) != NULL) {
        Py_SETREF(total, PyNumber_Add(total, item));
        Py_DECREF(item);
    }
    Py_DECREF(it);
    if (PyErr_Occurred()) {
        Py_XDECREF(total);
        return NULL;
    }
    return total;
}

/* catch(f, exc_type): f(); if it raises exc_type, the exception (with its traceback) is the
 * result; any other exception propagates. */
static PyObject *
catch(PyObject *self, PyObject *args)
{
    PyObject *f, *exc_type;
    if (!PyArg_ParseTuple(args, "OO", &f, &exc_type)) {
        return NULL;
    }
    PyObject *result = PyObject_CallNoArgs(f);
    if (result != NULL || !PyErr_ExceptionMatches(exc_type)) {
        return result;
    }
    PyObject *type, *value, *tb;
    PyErr_Fetch(&type, &value, &tb);
    PyErr_NormalizeException(&type, &value, &tb);
    if (tb != NULL) {
        PyException_SetTraceback(value, tb);
    }
    Py_DECREF(type);
    Py_XDECREF(tb);
    return value;
}

static PyObject *
raise_error(PyObject *self, PyObject *args)
{
    const char *message;
    int code;
    if (!PyArg_ParseTuple(args, "si", &message, &code)) {
        return NULL;
    }
    PyObject *value = Py_BuildValue("(si)", message, code);
    if (value != NULL) {
        PyErr_SetObject(Error, value);
        Py_DECREF(value);
    }
    return NULL;
}

/* raise_from(f): calls f(), which must raise; raises abi_c.Error chained to that exception. */
static PyObject *
raise_from(PyObject *self, PyObject *f)
{
    PyObject *result = PyObject_CallNoArgs(f);
    if (result != NULL) {
        Py_DECREF(result);
        PyErr_SetString(PyExc_AssertionError, "raise_from(f): f() returned");
        return NULL;
    }
    PyObject *type, *cause, *tb;
    PyErr_Fetch(&type, &cause, &tb);
    PyErr_NormalizeException(&type, &cause, &tb);
    if (tb != NULL) {
        PyException_SetTraceback(cause, tb);
    }
    Py_DECREF(type);
    Py_XDECREF(tb);
    PyObject *wrapper = PyObject_CallFunction(Error, "s", "wrapped in C");
    if (wrapper != NULL) {
        Py_INCREF(cause);
        PyException_SetContext(wrapper, cause);
        PyException_SetCause(wrapper, cause);  /* steals the reference to cause */
        PyErr_SetObject(Error, wrapper);
        Py_DECREF(wrapper);
    }
    else {
        Py_DECREF(cause);
    }
    return NULL;
}

/* --- the Counter type: a GC-tracked, weak-referenceable, subclassable iterator --------- */

typedef struct {
    PyObject_HEAD
    PyObject *label;      /* T_OBJECT_EX member: LOAD_ATTR_SLOT / STORE_ATTR_SLOT in 3.11 */
    PyObject *callback;   /* T_OBJECT member */
    Py_ssize_t count;
    Py_ssize_t limit;
    PyObject *weakreflist;
} Counter;

static PyTypeObject CounterType;

static int
Counter_init(Counter *self, PyObject *args, PyObject *kwargs)
{
    static char *keywords[] = {"label", "limit", "callback", NULL};
    PyObject *label, *callback = Py_None;
    Py_ssize_t limit = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O|nO", keywords, &label, &limit, &callback)) {
        return -1;
    }
    Py_INCREF(label);
    Py_XSETREF(self->label, label);
    Py_INCREF(callback);
    Py_XSETREF(self->callback, callback);
    self->count = 0;
    self->limit = limit;
    return 0;
}

static int
Counter_traverse(Counter *self, visitproc visit, void *arg)
{
    Py_VISIT(self->label);
    Py_VISIT(self->callback);
    return 0;  /* a static type: a heap subclass's subtype_traverse visits its own type */
}

static int
Counter_clear(Counter *self)
{
    Py_CLEAR(self->label);
    Py_CLEAR(self->callback);
    return 0;
}

static void
Counter_dealloc(Counter *self)
{
    PyTypeObject *tp = Py_TYPE(self);
    PyObject_GC_UnTrack(self);
    if (self->weakreflist != NULL) {
        PyObject_ClearWeakRefs((PyObject *)self);
    }
    Counter_clear(self);
    tp->tp_free((PyObject *)self);  /* a heap subclass's subtype_dealloc releases its type */
}

static PyObject *
Counter_next(Counter *self)
{
    if (self->count >= self->limit) {
        return NULL;  /* StopIteration, without an exception set */
    }
    return PyLong_FromSsize_t(self->count++);
}

/* step(n=1, *, times=1): count += n * times; returns count. Parsed by hand from the
 * vectorcall convention: positional arguments, then the values of the names in kwnames. */
static PyObject *
Counter_step(Counter *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    Py_ssize_t n = 1, times = 1;
    Py_ssize_t nkw = kwnames == NULL ? 0 : PyTuple_GET_SIZE(kwnames);
    if (nargs > 1) {
        PyErr_Format(PyExc_TypeError, "step() takes at most 1 positional argument (%zd given)",
                     nargs);
        return NULL;
    }
    if (nargs == 1 && (n = PyLong_AsSsize_t(args[0])) == -1 && PyErr_Occurred()) {
        return NULL;
    }
    for (Py_ssize_t i = 0; i < nkw; i++) {
        PyObject *name = PyTuple_GET_ITEM(kwnames, i);
        if (!PyUnicode_Check(name) || PyUnicode_CompareWithASCIIString(name, "times") != 0) {
            PyErr_Format(PyExc_TypeError, "step() got an unexpected keyword argument %R", name);
            return NULL;
        }
        if ((times = PyLong_AsSsize_t(args[nargs + i])) == -1 && PyErr_Occurred()) {
            return NULL;
        }
    }
    self->count += n * times;
    return PyLong_FromSsize_t(self->count);
}

static PyObject *
Counter_reset(Counter *self, PyObject *unused)
{
    self->count = 0;
    Py_RETURN_NONE;
}

/* fire(*args, **kwargs): self.callback(self.label, *args, **kwargs). */
static PyObject *
Counter_fire(Counter *self, PyObject *args, PyObject *kwargs)
{
    if (self->callback == NULL || self->callback == Py_None) {
        PyErr_SetString(Error, "no callback");
        return NULL;
    }
    PyObject *head = PyTuple_Pack(1, self->label);
    if (head == NULL) {
        return NULL;
    }
    PyObject *all = PySequence_Concat(head, args);
    Py_DECREF(head);
    if (all == NULL) {
        return NULL;
    }
    PyObject *result = PyObject_Call(self->callback, all, kwargs);
    Py_DECREF(all);
    return result;
}

static PyObject *
Counter_get_doubled(Counter *self, void *closure)
{
    return PyLong_FromSsize_t(2 * self->count);
}

static int
Counter_set_doubled(Counter *self, PyObject *value, void *closure)
{
    if (value == NULL) {
        PyErr_SetString(PyExc_AttributeError, "cannot delete doubled");
        return -1;
    }
    Py_ssize_t v = PyLong_AsSsize_t(value);
    if (v == -1 && PyErr_Occurred()) {
        return -1;
    }
    self->count = v / 2;
    return 0;
}

/* counter + n -> count + n; n + counter too. */
static PyObject *
Counter_add(PyObject *a, PyObject *b)
{
    PyObject *counter = PyObject_TypeCheck(a, &CounterType) ? a : b;
    PyObject *other = counter == a ? b : a;
    if (!PyLong_Check(other)) {
        Py_RETURN_NOTIMPLEMENTED;
    }
    PyObject *count = PyLong_FromSsize_t(((Counter *)counter)->count);
    if (count == NULL) {
        return NULL;
    }
    PyObject *result = PyNumber_Add(count, other);
    Py_DECREF(count);
    return result;
}

/* counter[i] -> i * count; a negative index raises IndexError. */
static PyObject *
Counter_subscript(Counter *self, PyObject *key)
{
    Py_ssize_t i = PyNumber_AsSsize_t(key, PyExc_IndexError);
    if (i == -1 && PyErr_Occurred()) {
        return NULL;
    }
    if (i < 0) {
        PyErr_Format(PyExc_IndexError, "negative index %zd", i);
        return NULL;
    }
    return PyLong_FromSsize_t(i * self->count);
}

static PyObject *
Counter_richcompare(Counter *self, PyObject *other, int op)
{
    if (!PyObject_TypeCheck(other, &CounterType)) {
        Py_RETURN_NOTIMPLEMENTED;
    }
    Py_RETURN_RICHCOMPARE(self->count, ((Counter *)other)->count, op);
}

static PyObject *
Counter_repr(Counter *self)
{
    return PyUnicode_FromFormat("<%s %R at %zd>", Py_TYPE(self)->tp_name, self->label, self->count);
}

static PyMemberDef Counter_members[] = {
    {"label", T_OBJECT_EX, offsetof(Counter, label), 0, NULL},
    {"callback", T_OBJECT, offsetof(Counter, callback), 0, NULL},
    {"count", T_PYSSIZET, offsetof(Counter, count), 0, NULL},
    {"limit", T_PYSSIZET, offsetof(Counter, limit), READONLY, NULL},
    {NULL},
};

static PyGetSetDef Counter_getset[] = {
    {"doubled", (getter)Counter_get_doubled, (setter)Counter_set_doubled, NULL, NULL},
    {NULL},
};

static PyMethodDef Counter_methods[] = {
    {"step", (PyCFunction)(void (*)(void))Counter_step, METH_FASTCALL | METH_KEYWORDS, NULL},
    {"reset", (PyCFunction)Counter_reset, METH_NOARGS, NULL},
    {"fire", (PyCFunction)(void (*)(void))Counter_fire, METH_VARARGS | METH_KEYWORDS, NULL},
    {NULL},
};

static PyNumberMethods Counter_as_number = {
    .nb_add = Counter_add,
};

static PyMappingMethods Counter_as_mapping = {
    .mp_subscript = (binaryfunc)Counter_subscript,
};

static PyTypeObject CounterType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "abi_c.Counter",
    .tp_basicsize = sizeof(Counter),
    .tp_dealloc = (destructor)Counter_dealloc,
    .tp_repr = (reprfunc)Counter_repr,
    .tp_as_number = &Counter_as_number,
    .tp_as_mapping = &Counter_as_mapping,
    .tp_hash = PyObject_HashNotImplemented,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE | Py_TPFLAGS_HAVE_GC,
    .tp_traverse = (traverseproc)Counter_traverse,
    .tp_clear = (inquiry)Counter_clear,
    .tp_richcompare = (richcmpfunc)Counter_richcompare,
    .tp_weaklistoffset = offsetof(Counter, weakreflist),
    .tp_iter = PyObject_SelfIter,
    .tp_iternext = (iternextfunc)Counter_next,
    .tp_methods = Counter_methods,
    .tp_members = Counter_members,
    .tp_getset = Counter_getset,
    .tp_init = (initproc)Counter_init,
    .tp_new = PyType_GenericNew,
};

/* --- the module ------------------------------------------------------------------------- */

static PyMethodDef module_methods[] = {
    {"refcnt", refcnt, METH_O, NULL},
    {"incref_n", incref_n, METH_VARARGS, NULL},
    {"decref_n", decref_n, METH_VARARGS, NULL},
    {"type_info", type_info, METH_O, NULL},
    {"call", (PyCFunction)(void (*)(void))call, METH_VARARGS | METH_KEYWORDS, NULL},
    {"vcall", (PyCFunction)(void (*)(void))vcall, METH_FASTCALL, NULL},
    {"call_method", call_method, METH_VARARGS, NULL},
    {"sum_iter", sum_iter, METH_O, NULL},
    {"catch", catch, METH_VARARGS, NULL},
    {"raise_error", raise_error, METH_VARARGS, NULL},
    {"raise_from", raise_from, METH_O, NULL},
    {NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "abi_c", NULL, -1, module_methods,
};

PyMODINIT_FUNC
PyInit_abi_c(void)
{
    if (PyType_Ready(&CounterType) < 0) {
        return NULL;
    }
    PyObject *m = PyModule_Create(&module);
    if (m == NULL) {
        return NULL;
    }
    Error = PyErr_NewException("abi_c.Error", PyExc_RuntimeError, NULL);
    if (Error == NULL || PyModule_AddObjectRef(m, "Error", Error) < 0
            || PyModule_AddObjectRef(m, "Counter", (PyObject *)&CounterType) < 0
            || PyModule_AddStringConstant(m, "PY_DEBUG",
#ifdef Py_DEBUG
                                          "yes"
#else
                                          "no"
#endif
                                          ) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
