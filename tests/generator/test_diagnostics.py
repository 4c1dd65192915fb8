"""Semantic diagnostics (analysis.py): one test per check, exact message and location; and the
command line's all-or-nothing behaviour on errors."""

from __future__ import annotations

import pytest

import genutil
from genutil import brief, errors, run_cli, tree

POSITIONAL = "accesses the stack by position; declare the item in the stack effect and use its name"
DISAGREE = ("disagree on the stack effect (a member that also executes the instruction after it "
            "says so with 'fuses NAME' after its stack effect)")


def expect(project, text: str, expected: list[tuple[int, int, str]]) -> None:
    """Analysing `text` reports exactly `expected` (line, column, message), in that order."""
    root = project(text)
    assert brief(errors(root)) == expected


def loads(project, text: str):
    return genutil.model_of(project(text))


# -- names and numbers ------------------------------------------------------------------------

def test_duplicate_instruction(project):
    expect(project, """
        inst NOP = 9 (--) {
        }
        inst NOP = 10 (--) {
        }
    """, [(3, 6, "duplicate definition 'NOP' (first defined at instructions/test.inst:1:6)")])


def test_duplicate_between_op_and_instruction(project):
    expect(project, """
        op _A (--) {
        }
        inst _A = 10 (--) {
        }
    """, [
        (1, 4, "operation _A is not used by any instruction"),
        (3, 6, "duplicate definition '_A' (first defined at instructions/test.inst:1:4)"),
    ])


def test_duplicate_across_files_names_the_first_file(project):
    root = project({"a.inst": "inst NOP = 9 (--) {\n}\n", "b.inst": "inst NOP = 10 (--) {\n}\n"})
    diags = errors(root)
    assert [(d.location.file, d.location.line, d.location.col, d.message) for d in diags] == [
        ("instructions/b.inst", 1, 6,
         "duplicate definition 'NOP' (first defined at instructions/a.inst:1:6)")]


def test_duplicate_cache(project):
    expect(project, """
        cache C {
            counter: 1;
        }
        cache C {
            counter: 1;
        }
    """, [
        (1, 7, "cache C is not used by any family"),
        (4, 7, "duplicate cache 'C' (first defined at instructions/test.inst:1:7)"),
    ])


def test_duplicate_family(project):
    expect(project, """
        inst A = 100 (--) {
        }
        inst A_Q (--) {
        }
        family A {
            quick: A_Q;
        }
        family A {
            quick: A_Q;
        }
    """, [(8, 8, "duplicate family 'A' (first defined at instructions/test.inst:5:8)")])


def test_duplicate_oparg_declaration(project):
    expect(project, """
        inst BINARY_OP = 122 (--) {
        }
        oparg BINARY_OP {
            X: "x";
        }
        oparg BINARY_OP {
            Y: "y";
        }
    """, [(6, 7, "duplicate oparg declaration for 'BINARY_OP' (first defined at "
                 "instructions/test.inst:3:7)")])


def test_duplicate_oparg_value(project):
    expect(project, """
        inst BINARY_OP = 122 (--) {
        }
        oparg BINARY_OP {
            X: "x";
            X: "y";
        }
    """, [(5, 5, "duplicate oparg value 'X'")])


def test_oparg_values_of_an_instruction_the_tables_do_not_name(project):
    # every declaration has its effect or is rejected: only BINARY_OP's values reach opcode.h
    expect(project, """
        inst A = 100 (--) {
        }
        oparg A {
            X: "x";
        }
    """, [(3, 7, "oparg values of A would go nowhere: the generated tables name the oparg "
                 "values of BINARY_OP only")])


def test_unknown_names_suggest_the_closest_known_one(project):
    expect(project, """
        cache _PyAttrCache {
            counter: 1;
        }
        inst LOAD_ATTR = 106 (--) {
        }
        inst LOAD_ATTR_ADAPTIVE (--) {
            PREDICT(LOAD_ATRT);
        }
        family LOAD_ATTR {
            cache: _PyAtrCache;
            adaptive: LOAD_ATTR_ADAPTIV;
        }
    """, [
        (7, 13, "unknown instruction 'LOAD_ATRT'; did you mean 'LOAD_ATTR'?"),
        (10, 12, "unknown cache '_PyAtrCache'; did you mean '_PyAttrCache'?"),
        (11, 15, "unknown instruction 'LOAD_ATTR_ADAPTIV' in family LOAD_ATTR; did you mean "
                 "'LOAD_ATTR_ADAPTIVE'?"),
    ])


def test_oparg_values_of_unknown_instruction(project):
    expect(project, """
        inst A = 100 (--) {
        }
        oparg B {
            X: "x";
        }
    """, [(3, 7, "oparg values for unknown instruction 'B'")])


def test_oparg_values_of_instruction_without_argument(project):
    expect(project, """
        inst A = 10 (--) {
        }
        oparg A {
            X: "x";
        }
    """, [(3, 7, "A takes no argument")])


def test_duplicate_opcode_number(project):
    expect(project, """
        inst A = 10 (--) {
        }
        inst B = 10 (--) {
        }
    """, [(3, 10, "opcode 10 of B is already used by A (instructions/test.inst:1:6)")])


@pytest.mark.parametrize("number", [255, 256, 300])
def test_opcode_out_of_range(project, number):
    expect(project, f"""
        inst A = {number} (--) {{
        }}
    """, [(1, 10, f"opcode {number} of A is out of range (0-254; 255 is DO_TRACING)")])


def test_opcodes_0_and_254_are_in_range(project):
    m = loads(project, """
        inst A = 0 (--) {
        }
        inst B = 254 (--) {
        }
    """)
    assert sorted(i.number for i in m.instructions) == [0, 254]


def test_written_specialized_numbers_are_kept_and_the_others_fill_the_gaps(project):
    # Free opcodes: 1, 2, ...; a written number is the instruction's whatever else is added;
    # one without takes the lowest left. They must fill the free opcodes without a gap (dis
    # numbers them so), and no two may share one.
    m = loads(project, """
        inst CACHE = 0 (--) {
        }
        inst A = 100 (--) {
        }
        inst A_ONE = 2 (--) {
        }
        inst A_TWO (--) {
        }
        family A {
            members: A_ONE, A_TWO;
        }
    """)
    assert {i.name: i.number for i in m.specialized_instructions()} == {"A_ONE": 2, "A_TWO": 1}
    expect(project, """
        inst CACHE = 0 (--) {
        }
        inst A = 100 (--) {
        }
        inst A_ONE = 3 (--) {
        }
        inst A_TWO (--) {
        }
        inst A_3 = 3 (--) {
        }
        inst A_4 = 100 (--) {
        }
        family A {
            members: A_ONE, A_TWO, A_3, A_4;
        }
    """, [
        (5, 14, "A_ONE is opcode 3, but opcode 2 is free: the specialized instructions fill the "
                "opcodes the base instructions leave free from 1 up, without a gap (dis numbers "
                "them so); write 2"),
        (9, 12, "opcode 3 of A_3 is already used by A_ONE (instructions/test.inst:5:6)"),
        (11, 12, "opcode 100 of A_4 is already used by A (instructions/test.inst:3:6)"),
    ])


def test_running_out_of_opcodes(project):
    members = [f"A_{n}" for n in range(255)]
    text = "inst A = 100 (--) {\n}\n" + "".join(f"inst {m} (--) {{\n}}\n" for m in members)
    text += "family A {\n    members: " + ", ".join(members) + ";\n}\n"
    diags = errors(project(text))
    # 253 free opcodes (1-254 less A's 100): the 254th member finds none
    assert brief(diags) == [(2 + 2 * 253 + 1, 6, "no opcode left for A_253: 255 specialized "
                             "instructions need 255 of the 253 opcodes 1-254 that base "
                             "instructions leave free")]


# -- baseline ---------------------------------------------------------------------------------

def test_base_instructions_are_checked_against_the_baseline(project, monkeypatch):
    from generator import analysis, baselines
    monkeypatch.setitem(analysis.BASELINES, "tiny", baselines.Baseline(
        "tiny", "Tiny 1.0", {"CACHE": 0, "NOP": 9, "LOAD_FAST": 124, "STORE_FAST": 125},
        caches={}, magic=1, cache_tag="tiny-10"))
    expect(project, """
        baseline tiny;
        inst CACHE = 0 (--) {
        }
        inst NOP = 10 (--) {
        }
        inst LOAD_FASTT = 124 (--) {
        }
        inst EXTRA = 200 (--) {
        }
    """, [
        # LOAD_FAST is missing too, but as the likely meaning of LOAD_FASTT it is not reported
        (1, 10, "Tiny 1.0's base instruction STORE_FAST (opcode 125) is not defined"),
        (4, 12, "NOP is opcode 9 in Tiny 1.0, not 10 (base opcodes are stored in .pyc files)"),
        (6, 6, "base instruction LOAD_FASTT is not in Tiny 1.0, whose opcode 124 is LOAD_FAST; "
               "did you mean 'LOAD_FAST'?"),
        (8, 6, "base instruction EXTRA is not in Tiny 1.0: a new instruction must be a member "
               "of a family (base opcodes are the .pyc format)"),
    ])


def test_unknown_and_second_baselines(project):
    expect(project, """
        baseline cpython_3_11_3;
        baseline cpython_3_11_2;
        inst NOP = 9 (--) {
        }
    """, [
        (1, 10, "unknown baseline 'cpython_3_11_3'; did you mean 'cpython_3_11_2'? "
                "(known: cpython_3_11_2)"),
        (2, 10, "a second baseline (the first is declared at instructions/test.inst:1:10)"),
    ])


