"""Where the cases store their outputs and how they leave on errors (emit_cases.py), on small
projects: eager stores right after an output is final, the unconditional store of a conditional
output below an unconditional one, the shared `pop_N_error` exits, braces around an expanded
ERROR_IF standing as an unbraced branch.

Besides the exact text, genutil.simulate() runs the straight path of a case (no branch taken)
over a symbolic stack, so the tests also check what ends up where for several opargs.
"""

from __future__ import annotations

import pytest

import genutil
from generator import model
from genutil import OUTPUTS, case_of, dedent, simulate


def case_in(project, text: str, name: str = "A") -> str:
    return case_of(genutil.generate(project(text))[OUTPUTS["cases"]], name)


def cases_file(project, text: str) -> str:
    return genutil.generate(project(text))[OUTPUTS["cases"]]


# -- eager stores -------------------------------------------------------------------------------

def test_output_is_stored_right_after_its_assignment(project):
    # As upstream's SET_TOP(): stored before the inputs are released; the ERROR_IF after it
    # pops the slot, and the epilogue only moves the stack pointer.
    case = case_in(project, """
        inst A = 100 (x, y -- r) {
            r = f(x, y);
            Py_DECREF(x);
            Py_DECREF(y);
            ERROR_IF(r == NULL, error);
        }
    """)
    assert case == dedent("""
        TARGET(A) {
            PyObject *y = PEEK(1);
            PyObject *x = PEEK(2);
            PyObject *r;
            r = f(x, y);
            POKE(2, r);
            Py_DECREF(x);
            Py_DECREF(y);
            if (r == NULL) goto pop_2_error;
            STACK_SHRINK(1);
            DISPATCH();
        }
    """)
    assert simulate(case, 0, ["s", "x", "y"]) == ["s", "r"]


def test_the_last_assignment_decides(project):
    case = case_in(project, """
        inst A = 100 (x -- r) {
            r = f(x);
            g(r);
            r = h(r);
            Py_DECREF(x);
        }
    """)
    assert case == dedent("""
        TARGET(A) {
            PyObject *x = PEEK(1);
            PyObject *r;
            r = f(x);
            g(r);
            r = h(r);
            POKE(1, r);
            Py_DECREF(x);
            DISPATCH();
        }
    """)


def test_an_assignment_inside_a_statement_stores_after_the_whole_statement(project):
    case = case_in(project, """
        inst A = 100 (x -- r) {
            if (x == NULL) {
                r = f();
            }
            else {
                r = g(x);
            }
            Py_XDECREF(x);
        }
    """)
    assert case.endswith("    else {\n        r = g(x);\n    }\n    POKE(1, r);\n"
                         "    Py_XDECREF(x);\n    DISPATCH();\n}\n")


def test_outputs_growing_the_stack_are_stored_above_the_entry_stack_pointer(project):
    # POKE's index is relative to the stack pointer on entry: 0 and -1 are the two free slots
    # the stack grows into.
    case = case_in(project, """
        inst A = 100 (-- a, b) {
            a = f();
            b = g();
            h();
        }
    """)
    assert case == dedent("""
        TARGET(A) {
            PyObject *a;
            PyObject *b;
            a = f();
            POKE(0, a);
            b = g();
            POKE(-1, b);
            h();
            STACK_GROW(2);
            DISPATCH();
        }
    """)
    assert simulate(case, 0, ["s"]) == ["s", "a", "b"]


def test_output_assigned_by_the_last_statement_is_stored_by_the_epilogue(project):
    case = case_in(project, """
        inst A = 100 (x -- r) {
            Py_DECREF(x);
            r = f();
        }
    """)
    assert case.endswith("    Py_DECREF(x);\n    r = f();\n    POKE(1, r);\n    DISPATCH();\n}\n")
    assert case.count("POKE") == 1


# Statements after which an output may be stored, and before which it may not: they may leave
# the instruction with the entry stack in place, or read or move the stack.
BLOCKING_STATEMENTS = [
    "goto error;",
    "return NULL;",
    "JUMP_TO_INSTRUCTION(A);",
    "DISPATCH_GOTO_TRACED();",
    "DISPATCH_SAME_OPARG();",
    "Py_UNREACHABLE();",
    "STACK_SHRINK(1); goto error;",  # a body that moves the stack leaves by its own exit
    "STACK_GROW(1); goto error;",
    "_PyFrame_SetStackPointer(frame, stack_pointer);",
]


@pytest.mark.parametrize("statement", BLOCKING_STATEMENTS)
def test_store_waits_for_a_statement_that_may_leave_or_touch_the_stack(project, statement):
    case = case_in(project, f"""
        inst A = 100 (x -- r) {{
            r = f(x);
            if (c) {{
                {statement}
            }}
            g(x);
        }}
    """)
    assert (f"    r = f(x);\n    if (c) {{\n        {statement}\n    }}\n    POKE(1, r);\n"
            f"    g(x);\n    DISPATCH();\n}}\n") in case
    assert case.count("POKE") == 1


