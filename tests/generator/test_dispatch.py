"""Which completions dispatch without reading the tracing state (DISPATCH_NO_TRACE_CHECK),
derived from the bodies (statements.Reading.completion_code, model.Model.untraced_dispatch):
only where no code can have run on the way (a Py_DECREF may run a finalizer, a call not known
to run no code may run anything, CHECK_EVAL_BREAKER runs signal handlers), per completion; a
base instruction that dispatches so gets a checked copy that DO_TRACING runs instead
(opcode_targets_traced); a specialized one has none (it never runs while tracing) unless a
base instruction jumps into it.
"""

from __future__ import annotations

import pytest

import genutil
from genutil import OUTPUTS, case_of
from generator import model


def generated(project, text: str) -> dict[str, str]:
    return genutil.generate(project(text))


def dispatches(case: str) -> list[str]:
    return [line.strip() for line in case.split("\n")
            if line.strip() in ("DISPATCH();", "DISPATCH_NO_TRACE_CHECK();")]


FAMILY = """
cache C {
    counter: 1;
}
family A {
    cache: C;
    adaptive: A_AD;
    members: A_M;
}
inst A_AD (x -- unused) {
    DISPATCH_SAME_OPARG();
}
inst A = 100 (x -- r) {
    r = f(x);
    Py_DECREF(x);
    ERROR_IF(r == NULL, error);
}
"""


@pytest.mark.parametrize("body, untraced", [
    ("r = x; Py_INCREF(r);", True),
    ("DEOPT_IF(x == NULL); STAT_INC(A, hit); r = x; Py_INCREF(r); JUMPBY(1);", True),
    ("r = PyFloat_FromDouble(1.0); _Py_DECREF_SPECIALIZED(x, _PyFloat_ExactDealloc); "
     "ERROR_IF(r == NULL, error);", True),
    # a release that may be the last one runs the object's finalizer
    ("r = Py_NewRef(Py_None); Py_DECREF(x);", False),
    ("r = Py_NewRef(Py_None); _Py_DECREF_SPECIALIZED(x, some_dealloc);", False),
    # a call the generator does not know to run no code
    ("r = g(x); ERROR_IF(r == NULL, error);", False),
    # through a slot: anything
    ("r = Py_TYPE(x)->tp_iternext(x);", False),
])
def test_a_member_dispatches_untraced_when_nothing_can_have_run(project, body, untraced):
    out = generated(project, FAMILY + f"inst A_M (x -- r) {{\n{body}\n}}\n")
    case = case_of(out[OUTPUTS["cases"]], "A_M")
    expected = "DISPATCH_NO_TRACE_CHECK();" if untraced else "DISPATCH();"
    assert dispatches(case) == [expected]
    # A specialized instruction never runs while tracing: it has no checked copy.
    assert "TRACED_TARGET(A_M)" not in out[OUTPUTS["cases"]]
    assert "TARGET_A_M_TRACED" not in out[OUTPUTS["targets"]]


def test_each_completion_is_decided_on_its_own_paths(project):
    # Code on an error path does not count; code in one branch counts for the completions
    # after it, not for the other branch's.
    out = generated(project, FAMILY + """
        inst A_M (x -- r) {
            r = x;
            if (r == NULL) {
                Py_DECREF(x);
                ERROR_IF(true, error);
            }
            if (oparg) {
                CHECK_EVAL_BREAKER();
                DISPATCH();
            }
            else if (oparg > 2) {
                JUMPBY(oparg);
                DISPATCH();
            }
        }
    """)
    assert dispatches(case_of(out[OUTPUTS["cases"]], "A_M")) == [
        "DISPATCH();", "DISPATCH_NO_TRACE_CHECK();", "DISPATCH_NO_TRACE_CHECK();"]


def test_code_in_a_loop_counts_everywhere_after_it(project):
    out = generated(project, FAMILY + """
        inst A_M (x -- r) {
            r = x;
            for (int i = 0; i < oparg; i++) {
                if (i == 3) {
                    DISPATCH();
                }
                if (i == 2) {
                    Py_DECREF(x);
                }
            }
        }
    """)
    assert dispatches(case_of(out[OUTPUTS["cases"]], "A_M")) == ["DISPATCH();", "DISPATCH();"]


def test_a_base_instruction_gets_a_checked_copy_for_do_tracing(project):
    out = generated(project, """
        /// Pushes x.
        inst B = 101 (-- x) {
            x = GETLOCAL(oparg);
            Py_INCREF(x);
        }
        inst C = 102 (x --) {
            Py_DECREF(x);
        }
    """)
    cases = out[OUTPUTS["cases"]]
    assert dispatches(case_of(cases, "B")) == ["DISPATCH_NO_TRACE_CHECK();"]
    assert dispatches(case_of(cases, "C")) == ["DISPATCH();"]
    # the copy: the same body, the checked dispatch, no doc comment, under computed gotos
    copy = cases[cases.index("#if USE_COMPUTED_GOTOS"):]
    assert "TRACED_TARGET(B) {" in copy and "TRACED_TARGET(C)" not in copy
    body = copy[copy.index("TRACED_TARGET(B)"):]
    assert "x = GETLOCAL(oparg);" in body and body.index("DISPATCH();") < body.index("#endif")
    targets = out[OUTPUTS["targets"]]
    traced = targets[targets.index("opcode_targets_traced"):]
    assert "&&TARGET_B_TRACED" in traced and "&&TARGET_C," in traced
    assert "&&TARGET_B_TRACED" not in targets[:targets.index("opcode_targets_traced")]