def test_the_real_baseline_is_upstreams_110_base_opcodes():
    from generator.baselines import BASELINES
    table = BASELINES["cpython_3_11_2"].base_opcodes
    assert len(table) == 110 and len(set(table.values())) == 110
    assert (table["CACHE"], table["LOAD_FAST"], table["PRECALL"], table["CALL"]) == (0, 124, 166, 171)
    assert max(table.values()) == 173 + 3  # POP_JUMP_BACKWARD_IF_TRUE


# -- unknown names ----------------------------------------------------------------------------

def test_unknown_names_in_a_family(project):
    expect(project, """
        inst A = 100 (--) {
        }
        inst A_AD (--) {
        }
        family A {
            cache: NOCACHE;
            adaptive: A_AD;
            members: A_MISSING;
        }
    """, [
        (6, 12, "unknown cache 'NOCACHE'"),
        (8, 14, "unknown instruction 'A_MISSING' in family A"),
    ])


def test_family_not_named_after_an_instruction(project):
    expect(project, """
        inst A = 100 (--) {
        }
        family NOSUCH {
        }
    """, [(3, 8, "family 'NOSUCH' is not named after an instruction")])


def test_family_named_after_an_operation(project):
    expect(project, """
        op _X (--) {
        }
        inst A = 100 : _X + _X;
        family _X {
        }
    """, [(4, 8, "family '_X' is not named after an instruction")])


def test_unknown_part_of_a_composition(project):
    expect(project, """
        op _X (--) {
        }
        inst A = 100 : _X + _MISSING;
    """, [
        (1, 4, "operation _X is not used by any instruction"),
        (3, 21, "unknown instruction or operation '_MISSING'"),
    ])


def test_unknown_fused_instruction(project):
    expect(project, """
        inst A = 100 (a --) { Py_DECREF(a);
        }
        inst A_M (a --) fuses NOPE { Py_DECREF(a);
        }
        family A {
            members: A_M;
        }
    """, [(3, 23, "unknown instruction 'NOPE'")])


def test_unknown_predict_and_jump_targets(project):
    expect(project, """
        inst A = 100 (--) {
            PREDICT(NOPE);
        }
        inst B = 101 (--) {
            JUMP_TO_INSTRUCTION(GONE);
        }
    """, [
        (2, 13, "unknown instruction 'NOPE'"),
        (5, 25, "unknown instruction 'GONE'"),
    ])


# -- families ---------------------------------------------------------------------------------

def test_member_disagrees_with_generic_on_stack_effect(project):
    expect(project, """
        inst A = 100 (a, b -- c) {
            c = a; Py_DECREF(b);
        }
        inst A_M (a -- c) {
            c = a;
        }
        family A {
            members: A_M;
        }
    """, [(8, 14, f"A_M (a -- c) and A (a, b -- c) {DISAGREE}")])


def test_member_may_rename_items_but_not_change_their_shape(project):
    m = loads(project, """
        inst A = 100 (a, b[oparg] -- c if (oparg & 1)) {
            c = a;
        }
        inst A_M (x, y[oparg] -- z if (oparg & 1)) {
            z = x;
        }
        family A {
            members: A_M;
        }
    """)
    assert m.families[0].members[0].name == "A_M"
    expect(project, """
        inst A = 100 (a, b[oparg] -- c) {
            c = a;
        }
        inst A_M (a, b[oparg + 1] -- c) {
            c = a;
        }
        family A {
            members: A_M;
        }
    """, [(8, 14, f"A_M (a, b[oparg + 1] -- c) and A (a, b[oparg] -- c) {DISAGREE}")])


def test_member_may_give_an_array_a_constant_size(project):
    # A specialization may know more: PRECALL_NO_KW_STR_1 is (method, callable, args[1] -- res)
    # in a family whose generic has args[oparg]. Its case asserts that the sizes agree.
    root = project("""
        inst A = 100 (x, args[oparg] -- r) {
            r = f(x, args);
        }
        inst A_M (x, args[1] -- r) {
            r = g(x, args);
        }
        family A {
            members: A_M;
        }
    """)
    assert genutil.case_of(genutil.generate(root)[genutil.OUTPUTS["cases"]], "A_M") == \
        genutil.dedent("""
            TARGET(A_M) {
                assert((oparg) == 1);
                PyObject **args = &PEEK(1);
                PyObject *x = PEEK(2);
                PyObject *r;
                r = g(x, args);
                STACK_SHRINK(1);
                POKE(1, r);
                DISPATCH();
            }
        """)


def test_member_array_of_another_constant_size_disagrees(project):
    expect(project, """
        inst A = 100 (x, args[2] -- r) {
            r = f(x, args);
        }
        inst A_M (x, args[1] -- r) {
            r = g(x, args);
        }
        family A {
            members: A_M;
        }
    """, [(8, 14, f"A_M (x, args[1] -- r) and A (x, args[2] -- r) {DISAGREE}")])


def test_adaptive_form_disagrees_with_generic(project):
    expect(project, """
        inst A = 100 (a -- b) {
            b = a;
        }
        inst A_AD (a, b --) {
            JUMP_TO_INSTRUCTION(A);
        }
        family A {
            adaptive: A_AD;
        }
    """, [(8, 15, f"A_AD (a, b --) and A (a -- b) {DISAGREE}")])


def test_quick_form_disagrees_with_generic(project):
    expect(project, """
        inst A = 100 (--) {
        }
        inst A_Q (-- x) {
            x = NULL;
        }
        family A {
            quick: A_Q;
        }
    """, [(7, 12, f"A_Q (-- x) and A (--) {DISAGREE}")])


def test_fused_member_must_equal_generic_then_fused(project):
    expect(project, """
        inst A = 100 (a, b -- c) {
            c = a; Py_DECREF(b);
        }
        inst POP_X = 101 (x --) { Py_DECREF(x);
        }
        inst A_M (a, b -- c) fuses POP_X {
            c = a; Py_DECREF(b);
        }
        family A {
            members: A_M;
        }
    """, [(10, 14, "A_M (a, b -- c) fuses POP_X, but A then POP_X is (a, b --)")])


def test_fused_member_with_the_right_effect_is_accepted(project):
    m = loads(project, """
        inst A = 100 (a, b -- c) {
            c = a; Py_DECREF(b);
        }
        inst POP_X = 101 (x --) { Py_DECREF(x);
        }
        inst A_M (a, b --) fuses POP_X { Py_DECREF(a); Py_DECREF(b);
        }
        family A {
            members: A_M;
        }
    """)
    member = m.families[0].members[0]
    assert [f.name for f in member.fuses] == ["POP_X"]


def test_member_fusing_two_instructions(project):
    m = loads(project, """
        inst A = 100 (a, b -- c) {
            c = a; Py_DECREF(b);
        }
        inst POP_X = 101 (x --) { Py_DECREF(x);
        }
        inst A_M (d, e, a, b -- f) fuses POP_X + A {
            f = d; Py_DECREF(e); Py_DECREF(a); Py_DECREF(b);
        }
        family A {
            members: A_M;
        }
    """)
    member = m.families[0].members[0]
    assert [f.name for f in member.fuses] == ["POP_X", "A"]
    expect(project, """
        inst A = 100 (a, b -- c) {
            c = a; Py_DECREF(b);
        }
        inst POP_X = 101 (x --) { Py_DECREF(x);
        }
        inst A_M (a, b --) fuses POP_X + POP_X { Py_DECREF(a); Py_DECREF(b);
        }
        family A {
            members: A_M;
        }
    """, [(9, 14, "A_M (a, b --) fuses POP_X + POP_X, but A then POP_X + POP_X is (x, a, b --)")])


def test_member_and_generic_disagree_on_jump_effect(project):
    expect(project, """
        inst A = 100 (a -- a) jump (a --) {
            DISPATCH_JUMPED();
        }
        inst A_M (a -- a) jump (a -- a, b) {
            b = a;
            DISPATCH_JUMPED();
        }
        family A {
            members: A_M;
        }
    """, [(9, 14, "A_M and A disagree on the jump effect")])


def test_member_has_jump_effect_generic_has_not(project):
    expect(project, """
        inst B = 101 (a -- a) {
        }
        inst B_M (a -- a) jump (a --) {
            DISPATCH_JUMPED();
        }
        family B {
            members: B_M;
        }
    """, [(7, 14, "B_M declares a jump effect but its generic instruction B does not")])


def test_instruction_in_two_families(project):
    expect(project, """
        inst A = 100 (--) {
        }
        inst B = 101 (--) {
        }
        inst A_M (--) {
        }
        family A {
            members: A_M;
        }
        family B {
            members: A_M;
        }
    """, [(11, 14, "'A_M' already belongs to family A")])


def test_generic_instruction_of_another_family(project):
    expect(project, """
        inst A = 100 (--) {
        }
        inst B = 101 (--) {
        }
        family A {
            members: B;
        }
        family B {
        }
    """, [
        (3, 10, "B is opcode 101, but opcode 1 is free: the specialized instructions fill the "
                "opcodes the base instructions leave free from 1 up, without a gap (dis numbers "
                "them so); write 1"),
        (8, 8, "'B' already belongs to family A"),
    ])


