/* quicken: facts about attribute lookup that the runtime's own files know and the attribute
 * families (instructions/attributes.inst) use.
 *
 * _PyQuicken_GetattrIsGeneric (Objects/typeobject.c, runtime/patches/typeobject.c.patch):
 * whether a successful attribute read on an instance of `type` returns what
 * PyObject_GenericGetAttr returns (its tp_getattro is that function, or the hook of a class
 * with __getattr__ whose __getattribute__ is object's).
 */
#ifndef QUICKEN_ATTRS_H
#define QUICKEN_ATTRS_H

extern int _PyQuicken_GetattrIsGeneric(PyTypeObject *type);

#endif  // !QUICKEN_ATTRS_H