def test_store_waits_for_every_form_of_assignment(project):
    # Py_CLEAR in a branch (upstream GET_AWAITABLE), an address handed to a call, `+=`: a store
    # after the first `r = ` would leave a stale value in the slot.
    case = case_in(project, """
        inst A = 100 (x -- r) {
            r = f(x);
            Py_DECREF(x);
            if (r != NULL && g(r)) {
                Py_CLEAR(r);
            }
            ERROR_IF(r == NULL, error);
            h();
        }
    """)
    assert case == dedent("""
        TARGET(A) {
            PyObject *x = PEEK(1);
            PyObject *r;
            r = f(x);
            Py_DECREF(x);
            if (r != NULL && g(r)) {
                Py_CLEAR(r);
            }
            POKE(1, r);
            if (r == NULL) goto pop_1_error;
            h();
            DISPATCH();
        }
    """)
    for assignment in ("int err = get(x, &r);", "r += 1;", "Py_SETREF(r, x);"):
        case = case_in(project, f"""
            inst A = 100 (x -- r) {{
                r = NULL;
                {assignment}
                h(x);
            }}
        """)
        assert f"    {assignment}\n    POKE(1, r);\n    h(x);\n" in case, assignment


def test_store_waits_for_the_last_deopt_if(project):
    case = case_in(project, """
        cache C {
            counter: 1;
        }
        inst A = 100 (x -- r) {
            r = f(x);
        }
        inst A_AD (x -- unused) {
            DISPATCH_SAME_OPARG();
        }
        inst A_M (x -- r) {
            r = PyTuple_GET_ITEM(x, 0);
            DEOPT_IF(r == NULL);
            DEOPT_IF(Py_TYPE(r) != &PyLong_Type);
            h(x);
        }
        family A {
            cache: C;
            adaptive: A_AD;
            members: A_M;
        }
    """, "A_M")
    assert case.endswith("    r = PyTuple_GET_ITEM(x, 0);\n    DEOPT_IF(r == NULL, A);\n"
                         "    DEOPT_IF(Py_TYPE(r) != &PyLong_Type, A);\n    POKE(1, r);\n"
                         "    h(x);\n    JUMPBY(INLINE_CACHE_ENTRIES_A);\n    DISPATCH();\n}\n")


def test_store_waits_for_dispatch_jumped(project):
    case = case_in(project, """
        inst A = 100 [jump_forward] (x -- r) jump (x --) {
            r = f(x);
            if (c) {
                DISPATCH_JUMPED();
            }
            g(x);
        }
    """)
    assert case == dedent("""
        TARGET(A) {
            PyObject *x = PEEK(1);
            PyObject *r;
            r = f(x);
            if (c) {
                STACK_SHRINK(1);
                DISPATCH();
            }
            POKE(1, r);
            g(x);
            DISPATCH();
        }
    """)


def test_store_waits_for_a_use_of_an_array(project):
    case = case_in(project, """
        inst A = 100 (args[oparg], x -- r) {
            r = f(x);
            g(args, oparg);
            Py_DECREF(x);
        }
    """)
    assert case == dedent("""
        TARGET(A) {
            PyObject *x = PEEK(1);
            PyObject **args = &PEEK((Py_ssize_t)oparg + 1);
            PyObject *r;
            r = f(x);
            g(args, oparg);
            POKE((Py_ssize_t)oparg + 1, r);
            Py_DECREF(x);
            STACK_SHRINK(oparg);
            DISPATCH();
        }
    """)
    assert simulate(case, 2, ["s", "a0", "a1", "x"]) == ["s", "r"]
    assert simulate(case, 0, ["s", "x"]) == ["s", "r"]


def test_error_if_dispatch_and_predict_do_not_hold_the_store_back(project):
    case = case_in(project, """
        inst A = 100 (x -- r) {
            r = f(x);
            ERROR_IF(r == NULL, error);
            if (c) DISPATCH();
            Py_DECREF(x);
            PREDICT(A);
        }
    """)
    assert case == dedent("""
        TARGET(A) {
            PREDICTED(A);
            PyObject *x = PEEK(1);
            PyObject *r;
            r = f(x);
            POKE(1, r);
            if (r == NULL) goto pop_1_error;
            if (c) DISPATCH();
            Py_DECREF(x);
            PREDICT(A);
            DISPATCH();
        }
    """)


def test_a_blocking_statement_last_leaves_the_store_to_the_epilogue(project):
    case = case_in(project, """
        inst A = 100 (x -- r) {
            r = f(x);
            g(x);
            if (r == NULL) {
                goto error;
            }
        }
    """)
    assert case.endswith("        goto error;\n    }\n    POKE(1, r);\n    DISPATCH();\n}\n")
    assert case.count("POKE") == 1


def test_an_early_dispatch_after_the_store_does_not_store_again(project):
    case = case_in(project, """
        inst A = 100 (x -- r) {
            r = f(x);
            if (c) {
                DISPATCH();
            }
            Py_DECREF(x);
        }
    """)
    assert case == dedent("""
        TARGET(A) {
            PyObject *x = PEEK(1);
            PyObject *r;
            r = f(x);
            POKE(1, r);
            if (c) {
                DISPATCH();
            }
            Py_DECREF(x);
            DISPATCH();
        }
    """)


