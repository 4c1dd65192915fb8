"""Guards come first: the statement model (generator/statements.py) and the checks built on it.
Each hazard the generator rejects, with the diagnostic pointing at the change and, in a note,
at the DEOPT_IF it precedes; and the shapes that are not hazards."""

from __future__ import annotations

import genutil
from genutil import errors, run_cli, tree

WHY = ("a guard must come before anything that changes state (on a miss, the generic "
       "instruction runs again from the state on entry)")

FAMILY = """
cache C {
    counter: 1;
}
inst A = 100 (left, right -- res) {
    res = PyNumber_Add(left, right);
}
inst A_AD (left, right -- unused) {
    DISPATCH_SAME_OPARG();
}
family A {
    cache: C;
    adaptive: A_AD;
    members: A_M;
}
"""


def member(body: str, effect: str = "(left, right -- res)") -> str:
    """The project: FAMILY plus member A_M with `body` (starting on line 1), which releases
    `right` at its end (the bodies here are about guards, not references)."""
    release = "Py_DECREF(right);\n" if "right" in effect.split("--")[0] else ""
    return f"inst A_M {effect} {{\n{genutil.dedent(body)}{release}}}\n" + FAMILY


def guard_errors(project, body: str, effect: str = "(left, right -- res)"):
    """[(line, col, message, [(note line, note col, note)])] of the member's body."""
    diags = errors(project({"a.inst": member(body, effect)}))
    return [(d.location.line, d.location.col, d.message,
             [(loc.line, loc.col, text) for loc, text in d.notes]) for d in diags]


def loads(project, body: str, effect: str = "(left, right -- res)"):
    return genutil.model_of(project({"a.inst": member(body, effect)}))


def test_refcount_and_stack_changes_before_a_guard(project):
    # The example: the miss path would re-run A on a stack that no longer holds right.
    assert guard_errors(project, """
        Py_DECREF(right);
        STACK_SHRINK(1);
        DEOPT_IF(!PyLong_CheckExact(left));
        res = left;
    """) == [
        (2, 1, f"a reference-count change (Py_DECREF) before a DEOPT_IF in A_M: {WHY}",
         [(4, 1, "the DEOPT_IF it precedes")]),
        (3, 1, "STACK_SHRINK in the middle of A_M: after moving the stack itself a body must "
               "leave by an exit of its own (goto, return, JUMP_TO_INSTRUCTION...), but the end of "
               "the block follows, which moves the stack from where it was on entry", []),
        (3, 1, f"a stack change (STACK_SHRINK) before a DEOPT_IF in A_M: {WHY}",
         [(4, 1, "the DEOPT_IF it precedes")]),
    ]


def test_a_write_through_a_pointer_before_a_guard(project):
    assert guard_errors(project, """
        PyDictKeyEntry *ep = DK_ENTRIES(keys);
        ep->me_value = right;
        DEOPT_IF(ep->me_key != left);
        res = left;
    """) == [(3, 14, f"a write to memory through a pointer or an array before a DEOPT_IF in "
                     f"A_M: {WHY}", [(4, 1, "the DEOPT_IF it precedes")])]


def test_a_call_and_a_statistics_update_before_a_guard(project):
    assert guard_errors(project, """
        STAT_INC(A, hit);
        res = PyObject_GetAttr(left, right);
        DEOPT_IF(res == NULL);
    """) == [
        (2, 1, f"a statistics update (STAT_INC) before a DEOPT_IF in A_M: {WHY}",
         [(4, 1, "the DEOPT_IF it precedes")]),
        (3, 7, "a call to PyObject_GetAttr(), which may have side effects (not in the "
               f"generator's PURE_CALLS nor a Py*_Check type check) before a DEOPT_IF in A_M: {WHY}",
         [(4, 1, "the DEOPT_IF it precedes")]),
    ]


def test_a_call_with_side_effects_in_the_guard_itself(project):
    assert guard_errors(project, """
        DEOPT_IF(PyObject_IsTrue(left) > 0);
        res = left;
    """) == [(2, 10, "a call to PyObject_IsTrue(), which may have side effects (not in the "
                     f"generator's PURE_CALLS nor a Py*_Check type check) before a DEOPT_IF in A_M: {WHY}",
              [(2, 1, "the DEOPT_IF it precedes")])]


