/* quicken: numbers made by the evaluation loop's specialized instructions.
 *
 * The float members of BINARY_OP (instructions/operators.inst) take both operands' references
 * from the stack. Where the stack held the only reference to a float operand (its reference
 * count is 1, so nothing else can see it), the result's value is written into that operand,
 * which becomes the result: no float is freed and none is allocated. Otherwise the result is
 * a new float, as PyFloat_FromDouble makes it (NULL on a memory error). Both references are
 * released either way and no code runs: exact floats and ints are only freed.
 * generator/statements.py lists these functions among the calls that run no code.
 *
 * _PyQuicken_FloatResult: two exact floats.
 * _PyQuicken_FloatIntResult: an exact float and an exact int (the int is never reused).
 */
#ifndef QUICKEN_NUMBERS_H
#define QUICKEN_NUMBERS_H

#include "pycore_floatobject.h"   // _PyFloat_ExactDealloc()
#include "pycore_object.h"        // _Py_DECREF_SPECIALIZED(), _Py_DECREF_NO_DEALLOC()

static inline PyObject *
_PyQuicken_FloatResult(PyObject *left, PyObject *right, double value)
{
    assert(PyFloat_CheckExact(left) && PyFloat_CheckExact(right));
    if (Py_REFCNT(left) == 1) {
        ((PyFloatObject *)left)->ob_fval = value;
        _Py_DECREF_SPECIALIZED(right, _PyFloat_ExactDealloc);
        return left;
    }
    if (Py_REFCNT(right) == 1) {
        ((PyFloatObject *)right)->ob_fval = value;
        _Py_DECREF_NO_DEALLOC(left);
        return right;
    }
    PyObject *result = PyFloat_FromDouble(value);
    _Py_DECREF_NO_DEALLOC(right);
    _Py_DECREF_NO_DEALLOC(left);
    return result;
}

static inline PyObject *
_PyQuicken_FloatIntResult(PyObject *f, PyObject *i, double value)
{
    assert(PyFloat_CheckExact(f) && PyLong_CheckExact(i));
    PyObject *result;
    if (Py_REFCNT(f) == 1) {
        ((PyFloatObject *)f)->ob_fval = value;
        result = f;
    }
    else {
        result = PyFloat_FromDouble(value);
        _Py_DECREF_NO_DEALLOC(f);
    }
    _Py_DECREF_SPECIALIZED(i, (destructor)PyObject_Free);
    return result;
}

#endif /* QUICKEN_NUMBERS_H */