def test_an_early_dispatch_before_the_store_stores_itself(project):
    case = case_in(project, """
        inst A = 100 (x -- r) {
            r = f(x);
            if (c) {
                DISPATCH();
            }
            r = g(r);
            Py_DECREF(x);
        }
    """)
    assert case == dedent("""
        TARGET(A) {
            PyObject *x = PEEK(1);
            PyObject *r;
            r = f(x);
            if (c) {
                POKE(1, r);
                DISPATCH();
            }
            r = g(r);
            POKE(1, r);
            Py_DECREF(x);
            DISPATCH();
        }
    """)


def test_pass_through_conditional_and_array_outputs_are_not_stored_early(project):
    case = case_in(project, """
        inst A = 100 (x -- x, n if (oparg & 1), v[oparg]) {
            n = NULL;
            fill(v, oparg);
            g(x);
        }
    """)
    assert case == dedent("""
        TARGET(A) {
            PyObject *x = PEEK(1);
            PyObject *n;
            PyObject **v = &PEEK(-((oparg & 1) ? 1 : 0));
            n = NULL;
            fill(v, oparg);
            g(x);
            STACK_GROW(((oparg & 1) ? 1 : 0) + (Py_ssize_t)oparg);
            if (oparg & 1) { POKE((Py_ssize_t)oparg + ((oparg & 1) ? 1 : 0), n); }
            DISPATCH();
        }
    """)


def test_each_part_of_a_composition_stores_relative_to_its_own_entry(project):
    # A part that reads the stack pointer itself: the parts write the stack one by one.
    case = case_in(project, """
        op _P1 (-- a) {
            a = f();
            g(stack_pointer);
        }
        op _P2 (a -- b) {
            b = h(a);
            Py_DECREF(a);
        }
        inst A = 100 : _P1 + _P2;
    """)
    assert case == dedent("""
        TARGET(A) {
            {  // _P1
                PyObject *a;
                a = f();
                g(stack_pointer);
                STACK_GROW(1);
                POKE(1, a);
            }
            {  // _P2
                PyObject *a = PEEK(1);
                PyObject *b;
                b = h(a);
                POKE(1, b);
                Py_DECREF(a);
            }
            DISPATCH();
        }
    """)
    assert simulate(case, 0, ["s"]) == ["s", "b"]


def test_a_composition_hands_values_on_in_variables_and_writes_the_stack_at_its_end(project):
    case = case_in(project, """
        op _P1 (-- a) {
            a = f();
            g();
        }
        op _P2 (a -- b) {
            b = h(a);
            Py_DECREF(a);
        }
        op _P3 (x, unused -- y, unused, x) {
            y = NULL;
        }
        inst A = 100 : _P1 + _P2 + _P3;
    """)
    assert case == dedent("""
        TARGET(A) {
            PyObject *a;
            PyObject *b;
            PyObject *y;
            PyObject *x = PEEK(1);
            {  // _P1
                a = f();
                g();
            }
            {  // _P2
                b = h(a);
                Py_DECREF(a);
            }
            {  // _P3
                y = NULL;
            }
            STACK_GROW(2);
            POKE(3, y);
            POKE(2, b);
            POKE(1, x);
            DISPATCH();
        }
    """)
    assert simulate(case, 0, ["s", "x"]) == ["s", "y", "b", "x"]


def test_error_exits_of_a_symbolic_composition_write_the_stack_first(project):
    # As part by part: ERROR_IF pops the part's inputs, a raw goto leaves them on the stack;
    # values still in variables are written first.
    case = case_in(project, """
        op _P1 (a -- b, c) {
            b = f(a);
            c = g(a);
            Py_DECREF(a);
        }
        op _P2 (c -- d) {
            if (c == NULL) {
                goto error;
            }
            d = h(c);
            ERROR_IF(d == NULL, error);
        }
        inst A = 100 : _P1 + _P2;
    """)
    assert case == dedent("""
        TARGET(A) {
            PyObject *a = PEEK(1);
            PyObject *b;
            PyObject *c;
            PyObject *d;
            {  // _P1
                b = f(a);
                c = g(a);
                Py_DECREF(a);
            }
            {  // _P2
                if (c == NULL) {
                    STACK_GROW(1);
                    POKE(2, b);
                    POKE(1, c);
                    goto error;
                }
                d = h(c);
                if (d == NULL) {
                    POKE(1, b);
                    goto error;
                }
            }
            STACK_GROW(1);
            POKE(2, b);
            POKE(1, d);
            DISPATCH();
        }
    """)


# Generator bugs of the eager stores.

