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
 * _PyQuicken_FloatIntResult: an exact float and an exact int, in either order (the int is
 * never reused); _PyQuicken_AsDouble reads either operand.
 * The int members do the same with one-digit ints (below).
 *
 * The `_STORED` members run where the next instruction stores the result into a fast local
 * (STORE_FAST, or a superinstruction that starts with one: the specializer chose them for
 * it). Where no operand is a temporary, their result goes into the object that store is
 * about to replace, if nothing else refers to it (_PyQuicken_StoreTarget): an operand stored
 * back (`x += y`, `x = y * x`: the local and the stack refer to it) or the local's previous
 * value (`d = x - y` in a loop: each iteration's d written into the last one's). The store
 * then replaces the local's object by itself. They take `locals` (&GETLOCAL(0)) and `next`,
 * the code unit after their inline cache. No code runs between the member and the store, and
 * a member runs only when nothing is traced (the traced loop runs the generic instruction), so
 * nothing sees the object change before the store.
 */
#ifndef QUICKEN_NUMBERS_H
#define QUICKEN_NUMBERS_H

#include "pycore_floatobject.h"   // _PyFloat_ExactDealloc()
#include "pycore_long.h"          // _PyLong_SMALL_INTS, _PyLong_Add()
#include "pycore_object.h"        // _Py_DECREF_SPECIALIZED(), _Py_DECREF_NO_DEALLOC()
#include "pycore_opcode.h"        // _PyOpcode_Deopt
#include "quicken_freelists.h"    // _PyQuicken_LongExactDealloc()

/* The object the store `next` replaces, if `next` stores into a fast local and nothing but
   that local and the operands left and right on the stack refer to that object; else NULL. */
static inline Py_ALWAYS_INLINE PyObject *
_PyQuicken_StoreTarget(PyObject *left, PyObject *right, PyObject **locals, _Py_CODEUNIT next)
{
    assert(_PyOpcode_Deopt[_Py_OPCODE(next)] == STORE_FAST);
    PyObject *old = locals[_Py_OPARG(next)];
    if (old == NULL || Py_REFCNT(old) != 1 + (old == left) + (old == right)) {
        return NULL;
    }
    return old;
}

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

/* _PyQuicken_FloatResult for a `_STORED` member. */
static inline PyObject *
_PyQuicken_FloatStored(PyObject *left, PyObject *right, double value,
                       PyObject **locals, _Py_CODEUNIT next)
{
    if (Py_REFCNT(left) != 1 && Py_REFCNT(right) != 1) {
        // Neither operand is a temporary: releasing them frees nothing.
        PyObject *target = _PyQuicken_StoreTarget(left, right, locals, next);
        if (target != NULL && PyFloat_CheckExact(target)) {
            ((PyFloatObject *)target)->ob_fval = value;
            Py_INCREF(target);
            _Py_DECREF_NO_DEALLOC(right);
            _Py_DECREF_NO_DEALLOC(left);
            return target;
        }
    }
    return _PyQuicken_FloatResult(left, right, value);
}

/* The value of an operand of a float-and-int member: an exact float's, or an exact int's of
 * one digit, which converts to a double exactly (as float's own operators convert it). */
static inline double
_PyQuicken_AsDouble(PyObject *x)
{
    if (PyFloat_CheckExact(x)) {
        return PyFloat_AS_DOUBLE(x);
    }
    assert(PyLong_CheckExact(x) && (size_t)(Py_SIZE(x) + 1) <= 2);
    return (double)(Py_SIZE(x) * (Py_ssize_t)((PyLongObject *)x)->ob_digit[0]);
}

static inline PyObject *
_PyQuicken_FloatIntResult(PyObject *left, PyObject *right, double value)
{
    PyObject *f = PyFloat_CheckExact(left) ? left : right;
    PyObject *i = f == left ? right : left;
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
    _Py_DECREF_SPECIALIZED(i, _PyQuicken_LongExactDealloc);
    return result;
}