def test_generic_as_its_own_quick_form(project):
    expect(project, """
        inst A = 100 (--) {
        }
        family A {
            quick: A;
        }
    """, [(4, 12, "'A' is the generic instruction of its family")])


def test_generic_as_its_own_member(project):
    expect(project, """
        inst A = 100 (--) {
        }
        family A {
            members: A;
        }
    """, [(4, 14, "'A' is the generic instruction of its family")])


def test_family_with_cache_needs_an_adaptive_form(project):
    expect(project, """
        cache C {
            counter: 1;
        }
        inst A = 100 (--) {
        }
        family A {
            cache: C;
        }
    """, [(6, 8, "family A has a cache but no adaptive instruction")])


def test_superinstruction_member_must_start_with_the_generic(project):
    expect(project, """
        inst A = 100 (--) {
        }
        inst B = 101 (--) {
        }
        super A_S : B + A;
        family A {
            members: A_S;
        }
    """, [(7, 14, "superinstruction A_S in family A must start with A, not B")])


SUPER_WITH_CACHE = """
    cache C {
        counter: 1;
    }
    inst A = 100 (--) {
    }
    inst A_AD (--) {
    }
    inst B = 101 (--) {
    }
    super A_S : A + B;
    family A {
        cache: C;
        adaptive: A_AD;
        members: A_S;
    }
"""


def test_superinstruction_cannot_have_an_inline_cache(project):
    diags = brief(errors(project(SUPER_WITH_CACHE)))
    assert (10, 7, "superinstruction A_S cannot have an inline cache") in diags
    assert set(diags) == {(10, 7, "superinstruction A_S cannot have an inline cache")}


def test_superinstruction_with_cache_is_reported_once(project):
    expect(project, SUPER_WITH_CACHE,
           [(10, 7, "superinstruction A_S cannot have an inline cache")])


def test_member_error_is_reported_at_that_member(project):
    diags = brief(errors(project("""
        inst A = 100 (a --) {
        }
        inst B = 101 (a --) {
        }
        inst B_M (a --) {
        }
        inst A_BAD (a, b --) {
        }
        family B {
            members: B_M;
        }
        family A {
            members: B_M, A_BAD;
        }
    """)))
    assert (13, 19, f"A_BAD (a, b --) and A (a --) {DISAGREE}") in diags


# -- caches -----------------------------------------------------------------------------------

CACHE_FAMILY = """
        inst A = 100 (--) {
        }
        inst A_AD (--) {
        }
        family A {
            cache: C;
            adaptive: A_AD;
        }
"""


def test_duplicate_cache_entry(project):
    expect(project, """
        cache C {
            counter: 1;
            index: 1;
            index: 2;
        }
    """ + CACHE_FAMILY, [(4, 5, "duplicate cache entry 'index' in C")])


@pytest.mark.parametrize("entries", ["index: 1;\n            counter: 1;", "counter: 2;", "count: 1;"],
                         ids=["counter-second", "counter-2", "no-counter"])
def test_first_cache_entry_must_be_counter_1(project, entries):
    expect(project, f"""
        cache C {{
            {entries}
        }}
    """ + CACHE_FAMILY, [
        (2, 5, "the first entry of cache C must be 'counter: 1' (the miss path decrements it)")])


def test_unknown_cache_entry(project):
    expect(project, """
        cache C {
            counter: 1;
            index: 1;
        }
        inst A = 100 (--) {
        }
        inst A_AD (--) {
            int i = cache->index + cache->nope;
        }
        family A {
            cache: C;
            adaptive: A_AD;
        }
    """, [(8, 35, "cache C has no entry 'nope' (it has: counter, index)")])


def test_unknown_cache_entry_in_an_operation(project):
    expect(project, """
        cache C {
            counter: 1;
        }
        op _X (--) {
            int i = cache->index;
        }
        op _Y (--) {
        }
        inst A = 100 : _X + _Y;
        inst A_AD (--) {
        }
        family A {
            cache: C;
            adaptive: A_AD;
        }
    """, [(5, 20, "cache C has no entry 'index' (it has: counter)")])


def test_unknown_cache_entry_in_a_shared_operation_is_reported_once(project):
    expect(project, """
        cache C {
            counter: 1;
        }
        op _X (--) {
            int i = cache->index;
        }
        op _Y (--) {
        }
        inst A = 100 (--) {
        }
        inst A_AD (--) {
        }
        inst A_M : _X + _Y;
        inst B = 101 (--) {
        }
        inst B_AD (--) {
        }
        inst B_M : _X + _Y;
        family A {
            cache: C;
            adaptive: A_AD;
            members: A_M;
        }
        family B {
            cache: C;
            adaptive: B_AD;
            members: B_M;
        }
    """, [(5, 20, "cache C has no entry 'index' (it has: counter)")])


def test_cache_used_without_a_cache(project):
    # Reported at the first use of `cache` in the body.
    expect(project, """
        inst A = 100 (--) {
            int i = cache->index;
        }
    """, [(2, 13, "the body of A uses 'cache' but A has no inline cache (its family declares none)")])


def test_cache_used_without_a_cache_points_at_the_first_use(project):
    expect(project, """
        inst A = 100 (--) {
            int i = 0;
            if (i) {
                int j = cache->index + cache->counter;
            }
            i = cache->counter;
        }
    """, [(4, 17, "the body of A uses 'cache' but A has no inline cache (its family declares none)")])


def test_cache_used_in_an_operation_whose_instruction_has_no_cache(project):
    expect(project, """
        op _X (--) {
            read_u16(&cache->counter);
        }
        op _Y (--) {
        }
        inst A = 100 : _X + _Y;
        inst B = 101 : _Y + _X;
    """, [
        (2, 15, "the body of _X uses 'cache' but A has no inline cache (its family declares none)"),
        (2, 15, "the body of _X uses 'cache' but B has no inline cache (its family declares none)"),
    ])


def test_cache_used_in_a_part_used_twice_is_reported_once(project):
    expect(project, """
        op _X (--) {
            read_u16(&cache->counter);
        }
        inst A = 100 : _X + _X;
    """, [(2, 15, "the body of _X uses 'cache' but A has no inline cache (its family declares none)")])


def test_unused_cache(project):
    expect(project, """
        cache C {
            counter: 1;
        }
        inst A = 100 (--) {
        }
    """, [(1, 7, "cache C is not used by any family")])


# -- bodies -----------------------------------------------------------------------------------

def test_deopt_if_outside_a_family_member(project):
    expect(project, """
        inst A = 100 (--) {
            DEOPT_IF(oparg);
        }
    """, [(2, 5, "DEOPT_IF in A, which is not a specialized member of a family")])


def test_deopt_if_in_the_generic_instruction(project):
    expect(project, """
        cache C {
            counter: 1;
        }
        inst A = 100 (--) {
            DEOPT_IF(oparg);
        }
        inst A_AD (--) {
        }
        inst A_M (--) {
            DEOPT_IF(oparg == 1);
        }
        family A {
            cache: C;
            adaptive: A_AD;
            members: A_M;
        }
    """, [(5, 5, "DEOPT_IF in A, which is not a specialized member of a family")])


def test_deopt_if_in_a_composition_that_is_not_a_member(project):
    expect(project, """
        op _X (--) {
            DEOPT_IF(oparg);
        }
        op _Y (--) {
        }
        inst A = 100 : _X + _Y;
    """, [(2, 5, "DEOPT_IF in A, which is not a specialized member of a family")])


def test_deopt_if_in_adaptive_and_member_forms_is_allowed(project):
    m = loads(project, """
        cache C {
            counter: 1;
        }
        inst A = 100 (--) {
        }
        inst A_AD (--) {
            DEOPT_IF(oparg);
        }
        inst A_M (--) {
            DEOPT_IF(oparg);
        }
        family A {
            cache: C;
            adaptive: A_AD;
            members: A_M;
        }
    """)
    assert [i.role for i in m.specialized_instructions()] == ["adaptive", "member"]


def test_deopt_if_in_a_family_without_a_cache(project):
    # The miss path counts down the counter in the first cache entry: without a cache, that is
    # the next instruction.
    expect(project, """
        inst A = 100 (--) {
        }
        inst A_Q (--) {
            DEOPT_IF(oparg);
        }
        inst A_M (--) {
            DEOPT_IF(oparg == 2);
        }
        family A {
            quick: A_Q;
            members: A_M;
        }
    """, [
        (4, 5, "DEOPT_IF in A_Q, whose family A has no inline cache: the miss path counts down "
               "the counter in the first cache entry, which would be the next instruction"),
        (7, 5, "DEOPT_IF in A_M, whose family A has no inline cache: the miss path counts down "
               "the counter in the first cache entry, which would be the next instruction"),
    ])


LATER_GUARD = """
        op _P2 (b -- c) {
            DEOPT_IF(b == NULL);
            c = b;
        }
        inst A = 100 (a -- c) {
            c = a; Py_DECREF(a);
        }
        inst A_M : _P1 + _P2;
        cache C {
            counter: 1;
        }
        inst A_AD (a -- unused) {
            DISPATCH_SAME_OPARG();
        }
        family A {
            cache: C;
            adaptive: A_AD;
            members: A_M;
        }
"""