def test_store_after_a_conditionally_compiled_assignment_reaches_every_build(project):
    case = case_in(project, """
        inst A = 100 (x -- r) {
            #ifdef Py_STATS
            r = f(x);
            #else
            r = g(x);
            #endif
            Py_DECREF(x);
        }
    """)
    for defined in (True, False):
        kept = genutil.preprocess(case, {"Py_STATS"} if defined else set())
        assert simulate(kept, 0, ["s", "x"]) == ["s", "r"], kept


def test_store_after_a_do_while_statement(project):
    case = case_in(project, """
        inst A = 100 (x -- r) {
            do {
                r = f(x);
            } while (0);
            Py_DECREF(x);
        }
    """)
    assert "    } while (0);\n    POKE(1, r);\n    Py_DECREF(x);\n" in case


def test_store_goes_after_the_comment_ending_the_statement_line(project):
    case = case_in(project, """
        inst A = 100 (x -- r) {
            r = f(x);  // why
            Py_DECREF(x);
        }
    """)
    assert "    r = f(x);  // why\n    POKE(1, r);\n    Py_DECREF(x);\n" in case


# -- a conditional output below an unconditional one --------------------------------------------

def test_conditional_output_below_is_stored_unconditionally_before_the_move(project):
    # As upstream LOAD_GLOBAL's `PEEK(0) = NULL` before STACK_GROW(push_null): when null is
    # absent, v lands on its slot and overwrites it.
    case = case_in(project, """
        inst A = 100 (-- null if (oparg & 1), v) {
            null = NULL;
            v = f();
        }
    """)
    assert case == dedent("""
        TARGET(A) {
            PyObject *null;
            PyObject *v;
            null = NULL;
            v = f();
            POKE(0, null);
            STACK_GROW(((oparg & 1) ? 1 : 0) + 1);
            POKE(1, v);
            DISPATCH();
        }
    """)
    assert simulate(case, 0, ["s"]) == ["s", "v"]
    assert simulate(case, 1, ["s"]) == ["s", "null", "v"]


def test_conditional_output_below_over_an_input(project):
    case = case_in(project, """
        inst A = 100 (x -- null if (oparg & 1), v) {
            null = NULL;
            v = f(x);
        }
    """)
    assert case.endswith("    v = f(x);\n    POKE(1, null);\n    STACK_GROW(((oparg & 1) ? 1 : 0));\n"
                         "    POKE(1, v);\n    DISPATCH();\n}\n")
    assert simulate(case, 0, ["s", "x"]) == ["s", "v"]
    assert simulate(case, 1, ["s", "x"]) == ["s", "null", "v"]


def test_two_conditional_outputs_below(project):
    case = case_in(project, """
        inst A = 100 (-- a if (oparg & 1), b if (oparg & 2), v) {
            a = NULL;
            b = NULL;
            v = f();
        }
    """)
    assert case.endswith("    POKE(0, a);\n    POKE(-((oparg & 1) ? 1 : 0), b);\n"
                         "    STACK_GROW(((oparg & 1) ? 1 : 0) + ((oparg & 2) ? 1 : 0) + 1);\n"
                         "    POKE(1, v);\n    DISPATCH();\n}\n")
    expected = {0: ["v"], 1: ["a", "v"], 2: ["b", "v"], 3: ["a", "b", "v"]}
    for oparg, pushed in expected.items():
        assert simulate(case, oparg, ["s"]) == ["s"] + pushed, oparg


def test_conditional_output_on_top_is_stored_only_when_present(project):
    case = case_in(project, """
        inst A = 100 (-- v, null if (oparg & 1)) {
            null = NULL;
            v = f();
        }
    """)
    assert case.endswith("    STACK_GROW(((oparg & 1) ? 1 : 0) + 1);\n"
                         "    POKE(((oparg & 1) ? 1 : 0) + 1, v);\n"
                         "    if (oparg & 1) { POKE(((oparg & 1) ? 1 : 0), null); }\n"
                         "    DISPATCH();\n}\n")
    assert simulate(case, 0, ["s"]) == ["s", "v"]
    assert simulate(case, 1, ["s"]) == ["s", "v", "null"]


def test_outputs_above_a_conditional_output_are_left_to_the_epilogue(project):
    # Stored early, v would sit where null goes when present; the epilogue stores null first,
    # unconditionally, then v over it when null is absent.
    case = case_in(project, """
        inst A = 100 (-- null if (oparg & 1), v) {
            v = f();
            g();
            null = NULL;
        }
    """)
    assert case == dedent("""
        TARGET(A) {
            PyObject *null;
            PyObject *v;
            v = f();
            g();
            null = NULL;
            POKE(0, null);
            STACK_GROW(((oparg & 1) ? 1 : 0) + 1);
            POKE(1, v);
            DISPATCH();
        }
    """)
    assert simulate(case, 0, ["s"]) == ["s", "v"]
    assert simulate(case, 1, ["s"]) == ["s", "null", "v"]


