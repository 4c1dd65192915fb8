/* quicken: the failure kind of each instruction's last failed specialization attempt, in a
 * Py_STATS build, for `python3 -m benchmarks explain` (sys._quicken_site_failures, which
 * runtime/patches/sysmodule.c.patch declares). Included by Python/specialize.c, whose
 * specialize functions record a failure with QUICKEN_SITE_FAILED and whose _PyCode_Quicken
 * forgets a code object's records (quicken_sites_forget); a build without Py_STATS defines
 * QUICKEN_SITE_FAILED as nothing.
 */
#ifndef QUICKEN_SITES_H
#define QUICKEN_SITES_H

#ifdef Py_STATS
/* A table of QUICKEN_SITES slots found from the instruction's address, each instruction in one
   of QUICKEN_SITE_WAYS slots from there: bounded memory (a new instruction whose slots are all
   taken replaces the first one's record). Quickening a code object forgets its instructions'
   records, so that a new code object at a freed one's address inherits nothing. */
#define QUICKEN_SITES (1 << 18)
#define QUICKEN_SITE_WAYS 4
static struct {
    _Py_CODEUNIT *instr;
    uint8_t opcode;  // the family's generic opcode
    uint8_t kind;    // its failure kind (opcode._specialization_failure_kinds)
} quicken_sites[QUICKEN_SITES + QUICKEN_SITE_WAYS];

static inline size_t
quicken_site_slot(const _Py_CODEUNIT *instr)
{
    return (size_t)((((uint64_t)(uintptr_t)instr >> 1) * 0x9E3779B97F4A7C15ull) >> (64 - 18));
}

/* The slot that holds INSTR's record, or NULL. */
static inline size_t
quicken_site_find(const _Py_CODEUNIT *instr)
{
    size_t slot = quicken_site_slot(instr);
    for (size_t way = 0; way < QUICKEN_SITE_WAYS; way++) {
        if (quicken_sites[slot + way].instr == instr) {
            return slot + way;
        }
    }
    return (size_t)-1;
}

static void
quicken_site_failed(_Py_CODEUNIT *instr, int opcode, int kind)
{
    size_t slot = quicken_site_find(instr);
    if (slot == (size_t)-1) {
        slot = quicken_site_slot(instr);
        for (size_t way = 0; way < QUICKEN_SITE_WAYS; way++) {
            if (quicken_sites[slot + way].instr == NULL) {
                slot += way;
                break;
            }
        }
    }
    quicken_sites[slot].instr = instr;
    quicken_sites[slot].opcode = (uint8_t)opcode;
    quicken_sites[slot].kind = (uint8_t)kind;
}

static void
quicken_sites_forget(_Py_CODEUNIT *first, Py_ssize_t count)
{
    for (Py_ssize_t i = 0; i < count; i++) {
        size_t slot = quicken_site_find(first + i);
        if (slot != (size_t)-1) {
            quicken_sites[slot].instr = NULL;
        }
    }
}

/* {offset in bytes: (family opcode, failure kind)} of CODE's instructions with a recorded
   failure. */
PyObject *
_PyQuicken_SiteFailures(PyObject *Py_UNUSED(module), PyObject *code)
{
    if (!PyCode_Check(code)) {
        PyErr_Format(PyExc_TypeError, "expected a code object, got %.200s",
                     Py_TYPE(code)->tp_name);
        return NULL;
    }
    _Py_CODEUNIT *first = _PyCode_CODE((PyCodeObject *)code);
    PyObject *result = PyDict_New();
    if (result == NULL) {
        return NULL;
    }
    for (Py_ssize_t i = 0; i < Py_SIZE(code); i++) {
        size_t slot = quicken_site_find(first + i);
        if (slot == (size_t)-1) {
            continue;
        }
        PyObject *offset = PyLong_FromSsize_t(i * (Py_ssize_t)sizeof(_Py_CODEUNIT));
        PyObject *record = Py_BuildValue("(ii)", quicken_sites[slot].opcode,
                                         quicken_sites[slot].kind);
        if (offset == NULL || record == NULL || PyDict_SetItem(result, offset, record) < 0) {
            Py_XDECREF(offset);
            Py_XDECREF(record);
            Py_DECREF(result);
            return NULL;
        }
        Py_DECREF(offset);
        Py_DECREF(record);
    }
    return result;
}
#define QUICKEN_SITE_FAILED(instr, opcode, kind) quicken_site_failed((instr), (opcode), (kind))
#else
#define QUICKEN_SITE_FAILED(instr, opcode, kind) ((void)0)
#endif

#endif  /* QUICKEN_SITES_H */