def test_deopt_if_in_a_later_part_of_a_composition(project):
    # With a symbolic stack nothing is written before the end: a later part may guard, if the
    # parts before it change nothing.
    m = loads(project, """
        op _P1 (a -- b) {
            b = a;
        }
    """ + LATER_GUARD)
    assert m.families[0].members[0].symbolic_stack
    expect(project, """
        op _P1 (a -- b) {
            b = a;
            Py_INCREF(b);
        }
    """ + LATER_GUARD, [
        (3, 5, "a reference-count change (Py_INCREF) in _P1, part 1 of A_M, before a DEOPT_IF "
               "of part 2: a guard must come before anything that changes state (on a miss, the "
               "generic instruction runs again from the state on entry)"),
    ])
    expect(project, """
        op _P1 (a -- b) {
            b = a;
            assert(stack_pointer[-1] == a);
        }
    """ + LATER_GUARD, [
        (7, 5, "DEOPT_IF in part 2 of A_M would run after earlier parts wrote the stack: only a "
               "composition of scalar items whose parts neither move the stack nor leave "
               "(model.Instruction.symbolic_stack), or whose parts before the guard pass every "
               "item through (unwritten_before), keeps it unwritten there"),
    ])


def test_dispatch_jumped_without_jump_effect(project):
    expect(project, """
        inst A = 100 (--) {
            DISPATCH_JUMPED();
        }
    """, [(2, 5, "DISPATCH_JUMPED() in A, which declares no jump effect")])


POSITIONAL_MACROS = ["TOP", "SECOND", "THIRD", "FOURTH", "PEEK", "POKE", "SET_TOP", "SET_SECOND",
                     "SET_THIRD", "SET_FOURTH", "PUSH", "POP", "BASIC_PUSH", "BASIC_POP"]


@pytest.mark.parametrize("macro", POSITIONAL_MACROS)
def test_positional_stack_macro(project, macro):
    expect(project, f"""
        inst A = 100 (a --) {{
            x = {macro}(a);
        }}
    """, [(2, 9, f"'{macro}' {POSITIONAL}")])


def test_every_positional_use_is_reported(project):
    expect(project, """
        inst A = 100 (a -- b) {
            b = TOP(); Py_DECREF(a);
            SET_TOP(b);
            PyObject *x = POP();
            PUSH(x);
        }
    """, [(2, 9, f"'TOP' {POSITIONAL}"), (3, 5, f"'SET_TOP' {POSITIONAL}"),
          (4, 19, f"'POP' {POSITIONAL}"), (5, 5, f"'PUSH' {POSITIONAL}")])


def test_stack_level_stack_pointer_and_non_calls_are_allowed(project):
    m = loads(project, """
        inst A = 100 (a --) {
            int n = STACK_LEVEL(); Py_DECREF(a);
            _PyFrame_SetStackPointer(frame, stack_pointer);
            s.TOP = 1;
            p->POP(1);
            int TOP = 2;
        }
    """)
    assert m.instructions[0].name == "A"


def test_oparg_in_an_instruction_without_argument(project):
    expect(project, """
        inst A = 10 (--) {
            int i = oparg;
        }
    """, [(2, 13, "A uses oparg but takes no argument (opcode 10 < HAVE_ARGUMENT 90)")])


def test_oparg_in_a_specialized_instruction_of_a_family_with_argument(project):
    m = loads(project, """
        inst A = 100 (--) {
        }
        inst A_M (--) {
            int i = oparg;
        }
        family A {
            members: A_M;
        }
    """)
    assert m.families[0].members[0].has_arg


def test_oparg_error_points_at_the_real_use(project):
    expect(project, """
        inst A = 10 (--) {
            int a = s.oparg;
            int b = oparg;
        }
    """, [(3, 13, "A uses oparg but takes no argument (opcode 10 < HAVE_ARGUMENT 90)")])


def test_oparg_in_the_stack_effect_of_an_instruction_without_argument(project):
    expect(project, """
        inst A = 10 (args[oparg] --) {
        }
    """, [(1, 14, "stack item 'args[oparg]' of A uses oparg but the instruction takes no "
                  "argument (opcode 10 < HAVE_ARGUMENT 90)")])


def test_oparg_in_a_condition_or_a_part_of_an_instruction_without_argument(project):
    # A part used twice by the same instruction is reported once.
    expect(project, """
        inst B = 11 (x -- y if (oparg & 1), z) {
            y = x;
            z = x;
        }
        op _X (a[oparg] --) {
        }
        inst C = 12 : _X + _X;
    """, [
        (1, 19, "stack item 'y if (oparg & 1)' of B uses oparg but the instruction takes no "
                "argument (opcode 11 < HAVE_ARGUMENT 90)"),
        (5, 8, "stack item 'a[oparg]' of C uses oparg but the instruction takes no argument "
               "(opcode 12 < HAVE_ARGUMENT 90)"),
    ])


def test_oparg_in_a_part_used_twice_is_reported_once(project):
    expect(project, """
        op _X (--) {
            int i = oparg;
        }
        inst C = 12 : _X + _X;
    """, [(2, 13, "C uses oparg but takes no argument (opcode 12 < HAVE_ARGUMENT 90)")])


def test_output_never_assigned(project):
    expect(project, """
        inst A = 100 (a -- b, c) {
            b = a;
        }
        inst B = 101 (-- v[oparg]) {
        }
    """, [
        (1, 23, "output 'c' of A is never assigned"),
        (4, 18, "output array 'v' of B is never filled"),
    ])


PASSED_THROUGH = ("is the input of the same name left in place, so it is never stored, but the "
                  "body assigns it; give the output another name")


def test_output_left_in_place_must_not_be_assigned(project):
    expect(project, """
        inst A = 100 (a, b -- a, c) {
            a = f(b);
            c = b;
        }
        inst B = 101 (unused, x -- unused, x) {
            x = NULL;
        }
        inst J = 102 (a -- a) jump (a -- a) {
            a = NULL;
            DISPATCH_JUMPED();
        }
    """, [
        (1, 23, f"output 'a' of A {PASSED_THROUGH}"),
        (5, 36, f"output 'x' of B {PASSED_THROUGH}"),
        (8, 20, f"output 'a' of J {PASSED_THROUGH}"),
        (8, 34, f"output 'a' of J {PASSED_THROUGH}"),
    ])


def test_output_assignment_forms(project):
    # Assigned by '=', through '&' (an out-parameter), passed through, unused, or never
    # completing; an array output counts as filled when the body mentions it.
    m = loads(project, """
        inst A = 100 (a -- a, b, c, unused) {
            b = f(a);
            g(&c);
        }
        inst B = 101 (x -- y) {
            goto error;
        }
        inst C = 102 (-- v[oparg]) {
            fill(v);
        }
    """)
    assert [i.name for i in m.instructions] == ["A", "B", "C"]


def test_output_assigned_only_in_a_comment_or_string_is_not_assigned(project):
    expect(project, """
        inst A = 100 (-- res) {
            // res = NULL;
            puts("res = NULL");
            s.res = NULL;
        }
    """, [(1, 18, "output 'res' of A is never assigned")])


def test_jump_outputs_are_checked_when_the_body_jumps(project):
    expect(project, """
        inst A = 100 (a --) jump (a -- a, b) {
            DISPATCH_JUMPED();
        }
    """, [(1, 35, "output 'b' of A is never assigned")])


def test_unused_operation(project):
    expect(project, """
        op _X (--) {
        }
        inst A = 100 (--) {
        }
    """, [(1, 4, "operation _X is not used by any instruction")])


def test_flags_needing_an_argument_on_instructions_below_have_argument(project):
    expect(project, """
        inst A = 10 [const, eval_breaker] (--) {
        }
        inst B = 11 [jump_forward, name] (--) {
        }
        inst C = 12 [arg] (--) {
        }
    """, [
        (1, 14, "flag 'const' needs an argument, but A = 10 is below HAVE_ARGUMENT (90)"),
        (3, 14, "flag 'jump_forward' needs an argument, but B = 11 is below HAVE_ARGUMENT (90)"),
        (3, 28, "flag 'name' needs an argument, but B = 11 is below HAVE_ARGUMENT (90)"),
        (5, 14, "flag 'arg' needs an argument, but C = 12 is below HAVE_ARGUMENT (90)"),
    ])


@pytest.mark.parametrize("flag", ["const", "name", "local", "free", "compare"])
def test_argument_flags_on_a_composition_below_have_argument(project, flag):
    expect(project, f"""
        op _X (--) {{
        }}
        inst A = 10 [{flag}] : _X + _X;
    """, [(3, 14, f"flag '{flag}' needs an argument, but A = 10 is below HAVE_ARGUMENT (90)")])


def test_flag_twice_and_both_jump_directions(project):
    expect(project, """
        inst A = 110 [jump_forward, jump_backward, jump_forward] (--) {
        }
    """, [
        (1, 10, "A cannot jump both forward and backward"),
        (1, 44, "flag 'jump_forward' is given twice"),
    ])


def test_jump_effect_with_different_inputs(project):
    expect(project, """
        inst A = 100 (a -- b) jump (x --) {
            b = a;
            DISPATCH_JUMPED();
        }
    """, [(1, 28, "the jump effect of A must have the same inputs as its stack effect (a -- b)")])


def test_compiler_effect_and_jump_effect_together(project):
    expect(project, """
        inst A = 100 (a -- a) jump (a --) compiler (a --) {
            DISPATCH_JUMPED();
        }
    """, [(1, 44, "A cannot have both a jump effect and a compiler effect")])