def test_every_output_above_a_conditional_output_is_left_to_the_epilogue(project):
    case = case_in(project, """
        inst A = 100 (-- null if (oparg & 1), v1, v2) {
            v1 = f();
            g();
            null = NULL;
            v2 = h();
        }
    """)
    assert case.endswith("    v2 = h();\n    POKE(0, null);\n"
                         "    STACK_GROW(((oparg & 1) ? 1 : 0) + 2);\n"
                         "    POKE(2, v1);\n    POKE(1, v2);\n    DISPATCH();\n}\n")
    assert simulate(case, 1, ["s"]) == ["s", "null", "v1", "v2"]
    assert simulate(case, 0, ["s"]) == ["s", "v1", "v2"]


def test_an_output_below_a_conditional_output_is_still_stored_early(project):
    case = case_in(project, """
        inst A = 100 (-- v, null if (oparg & 1)) {
            v = f();
            g();
            null = NULL;
        }
    """)
    assert case == dedent("""
        TARGET(A) {
            PyObject *v;
            PyObject *null;
            v = f();
            POKE(0, v);
            g();
            null = NULL;
            STACK_GROW(((oparg & 1) ? 1 : 0) + 1);
            if (oparg & 1) { POKE(((oparg & 1) ? 1 : 0), null); }
            DISPATCH();
        }
    """)
    assert simulate(case, 0, ["s"]) == ["s", "v"]
    assert simulate(case, 1, ["s"]) == ["s", "v", "null"]


# -- ERROR_IF and the shared pop_N_error exits ---------------------------------------------------

@pytest.mark.parametrize("n", [1, 2, 3, 4])
def test_error_if_popping_1_to_4_inputs_jumps_to_a_shared_exit(project, n):
    names = [f"i{k}" for k in range(n)]
    case = case_in(project, f"""
        inst A = 100 ({", ".join(names)} -- r) {{
            r = f({", ".join(names)});
            ERROR_IF(r == NULL, error);
        }}
    """)
    assert f"    if (r == NULL) goto pop_{n}_error;\n" in case
    assert "STACK_SHRINK" not in case.split("goto pop_")[0]


@pytest.mark.parametrize("effect, pops", [
    ("(i0, i1, i2, i3, i4 -- r)", "5"),          # more than 4
    ("(args[oparg] -- r)", "oparg"),              # not a constant
    ("(x if (oparg & 1) -- r)", "((oparg & 1) ? 1 : 0)"),
])
def test_error_if_popping_other_counts_keeps_its_own_stack_shrink(project, effect, pops):
    case = case_in(project, f"""
        inst A = 100 {effect} {{
            r = f({", ".join(i.split()[0].split("[")[0] for i in effect[1:-6].split(", "))});
            ERROR_IF(r == NULL, error);
        }}
    """)
    assert (f"    if (r == NULL) {{\n        STACK_SHRINK({pops});\n        goto error;\n    }}\n"
            in case)
    assert "pop_" not in case


def test_error_if_to_another_label_keeps_its_own_stack_shrink(project):
    case = case_in(project, """
        inst A = 100 (x -- r) {
            r = f(x);
            ERROR_IF(r == NULL, exception_unwind);
        }
    """)
    assert ("    if (r == NULL) {\n        STACK_SHRINK(1);\n        goto exception_unwind;\n    }\n"
            in case)


def test_error_if_without_inputs_goes_to_its_label(project):
    case = case_in(project, """
        inst A = 100 (-- r) {
            r = f();
            ERROR_IF(r == NULL, error);
            g();
        }
    """)
    assert "    if (r == NULL) goto error;\n" in case


def labels(n: int) -> str:
    return ("        // ERROR_IF(cond, error) in an instruction with N inputs: pop them, then unwind.\n"
            + "".join(f"        pop_{k}_error:\n            STACK_SHRINK(1);\n" for k in range(n, 0, -1))
            + "            goto error;\n")


def test_the_cases_end_with_the_shared_exits_down_from_the_largest_used(project):
    text = cases_file(project, """
        inst A = 100 (a, b, c -- r) {
            r = f(a, b, c);
            ERROR_IF(r == NULL, error);
        }
        inst B = 101 (a -- r) {
            r = f(a);
            ERROR_IF(r == NULL, error);
        }
    """)
    assert text.endswith("            DISPATCH();\n        }\n\n" + labels(3))
    # Falling into pop_3_error pops 3 items, into pop_1_error 1.
    assert text.count("STACK_SHRINK(1);\n") == 3


def test_no_shared_exits_without_a_pop_n_error(project):
    text = cases_file(project, """
        inst A = 100 (-- r) {
            r = f();
            ERROR_IF(r == NULL, error);
        }
    """)
    assert text.endswith("            DISPATCH();\n        }\n")
    assert "pop_" not in text


# -- ERROR_IF as an unbraced branch --------------------------------------------------------------

def test_error_if_as_an_unbraced_branch_is_braced(project):
    case = case_in(project, """
        inst A = 100 (-- b) {
            b = f();
            if (x) ERROR_IF(b == NULL, error);
            else DISPATCH();
        }
    """)
    assert case == dedent("""
        TARGET(A) {
            PyObject *b;
            b = f();
            POKE(0, b);
            if (x) {
                if (b == NULL) goto error;
            }
            else {
                STACK_GROW(1);
                DISPATCH();
            }
            STACK_GROW(1);
            DISPATCH();
        }
    """)