def test_type_checks_of_the_c_api_are_pure_by_name(project):
    # Py*_Check and Py*_CheckExact read the type and its slots: allowed before a guard and in
    # it, listed or not; a name that only looks similar is not.
    loads(project, """
        int seq = PySequence_Check(left) && !PySet_Check(right);
        DEOPT_IF(PyIter_Check(left) || PyFrozenSet_CheckExact(right) || !seq);
        res = left;
    """)  # no error
    assert [e[2] for e in guard_errors(project, """
        DEOPT_IF(PySet_CheckAndClear(left));
        res = left;
    """)] == ["a call to PySet_CheckAndClear(), which may have side effects (not in the "
              f"generator's PURE_CALLS nor a Py*_Check type check) before a DEOPT_IF in A_M: {WHY}"]


def test_increments_of_memory_and_of_the_loop_state_before_a_guard(project):
    # `n++` of a local changes nothing outside the body; through a member, an element or a
    # pointer it writes memory, and the loop's own names (oparg, next_instr...) are state.
    msgs = [e[:3] for e in guard_errors(project, """
        int n = 0;
        n++;
        ++n;
        keys->dk_nentries++;
        counts[n]--;
        (*ptr)++;
        ++*ptr;
        oparg = 2;
        next_instr += 1;
        f(&oparg);
        DEOPT_IF(n != 2);
        res = left;
    """)]
    write = f"a write to memory through a pointer or an array before a DEOPT_IF in A_M: {WHY}"
    assert msgs == [
        (5, 18, write), (6, 10, write), (7, 7, write), (8, 1, write),
        (9, 1, f"an assignment to the evaluation loop's 'oparg' before a DEOPT_IF in A_M: {WHY}"),
        (10, 1, f"an assignment to the evaluation loop's 'next_instr' before a DEOPT_IF in A_M: "
                f"{WHY}"),
        (11, 1, "a call to f(), which may have side effects (not in the generator's PURE_CALLS "
                f"nor a Py*_Check type check) before a DEOPT_IF in A_M: {WHY}"),
        (11, 4, f"an assignment to the evaluation loop's 'oparg' before a DEOPT_IF in A_M: {WHY}"),
    ]


def test_assignments_to_names_the_body_does_not_declare_before_a_guard(project):
    # A name the body neither declares nor takes from the stack is a global or a static: it
    # outlives the instruction. Locals (declared alone, in a list, in a loop header) and the
    # stack items are the body's own.
    msgs = [e[:3] for e in guard_errors(project, """
        int a, *b, c = 0;
        a = 1;
        b = &c;
        for (int i = 0; i < 2; i++) { c += i; }
        left = NULL;
        _Py_QuickenedCount++;
        last_seen = a;
        DEOPT_IF(c != 1);
        res = right;
    """)]
    why = "which the body does not declare (a global or static variable outlives the instruction)"
    assert msgs == [
        (7, 1, f"an assignment to '_Py_QuickenedCount', {why} before a DEOPT_IF in A_M: {WHY}"),
        (8, 1, f"an assignment to 'last_seen', {why} before a DEOPT_IF in A_M: {WHY}"),
    ]


def test_calls_through_pointers_and_type_slots_before_a_guard(project):
    msgs = [e[:3] for e in guard_errors(project, """
        PyObject *x = Py_TYPE(left)->tp_getattro(left, right);
        int y = (*hook)(left);
        int z = table[0](right);
        PyObject *w = (PyObject *)(left);
        DEOPT_IF(x == NULL);
        res = w;
    """)]
    assert msgs == [
        (2, 30, "a call through a type slot or a function pointer (tp_getattro), which may run "
                f"any code before a DEOPT_IF in A_M: {WHY}"),
        (3, 16, "a call through a function pointer, which may run any code before a DEOPT_IF in "
                f"A_M: {WHY}"),
        (4, 17, "a call through a function pointer, which may run any code before a DEOPT_IF in "
                f"A_M: {WHY}"),
    ]  # the cast on line 5 is none