def test_an_instruction_a_base_instruction_jumps_into_stays_checked(project):
    # It may run while tracing (DO_TRACING ran the base instruction), with no copy to go to.
    out = generated(project, """
        family A {
            quick: A_Q;
        }
        inst A = 100 (--) {
            JUMP_TO_INSTRUCTION(A_Q);
        }
        inst A_Q (--) {
            PREDICTED(A_Q);
        }
    """.replace("    PREDICTED(A_Q);\n", ""))
    assert dispatches(case_of(out[OUTPUTS["cases"]], "A_Q")) == ["DISPATCH();"]


def test_an_eval_breaker_instruction_checks(project):
    out = generated(project, "inst B = 101 [eval_breaker] (--) {\n}\n")
    assert dispatches(case_of(out[OUTPUTS["cases"]], "B")) == ["DISPATCH();"]


def test_a_raw_dispatch_in_a_base_instruction_is_an_error(project):
    # A base instruction runs while tracing: a raw DISPATCH_GOTO() could go to an instruction
    # that dispatches without the tracing check, and tracing would stop there.
    diags = genutil.errors(project("""
        inst B = 101 (--) {
            opcode = _Py_OPCODE(*next_instr);
            DISPATCH_GOTO();
        }
    """))
    assert [(d.location.line, d.location.col) for d in diags] == [(3, 5)]
    assert "use DISPATCH_GOTO_TRACED()" in diags[0].message
    genutil.generate(project("""
        inst B = 101 (--) {
            opcode = _Py_OPCODE(*next_instr);
            DISPATCH_GOTO_TRACED();
        }
    """))


# -- superinstructions: where a part starts an instruction of its own ------------------------

UPSTREAM = {"LOAD_FAST__LOAD_FAST", "LOAD_FAST__LOAD_CONST", "LOAD_CONST__LOAD_FAST",
            "STORE_FAST__LOAD_FAST", "STORE_FAST__STORE_FAST"}


@pytest.mark.parametrize("parts, starts, closed_by", [
    # 3.11.2 runs STORE_FAST__LOAD_FAST, then LOAD_FAST on its own (or, before a LOAD_FAST or
    # a LOAD_CONST, as the first half of LOAD_FAST__LOAD_FAST / __LOAD_CONST)
    ("STORE_FAST LOAD_FAST LOAD_FAST", (2,), {"LOAD_FAST", "LOAD_CONST"}),
    ("LOAD_FAST LOAD_FAST LOAD_CONST", (2,), {"LOAD_FAST"}),
    ("LOAD_FAST LOAD_FAST LOAD_FAST LOAD_FAST", (2,), set()),
    ("LOAD_CONST RETURN_VALUE", (1,), set()),
    ("LOAD_FAST LOAD_FAST", (), set()),
])
def test_super_starts_follow_the_baselines_pairs(parts, starts, closed_by):
    names = parts.split()
    assert model.super_starts(names, UPSTREAM) == starts
    assert model.super_closed_by(names, UPSTREAM) == closed_by


def test_a_part_that_starts_an_instruction_has_its_position_and_checks(project):
    out = generated(project, """
        family S {
            members: S__L__L;
        }
        inst S = 101 (v --) {
            SETLOCAL(oparg, v);
        }
        inst L = 102 (-- v) {
            v = GETLOCAL(oparg);
            Py_INCREF(v);
        }
        super S__L__L : S + L + L;
    """)
    case = case_of(out[OUTPUTS["cases"]], "S__L__L")
    # no baseline: every later part starts an instruction of its own
    parts = case.split("NEXTOPARG();")
    assert len(parts) == 3
    # S's SETLOCAL may run a finalizer that turns tracing on: L checks before it runs
    assert parts[0].rstrip().endswith(
        "    }\n    if (cframe.use_tracing) {\n        DISPATCH();\n    }")
    assert parts[1].lstrip().startswith("frame->prev_instr = next_instr++;")
    # nothing since the last start can have run code: neither the third part nor the end checks
    assert "cframe.use_tracing" not in parts[1] + parts[2]
    assert dispatches(case) == ["DISPATCH();", "DISPATCH_NO_TRACE_CHECK();"]

# -- the position (frame->prev_instr) stored only where something can observe it -----------

def header(case: str) -> str:
    return case.split("\n")[0]


