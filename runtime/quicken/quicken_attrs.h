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
 * _PyQuicken_MethodMemo (Objects/typeobject.c): the methods LOAD_METHOD_POLYMORPHIC finds by
 * the type's version and the name, each with the version of the type's shared keys, which do
 * not hold the name (so an instance with inline values does not shadow the method).
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

#define QUICKEN_METHOD_MEMO_SIZE 1024  /* entries, a power of two */
#define QUICKEN_METHOD_MEMO_WAYS 4      /* entries a (type version, name) may be in */
/* LOAD_METHOD_POLYMORPHIC's mark in its cache's type_version, so that the site's next
   specialization knows it has met several types: versions count up from 1, and a type given
   this last one would only make its site specialize as if it had met one type. */
#define QUICKEN_METHOD_MEMO_SITE UINT32_MAX
/* How many types a site that became polymorphic sends back to the specializer at once when the
   table does not hold them (later ones miss: a type the specializer refuses costs a failed
   specialization at most this often, then backs off as at any site). */
#define QUICKEN_METHOD_MEMO_RETRIES 8

typedef struct {
    uint32_t type_version;  /* the type's tp_version_tag; 0: empty */
    uint32_t keys_version;  /* the dk_version of its shared keys (ht_cached_keys) */
    PyObject *name;         /* a reference */
    PyObject *method;       /* borrowed: the type holds it while its version is type_version;
                               NULL: the shared keys hold the name (keys_version unused) */
} _PyQuicken_MethodMemoEntry;

extern _PyQuicken_MethodMemoEntry _PyQuicken_MethodMemo[QUICKEN_METHOD_MEMO_SIZE];
extern void _PyQuicken_MethodMemoFill(uint32_t type_version, uint32_t keys_version,
                                      PyObject *name, PyObject *method);
extern void _PyQuicken_MethodMemoClear(void);

/* The first of the QUICKEN_METHOD_MEMO_WAYS entries where the method of `name` on a type of
   version `type_version` may be (a set: four sites' types colliding still fit). */
static inline _PyQuicken_MethodMemoEntry *
_PyQuicken_MethodMemoSet(uint32_t type_version, PyObject *name)
{
    size_t h = ((size_t)type_version * 0x9E3779B1u) ^ ((uintptr_t)name >> 4);
    return &_PyQuicken_MethodMemo[(h * QUICKEN_METHOD_MEMO_WAYS) &
                                  (QUICKEN_METHOD_MEMO_SIZE - 1)];
}

/* The entry of `name` on a type of version `type_version`, or NULL. */
static inline _PyQuicken_MethodMemoEntry *
_PyQuicken_MethodMemoFind(uint32_t type_version, PyObject *name)
{
    _PyQuicken_MethodMemoEntry *set = _PyQuicken_MethodMemoSet(type_version, name);
    for (int way = 0; way < QUICKEN_METHOD_MEMO_WAYS; way++) {
        if (set[way].type_version == type_version && set[way].name == name) {
            return &set[way];
        }
    }
    return NULL;
}

#endif  // !QUICKEN_ATTRS_H
