/* quicken: free lists this project adds to CPython 3.11.2's objects (issue 20: allocation is
 * where the evaluation loop's lead turns into time best).
 *
 * Small ints: Objects/longobject.c keeps the blocks of exact ints of at most two digits on a
 * linked free list like floats' (runtime/patches/longobject.c.patch); the instruction bodies
 * in instructions/ that free an exact int they know to be dead call
 * _PyQuicken_LongExactDealloc, as upstream's float cases call _PyFloat_ExactDealloc.
 *
 * Iterators of lists, tuples and ranges: a `for` loop over one makes an iterator and frees it
 * at the loop's end. Their files keep a few dead ones (a _PyQuicken_FreeList each, their type
 * still set, untracked by the GC) for the next loop (listobject.c.patch, tupleobject.c.patch,
 * rangeobject.c.patch).
 *
 * Modules/gcmodule.c empties them all with upstream's free lists (a full collection,
 * finalization): _PyQuicken_ClearFreeLists.
 */
#ifndef QUICKEN_FREELISTS_H
#define QUICKEN_FREELISTS_H

#include "pycore_object.h"        // _Py_NewReference()

/* Frees an exact int whose reference count reached zero. */
extern void _PyQuicken_LongExactDealloc(PyObject *op);

/* Gives the int free list's blocks back to the allocator. */
extern void _PyQuicken_LongClearFreeList(void);

/* A few dead objects of one type and size. */
#define QUICKEN_FREELIST_SIZE 8
typedef struct {
    int numfree;
    PyObject *items[QUICKEN_FREELIST_SIZE];
} _PyQuicken_FreeList;

extern _PyQuicken_FreeList _PyQuicken_ListIterFreeList;   /* Objects/listobject.c */
extern _PyQuicken_FreeList _PyQuicken_TupleIterFreeList;  /* Objects/tupleobject.c */
extern _PyQuicken_FreeList _PyQuicken_RangeIterFreeList;  /* Objects/rangeobject.c */

/* An object from `list` with a new reference (its type as it was left, untracked), or NULL
 * when the list is empty. */
static inline PyObject *
_PyQuicken_FreeListPop(_PyQuicken_FreeList *list)
{
    if (list->numfree == 0) {
        return NULL;
    }
    PyObject *op = list->items[--list->numfree];
    _Py_NewReference(op);
    return op;
}

/* Keeps the dead (and untracked) `op` in `list`; 0 when the list is full. */
static inline int
_PyQuicken_FreeListPush(_PyQuicken_FreeList *list, PyObject *op)
{
    if (list->numfree == QUICKEN_FREELIST_SIZE) {
        return 0;
    }
    list->items[list->numfree++] = op;
    return 1;
}

static inline void
_PyQuicken_FreeListClear(_PyQuicken_FreeList *list, void (*free)(void *))
{
    while (list->numfree > 0) {
        free(list->items[--list->numfree]);
    }
}

static inline void
_PyQuicken_ClearFreeLists(void)
{
    _PyQuicken_LongClearFreeList();
    _PyQuicken_FreeListClear(&_PyQuicken_ListIterFreeList, PyObject_GC_Del);
    _PyQuicken_FreeListClear(&_PyQuicken_TupleIterFreeList, PyObject_GC_Del);
    _PyQuicken_FreeListClear(&_PyQuicken_RangeIterFreeList, PyObject_Free);
}

#endif /* QUICKEN_FREELISTS_H */