@pytest.mark.parametrize("body, stored", [
    ("x = GETLOCAL(oparg); Py_INCREF(x);", False),
    # code that may run: a traceback, f_lineno
    ("x = GETLOCAL(oparg); Py_INCREF(x); Py_DECREF(x);", True),
    # tracemalloc records the position of an allocation
    ("x = PyFloat_FromDouble(1.0); ERROR_IF(x == NULL, error);", True),
    # the position read, or left other than by completing or an error exit
    ("x = GETLOCAL(INSTR_OFFSET());", True),
    ("x = NULL; goto resume_frame;", True),
    # an error exit after next_instr moved would not know its position
    ("x = GETLOCAL(oparg); JUMPBY(oparg); ERROR_IF(x == NULL, error);", True),
])
def test_the_entry_stores_the_position_only_if_it_can_be_observed(project, body, stored):
    out = generated(project, f"inst B = 101 (-- x) {{\n{body}\n}}\n")
    case = case_of(out[OUTPUTS["cases"]], "B")
    assert header(case) == ("TARGET(B) {" if stored else "TARGET_NO_PREV_INSTR(B) {")


def test_error_exits_store_the_position_themselves(project):
    out = generated(project, """
        family B {
            members: B__B;
        }
        inst B = 101 (-- x) {
            x = GETLOCAL(oparg);
            ERROR_IF(x == NULL, unbound_local_error);
            Py_INCREF(x);
        }
        super B__B : B + B;
    """)
    cases = out[OUTPUTS["cases"]]
    b = case_of(cases, "B")
    assert "if (x == NULL) {\n        frame->prev_instr = next_instr - 1;\n" \
           "        goto unbound_local_error;\n    }\n" in b
    # no baseline: the second part starts an instruction of its own and reports its own
    # position; its start does not store it either
    bb = case_of(cases, "B__B")
    assert header(bb) == "TARGET_NO_PREV_INSTR(B__B) {"
    assert bb.count("frame->prev_instr = next_instr - 1;") == 2
    assert "next_instr++;" in bb and "frame->prev_instr = next_instr++;" not in bb
    # the checked copy DO_TRACING runs stores it on entry, as upstream's cases do
    copy = cases[cases.index("TRACED_TARGET(B)"):]
    assert "frame->prev_instr" not in copy[:copy.index("DISPATCH();")]


def test_the_second_half_of_an_upstream_pair_reports_the_first_halfs_position():
    # 3.11.2 runs LOAD_FAST__LOAD_FAST__LOAD_FAST as LOAD_FAST__LOAD_FAST, then LOAD_FAST: an
    # error in the second part is reported at the first (next_instr is two past it), one in
    # the third at the third
    cases = (genutil.ROOT / "runtime/generated/Python/generated_cases.c.h").read_text()
    case = case_of(cases, "LOAD_FAST__LOAD_FAST__LOAD_FAST")
    assert header(case) == "TARGET_NO_PREV_INSTR(LOAD_FAST__LOAD_FAST__LOAD_FAST) {"
    stores = [line.strip() for line in case.split("\n") if "frame->prev_instr" in line]
    assert stores == ["frame->prev_instr = next_instr - 1;", "frame->prev_instr = next_instr - 2;",
                      "frame->prev_instr = next_instr - 1;"]


# -- a composition whose last part completes early ----------------------------------------------

COMPOSED = FAMILY + """
    op _G (x -- x) {
        DEOPT_IF(x == NULL);
        STAT_INC(A, hit);
    }
    op _R (x -- v: int) {
        v = Py_SIZE(x) > 0;
        _Py_DECREF_SPECIALIZED(x, _PyFloat_ExactDealloc);
    }
"""


def test_a_composition_s_last_part_completes_with_the_stack_written(project):
    # COMPARE_OP_*_JUMP: the last part's DISPATCH() is that part's end (its stack update, the
    # instruction's cache skipped), and each of its completions is decided on its own paths
    # when no part before it can run code.
    out = generated(project, COMPOSED + """
        op _J (v: int -- r) {
            r = Py_NewRef(Py_None);
            if (v) {
                JUMPBY(-oparg);
                CHECK_EVAL_BREAKER();
                DISPATCH();
            }
            JUMPBY(oparg);
        }
        inst A_M : _G + _R + _J;
    """)
    case = case_of(out[OUTPUTS["cases"]], "A_M")
    assert dispatches(case) == ["DISPATCH();", "DISPATCH_NO_TRACE_CHECK();"]
    early = case[case.index("JUMPBY(-oparg);"):case.index("DISPATCH();")]
    assert early.split() == ["JUMPBY(-oparg);", "STACK_GROW(1);",
                             "JUMPBY(INLINE_CACHE_ENTRIES_A);", "CHECK_EVAL_BREAKER();"]
    # written part by part: _R popped x before _J runs
    assert case.index("STACK_SHRINK(1);") < case.index("{  // _J")


def test_code_before_a_composition_s_last_part_counts_at_each_of_its_completions(project):
    out = generated(project, COMPOSED.replace("_PyFloat_ExactDealloc", "some_dealloc") + """
        op _J (v: int -- r) {
            r = Py_NewRef(Py_None);
            if (v) {
                DISPATCH();
            }
            JUMPBY(oparg);
        }
        inst A_M : _G + _R + _J;
    """)
    assert dispatches(case_of(out[OUTPUTS["cases"]], "A_M")) == ["DISPATCH();", "DISPATCH();"]