def test_duplicate_stack_items_and_shape_mismatch(project):
    expect(project, """
        inst A = 100 (a, a -- b, b) {
            b = a;
        }
        inst B = 101 (x[oparg] -- x) {
        }
    """, [
        (1, 18, "duplicate stack input 'a'"),
        (1, 26, "duplicate stack output 'b'"),
        (4, 27, "output 'x' has a different shape than the input of the same name"),
    ])


def test_array_output_must_stay_where_its_input_is(project):
    # (callable, args[oparg] -- args[oparg]) would need the array moved down one slot.
    expect(project, """
        inst A = 100 (callable, args[oparg] -- args[oparg]) {
            Py_DECREF(callable);
        }
        inst B = 101 (args[oparg], x -- args[oparg]) {
            Py_DECREF(x);
        }
        inst C = 102 (args[oparg] -- args[oparg], x) {
            x = NULL;
        }
        inst D = 103 (args[oparg], x -- x, args[oparg]) {
        }
    """, [
        (1, 40, "array 'args' must stay where it is as an input (arrays are not moved); give "
                "the output another name and fill it in the body"),
        (10, 36, "array 'args' must stay where it is as an input (arrays are not moved); give "
                 "the output another name and fill it in the body"),
    ])


def test_unused_may_repeat(project):
    m = loads(project, """
        inst A = 100 (unused, unused[oparg] -- unused, unused[oparg]) {
        }
    """)
    assert len(m.instructions[0].effect.inputs) == 2


def test_malformed_dsl_statements(project):
    expect(project, """
        inst A = 100 (--) {
        }
        inst A_M (--) {
            DEOPT_IF(a, A);
            DEOPT_IF();
            ERROR_IF(x);
            ERROR_IF(x, y + 1);
            DISPATCH(1);
        }
        family A {
            members: A_M;
        }
    """, [
        (4, 5, "DEOPT_IF takes one argument: DEOPT_IF(condition) (the family is implied)"),
        (5, 5, "DEOPT_IF takes one argument: DEOPT_IF(condition) (the family is implied)"),
        (6, 5, "ERROR_IF takes two arguments: ERROR_IF(condition, label)"),
        (7, 5, "ERROR_IF takes two arguments: ERROR_IF(condition, label)"),
        (8, 5, "DISPATCH takes no arguments: DISPATCH()"),
    ])


def test_dsl_statement_inside_an_expression(project):
    # The generator rewrites DSL statements; one inside an expression or a condition would be
    # left as it is, and the C compiler would see DEOPT_IF with one argument.
    expect(project, """
        inst A = 100 (--) {
        }
        inst A_M (--) {
            int x = DEOPT_IF(a);
            if (ERROR_IF(b, error)) {
            }
        }
        family A {
            members: A_M;
        }
    """, [
        (4, 13, "DEOPT_IF(...) must be a statement of its own: DEOPT_IF(condition);"),
        (5, 9, "ERROR_IF(...) must be a statement of its own: ERROR_IF(condition, label);"),
    ])


def test_specializer_statement_in_an_instruction_body(project):
    expect(project, """
        inst A = 100 (--) {
            REJECT_IF(x);
            FAIL(OTHER);
        }
    """, [
        (2, 5, "REJECT_IF is a statement of specializer blocks (allowed in 'when'), not of an "
               "instruction body"),
        (3, 5, "FAIL is a statement of specializer blocks (allowed in 'specialize', 'when', "
               "'otherwise'), not of an instruction body"),
    ])


def test_dsl_statement_without_semicolon(project):
    expect(project, """
        inst A = 100 (--) {
            ERROR_IF(x, error)
            DISPATCH()
        }
    """, [
        (3, 5, "expected ';' after ERROR_IF(...)"),
        (3, 14, "expected ';' after DISPATCH(...)"),
    ])


def test_unbalanced_parentheses_in_dsl_statement(project):
    expect(project, """
        inst A = 100 (--) {
            ERROR_IF((x, error;
        }
    """, [(2, 14, "'(' is never closed")])


# -- compositions -----------------------------------------------------------------------------

def test_composition_part_finishing_early(project):
    expect(project, """
        inst A = 100 (--) {
            DISPATCH();
        }
        inst J = 101 (a -- a) jump (a --) {
            DISPATCH_JUMPED();
        }
        inst B = 102 : A + J;
    """, [
        (7, 16, "'A' finishes early (DISPATCH) and cannot be part of a composition"),
        (7, 20, "'J' finishes early (DISPATCH) and cannot be part of a composition"),
    ])


def test_composition_last_part_may_dispatch(project):
    # DISPATCH() in the last part of a composition is that part's end (COMPARE_OP_*_JUMP's
    # backward jump); before it, or in a superinstruction's part, it would skip what follows.
    expect(project, """
        op _A (x -- x) {
            if (x) {
                DISPATCH();
            }
        }
        op _B (x --) {
            Py_DECREF(x);
        }
        inst C = 100 : _B + _A;
        inst D = 101 : _A + _B;
        inst E = 102 (x -- x) {
        }
        super F : E + _A;
    """, [
        (10, 16, "'_A' finishes early (DISPATCH) and cannot be part of a composition"),
        (13, 15, "'_A' finishes early (DISPATCH) and cannot be part of a composition"),
    ])


def test_composition_part_leaving_before_the_last(project):
    # A part that jumps, returns or goes to another instruction before the last part would
    # skip the parts after it (a superinstruction's next part would decode the wrong unit); an
    # error exit is no such exit, and the last part may jump.
    root = project("""
        inst A = 100 (--) {
            if (x) {
                JUMPBY(oparg);
            }
        }
        inst R = 101 (--) {
            if (x) return NULL;
            if (y) goto error;
        }
        inst G = 102 (--) {
            if (x) goto resume_frame;
        }
        inst N = 103 (--) {
            next_instr = first_instr;
        }
        inst S = 104 (--) {
            if (x) goto error;
        }
        super SUP : A + R + G + N + S + A;
    """)
    diags = errors(root)
    assert [(d.location.line, d.location.col, d.message, [(loc.line, text) for loc, text in
                                                          d.notes]) for d in diags] == [
        (19, 13, "'A' can leave the instruction (JUMPBY) before the parts after it run: only "
                 "the last part of SUP may jump, return or go to another instruction",
         [(3, "here")]),
        (19, 17, "'R' can leave the instruction (return) before the parts after it run: only "
                 "the last part of SUP may jump, return or go to another instruction",
         [(7, "here")]),
        (19, 21, "'G' can leave the instruction (goto resume_frame) before the parts after it "
                 "run: only the last part of SUP may jump, return or go to another instruction",
         [(11, "here")]),
        (19, 25, "'N' can leave the instruction (an assignment to next_instr) before the parts "
                 "after it run: only the last part of SUP may jump, return or go to another "
                 "instruction", [(14, "here")]),
    ]


def test_composition_of_a_composition(project):
    expect(project, """
        inst A = 100 (--) {
        }
        inst B = 101 : A + A;
        inst C = 102 : B + A;
    """, [(4, 16, "'B' is itself a composition; compose its parts instead")])


def test_composition_parts_disagree_on_the_stack(project):
    expect(project, """
        op _P1 (-- a[oparg]) {
            fill(a);
        }
        op _P2 (b -- c) {
            c = b;
        }
        inst A = 100 : _P1 + _P2;
    """, [(7, 22, "'_P2' takes b but the previous part leaves a[oparg]")])


def test_values_handed_between_parts(project):
    # A value is taken by name from a part before; it is no stack item (the composed effect
    # has none) and only an op may give or take one.
    m = loads(project, """
        op _P1 (a -- a, t: PyTypeObject *) {
            t = Py_TYPE(a);
        }
        op _P2 (a, t: PyTypeObject * -- b) {
            b = f(a, t);
            Py_DECREF(a);
        }
        inst A = 100 : _P1 + _P2;
    """)
    assert m.instructions[0].effect.spelling() == "(a -- b)"
    expect(project, """
        op _P2 (a, t: PyTypeObject * -- b) {
            b = f(a, t);
            Py_DECREF(a);
        }
        op _P0 (a -- a) {
        }
        inst A = 100 : _P0 + _P2;
    """, [(7, 22, "'_P2' takes the value t: PyTypeObject *, which no part before it gives")])
    expect(project, """
        op _P1 (a -- a, t: PyObject *) {
            t = a;
        }
        op _P2 (a, t: PyTypeObject * -- b) {
            b = f(a, t);
            Py_DECREF(a);
        }
        inst A = 100 : _P1 + _P2;
    """, [(8, 22, "'_P2' takes the value t: PyTypeObject *, but _P1 gives t: PyObject *")])
    expect(project, """
        inst A = 100 (a -- b, n: int) {
            b = a;
            n = 1;
        }
    """, [(1, 23, "the value n: int in the stack effect of A: only an op, a part of a "
                  "composition, takes or gives values")])
    expect(project, """
        op _P1 (a -- a, n: int) {
        }
        op _P2 (a, n: int -- b) {
            b = g(a, n);
            Py_DECREF(a);
        }
        inst A = 100 : _P1 + _P2;
    """, [(1, 17, "output 'n' of _P1 is never assigned")])