/* Exact ints. An int of one digit or zero (the "medium" values of longobject.c) is stored in
 * an object with room for one digit, so a one-digit result can be written into an operand of
 * one digit that only the stack referred to. Small results (-5 to 256) are never written
 * anywhere: they are the interpreter's shared small ints, which longobject.c returns, so `is`
 * sees the same objects as on stock 3.11.2. Every other case is longobject.c's own function,
 * as before. An int's deallocator only frees.
 *
 * _PyQuicken_IntAdd, _PyQuicken_IntSubtract, _PyQuicken_IntMultiply: left OP right, taking
 * both references; NULL on an error. (_PyLong_Multiply of large ints checks for signals:
 * generator/statements.py lists only the first two among the calls that run no code.) */
#define _PyQuicken_IS_MEDIUM(x) (((size_t)Py_SIZE(x)) + 1U < 3U)
#define _PyQuicken_MEDIUM_VALUE(x) (((stwodigits)Py_SIZE(x)) * ((PyLongObject *)(x))->ob_digit[0])
#define _PyQuicken_IS_SMALL(value) (-_PY_NSMALLNEGINTS <= (value) && (value) < _PY_NSMALLPOSINTS)

enum { _PyQuicken_ADD, _PyQuicken_SUBTRACT, _PyQuicken_MULTIPLY, _PyQuicken_REMAINDER,
       _PyQuicken_FLOOR_DIVIDE };

/* The shared small int of a small value, a new reference. */
#define _PyQuicken_SMALL_INT(value) \
    Py_NewRef((PyObject *)&_PyLong_SMALL_INTS[_PY_NSMALLNEGINTS + (value)])

/* A one-digit value other than a small int written into target, a one-digit int nothing but
   the caller refers to (and the local _PyQuicken_StoreTarget found it in). */
static inline Py_ALWAYS_INLINE void
_PyQuicken_SetMedium(PyObject *target, stwodigits value)
{
    assert(Py_REFCNT(target) <= 3 && _PyQuicken_IS_MEDIUM(target) && !_PyQuicken_IS_SMALL(value));
    assert(-(stwodigits)PyLong_MASK <= value && value <= (stwodigits)PyLong_MASK);
    Py_SET_SIZE(target, value < 0 ? -1 : 1);
    ((PyLongObject *)target)->ob_digit[0] = (digit)(value < 0 ? -value : value);
}

/* The value written into target, an operand only the stack referred to, which is returned;
   the other operand is released. */
static inline Py_ALWAYS_INLINE PyObject *
_PyQuicken_IntInto(PyObject *target, PyObject *other, stwodigits value)
{
    _PyQuicken_SetMedium(target, value);
    _Py_DECREF_SPECIALIZED(other, _PyQuicken_LongExactDealloc);
    return target;
}

/* longobject.c's own left OP right on any two exact ints, taking both references. */
static inline Py_ALWAYS_INLINE PyObject *
_PyQuicken_IntByLongobject(PyObject *left, PyObject *right, int op)
{
    PyObject *result;
    switch (op) {
        case _PyQuicken_ADD:
            result = _PyLong_Add((PyLongObject *)left, (PyLongObject *)right);
            break;
        case _PyQuicken_SUBTRACT:
            result = _PyLong_Subtract((PyLongObject *)left, (PyLongObject *)right);
            break;
        case _PyQuicken_MULTIPLY:
            result = _PyLong_Multiply((PyLongObject *)left, (PyLongObject *)right);
            break;
        case _PyQuicken_REMAINDER:
            result = PyLong_Type.tp_as_number->nb_remainder(left, right);
            break;
        default:
            assert(op == _PyQuicken_FLOOR_DIVIDE);
            result = PyLong_Type.tp_as_number->nb_floor_divide(left, right);
            break;
    }
    _Py_DECREF_SPECIALIZED(right, _PyQuicken_LongExactDealloc);
    _Py_DECREF_SPECIALIZED(left, _PyQuicken_LongExactDealloc);
    return result;
}