def test_reads_that_write_are_not_pure_and_refcnt_is(project):
    # _PyObject_GetDictPtr materializes the dict of an object with inline values;
    # Py_REFCNT only reads.
    assert [e[2] for e in guard_errors(project, """
        PyObject **dictptr = _PyObject_GetDictPtr(left);
        DEOPT_IF(dictptr == NULL);
        res = left;
    """)] == ["a call to _PyObject_GetDictPtr(), which may have side effects (not in the "
              f"generator's PURE_CALLS nor a Py*_Check type check) before a DEOPT_IF in A_M: {WHY}"]
    loads(project, """
        DEOPT_IF(Py_REFCNT(left) != 1);
        res = left;
    """)  # no error


def test_a_change_in_an_if_without_else_may_precede(project):
    assert guard_errors(project, """
        if (Py_TYPE(left) == &PyFloat_Type) {
            Py_INCREF(left);
        }
        DEOPT_IF(!PyFloat_CheckExact(right));
        res = left;
    """) == [(3, 5, f"a reference-count change (Py_INCREF) before a DEOPT_IF in A_M: {WHY}",
              [(5, 1, "the DEOPT_IF it precedes")])]


def test_a_change_later_in_a_loop_precedes_the_next_round(project):
    assert guard_errors(project, """
        for (int i = 0; i < 2; i++) {
            DEOPT_IF(Py_TYPE(left) != &PyLong_Type);
            Py_INCREF(left);
        }
        res = left;
    """) == [(4, 5, f"a reference-count change (Py_INCREF) before a DEOPT_IF in A_M: {WHY}",
              [(3, 5, "the DEOPT_IF it precedes")])]


def test_changes_on_other_paths_are_not_hazards(project):
    # The other branch of an if/else (STORE_ATTR_WITH_HINT's two key layouts), a branch that
    # always leaves, assertions, locals, and everything after the last guard.
    m = loads(project, """
        PyObject *seen = NULL;
        assert(PyObject_IsTrue(left) >= 0);
        if (Py_TYPE(left) == &PyLong_Type) {
            DEOPT_IF(Py_SIZE(left) > 1);
            seen = left;
        }
        else {
            Py_INCREF(left);
            res = left;
            Py_DECREF(right);
            DISPATCH();
        }
        if (seen == NULL) {
            Py_DECREF(right);
            ERROR_IF(true, error);
        }
        DEOPT_IF(PyTuple_GET_SIZE(right) != 2);
        STAT_INC(A, hit);
        res = PyNumber_Add(left, right);
    """)
    assert [i.name for i in m.specialized_instructions()] == ["A_AD", "A_M"]


def test_the_diagnostic_shows_both_statements_and_nothing_is_written(project):
    root = project({"a.inst": member("""
        Py_DECREF(right);
        DEOPT_IF(!PyLong_CheckExact(left));
        res = left;
    """)})
    result = run_cli("generate", "--root", str(root), "--output-root", str(root / "out"))
    assert result.returncode == 1
    assert result.stderr == (
        f"instructions/a.inst:2:1: error: a reference-count change (Py_DECREF) before a "
        f"DEOPT_IF in A_M: {WHY}\n"
        "Py_DECREF(right);\n"
        "^\n"
        "instructions/a.inst:3:1: note: the DEOPT_IF it precedes\n"
        "DEOPT_IF(!PyLong_CheckExact(left));\n"
        "^\n"
        "1 error(s); nothing was written\n")
    assert tree(root) == ["instructions/a.inst"]


# -- outputs assigned however the body does it ------------------------------------------------

def test_outputs_set_through_address_compound_assignment_and_setref(project):
    m = genutil.model_of(project("""
        inst B = 101 (x -- res, n, r2) {
            int err = _PyLong_Into(x, &res);
            n += 1;
            Py_SETREF(r2, x);
            ERROR_IF(err < 0, error);
        }
    """))
    body = m.instructions[0].parts[0].body
    assigned = set().union(*(s.all_assigns for s in body.statements))
    assert assigned == {"res", "n", "r2", "err"}


def test_an_output_never_assigned_by_any_form(project):
    diags = errors(project({"a.inst": member("""
        DEOPT_IF(!PyLong_CheckExact(left));
        PyObject *other = left;
        use(&other);
    """)}))
    assert [(d.location.line, d.message) for d in diags] == [
        (1, "output 'res' of A_M is never assigned")]