def test_error_if_as_both_branches_is_braced(project):
    case = case_in(project, """
        inst A = 100 (a -- b) {
            b = f(a);
            if (x) ERROR_IF(b == NULL, exit);
            else ERROR_IF(b == NULL, error);
        }
    """)
    assert case == dedent("""
        TARGET(A) {
            PyObject *a = PEEK(1);
            PyObject *b;
            b = f(a);
            POKE(1, b);
            if (x) {
                if (b == NULL) {
                    STACK_SHRINK(1);
                    goto exit;
                }
            }
            else {
                if (b == NULL) goto pop_1_error;
            }
            DISPATCH();
        }
    """)


def test_error_if_in_a_block_or_after_a_block_comment_is_not_braced(project):
    case = case_in(project, """
        inst A = 100 (a -- b) {
            b = f(a);
            if (x) {
                ERROR_IF(b == NULL, error);
            }
            /* a comment */ ERROR_IF(b == NULL, exit);
        }
    """)
    assert "    if (x) {\n        if (b == NULL) goto pop_1_error;\n    }\n" in case
    assert ("    /* a comment */ if (b == NULL) {\n        STACK_SHRINK(1);\n        goto exit;\n"
            "    }\n") in case


def test_error_if_after_a_line_comment_is_not_braced(project):
    case = case_in(project, """
        inst A = 100 (a -- b) {
            b = f(a);
            // a comment
            ERROR_IF(b == NULL, error);
        }
    """)
    assert "    // a comment\n    if (b == NULL) goto pop_1_error;\n    DISPATCH();\n" in case


# -- how stack depths are written --------------------------------------------------------

@pytest.mark.parametrize("text, const, terms", [
    ("oparg", 0, {"oparg": 1}),
    ("(oparg-1)", -1, {"oparg": 1}),
    ("oparg + 2", 2, {"oparg": 1}),
    ("(oparg & 0xFF)", 0, {"(oparg & 0xFF)": 1}),
    ("3", 3, {}),
    ("oparg - 010", 0, {"oparg - 010": 1}),  # octal in C: left whole
])
def test_a_size_splits_name_plus_constant(text, const, terms):
    size = model.Size.term(text)
    assert (size.const, size.terms) == (const, terms)


@pytest.mark.parametrize("size, narrow, wide", [
    (model.Size(1, {"oparg": 1}), "oparg + 1", "(Py_ssize_t)oparg + 1"),
    (model.Size(0, {"oparg": 1}), "oparg", "oparg"),  # nothing to fold: left as it is
    (model.Size(2, {"(oparg & 0xFF)": 1, "(oparg >> 8)": 1}), "(oparg & 0xFF) + (oparg >> 8) + 2",
     "(Py_ssize_t)(oparg & 0xFF) + (Py_ssize_t)(oparg >> 8) + 2"),
    (model.Size(1, {"((oparg & 1) ? 1 : 0)": 1}), "((oparg & 1) ? 1 : 0) + 1",
     "((oparg & 1) ? 1 : 0) + 1"),  # a 0-or-1 item cannot wrap
    (model.Size(-1, {"oparg": 2}), "2 * oparg - 1", "2 * (Py_ssize_t)oparg - 1"),
])
def test_stack_depths_are_widened_before_a_constant_is_added(size, narrow, wide):
    assert size.render() == narrow
    assert size.render(wide=True) == wide


def test_the_real_cases_address_items_below_an_array_from_a_widened_depth():
    """PRECALL's `callable` sits one below `args[oparg]`: the C compiler can fold the 1 into
    the address only if the sum is not an int that must wrap first (-fwrapv)."""
    text = (genutil.ROOT / "runtime/generated/Python/generated_cases.c.h").read_text()
    precall = case_of(text, "PRECALL")
    assert "PyObject *callable = PEEK((Py_ssize_t)oparg + 1);" in precall
    assert "= PEEK(oparg + 1);" not in text and "STACK_SHRINK(oparg + 1);" not in text


def test_a_predict_in_a_branch_stays_in_its_branch(project):
    # Only a trailing statement of the completing statement's own block moves after the stack
    # update; one that is the branch of an `if` before it is that branch (moving it would leave
    # `if (c)` to take the epilogue's first line as its branch).
    case = case_in(project, """
        inst A = 100 (x --) {
            Py_DECREF(x);
            if (c) PREDICT(A);
            CHECK_EVAL_BREAKER();
            DISPATCH();
        }
    """)
    assert case == dedent("""
        TARGET(A) {
            PREDICTED(A);
            PyObject *x = PEEK(1);
            Py_DECREF(x);
            if (c) PREDICT(A);
            STACK_SHRINK(1);
            CHECK_EVAL_BREAKER();
            DISPATCH();
        }
    """)