/* + - *: written into an operand where one may be, else longobject.c's function (whose own
   one-digit path makes the result). */
static inline Py_ALWAYS_INLINE PyObject *
_PyQuicken_IntArithmetic(PyObject *left, PyObject *right, int op)
{
    if ((Py_REFCNT(left) == 1 || Py_REFCNT(right) == 1)
            && _PyQuicken_IS_MEDIUM(left) && _PyQuicken_IS_MEDIUM(right)) {
        stwodigits a = _PyQuicken_MEDIUM_VALUE(left);
        stwodigits b = _PyQuicken_MEDIUM_VALUE(right);
        stwodigits value = op == _PyQuicken_ADD ? a + b : op == _PyQuicken_SUBTRACT ? a - b : a * b;
        if (!_PyQuicken_IS_SMALL(value)
                && -(stwodigits)PyLong_MASK <= value && value <= (stwodigits)PyLong_MASK) {
            return Py_REFCNT(left) == 1 ? _PyQuicken_IntInto(left, right, value)
                                        : _PyQuicken_IntInto(right, left, value);
        }
    }
    return _PyQuicken_IntByLongobject(left, right, op);
}

/* + - * for a `_STORED` member: where no operand is a temporary, a one-digit result other
   than a small int goes into the object the next store replaces, if it is an exact one-digit
   int; else as _PyQuicken_IntArithmetic. */
static inline Py_ALWAYS_INLINE PyObject *
_PyQuicken_IntStored(PyObject *left, PyObject *right, int op, PyObject **locals,
                     _Py_CODEUNIT next)
{
    if (Py_REFCNT(left) != 1 && Py_REFCNT(right) != 1
            && _PyQuicken_IS_MEDIUM(left) && _PyQuicken_IS_MEDIUM(right)) {
        stwodigits a = _PyQuicken_MEDIUM_VALUE(left);
        stwodigits b = _PyQuicken_MEDIUM_VALUE(right);
        stwodigits value = op == _PyQuicken_ADD ? a + b
                           : op == _PyQuicken_SUBTRACT ? a - b : a * b;
        if (!_PyQuicken_IS_SMALL(value)
                && -(stwodigits)PyLong_MASK <= value && value <= (stwodigits)PyLong_MASK) {
            PyObject *target = _PyQuicken_StoreTarget(left, right, locals, next);
            if (target != NULL && PyLong_CheckExact(target) && _PyQuicken_IS_MEDIUM(target)) {
                _PyQuicken_SetMedium(target, value);
                Py_INCREF(target);
                _Py_DECREF_NO_DEALLOC(right);
                _Py_DECREF_NO_DEALLOC(left);
                return target;
            }
        }
        return _PyQuicken_IntByLongobject(left, right, op);
    }
    return _PyQuicken_IntArithmetic(left, right, op);
}

static inline PyObject *
_PyQuicken_IntAdd(PyObject *left, PyObject *right)
{
    return _PyQuicken_IntArithmetic(left, right, _PyQuicken_ADD);
}

static inline PyObject *
_PyQuicken_IntSubtract(PyObject *left, PyObject *right)
{
    return _PyQuicken_IntArithmetic(left, right, _PyQuicken_SUBTRACT);
}

static inline PyObject *
_PyQuicken_IntMultiply(PyObject *left, PyObject *right)
{
    return _PyQuicken_IntArithmetic(left, right, _PyQuicken_MULTIPLY);
}

static inline PyObject *
_PyQuicken_IntAddStored(PyObject *left, PyObject *right, PyObject **locals, _Py_CODEUNIT next)
{
    return _PyQuicken_IntStored(left, right, _PyQuicken_ADD, locals, next);
}

static inline PyObject *
_PyQuicken_IntSubtractStored(PyObject *left, PyObject *right, PyObject **locals,
                             _Py_CODEUNIT next)
{
    return _PyQuicken_IntStored(left, right, _PyQuicken_SUBTRACT, locals, next);
}