def test_guard_after_parts_that_pass_the_stack_through(project):
    # Arrays: the stack is written part by part. A guard may follow parts that pass every
    # item through, if they change nothing; else it is reported as in one body.
    later = """
        op _P2 (f, args[oparg], n: int -- r) {
            DEOPT_IF(n > 3);
            r = g(f, args, n);
            ERROR_IF(r == NULL, error);
        }
        inst A_M : _P1 + _P2;
    """ + genutil.ARRAY_FAMILY
    loads(project, """
        op _P1 (f, args[oparg] -- f, args[oparg], n: int) {
            n = oparg;
        }
    """ + later)
    expect(project, """
        op _P1 (f, args[oparg] -- f, args[oparg], n: int) {
            n = oparg;
            Py_INCREF(f);
        }
    """ + later, [
        (3, 5, "a reference-count change (Py_INCREF) in _P1, part 1 of A_M, before a DEOPT_IF "
               "of part 2: a guard must come before anything that changes state (on a miss, the "
               "generic instruction runs again from the state on entry)")])
    expect(project, """
        op _P1 (f, args[oparg] -- g, args[oparg], n: int) {
            n = oparg;
            g = f;
        }
    """ + later, [
        (7, 5, "DEOPT_IF in part 2 of A_M would run after earlier parts wrote the stack: only a "
               "composition of scalar items whose parts neither move the stack nor leave "
               "(model.Instruction.symbolic_stack), or whose parts before the guard pass every "
               "item through (unwritten_before), keeps it unwritten there")])


def test_an_input_released_through_a_value_an_earlier_part_gave(project):
    # _P2 pops `a` without naming it: its reference is released as `t`, which _P1 took from
    # it. Without such an earlier part the reference leaks.
    later = """
        op _P2 (a, t: PyObject * -- b) {
            b = f(t);
            Py_DECREF(t);
        }
    """
    loads(project, """
        op _P1 (a -- a, t: PyObject *) {
            t = a;
        }
        inst A = 100 : _P1 + _P2;
    """ + later)
    expect(project, """
        op _P1 (x -- x, t: PyObject *) {
            t = NULL;
        }
        inst A = 100 : _P1 + _P2;
    """ + later, [(6, 9, "input 'a' of _P2 is popped, but the body never uses it: its reference "
                          "would leak (release it with Py_DECREF, or name it 'unused' if the slot "
                          "holds no reference)")])


def test_check_eval_breaker_ends_only_the_last_part(project):
    # It runs after the instruction's end (past its cache): in an earlier part it would run
    # with the later parts still to come.
    expect(project, """
        op _P1 (a -- b) {
            b = a;
            CHECK_EVAL_BREAKER();
        }
        op _P2 (b -- c) {
            c = b;
        }
        inst A = 100 : _P1 + _P2;
    """, [(3, 5, "CHECK_EVAL_BREAKER() ends _P1, part 1 of A: it runs after the instruction's "
                 "end (past its inline cache, where the eval breaker's handler dispatches "
                 "from), so only the last part of a composition may end with it")])


def test_values_declared_again_or_given_with_another_type(project):
    # The case declares each value once, before the parts: a declaration in a body would
    # shadow it (later parts would read the outer one, unassigned), and a second giver of
    # another type would assign it through a conversion.
    take = """
        op _P2 (a, n: int -- b) {
            b = f(a, n);
            Py_DECREF(a);
        }
        inst A = 100 : _P1 + _P2;
    """
    expect(project, """
        op _P1 (a -- a, n: int) {
            int n = 2;
            g(n);
        }
    """ + take, [(1, 17, "the body of _P1 declares 'n', which shadows its value n: int: "
                         "assign it without a type")])
    expect(project, """
        op _P1 (a -- a, n: int) {
            n = 2;
        }
        op _P0 (a -- a, n: double) {
            n = 2.5;
        }
        inst B = 101 : _P1 + _P0 + _P2;
    """ + take.replace("inst A = 100 : _P1 + _P2;", ""), [
        (7, 22, "'_P0' gives the value n: double, but _P1 gives n: int (the case declares one "
                "variable of each name)"),
        (7, 28, "'_P2' takes the value n: int, but _P0 gives n: double")])


def test_composed_effect(project):
    m = loads(project, """
        op _P1 (a, b -- c) {
            c = a; Py_DECREF(b);
        }
        op _P2 (c -- d, e) {
            d = c;
            e = c;
        }
        op _P3 (x, y, z -- w) {
            w = x; Py_DECREF(y); Py_DECREF(z);
        }
        inst A = 100 : _P1 + _P2 + _P3;
    """)
    assert m.instructions[0].effect.spelling() == "(x, a, b -- w)"


# -- several errors, and the command line -----------------------------------------------------

MANY_ERRORS = {
    "a.inst": """
        inst A = 100 (-- res) {
            int x = TOP();
        }
        inst A = 101 (--) {
        }
    """,
    "b.inst": """
        cache C {
            counter: 1;
        }
        inst B = 5 (--) {
            int i = oparg;
        }
    """,
}


def test_every_error_of_every_file_is_reported_in_one_run(project):
    diags = errors(project(MANY_ERRORS))
    assert [(d.location.file, d.location.line, d.location.col, d.message) for d in diags] == [
        ("instructions/a.inst", 1, 18, "output 'res' of A is never assigned"),
        ("instructions/a.inst", 2, 13, f"'TOP' {POSITIONAL}"),
        ("instructions/a.inst", 4, 6,
         "duplicate definition 'A' (first defined at instructions/a.inst:1:6)"),
        ("instructions/b.inst", 1, 7, "cache C is not used by any family"),
        ("instructions/b.inst", 5, 13,
         "B uses oparg but takes no argument (opcode 5 < HAVE_ARGUMENT 90)"),
    ]


def test_syntax_errors_of_every_file_are_reported(project):
    diags = errors(project({"a.inst": "inst A = (--) {}\n", "b.inst": "inst B = 1 (a b) {}\n"}))
    assert [(d.location.file, d.location.line, d.location.col) for d in diags] == [
        ("instructions/a.inst", 1, 10), ("instructions/b.inst", 1, 15)]


def test_cli_reports_errors_exits_1_and_writes_nothing(project, tmp_path):
    root = project(MANY_ERRORS)
    out = tmp_path / "out"
    out.mkdir()
    before = tree(root)
    result = run_cli("generate", "--root", str(root), "--output-root", str(out))
    assert result.returncode == 1
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert lines[-1] == "5 error(s); nothing was written"
    assert lines[0] == "instructions/a.inst:1:18: error: output 'res' of A is never assigned"
    assert lines[1:3] == ["inst A = 100 (-- res) {", " " * 17 + "^"]
    assert sum(": error: " in line for line in lines) == 5
    assert tree(out) == []
    assert tree(root) == before


def test_cli_syntax_error_writes_nothing_into_the_project(project):
    root = project({"a.inst": "inst A = (--) {}\n"})
    result = run_cli("generate", "--root", str(root))
    assert result.returncode == 1
    assert result.stderr == ("instructions/a.inst:1:10: error: expected an opcode number, "
                             "found '('\ninst A = (--) {}\n         ^\n"
                             "1 error(s); nothing was written\n")
    assert tree(root) == ["instructions/a.inst"]


@pytest.mark.parametrize("command", ["check", "stale", "diff"])
def test_every_command_fails_on_errors(project, command):
    from generator.__main__ import main
    root = project(MANY_ERRORS)
    assert main([command, "--root", str(root)]) == (2 if command == "diff" else 1)
    assert tree(root) == ["instructions/a.inst", "instructions/b.inst"]


def test_errors_leave_previous_outputs_untouched(project, tmp_path, capsys):
    from generator.__main__ import main
    good = project({"a.inst": "inst NOP = 9 (--) {\n}\ninst EXTENDED_ARG = 144 (--) {\n}\n"})
    out = tmp_path / "out"
    assert main(["generate", "--root", str(good), "--output-root", str(out)]) == 0
    snapshot = {rel: (out / rel).read_bytes() for rel in tree(out)}
    assert len(snapshot) == len(genutil.OUTPUTS)
    (good / "instructions" / "a.inst").write_text("inst NOP = 9 (--) {\n    POP();\n}\n")
    capsys.readouterr()
    assert main(["generate", "--root", str(good), "--output-root", str(out)]) == 1
    assert "1 error(s); nothing was written" in capsys.readouterr().err
    assert {rel: (out / rel).read_bytes() for rel in tree(out)} == snapshot


def test_cli_check_reports_counts(project, capsys):
    from generator.__main__ import main
    root = project({"a.inst": """
        inst NOP = 9 (--) {
        }
        inst A = 100 (--) {
        }
        inst A_Q (--) {
        }
        family A {
            quick: A_Q;
        }
    """})
    assert main(["check", "--root", str(root)]) == 0
    assert capsys.readouterr().out == "3 instructions, 1 families, 0 caches: no errors\n"


def test_cli_without_instruction_files(tmp_path):
    result = run_cli("generate", "--root", str(tmp_path))
    assert result.returncode == 1
    assert f"error: no instructions/*.inst files under {tmp_path}" in result.stderr
    assert tree(tmp_path) == []


def test_cli_names_an_unreadable_file(project):
    root = project({"a.inst": "inst NOP = 9 (--) {\n}\n"})
    (root / "instructions" / "bad.inst").write_bytes(b"inst X = 1 (--) {\n    // caf\xe9\n}\n")
    result = run_cli("check", "--root", str(root))
    assert result.returncode == 1
    assert "bad.inst" in result.stderr
    assert "0 error(s)" not in result.stderr
    assert result.stdout == ""
    assert result.stderr == ("instructions/bad.inst:2:11: error: the file is not UTF-8 (byte 0xe9)\n"
                             "1 error(s); nothing was written\n")


