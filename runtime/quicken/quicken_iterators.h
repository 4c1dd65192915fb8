/* quicken: the layouts of the list, tuple and range iterators, shared by the objects that
 * define them (Objects/listobject.c, tupleobject.c, rangeobject.c) and the instruction bodies
 * in instructions/ that read them without a call (ceval.c includes this header). Each object
 * file defines its iterator type with these structs, so that there is one definition of each
 * layout (runtime/patches/listobject.c.patch, tupleobject.c.patch, rangeobject.c.patch).
 *
 * Moved from CPython 3.11.2's Objects/listobject.c, tupleobject.c and rangeobject.c,
 * unchanged but for the names.
 * Copyright (c) 2001-2023 Python Software Foundation; All Rights Reserved.
 * Licensed under the PSF License Agreement version 2: see instructions/LICENSE.PSF.
 */
#ifndef QUICKEN_ITERATORS_H
#define QUICKEN_ITERATORS_H

/* iter(list): PyListIter_Type */
typedef struct {
    PyObject_HEAD
    Py_ssize_t it_index;
    PyListObject *it_seq; /* Set to NULL when iterator is exhausted */
} _PyQuicken_ListIterObject;

/* iter(tuple): PyTupleIter_Type */
typedef struct {
    PyObject_HEAD
    Py_ssize_t it_index;
    PyTupleObject *it_seq; /* Set to NULL when iterator is exhausted */
} _PyQuicken_TupleIterObject;

/* iter(range) for a range whose bounds fit in a C long: PyRangeIter_Type. The n-th item is
 * start + n * step, computed in unsigned arithmetic to avoid signed overflow. */
typedef struct {
    PyObject_HEAD
    long    index;
    long    start;
    long    step;
    long    len;
} _PyQuicken_RangeIterObject;

#endif /* QUICKEN_ITERATORS_H */