def test_an_output_named_like_a_value_still_on_the_symbolic_stack_gets_a_name_of_its_own(
        project):
    # _P2's x is another value than _P1's x, which stays below it: _P2 writes its own x, copied
    # out at its end.
    case = case_in(project, """
        op _P1 (-- x, y) {
            x = f();
            y = g();
        }
        op _P2 (y -- x) {
            x = h(y);
            Py_DECREF(y);
        }
        inst A = 100 : _P1 + _P2;
    """)
    assert case == dedent("""
        TARGET(A) {
            PyObject *x;
            PyObject *y;
            PyObject *x_2;
            {  // _P1
                x = f();
                y = g();
            }
            {  // _P2
                PyObject *x;
                x = h(y);
                Py_DECREF(y);
                x_2 = x;
            }
            STACK_GROW(2);
            POKE(2, x);
            POKE(1, x_2);
            DISPATCH();
        }
    """)
    assert simulate(case, 0, ["s"]) == ["s", "x", "x_2"]  # the two values, in their order


# -- values handed between parts ----------------------------------------------------------------

def test_values_are_variables_of_the_case_in_a_symbolic_composition(project):
    # `t: T *` takes no slot: _P2 reads it by name, nothing stores it, and the stack is written
    # once at the end as without it.
    case = case_in(project, """
        op _P1 (a -- a, t: PyTypeObject *, n: int) {
            t = Py_TYPE(a);
            n = 2;
        }
        op _P2 (a, t: PyTypeObject * -- r) {
            r = f(a, t);
            Py_DECREF(a);
            ERROR_IF(r == NULL, error);
        }
        inst A = 100 : _P1 + _P2;
    """)
    assert case == dedent("""
        TARGET(A) {
            PyTypeObject *t;
            int n;
            PyObject *a = PEEK(1);
            PyObject *r;
            {  // _P1
                t = Py_TYPE(a);
                n = 2;
            }
            {  // _P2
                r = f(a, t);
                POKE(1, r);
                Py_DECREF(a);
                if (r == NULL) goto pop_1_error;
            }
            DISPATCH();
        }
    """)
    assert simulate(case, 0, ["s", "a"]) == ["s", "r"]



def test_a_raw_goto_in_a_symbolic_composition_leaves_inputs_still_in_their_slots(project):
    # COMPARE_OP_STR: `a` and `b`, read once into variables, still stand in their slots at the
    # `goto error` (an input is never assigned in such a composition): nothing is stored.
    case = case_in(project, """
        op _P1 (a, b -- a, b) {
            check(a, b);
        }
        op _P2 (a, b -- s: int) {
            s = cmp(a, b);
            if (s < 0) {
                goto error;
            }
            Py_DECREF(a);
            Py_DECREF(b);
        }
        op _P3 (s: int -- r) {
            r = box(s);
        }
        inst A = 100 : _P1 + _P2 + _P3;
    """)
    assert "goto error;" in case and "POKE(1, b);" not in case and "POKE(2, a);" not in case
    assert simulate(case, 0, ["a", "b"]) == ["r"]

def test_values_in_a_composition_that_writes_the_stack_part_by_part(project):
    # An array makes each part write its own effect; the value is declared before the parts,
    # the part that gives it assigns it, the last part reads it. The part before the guard
    # passes every item through (Instruction.unwritten_before), so the guard may stand in
    # part 2.
    case = case_in(project, """
        op _P1 (f, args[oparg] -- f, args[oparg], n: Py_ssize_t) {
            n = oparg + 1;
        }
        op _P2 (f, args[oparg], n: Py_ssize_t -- r) {
            DEOPT_IF(n > 3);
            r = g(f, args, n);
            ERROR_IF(r == NULL, error);
        }
        inst A_M : _P1 + _P2;
    """ + genutil.ARRAY_FAMILY, "A_M")
    assert case == dedent("""
        TARGET(A_M) {
            Py_ssize_t n;
            {  // _P1
                n = oparg + 1;
            }
            {  // _P2
                PyObject **args = &PEEK(oparg);
                PyObject *f = PEEK((Py_ssize_t)oparg + 1);
                PyObject *r;
                DEOPT_IF(n > 3, A);
                r = g(f, args, n);
                POKE((Py_ssize_t)oparg + 1, r);
                if (r == NULL) {
                    STACK_SHRINK((Py_ssize_t)oparg + 1);
                    goto error;
                }
                STACK_SHRINK(oparg);
            }
            JUMPBY(INLINE_CACHE_ENTRIES_A);
            DISPATCH();
        }
    """)
    assert simulate(case, 2, ["s", "f", "x", "y"]) == ["s", "r"]