def test_a_file_that_is_not_utf8_is_reported_with_the_syntax_errors_of_the_others(project):
    # Like a syntax error, it stops the run before the analysis.
    root = project({"a.inst": "inst NOP = (--) {\n}\n"})
    (root / "instructions" / "b.inst").write_bytes(b"\xff\n")
    (root / "instructions" / "c.inst").write_bytes(b"inst X = 100 (--) {\n}\n/* \x80 */\n")
    diags = errors(root)
    assert [(d.location.file, d.location.line, d.location.col, d.message) for d in diags] == [
        ("instructions/a.inst", 1, 12, "expected an opcode number, found '('"),
        ("instructions/b.inst", 1, 1, "the file is not UTF-8 (byte 0xff)"),
        ("instructions/c.inst", 3, 4, "the file is not UTF-8 (byte 0x80)"),
    ]


def test_an_unreadable_file_is_reported_at_its_start(project):
    root = project({"a.inst": "inst NOP = 9 (--) {\n}\n"})
    (root / "instructions" / "dir.inst").mkdir()  # found by the *.inst glob, not readable
    diags = errors(root)
    assert [(d.location.file, d.location.line, d.location.col, d.message) for d in diags] == [
        ("instructions/dir.inst", 1, 1, "cannot read the file: Is a directory")]
    result = run_cli("check", "--root", str(root))
    assert result.returncode == 1
    assert result.stderr == ("instructions/dir.inst:1:1: error: cannot read the file: Is a "
                             "directory\n1 error(s); nothing was written\n")


def test_not_utf8_column_counts_characters(project):
    root = project({"a.inst": "inst NOP = 9 (--) {\n}\n"})
    (root / "instructions" / "bad.inst").write_bytes(
        "inst X = 1 (--) {\n// é".encode() + b"\xe9\n}\n")
    assert brief(errors(root)) == [(2, 5, "the file is not UTF-8 (byte 0xe9)")]


def test_the_command_line_shows_a_limited_number_of_errors_in_source_order(project):
    text = "".join(f"inst A{n} = {n} (--) {{\n    POP();\n}}\n" for n in range(1, 61))
    root = project({"a.inst": text})
    result = run_cli("check", "--root", str(root), "--max-errors", "3")
    assert result.returncode == 1
    lines = result.stderr.splitlines()
    assert [line.split(": error")[0] for line in lines if ": error:" in line] == [
        "instructions/a.inst:2:5", "instructions/a.inst:5:5", "instructions/a.inst:8:5"]
    assert lines[-2:] == ["... and 57 more (--max-errors)", "60 error(s); nothing was written"]
    assert len(run_cli("check", "--root", str(root)).stderr.splitlines()) == 50 * 3 + 2


def test_a_later_part_of_a_superinstruction_with_a_cache(project):
    expect(project, """
        cache C {
            counter: 1;
        }
        inst A = 100 (--) {
        }
        inst B = 101 (--) {
        }
        inst B_AD (--) {
            DISPATCH_SAME_OPARG();
        }
        super A__B : A + B;
        family A {
            members: A__B;
        }
        family B {
            cache: C;
            adaptive: B_AD;
        }
    """, [(11, 7, "part 2 of superinstruction A__B, B, has an inline cache: after each part a "
                  "superinstruction decodes the next code unit, which would be B's cache")])


MEMBER_PARTS = """
    cache C {
        counter: 1;
    }
    inst A = 100 (--) {
    }
    inst B = 101 (x -- x) {
    }
    inst B_AD (x -- x) {
        DISPATCH_SAME_OPARG();
    }
    inst BX (x -- x) {
        DEOPT_IF(x == NULL);
    }
    inst BY (x -- x) {
        DEOPT_IF(x != NULL);
    }
    family B {
        cache: C;
        adaptive: B_AD;
        members: BX, BY;
    }
    inst E = 102 (x -- x) {
    }
    inst E_AD (x -- x) {
        DISPATCH_SAME_OPARG();
    }
    inst EX (x -- x) {
        DEOPT_IF(x == NULL);
    }
    family E {
        cache: C;
        adaptive: E_AD;
        members: EX;
    }
"""


@pytest.mark.parametrize("supers, expected", [
    # a member part must be the last
    ("super A__BX__A : A + BX + A;",
     "superinstruction A__BX__A: part 2, BX, is a specialized instruction (member of family "
     "B); only the last part may be one, and only a member (quickening installs a "
     "superinstruction over generic instructions)"),
    # and a member, not the adaptive form
    ("super A__B_AD : A + B_AD;",
     "superinstruction A__B_AD: its last part, B_AD, is a specialized instruction (adaptive of "
     "family B); only the last part may be one, and only a member (quickening installs a "
     "superinstruction over generic instructions)"),
    # two over the same instructions: quickening could install one
    ("super A__BX : A + BX;\nsuper A__BY : A + BY;",
     "superinstruction A__BY is installed over the same instructions as A__BX (A + B): "
     "quickening would install only one of them"),
    # alternatives: members of one family, each once, with one stack effect
    ("super A__B : A + (BX | EX);",
     "superinstruction A__B: the alternatives of its last part must be members of one family "
     "(here: B, E)"),
    ("super A__B : A + (BX | E);",
     "superinstruction A__B: alternative E of its last part is not a member of a family "
     "(alternatives are the members the site may hold)"),
    ("super A__B : A + (BX | BX);",
     "superinstruction A__B: an alternative of its last part is listed twice"),
])
def test_a_superinstruction_with_a_member_part(project, supers, expected):
    names = [line.split()[1] for line in supers.splitlines() if line.startswith("super ")]
    text = MEMBER_PARTS + supers + "\nfamily A {\n    members: %s;\n}\n" % ", ".join(names)
    root = project({"a.inst": text})
    assert [message for _, _, message in brief(errors(root))] == [expected]


def test_alternatives_agree_on_their_stack_effect(project):
    text = MEMBER_PARTS + ("op BZ (x -- y, z) {\n    y = x;\n    z = x;\n}\n"
                           "super A__B : A + (BX | BZ);\nfamily A {\n    members: A__B;\n}\n")
    messages = [message for _, _, message in brief(errors(project({"a.inst": text})))]
    assert ("alternative BZ of A__B's last part has the stack effect (x -- y, z), "
            "BX has (x -- x): the alternatives must agree") in messages


def test_alternatives_are_for_a_superinstructions_last_part(project):
    text = MEMBER_PARTS + "super A__B : A + (BX | BY) + A;\nfamily A {\n    members: A__B;\n}\n"
    assert [message for _, _, message in brief(errors(project({"a.inst": text})))] == [
        "expected ';', found '+'"]
    text = MEMBER_PARTS + "inst A_B : A + (BX | BY);\n"
    assert [message for _, _, message in brief(errors(project({"a.inst": text})))] == [
        "expected the name of an instruction or operation, found '('"]


def test_a_superinstruction_with_alternatives_is_accepted(project):
    text = MEMBER_PARTS + "super A__B : A + (BY | BX);\nfamily A {\n    members: A__B;\n}\n"
    m = genutil.model_of(project({"a.inst": text}))
    inst = next(i for i in m.instructions if i.name == "A__B")
    assert [m.name for m in inst.member_parts] == ["BY", "BX"]
    assert [p.name for p in inst.bodies] == ["A", "BY", "BX"]
    assert inst.installed_over == ("A", "B")


def test_a_superinstruction_with_a_member_part_is_accepted(project):
    text = MEMBER_PARTS + "super A__BX : A + BX;\nfamily A {\n    members: A__BX;\n}\n"
    m = genutil.model_of(project({"a.inst": text}))
    inst = next(i for i in m.instructions if i.name == "A__BX")
    assert [m.name for m in inst.member_parts] == ["BX"] and inst.installed_over == ("A", "B")


# -- what is copied into C and Python ---------------------------------------------------------

@pytest.mark.parametrize("size, problem", [
    ("oparg +", "it ends with an operator"),
    ("oparg oparg", "'oparg' follows an operand without an operator"),
    ("oparg = 1", "'=' cannot stand there (no assignments, statements or strings)"),
    ("(oparg", "'(' is never closed"),
    ("oparg; x", "';' cannot stand there (no assignments, statements or strings)"),
    ("\"s\"", "'\"s\"' cannot stand there (no assignments, statements or strings)"),
])
def test_malformed_array_sizes_are_rejected(project, size, problem):
    expect(project, f"""
        inst A = 100 (args[{size}] --) {{
        }}
    """, [(1, 20, f"malformed C expression in the size of the array: {problem}")])


@pytest.mark.parametrize("size", ["oparg", "oparg - 1", "(oparg & 1) + 2 * oparg", "f(oparg, 2)",
                                  "-oparg + x[1]", "oparg ? 1 : 0", "KWNAMES_LEN()"])
def test_well_formed_array_sizes_are_accepted(project, size):
    m = loads(project, f"""
        inst A = 100 (args[{size}] --) {{
        }}
    """)
    assert m.instructions[0].effect.inputs[0].array_size == size


def test_malformed_condition_is_rejected(project):
    expect(project, """
        inst A = 100 (-- x if (oparg &)) {
            x = NULL;
        }
    """, [(1, 24, "malformed C expression in the condition: it ends with an operator")])


