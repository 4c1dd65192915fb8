/* quicken: facts about attribute lookup that the runtime's own files know and the attribute
 * families (instructions/attributes.inst) use.
 *
 * _PyQuicken_GetattrIsGeneric (Objects/typeobject.c, runtime/patches/typeobject.c.patch):
 * whether a successful attribute read on an instance of `type` returns what
 * PyObject_GenericGetAttr returns (its tp_getattro is that function, or the hook of a class
 * with __getattr__ whose __getattribute__ is object's).
 *
 * _PyQuicken_GetattrFallback (the same file): what that hook does after the generic lookup
 * raised AttributeError: __getattr__ (`getattr`, found on the class) called with the object
 * and the name (call_attribute).
 *
 * _PyQuicken_SetAttributeErrorContext (Objects/object.c, object.c.patch): what
 * PyObject_GetAttr does after a failed lookup: an AttributeError given its name and object.
 *
 * _PyQuicken_Property: the fields of a property object (Objects/descrobject.c's
 * propertyobject) that LOAD_ATTR_PROPERTY and STORE_ATTR_PROPERTY read; descrobject.c.patch
 * checks the layout. _PyQuicken_PropertyFunction: whether they, and LOAD_ATTR_DESCRIPTOR and
 * STORE_ATTR_DESCRIPTOR, can run a getter or setter, a descriptor's __get__ or __set__.
 *
 * _PyQuicken_PropertyExtras: what those members keep, in slots past the end of the function's
 * frame, while it runs in the caller's loop: the references the generic lookup holds during
 * the call (the property or descriptor, a class's __getattr__) and the name, released or used
 * when the frame ends (ceval.c).
 */
#ifndef QUICKEN_ATTRS_H
#define QUICKEN_ATTRS_H

extern int _PyQuicken_GetattrIsGeneric(PyTypeObject *type);
extern PyObject *_PyQuicken_GetattrFallback(PyObject *self, PyObject *getattr, PyObject *name);
extern void _PyQuicken_SetAttributeErrorContext(PyObject *v, PyObject *name);

typedef struct {
    PyObject_HEAD
    PyObject *prop_get;
    PyObject *prop_set;
} _PyQuicken_Property;

/* Whether `f`, a property's getter (`nargs` 1) or setter (2) or a descriptor's __get__ or
   __set__ (3), can run as the attribute families' members run it, in a frame of the caller's
   loop with its arguments moved in: a function whose code takes exactly `nargs` positional
   arguments and nothing else, has fast locals (CO_OPTIMIZED: else its frame's locals would be
   its globals, as _PyFunction_Vectorcall makes them) and is no generator or coroutine (which
   end without RETURN_VALUE). */
static inline int
_PyQuicken_PropertyFunction(PyObject *f, int nargs)
{
    if (f == NULL || !PyFunction_Check(f)) {
        return 0;
    }
    PyCodeObject *code = (PyCodeObject *)((PyFunctionObject *)f)->func_code;
    return code->co_argcount == nargs && code->co_kwonlyargcount == 0 &&
           (code->co_flags & (CO_OPTIMIZED | CO_VARARGS | CO_VARKEYWORDS | CO_GENERATOR |
                              CO_COROUTINE | CO_ASYNC_GENERATOR)) == CO_OPTIMIZED;
}

typedef struct {
    PyObject *property;  /* the property or descriptor (a reference) */
    PyObject *getattr;   /* for a getter, the class's __getattr__ (a reference) where its
                            lookup goes through slot_tp_getattr_hook; else NULL */
    PyObject *name;      /* the attribute's name (borrowed from the caller's code) */
} _PyQuicken_PropertyExtras;

#define QUICKEN_PROPERTY_EXTRA_SLOTS (sizeof(_PyQuicken_PropertyExtras) / sizeof(PyObject *))

#endif  // !QUICKEN_ATTRS_H