def test_the_last_part_of_a_symbolic_composition_stores_its_output_when_final(project):
    # As a single body would (test_store_waits_for_the_last_deopt_if): the output of the last
    # part goes to its slot in the final stack, relative to the entry stack pointer, after
    # the part's last guard and before the releases and the ERROR_IF that pops the slot; the
    # end does not store it again. Earlier parts store nothing: a later part may still guard.
    case = case_in(project, """
        cache C {
            counter: 1;
        }
        inst A = 100 (x, y -- r) {
            r = f(x, y);
        }
        inst A_AD (x, y -- unused) {
            DISPATCH_SAME_OPARG();
        }
        op _G (a, b -- a, b) {
            DEOPT_IF(a == NULL);
        }
        op _F (a, b -- c) {
            c = PyTuple_GET_ITEM(a, 0);
            DEOPT_IF(c == NULL);
            Py_DECREF(a);
            Py_DECREF(b);
            ERROR_IF(c == Py_None, error);
        }
        inst A_M : _G + _F;
        family A {
            cache: C;
            adaptive: A_AD;
            members: A_M;
        }
    """, "A_M")
    assert case == dedent("""
        TARGET(A_M) {
            PyObject *a = PEEK(2);
            PyObject *b = PEEK(1);
            PyObject *c;
            {  // _G
                DEOPT_IF(a == NULL, A);
            }
            {  // _F
                c = PyTuple_GET_ITEM(a, 0);
                DEOPT_IF(c == NULL, A);
                POKE(2, c);
                Py_DECREF(a);
                Py_DECREF(b);
                if (c == Py_None) goto pop_2_error;
            }
            STACK_SHRINK(1);
            JUMPBY(INLINE_CACHE_ENTRIES_A);
            DISPATCH();
        }
    """)
    assert simulate(case, 0, ["s", "x", "y"]) == ["s", "c"]


def test_an_output_of_the_last_part_above_values_of_earlier_parts(project):
    # The last part's output stands above what earlier parts left in variables: its slot
    # counts them, and they are written at the end (or before an error exit) as before. An
    # output above the entry stack pointer is left to the end.
    case = case_in(project, """
        op _P1 (a, y, z -- b, c) {
            b = f(a);
            c = g(a, y, z);
            Py_DECREF(a);
            Py_DECREF(y);
            Py_DECREF(z);
        }
        op _P2 (c -- d) {
            d = h(c);
            Py_DECREF(c);
            ERROR_IF(d == NULL, error);
        }
        op _P3 (unused -- unused, e) {
            e = NULL;
        }
        inst A = 100 : _P1 + _P2;
        inst B = 101 : _P1 + _P2 + _P3;
    """)
    assert case == dedent("""
        TARGET(A) {
            PyObject *a = PEEK(3);
            PyObject *y = PEEK(2);
            PyObject *z = PEEK(1);
            PyObject *b;
            PyObject *c;
            PyObject *d;
            {  // _P1
                b = f(a);
                c = g(a, y, z);
                Py_DECREF(a);
                Py_DECREF(y);
                Py_DECREF(z);
            }
            {  // _P2
                d = h(c);
                POKE(2, d);
                Py_DECREF(c);
                if (d == NULL) {
                    STACK_SHRINK(2);
                    POKE(1, b);
                    goto error;
                }
            }
            STACK_SHRINK(1);
            POKE(2, b);
            DISPATCH();
        }
    """)
    assert simulate(case, 0, ["s", "a", "y", "z"]) == ["s", "b", "d"]
    case = case_in(project, """
        op _Q1 (a -- b) {
            b = f(a);
            Py_DECREF(a);
        }
        op _Q2 (b -- b, e) {
            e = k(b);
            j();
        }
        inst A = 100 : _Q1 + _Q2;
    """)
    assert "        e = k(b);\n        j();\n    }\n    STACK_GROW(1);\n    POKE(2, b);\n" \
        "    POKE(1, e);\n" in case
    assert simulate(case, 0, ["s", "a"]) == ["s", "b", "e"]


def test_the_last_part_checks_the_eval_breaker_after_the_skip_over_the_caches(project):
    # CHECK_EVAL_BREAKER at the end of a composition's last part runs where a single body's
    # does: after the stack update and the JUMPBY over the inline cache, since the handler
    # dispatches from next_instr (written part by part here, and with a symbolic stack).
    case = case_in(project, """
        op _P1 (f, args[oparg] -- f, args[oparg], n: int) {
            n = oparg;
        }
        op _P2 (f, args[oparg], n: int -- r) {
            r = g(f, args, n);
            ERROR_IF(r == NULL, error);
            CHECK_EVAL_BREAKER();
        }
        inst A_M : _P1 + _P2;
    """ + genutil.ARRAY_FAMILY, "A_M")
    tail = case[case.index("STACK_SHRINK(oparg);"):]
    assert tail.split("\n")[:5] == [
        "STACK_SHRINK(oparg);", "    }", "    JUMPBY(INLINE_CACHE_ENTRIES_A);",
        "    CHECK_EVAL_BREAKER();", "    DISPATCH();"]
    case = case_in(project, """
        op _Q1 (a -- b) {
            b = f(a);
            Py_DECREF(a);
        }
        op _Q2 (b -- c) {
            c = g(b);
            Py_DECREF(b);
            CHECK_EVAL_BREAKER();
        }
        inst A = 100 : _Q1 + _Q2;
    """)
    assert case.index("POKE(1, c);") < case.index("CHECK_EVAL_BREAKER();") < \
        case.index("DISPATCH();")