def test_names_that_are_c_or_cpp_keywords(project):
    expect(project, """
        inst for = 100 (int -- class) {
            class = int;
        }
        cache C {
            counter: 1;
            new: 1;
        }
        inst A = 101 (--) {
        }
        inst A_AD (--) {
            DISPATCH_SAME_OPARG();
        }
        family A {
            cache: C;
            adaptive: A_AD;
        }
    """, [
        (1, 6, "the name 'for' is a C or C++ keyword"),
        (1, 17, "the stack item 'int' is a C or C++ keyword"),
        (1, 24, "the stack item 'class' is a C or C++ keyword"),
        (6, 5, "the cache entry 'new' is a C or C++ keyword"),
    ])


def test_oparg_spellings_with_escapes_or_quotes(project):
    expect(project, r"""
        inst BINARY_OP = 122 (--) {
        }
        oparg BINARY_OP {
            NB_ADD: "+";
            NB_ODD: "\n";
            NB_QUOTE: "\"";
        }
    """, [
        (5, 5, "the spelling of NB_ODD has an escape or a quote; it is copied into opcode.py "
               "as it is written"),
        (6, 5, "the spelling of NB_QUOTE has an escape or a quote; it is copied into opcode.py "
               "as it is written"),
    ])


def test_a_cache_larger_than_its_table_type(project):
    expect(project, """
        cache C {
            counter: 1;
            big: 255;
        }
        inst A = 100 (--) {
        }
        inst A_AD (--) {
            DISPATCH_SAME_OPARG();
        }
        family A {
            cache: C;
            adaptive: A_AD;
        }
    """, [(1, 7, "cache C is 256 code units; _PyOpcode_Caches (uint8_t) holds at most 255")])


@pytest.mark.parametrize("line, expected", [
    ("    x = f(a));", (2, 13, "')' closes nothing")),
    ("    x = f((a);", (2, 10, "'(' is never closed")),
    ("    x = a[f(1];", (2, 12, "'(' is not closed before this ']'")),
    (")", (2, 1, "')' closes nothing")),
])
def test_unbalanced_brackets_in_a_body(project, line, expected):
    expect(project, f"""
        inst A = 100 (a -- x) {{
        {line}
        }}
    """, [expected])


def test_a_duplicate_shows_the_first_definition_in_a_note(project):
    root = project({"a.inst": "inst NOP = 9 (--) {\n}\n", "b.inst": "inst NOP = 10 (--) {\n}\n"})
    (diag,) = errors(root)
    assert diag.format().splitlines()[3:] == [
        "instructions/a.inst:1:6: note: first defined here", "inst NOP = 9 (--) {", "     ^"]
    root = project("inst A = 10 (--) {\n}\ninst B = 10 (--) {\n}\n", root=root.parent / "two")
    (diag,) = errors(root)
    assert diag.format().splitlines()[3:] == [
        "instructions/test.inst:1:10: note: A = 10 here", "inst A = 10 (--) {", "         ^"]


def test_names_the_runtime_already_uses(project):
    # opcode.h defines every instruction's name as a macro: NULL, TARGET or a C API name
    # would be redefined under the runtime's feet.
    expect(project, """
        inst NULL = 9 (--) {
        }
        inst TARGET = 10 (--) {
        }
        inst Py_DoIt = 11 (--) {
        }
        inst FINE = 12 (--) {
        }
    """, [
        (1, 6, "the name 'NULL' is one the runtime's C already uses (a macro or identifier of C, "
               "ceval.c, the C API or the generated tables): the generated code would redefine it"),
        (3, 6, "the name 'TARGET' is one the runtime's C already uses (a macro or identifier of "
               "C, ceval.c, the C API or the generated tables): the generated code would redefine "
               "it"),
        (5, 6, "the name 'Py_DoIt' is one the runtime's C already uses (a macro or identifier of "
               "C, ceval.c, the C API or the generated tables): the generated code would redefine "
               "it"),
    ])


def test_stack_and_reference_rules_of_a_body(project):
    # A body that moves the stack itself must leave by its own exit (the epilogue and ERROR_IF
    # move it again from the entry stack); a raw `goto error` after releasing an input lets the
    # unwinder release it twice; a popped input the body never uses leaks.
    root = project("""
        inst A = 100 (a, b -- c) {
            c = f(a);
            Py_DECREF(a);
            if (c == NULL) {
                Py_DECREF(b);
                goto error;
            }
            STACK_SHRINK(1);
            Py_DECREF(b);
        }
        inst B = 101 (x, y --) {
            Py_DECREF(y);
            if (g()) {
                STACK_SHRINK(1);
                goto error;
            }
            ERROR_IF(true, error);
        }
    """)
    assert [(d.location.line, d.location.col, d.message, [(loc.line, loc.col, t) for loc, t in
                                                          d.notes]) for d in errors(root)] == [
        (6, 9, "goto error after A released its input 'a': the unwinder releases it again from "
               "the stack; pop it first (ERROR_IF(cond, error) pops the inputs, or STACK_SHRINK)",
         [(3, 5, "released here")]),
        (6, 9, "goto error after A released its input 'b': the unwinder releases it again from "
               "the stack; pop it first (ERROR_IF(cond, error) pops the inputs, or STACK_SHRINK)",
         [(5, 9, "released here")]),
        (8, 5, "STACK_SHRINK in the middle of A: after moving the stack itself a body must leave "
               "by an exit of its own (goto, return, JUMP_TO_INSTRUCTION...), but the end of the "
               "block follows, which moves the stack from where it was on entry", []),
        (11, 15, "input 'x' of B is popped, but the body never uses it: its reference would leak "
                 "(release it with Py_DECREF, or name it 'unused' if the slot holds no "
                 "reference)", []),
    ]  # B's goto after STACK_SHRINK(1) is fine: the stack move popped y, which it released


def test_cr_and_crlf_line_ends_are_line_ends(project):
    # Read as blanks, a lone CR would make a `//` comment run to the end of the file and
    # swallow the declarations after it.
    root = project({"a.inst": "inst NOP = 9 (--) {\n}\n"})
    (root / "instructions" / "a.inst").write_bytes(
        b"inst NOP = 9 (--) {\r}\r// a comment\rinst X = 10 (--) {\r    POP();\r}\r")
    (root / "instructions" / "b.inst").write_bytes(b"// c\r\ninst Y = 11 (--) {\r\n}\r\n")
    assert [(d.location.file, d.location.line, d.location.col, d.message) for d in errors(root)] \
        == [("instructions/a.inst", 5, 5, f"'POP' {POSITIONAL}")]


def test_a_long_line_is_quoted_around_its_column(project):
    names = ", ".join(f"X{k}" for k in range(3000))
    root = project(f"""
        inst A = 100 (--) {{
        }}
        inst A_AD (--) {{
            DISPATCH_SAME_OPARG();
        }}
        cache C {{
            counter: 1;
        }}
        family A {{
            cache: C;
            adaptive: A_AD;
            members: {names};
        }}
    """)
    diags = errors(root)
    assert len(diags) == 3000
    last = diags[-1].format().splitlines()
    assert last[0].endswith("error: unknown instruction 'X2999' in family A")
    assert last[1].startswith("...") and last[1].endswith("X2999;")
    assert len(last[1]) <= 3 + 2 * 80 and last[2].endswith("^")
    assert last[1][len(last[2]) - 1:].startswith("X2999")  # the caret is under the name


def test_suggestions_are_bounded_so_that_diagnostics_stay_linear(project, monkeypatch):
    # Each "did you mean" compares with every known name: for thousands of unknown names
    # against thousands of known ones only the first analysis.SUGGESTIONS get one.
    import difflib
    from generator import analysis
    calls = []
    real = difflib.get_close_matches
    monkeypatch.setattr(difflib, "get_close_matches", lambda *a, **k: calls.append(1) or real(*a, **k))
    defs = "".join(f"inst X{k} = {k % 200 + 1} (--) {{\n}}\n" for k in range(400))
    names = ", ".join(f"Y{k}" for k in range(400))
    root = project(defs + "inst A = 250 (--) {\n}\ninst A_AD (--) {\n    DISPATCH_SAME_OPARG();\n}"
                   "\ncache C {\n    counter: 1;\n}\nfamily A {\n    cache: C;\n    adaptive: A_AD;"
                   f"\n    members: {names};\n}}\n")
    diags = errors(root)
    assert sum("unknown instruction 'Y" in d.message for d in diags) == 400
    assert len(calls) == analysis.SUGGESTIONS


def test_cli_rejects_arguments_it_does_not_understand_and_reports_write_errors(project, tmp_path):
    root = project({"a.inst": "inst NOP = 9 (--) {\n}\n"})
    result = run_cli("diff", "HEAD~1", "--root", str(root))
    assert result.returncode == 2
    assert "error: diff takes no file argument 'HEAD~1' (to compare with a git revision: diff " \
           "--git REV)" in result.stderr
    result = run_cli("check", "--git", "HEAD", "--root", str(root))
    assert result.returncode == 2 and "error: --git is an option of diff" in result.stderr
    blocked = tmp_path / "blocked"
    blocked.write_text("a file where a folder should be")
    result = run_cli("generate", "--root", str(root), "--output-root", str(blocked))
    assert result.returncode == 1
    assert "Traceback" not in result.stderr
    assert result.stderr.startswith("error: cannot write ") and "nothing was changed" in \
        result.stderr
    assert blocked.read_text() == "a file where a folder should be"