static inline PyObject *
_PyQuicken_IntMultiplyStored(PyObject *left, PyObject *right, PyObject **locals,
                             _Py_CODEUNIT next)
{
    return _PyQuicken_IntStored(left, right, _PyQuicken_MULTIPLY, locals, next);
}

/* _PyQuicken_IntRemainder, _PyQuicken_IntFloorDivide: left % right and left // right with
 * Python's signs (the result of % has the divisor's sign, // rounds down), taking both
 * references; NULL on an error. Two medium operands and a divisor other than zero: computed
 * here (the result has at most one digit), a small result is the shared small int, another is
 * written into an operand only the stack referred to, or made new. Otherwise int's own slots,
 * which raise ZeroDivisionError. */
static inline Py_ALWAYS_INLINE PyObject *
_PyQuicken_IntDivision(PyObject *left, PyObject *right, int op)
{
    if (!_PyQuicken_IS_MEDIUM(left) || !_PyQuicken_IS_MEDIUM(right) || Py_SIZE(right) == 0) {
        return _PyQuicken_IntByLongobject(left, right, op);
    }
    stwodigits a = _PyQuicken_MEDIUM_VALUE(left);
    stwodigits b = _PyQuicken_MEDIUM_VALUE(right);
    stwodigits value;
    if (op == _PyQuicken_REMAINDER) {
        value = a % b;
        if (value != 0 && ((value ^ b) < 0)) {
            value += b;
        }
    }
    else {
        value = a / b;
        if (a % b != 0 && ((a ^ b) < 0)) {
            value -= 1;
        }
    }
    PyObject *result;
    if (_PyQuicken_IS_SMALL(value)) {
        result = _PyQuicken_SMALL_INT(value);
    }
    else if (Py_REFCNT(left) == 1) {
        return _PyQuicken_IntInto(left, right, value);
    }
    else if (Py_REFCNT(right) == 1) {
        return _PyQuicken_IntInto(right, left, value);
    }
    else {
        result = PyLong_FromLong((long)value);
    }
    _Py_DECREF_SPECIALIZED(right, _PyQuicken_LongExactDealloc);
    _Py_DECREF_SPECIALIZED(left, _PyQuicken_LongExactDealloc);
    return result;
}

static inline PyObject *
_PyQuicken_IntRemainder(PyObject *left, PyObject *right)
{
    return _PyQuicken_IntDivision(left, right, _PyQuicken_REMAINDER);
}

static inline PyObject *
_PyQuicken_IntFloorDivide(PyObject *left, PyObject *right)
{
    return _PyQuicken_IntDivision(left, right, _PyQuicken_FLOOR_DIVIDE);
}

/* FOR_ITER_RANGE's next int, where the loop variable may hold the previous one. A small value
 * is the shared small int. When the instruction after the loop header stores into a fast local
 * (`next`, STORE_FAST or a superinstruction that starts with one) and that local holds an exact
 * int of one digit that only it refers to, another one-digit value is written into that int,
 * which is returned with a new reference: the store then replaces the int by itself, and
 * neither an int is freed nor one allocated. No code can run between the two instructions, so
 * nothing sees the local's int change before the store. Otherwise a new int, as
 * PyLong_FromLong makes it. */
static inline PyObject *
_PyQuicken_RangeValue(PyObject **locals, _Py_CODEUNIT next, long value)
{
    if (_PyQuicken_IS_SMALL(value)) {
        return _PyQuicken_SMALL_INT(value);
    }
    if (_PyOpcode_Deopt[_Py_OPCODE(next)] == STORE_FAST
            && -(long)PyLong_MASK <= value && value <= (long)PyLong_MASK) {
        PyObject *old = _PyQuicken_StoreTarget(NULL, NULL, locals, next);
        if (old != NULL && PyLong_CheckExact(old) && _PyQuicken_IS_MEDIUM(old)) {
            _PyQuicken_SetMedium(old, value);
            return Py_NewRef(old);
        }
    }
    return PyLong_FromLong(value);
}

#endif /* QUICKEN_NUMBERS_H */
