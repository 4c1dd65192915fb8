/* quicken: calls the evaluation loop makes through the runtime's own objects.
 *
 * _PyQuicken_CallType (Objects/typeobject.c, runtime/patches/typeobject.c.patch): a call of a
 * class whose metatype is exactly `type`, as PyObject_Vectorcall would make it; for a class
 * whose instances come from object.__new__ and whose __init__ is defined in Python, without
 * the argument tuple and dict that type_call's route through _PyObject_MakeTpCall builds and
 * without the copy that prepends self. The generic CALL (instructions/calls.inst) calls it.
 */
#ifndef QUICKEN_CALLS_H
#define QUICKEN_CALLS_H

extern PyObject *_PyQuicken_CallType(PyThreadState *tstate, PyTypeObject *type,
                                     PyObject *const *args, size_t nargsf,
                                     PyObject *kwnames);

#endif /* QUICKEN_CALLS_H */
