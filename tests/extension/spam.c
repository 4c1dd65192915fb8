#define PY_SSIZE_T_CLEAN
#include <Python.h>
static PyObject *add(PyObject *self, PyObject *args) { long a, b; if (!PyArg_ParseTuple(args, "ll", &a, &b)) return NULL; return PyLong_FromLong(a + b); }
static PyMethodDef methods[] = {{"add", add, METH_VARARGS, NULL}, {NULL}};
static struct PyModuleDef mod = {PyModuleDef_HEAD_INIT, "spam", NULL, -1, methods};
PyMODINIT_FUNC PyInit_spam(void) { return PyModule_Create(&mod); }
