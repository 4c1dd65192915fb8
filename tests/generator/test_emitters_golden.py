"""Golden tests of the emitters on small instruction sets, plus targeted checks of the code and
tables they produce.

Each folder golden/<case>/ holds `instructions/*.inst` (the input) and `expected/<path>` for
every generated file (paths as in generator.emitters.OUTPUTS). The test regenerates in memory
and compares. To refresh the expected files after an intended change of the generator:

    QUICKEN_UPDATE_GOLDEN=1 /usr/bin/python3 -m pytest tests/generator/test_emitters_golden.py

then review the change with `git diff tests/generator/golden`. A run that rewrites a file fails
(refreshing is never a pass); run again without the variable to see the tests pass.
"""

from __future__ import annotations

import functools
import os
import re
from pathlib import Path

import pytest

import genutil
from genutil import OUTPUTS, case_of

GOLDEN = Path(__file__).resolve().parent / "golden"
CASES = sorted(p.name for p in GOLDEN.iterdir() if (p / "instructions").is_dir())
UPDATE = os.environ.get("QUICKEN_UPDATE_GOLDEN") == "1"


@functools.lru_cache(maxsize=None)
def generated(case: str) -> dict[str, str]:
    return genutil.generate(GOLDEN / case)


def test_there_are_golden_cases():
    assert CASES == ["basic", "families"]


@pytest.mark.parametrize("key", sorted(OUTPUTS))
@pytest.mark.parametrize("case", CASES)
def test_golden(case, key):
    rel = OUTPUTS[key]
    text = generated(case)[rel]
    expected_path = GOLDEN / case / "expected" / rel
    if UPDATE:
        # Refreshing is never a pass: a golden file that changed fails this run, so that
        # QUICKEN_UPDATE_GOLDEN=1 left in the environment cannot hide a regression.
        expected_path.parent.mkdir(parents=True, exist_ok=True)
        if not expected_path.exists() or expected_path.read_text(encoding="utf-8") != text:
            expected_path.write_text(text, encoding="utf-8")
            pytest.fail(f"{case}: {rel}: golden file rewritten (QUICKEN_UPDATE_GOLDEN=1); review "
                        "`git diff tests/generator/golden`, then run again without it")
    assert expected_path.exists(), (f"missing golden file {expected_path}; "
                                    "run with QUICKEN_UPDATE_GOLDEN=1 to create it")
    expected = expected_path.read_text(encoding="utf-8")
    assert text == expected, (f"{case}: {rel} differs from its golden file; if the change is "
                              "intended, refresh with QUICKEN_UPDATE_GOLDEN=1")


@pytest.mark.parametrize("case", CASES)
def test_no_stray_golden_files(case):
    expected = GOLDEN / case / "expected"
    present = sorted(str(p.relative_to(expected)) for p in expected.rglob("*") if p.is_file())
    assert present == sorted(OUTPUTS.values())


# -- the cases of the evaluation loop ---------------------------------------------------------

def basic(name: str) -> str:
    return case_of(generated("basic")[OUTPUTS["cases"]], name)


def families(name: str) -> str:
    return case_of(generated("families")[OUTPUTS["cases"]], name)


def test_simple_instruction_loads_inputs_declares_outputs_and_stores():
    assert basic("BINARY_ADD") == genutil.dedent("""
        TARGET(BINARY_ADD) {
            PyObject *right = PEEK(1);
            PyObject *left = PEEK(2);
            PyObject *sum;
            sum = PyNumber_Add(left, right);
            POKE(2, sum);
            Py_DECREF(left);
            Py_DECREF(right);
            if (sum == NULL) goto pop_2_error;
            STACK_SHRINK(1);
            DISPATCH();
        }
    """)


def test_doc_comment_precedes_the_case():
    text = generated("basic")[OUTPUTS["cases"]]
    assert ("        // BINARY_ADD: Pushes `left + right`.\n"
            "        // The second line of the documentation.\n"
            "        TARGET(BINARY_ADD) {\n") in text


def test_error_if_without_inputs_is_a_plain_goto():
    assert "    if (v == NULL) goto error;\n" in basic("LOAD_NAME")


def test_error_if_keeps_pass_through_inputs_at_the_bottom():
    # LIST_APPEND (list, unused[oparg-1], v -- list, unused[oparg-1]): only v is popped.
    case = basic("LIST_APPEND")
    assert "    PyObject *list = PEEK((Py_ssize_t)oparg + 1);\n" in case
    assert ("    if (_PyList_AppendTakeRef((PyListObject *)list, v) < 0) goto pop_1_error;\n"
            in case)


def test_trailing_predict_moves_after_the_stack_update():
    assert basic("LIST_APPEND").endswith(
        "    STACK_SHRINK(1);\n    PREDICT(JUMP_BACKWARD);\n    DISPATCH();\n}\n")


def test_predicted_label_for_predict_and_jump_to_instruction_targets():
    assert basic("JUMP_BACKWARD").startswith(
        "TARGET(JUMP_BACKWARD) {\n    PREDICTED(JUMP_BACKWARD);\n")
    assert basic("STORE_FAST").startswith("TARGET(STORE_FAST) {\n    PREDICTED(STORE_FAST);\n")
    assert "PREDICTED" not in basic("BINARY_ADD")
    assert families("RESUME_QUICK").startswith(
        "TARGET(RESUME_QUICK) {\n    PREDICTED(RESUME_QUICK);\n")


def test_conditional_output():
    # As upstream LOAD_GLOBAL: null is stored unconditionally, at the slot it has when present,
    # before the stack pointer moves; when absent, v lands on that slot. v, above a
    # conditional output, is left to the epilogue.
    assert basic("LOAD_GLOBAL") == genutil.dedent("""
        TARGET(LOAD_GLOBAL) {
            PyObject *null;
            PyObject *v;
            v = lookup_global(oparg >> 1);
            if (v == NULL) goto error;
            null = NULL;
            POKE(0, null);
            STACK_GROW(((oparg & 1) ? 1 : 0) + 1);
            POKE(1, v);
            DISPATCH();
        }
    """)
    for oparg, pushed in ((0, ["v"]), (1, ["null", "v"]), (2, ["v"]), (3, ["null", "v"])):
        assert genutil.simulate(basic("LOAD_GLOBAL"), oparg, ["x"]) == ["x"] + pushed


def test_conditional_input_reads_null_when_absent():
    case = basic("CALL_FUNCTION_EX")
    assert "    PyObject *kwargs = (oparg & 1) ? PEEK(((oparg & 1) ? 1 : 0)) : NULL;\n" in case
    assert "    PyObject *null = PEEK(((oparg & 1) ? 1 : 0) + 3);\n" in case
    assert "        STACK_SHRINK(((oparg & 1) ? 1 : 0) + 3);\n        goto error;\n" in case


def test_eval_breaker_check_comes_once_after_the_stack_update():
    case = basic("CALL_FUNCTION_EX")
    assert ("    result = do_call(func, callargs, kwargs);\n"
            "    POKE(((oparg & 1) ? 1 : 0) + 3, result);\n") in case
    assert case.endswith("    STACK_SHRINK(((oparg & 1) ? 1 : 0) + 2);\n"
                         "    CHECK_EVAL_BREAKER();\n    DISPATCH();\n}\n")
    assert case.count("CHECK_EVAL_BREAKER") == 1


def test_eval_breaker_flag():
    assert basic("JUMP_BACKWARD").endswith(
        "    JUMPBY(-oparg);\n    CHECK_EVAL_BREAKER();\n    DISPATCH();\n}\n")
    assert "CHECK_EVAL_BREAKER" not in basic("LOAD_CONST")


def test_array_input():
    assert basic("BUILD_TUPLE") == genutil.dedent("""
        TARGET(BUILD_TUPLE) {
            PyObject **values = &PEEK(oparg);
            PyObject *tup;
            tup = _PyTuple_FromArraySteal(values, oparg);
            POKE(oparg, tup);
            if (tup == NULL) {
                STACK_SHRINK(oparg);
                goto error;
            }
            STACK_SHRINK(oparg);
            STACK_GROW(1);
            DISPATCH();
        }
    """)


def test_array_output_points_at_its_future_slots():
    case = basic("UNPACK_SEQUENCE")
    assert "    PyObject *seq = PEEK(1);\n    PyObject **values = &PEEK(1);\n" in case
    assert case.endswith("    STACK_SHRINK(1);\n    STACK_GROW(oparg);\n    DISPATCH();\n}\n")
    assert "POKE" not in case


def test_jump_effect_and_early_dispatch():
    assert basic("FOR_ITER") == genutil.dedent("""
        TARGET(FOR_ITER) {
            PyObject *iter = PEEK(1);
            PyObject *next;
            #ifdef Py_STATS
            _py_stats.for_iter++;
            #endif
            next = (*Py_TYPE(iter)->tp_iternext)(iter);
            if (next != NULL) {
                STACK_GROW(1);
                POKE(1, next);
                PREDICT(STORE_FAST);
                DISPATCH();
            }
            Py_DECREF(iter);
            JUMPBY(oparg);
            STACK_SHRINK(1);
            DISPATCH();
        }
    """)


def test_jump_effect_that_keeps_the_input():
    # JUMP_IF_FALSE_OR_POP (cond --) jump (cond -- cond): the jump leaves the stack alone.
    case = basic("JUMP_IF_FALSE_OR_POP")
    assert ("        Py_DECREF(cond);\n        STACK_SHRINK(1);\n        DISPATCH();\n    }\n"
            "    JUMPBY(oparg);\n    DISPATCH();\n}\n") in case


def test_unbraced_early_dispatch_gets_braces():
    assert ("    if (res != NULL) {\n        STACK_SHRINK(1);\n"
            "        DISPATCH();\n    }\n    if (true) goto pop_2_error;\n}\n") in basic("COMPARE_OP")


def test_body_ending_in_an_exit_gets_no_epilogue():
    assert basic("EXTENDED_ARG").endswith("    DISPATCH_GOTO_TRACED();\n}\n")
    assert basic("CACHE") == "TARGET(CACHE) {\n    Py_UNREACHABLE();\n}\n"


def test_empty_body_and_swap():
    # neither can run code: they dispatch without the tracing check (test_dispatch.py)
    # nor can anything observe their position: their entry does not store it
    assert basic("NOP") == "TARGET_NO_PREV_INSTR(NOP) {\n    DISPATCH_NO_TRACE_CHECK();\n}\n"
    assert basic("SWAP").endswith(
        "    POKE(oparg, top);\n    POKE(1, bottom);\n    DISPATCH_NO_TRACE_CHECK();\n}\n")


def test_deopt_if_in_a_member_names_the_family_and_skips_the_cache():
    case = families("BINARY_OP_ADD_INT")
    assert "    DEOPT_IF(!PyLong_CheckExact(left), BINARY_OP);\n" in case
    assert "    DEOPT_IF(Py_TYPE(right) != Py_TYPE(left), BINARY_OP);\n" in case
    assert "    sum = _PyLong_Add((PyLongObject *)left, (PyLongObject *)right);\n" \
           "    POKE(2, sum);\n" in case
    assert case.endswith("    if (sum == NULL) goto pop_2_error;\n    STACK_SHRINK(1);\n"
                         "    JUMPBY(INLINE_CACHE_ENTRIES_BINARY_OP);\n"
                         "    DISPATCH_NO_TRACE_CHECK();\n}\n")


def test_cache_pointer_is_declared_when_the_body_uses_cache():
    case = families("LOAD_ATTR_SLOT")
    assert "    _PyAttrCache *cache = (_PyAttrCache *)next_instr;\n" in case
    assert "read_u32(cache->version), LOAD_ATTR);\n" in case
    assert "_PyAttrCache *cache" not in families("LOAD_ATTR")
    assert families("LOAD_ATTR").endswith("    JUMPBY(INLINE_CACHE_ENTRIES_LOAD_ATTR);\n"
                                          "    DISPATCH();\n}\n")


def test_adaptive_form_leaves_without_epilogue():
    case = families("BINARY_OP_ADAPTIVE")
    assert case.endswith("    JUMP_TO_INSTRUCTION(BINARY_OP);\n}\n")
    assert "JUMPBY(INLINE_CACHE_ENTRIES" not in case
    assert "STACK_SHRINK" not in case
    assert families("BINARY_OP").startswith("TARGET(BINARY_OP) {\n    PREDICTED(BINARY_OP);\n")


def test_fused_member_pops_both_operands_and_skips_the_fused_instruction():
    # `fuses STORE_FAST`: the exit skips BINARY_OP's cache, then the STORE_FAST (no cache)
    case = families("BINARY_OP_INPLACE_ADD_UNICODE")
    assert case.endswith("    if (*target_local == NULL) goto pop_2_error;\n    STACK_SHRINK(2);\n"
                         "    JUMPBY(INLINE_CACHE_ENTRIES_BINARY_OP + 1);\n    DISPATCH();\n}\n")


def test_fused_skip_counts_each_fused_instruction_and_its_cache(project):
    text = """
        cache C {
            counter: 1;
            extra: 2;
        }
        inst A = 100 (x -- r) {
            r = x;
        }
        inst A_AD (x -- unused) {
            DISPATCH_SAME_OPARG();
        }
        inst A_M (x --) fuses A + POP_X {
            Py_DECREF(x);
        }
        inst POP_X = 1 (x --) {
            Py_DECREF(x);
        }
        family A {
            cache: C;
            adaptive: A_AD;
            members: A_M;
        }
    """
    case = genutil.case_of(genutil.generate(project(text))[genutil.CASES], "A_M")
    assert "    JUMPBY(INLINE_CACHE_ENTRIES_A + 1 + INLINE_CACHE_ENTRIES_A + 1);\n" in case


def test_composed_instruction_runs_its_parts_in_blocks():
    # Its parts hand `res` on in a variable; the stack is written at the end (a symbolic stack).
    assert families("LOAD_ATTR_MODULE") == genutil.dedent("""
        TARGET(LOAD_ATTR_MODULE) {
            PyObject *owner = PEEK(1);
            PyObject *res;
            {  // _LOAD_MODULE_ATTR
                _PyAttrCache *cache = (_PyAttrCache *)next_instr;
                DEOPT_IF(!PyModule_CheckExact(owner), LOAD_ATTR);
                PyDictObject *dict = (PyDictObject *)((PyModuleObject *)owner)->md_dict;
                DEOPT_IF(dict->ma_keys->dk_version != read_u32(cache->version), LOAD_ATTR);
                res = DK_UNICODE_ENTRIES(dict->ma_keys)[cache->index].me_value;
                DEOPT_IF(res == NULL, LOAD_ATTR);
                Py_INCREF(res);
                Py_DECREF(owner);
            }
            {  // _LOAD_ATTR_HIT
                STAT_INC(LOAD_ATTR, hit);
            }
            POKE(1, res);
            JUMPBY(INLINE_CACHE_ENTRIES_LOAD_ATTR);
            DISPATCH();
        }
    """)


def test_superinstruction_decodes_the_next_instruction_between_parts():
    # No baseline: the second part starts an instruction of its own (with 3.11.2's baseline,
    # the second half of LOAD_FAST__LOAD_CONST is not). Nothing can observe either part's
    # position: neither stores it, the first's error exit does.
    case = families("LOAD_FAST__LOAD_CONST")
    assert case == genutil.dedent("""
        TARGET_NO_PREV_INSTR(LOAD_FAST__LOAD_CONST) {
            {  // LOAD_FAST
                PyObject *value;
                value = GETLOCAL(oparg);
                POKE(0, value);
                if (value == NULL) {
                    frame->prev_instr = next_instr - 1;
                    goto unbound_local_error;
                }
                Py_INCREF(value);
                STACK_GROW(1);
            }
            NEXTOPARG();
            next_instr++;
            {  // LOAD_CONST
                PyObject *value;
                value = GETITEM(consts, oparg);
                POKE(0, value);
                Py_INCREF(value);
                STACK_GROW(1);
            }
            DISPATCH_NO_TRACE_CHECK();
        }
    """)


def test_cases_follow_declaration_order_files_sorted():
    text = generated("families")[OUTPUTS["cases"]]
    names = re.findall(r"^ +TARGET(?:_NO_PREV_INSTR)?\((\w+)\) \{$", text, re.M)
    assert names[:3] == ["CACHE", "LOAD_FAST", "LOAD_CONST"]  # base.inst before ops.inst
    assert names[-1] == "LOAD_ATTR_MODULE"
    assert len(names) == len(set(names)) == 17


def test_cases_file_defines_poke_and_names_its_origin():
    text = generated("basic")[OUTPUTS["cases"]]
    assert "#ifndef POKE\n#define POKE(n, v) (stack_pointer[-(n)] = (v))\n#endif\n" in text
    # The last case (the checked copies of those that dispatch without the tracing check
    # come last), then the shared exits of ERROR_IF(cond, error): BINARY_ADD pops 2.
    assert text.endswith("        }\n\n        #endif\n\n" + pop_error_labels(2))


def pop_error_labels(n: int) -> str:
    """The shared exits at the end of generated_cases.c.h when pop_<n>_error is the largest
    one used."""
    lines = ["        // ERROR_IF(cond, error) in an instruction with N inputs: pop them, then unwind.\n"]
    for k in range(n, 0, -1):
        lines.append(f"        pop_{k}_error:\n            STACK_SHRINK(1);\n")
    lines.append("            goto error;\n")
    return "".join(lines)


# -- tables -----------------------------------------------------------------------------------

def test_opcode_targets():
    text = generated("families")[OUTPUTS["targets"]]
    entries = re.findall(r"&&(\w+)", text)
    entries, traced = entries[:256], entries[256:]
    # DO_TRACING's table: the checked copy of a base instruction that has one
    assert [(n, e, t) for n, (e, t) in enumerate(zip(entries, traced)) if e != t] == [
        (100, "TARGET_LOAD_CONST", "TARGET_LOAD_CONST_TRACED"),
        (124, "TARGET_LOAD_FAST", "TARGET_LOAD_FAST_TRACED")]
    assert entries[0] == "TARGET_CACHE"
    assert entries[1] == "TARGET_BINARY_OP_ADAPTIVE"
    assert entries[9] == "TARGET_RESUME_QUICK"
    assert entries[10] == "_unknown_opcode"
    assert entries[122] == "TARGET_BINARY_OP"
    assert entries[255] == "TARGET_DO_TRACING"
    assert text.rstrip().endswith("&&TARGET_DO_TRACING\n};")
    assert text.count("&&TARGET_DO_TRACING\n};") == 2


def test_opcode_h_defines():
    text = generated("families")[OUTPUTS["opcode_h"]]
    defines = genutil.read_defines(text)
    assert defines["HAVE_ARGUMENT"] == 90
    assert defines["LOAD_ATTR_MODULE"] == 6
    assert defines["DO_TRACING"] == 255
    assert [defines[n] for n in ("NB_ADD", "NB_AND", "NB_INPLACE_ADD")] == [0, 1, 2]
    # Base instructions by number, HAVE_ARGUMENT before the first one with an argument, then
    # the specialized ones by number, in upstream's column layout.
    assert ("#define CACHE                                    0\n"
            "#define HAVE_ARGUMENT                           90\n"
            "#define LOAD_CONST                             100\n") in text
    assert "#define HAS_CONST(op) (false\\\n    || ((op) == 100) \\\n    )\n" in text


def test_pycore_opcode_tables():
    text = generated("families")[OUTPUTS["pycore_opcode_h"]]
    assert ("const uint8_t _PyOpcode_Caches[256] = {\n"
            "    [LOAD_ATTR] = 4,\n"
            "    [BINARY_OP] = 1,\n"
            "};\n") in text
    deopt = dict(re.findall(r"^    \[(\w+)\] = (\w+),$",
                            text.split("_PyOpcode_Deopt[256] = {")[1].split("};")[0], re.M))
    assert deopt["LOAD_FAST__LOAD_FAST"] == "LOAD_FAST"
    assert deopt["RESUME_QUICK"] == "RESUME"
    assert deopt["BINARY_OP_ADAPTIVE"] == "BINARY_OP"
    assert deopt["LOAD_CONST"] == "LOAD_CONST"
    assert len(deopt) == 17
    assert '    [LOAD_ATTR_SLOT] = "LOAD_ATTR_SLOT",\n' in text
    assert '    [10] = "<10>",\n' in text
    assert "    case 10: \\\n" in text and "    case 9: \\\n" not in text


def test_pycore_opcode_jump_bits():
    text = generated("basic")[OUTPUTS["pycore_opcode_h"]]
    words = [int(w) for w in re.findall(
        r"(\d+)U,", text.split("_PyOpcode_RelativeJump[8] = {")[1].split("};")[0])]
    jumps = {n for n in range(256) if words[n // 32] >> (n % 32) & 1}
    assert jumps == {93, 111, 140}  # FOR_ITER, JUMP_IF_FALSE_OR_POP, JUMP_BACKWARD


def test_code_caches_header():
    text = generated("families")[OUTPUTS["caches_h"]]
    assert genutil.dedent("""
        // The inline cache of LOAD_ATTR.
        // Two lines of documentation.
        typedef struct {
            _Py_CODEUNIT counter;
            _Py_CODEUNIT version[2];
            _Py_CODEUNIT index;
        } _PyAttrCache;

        #define INLINE_CACHE_ENTRIES_LOAD_ATTR CACHE_ENTRIES(_PyAttrCache)
    """) in text
    assert "#define INLINE_CACHE_ENTRIES_BINARY_OP CACHE_ENTRIES(_PyBinaryOpCache)\n" in text


def test_specialize_tables():
    text = generated("families")[OUTPUTS["specialize"]]
    assert ("uint8_t _PyOpcode_Adaptive[256] = {\n"
            "    [BINARY_OP] = BINARY_OP_ADAPTIVE,\n"
            "    [LOAD_ATTR] = LOAD_ATTR_ADAPTIVE,\n"
            "};\n") in text
    assert ("static const uint8_t _PyOpcode_Quick[256] = {\n"
            "    [RESUME] = RESUME_QUICK,\n"
            "};\n") in text
    assert "#define SUPERINSTRUCTION_HISTORY 1\n" in text
    assert ("    switch (opcode) {\n"
            "        case LOAD_CONST:\n"
            "            switch (previous[0]) {\n"
            "                case LOAD_FAST:\n"
            "                    _Py_SET_OPCODE(instructions[i - 1], LOAD_FAST__LOAD_CONST);\n"
            "                    break;\n"
            "            }\n"
            "            break;\n") in text


def test_specialize_tables_without_families_are_empty():
    text = generated("basic")[OUTPUTS["specialize"]]
    assert "uint8_t _PyOpcode_Adaptive[256] = {\n};\n" in text
    assert "#define SUPERINSTRUCTION_HISTORY 1\n" in text
    assert "                                   const int previous[SUPERINSTRUCTION_HISTORY], " \
           "int next)\n{\n    (void)next;\n    (void)opcode;\n}\n" in text


SUPERS = """
    inst CACHE = 0 (--) {
    }
    inst A = 100 (--) {
    }
    inst B = 101 (--) {
    }
    inst C = 102 (--) {
    }
    inst D = 103 (x -- r) {
        r = x;
    }
    inst D_AD (x -- unused) {
        DISPATCH_SAME_OPARG();
    }
    cache DC {
        counter: 1;
    }
    inst D_X (x -- r) {
        DEOPT_IF(x == NULL);
        r = x;
    }
    inst D_Y (x -- r) {
        DEOPT_IF(x != NULL);
        r = x;
    }
    family D {
        cache: DC;
        adaptive: D_AD;
        members: D_X, D_Y;
    }
    super A__B : A + B;
    super A__B__C : A + B + C;
    super B__C : B + C;
    super A__B__C__A : A + B + C + A;
    super A__D : A + (D_X | D_Y);
    family A {
        members: A__B, A__B__C, A__B__C__A, A__D;
    }
    family B {
        members: B__C;
    }
"""

# Runs the quickening loop of the patched specialize.c (runtime/patches/specialize.c.patch)
# over opcode sequences, with the generated tables, and prints the opcodes after quickening.
# test_the_harness_calls_the_tables_as_the_patch_does keeps the two loops the same.
QUICKEN_HARNESS = r"""
#include <stdint.h>
#include <stdio.h>
#include <string.h>
typedef uint16_t _Py_CODEUNIT;
#define _Py_OPCODE(word) ((word) & 255)
#define _Py_SET_OPCODE(word, opcode) ((word) = (_Py_CODEUNIT)(((word) & 0xFF00) | (opcode)))
#include "opcode.h"
#define NEED_OPCODE_TABLES
#include "pycore_opcode.h"
#include "specialize_tables.h"

static void quicken(_Py_CODEUNIT *instructions, int n) {
    int previous[SUPERINSTRUCTION_HISTORY];
    _PyOpcode_ForgetHistory(previous);
    for (int i = 0; i < n; i++) {
        int opcode = _Py_OPCODE(instructions[i]);
        uint8_t adaptive_opcode = _PyOpcode_Adaptive[opcode];
        if (adaptive_opcode) {
            _Py_SET_OPCODE(instructions[i], adaptive_opcode);
            int after = i + 1 + _PyOpcode_Caches[opcode];
            int next = after < n ? _Py_OPCODE(instructions[after]) : -1;
            _PyOpcode_InstallSuperinstructions(instructions, i, opcode, previous, next);
            _PyOpcode_ForgetHistory(previous);
            i += _PyOpcode_Caches[opcode];
        }
        else {
            if (_PyOpcode_Quick[opcode]) {
                _Py_SET_OPCODE(instructions[i], _PyOpcode_Quick[opcode]);
            }
            else {
                int next = i + 1 < n ? _Py_OPCODE(instructions[i + 1]) : -1;
                _PyOpcode_InstallSuperinstructions(instructions, i, opcode, previous, next);
            }
            _PyOpcode_Remember(previous, opcode);
        }
    }
}

int main(int argc, char **argv) {
    for (int a = 1; a < argc; a++) {
        _Py_CODEUNIT code[64];
        int n = 0;
        for (char *op = strtok(argv[a], ","); op; op = strtok(NULL, ",")) {
            code[n] = (_Py_CODEUNIT)(atoi(op) | (n << 8));  /* the argument: its index */
            n++;
        }
        quicken(code, n);
        for (int k = 0; k < n; k++) {
            printf("%s%d:%d", k ? " " : "", _Py_OPCODE(code[k]), code[k] >> 8);
        }
        printf("\n");
    }
    return 0;
}
"""


def test_the_harness_calls_the_tables_as_the_patch_does():
    patch = (genutil.ROOT / "runtime" / "patches" / "specialize.c.patch").read_text()
    added = [line[1:].strip() for line in patch.splitlines() if line.startswith("+ ")]
    calls = [line for line in added if line.startswith("_PyOpcode_")]
    # the start; an adaptive form (superinstructions whose last part is one of its members,
    # then the history forgotten); a generic instruction with a cache (-Dspecialize=false);
    # any other instruction
    install = "_PyOpcode_InstallSuperinstructions(instructions, i, opcode, previous, next);"
    assert calls == ["_PyOpcode_ForgetHistory(previous);", install] + \
        ["_PyOpcode_ForgetHistory(previous);"] * 2 + [install,
                                                      "_PyOpcode_Remember(previous, opcode);"]
    for call in calls:
        assert call in QUICKEN_HARNESS


def test_superinstructions_of_any_length_are_installed(project, tmp_path):
    import shutil
    import subprocess
    if shutil.which("cc") is None:
        pytest.skip("no C compiler")
    root = project(SUPERS)
    files = genutil.generate(root)
    for key in ("opcode_h", "pycore_opcode_h", "specialize"):
        (tmp_path / Path(OUTPUTS[key]).name).write_text(files[OUTPUTS[key]])
    (tmp_path / "harness.c").write_text("#include <stdlib.h>\n" + QUICKEN_HARNESS)
    subprocess.run(["cc", "-std=c11", "-Wall", "-Werror", "-DPy_BUILD_CORE",
                    "-o", str(tmp_path / "harness"), str(tmp_path / "harness.c")],
                   cwd=tmp_path, check=True)
    m = genutil.model_of(root)
    number = {i.name: i.number for i in m.instructions}
    name = {n: i for i, n in number.items()}
    programs = [
        ["A", "B"],                      # a pair
        ["A", "B", "C"],                 # the triple wins at A; B__C at B
        ["A", "B", "C", "A"],            # four parts
        ["A", "B", "D", "CACHE", "C"],   # D's adaptive form and cache break the sequence
        ["B", "A", "B", "C", "C"],
        ["C", "A", "D", "CACHE", "A"],   # a member part: installed over D's generic form
        ["A", "B", "A", "D", "CACHE"],
        ["B", "D", "CACHE", "A", "B"],
    ]
    args = [",".join(str(number[op]) for op in p) for p in programs]
    result = subprocess.run([str(tmp_path / "harness"), *args], capture_output=True, text=True,
                            check=True)
    quickened = [[name[int(word.split(":")[0])] for word in line.split()]
                 for line in result.stdout.splitlines()]
    assert quickened == [
        ["A__B", "B"],
        ["A__B__C", "B__C", "C"],
        ["A__B__C__A", "B__C", "C", "A"],
        ["A__B", "B", "D_AD", "CACHE", "C"],
        ["B", "A__B__C", "B__C", "C", "C"],
        ["C", "A__D", "D_AD", "CACHE", "A"],
        ["A__B", "B", "A__D", "D_AD", "CACHE"],
        ["B", "D_AD", "CACHE", "A__B", "B"],
    ]
    # every instruction keeps its argument (the superinstruction decodes it)
    assert all(int(w.split(":")[1]) == k for line in result.stdout.splitlines()
               for k, w in enumerate(line.split()))


def test_a_member_part_runs_while_the_site_holds_that_member(project):
    # A__D's last part is D_X or D_Y, members of D: it runs as the one the code unit after A
    # holds (else the superinstruction ends after A, dispatching the site as it is now); its
    # guard misses as that member's own (family D) and its cache is skipped at its end.
    # Nothing observes the position: neither part stores it.
    text = genutil.generate(project(SUPERS))[OUTPUTS["cases"]]
    case = re.search(r"^( +)TARGET_NO_PREV_INSTR\(A__D\) \{\n.*?^\1\}\n", text,
                     re.M | re.S).group(0)
    assert genutil.dedent(case) == genutil.dedent("""
        TARGET_NO_PREV_INSTR(A__D) {
            {  // A
            }
            NEXTOPARG();
            if (opcode == D_X) {
                next_instr++;
                {  // D_X
                    PyObject *x = PEEK(1);
                    PyObject *r;
                    DEOPT_IF(x == NULL, D);
                    r = x;
                    POKE(1, r);
                }
                JUMPBY(INLINE_CACHE_ENTRIES_D);
                DISPATCH_NO_TRACE_CHECK();
            }
            if (opcode == D_Y) {
                next_instr++;
                {  // D_Y
                    PyObject *x = PEEK(1);
                    PyObject *r;
                    DEOPT_IF(x != NULL, D);
                    r = x;
                    POKE(1, r);
                }
                JUMPBY(INLINE_CACHE_ENTRIES_D);
                DISPATCH_NO_TRACE_CHECK();
            }
            DISPATCH_NO_TRACE_CHECK();
        }
    """)


def test_stack_effect_function_values():
    text = generated("basic")[OUTPUTS["stack_effect"]]
    effects = genutil.stack_effect_function(text)
    assert set(effects) == {i.name for i in genutil.model_of(GOLDEN / "basic").instructions} \
        | {"default"}
    assert [effects["FOR_ITER"](0, j) for j in (1, 0, -1)] == [-1, 1, 1]
    assert [effects["JUMP_IF_FALSE_OR_POP"](0, j) for j in (1, 0, -1)] == [0, -1, 0]
    assert [effects["BUILD_TUPLE"](n, 0) for n in (0, 1, 5)] == [1, 0, -4]
    assert [effects["UNPACK_SEQUENCE"](n, 0) for n in (0, 1, 5)] == [-1, 0, 4]
    assert [effects["LOAD_GLOBAL"](n, 0) for n in (0, 1, 2, 3)] == [1, 2, 1, 2]
    assert [effects["CALL_FUNCTION_EX"](n, 0) for n in (0, 1)] == [-2, -3]
    assert effects["LIST_APPEND"](3, 0) == -1
    assert effects["SWAP"](7, 0) == 0
    assert effects["default"](0, 0) == genutil.INVALID


def test_stack_effect_source_layout():
    text = generated("basic")[OUTPUTS["stack_effect"]]
    assert ("        case FOR_ITER:\n"
            "            if (jump > 0) {\n"
            "                return -1;\n"
            "            }\n"
            "            if (jump == 0) {\n"
            "                return 1;\n"
            "            }\n"
            "            return Py_MAX(1, -1);\n") in text
    assert "        case BUILD_TUPLE:\n            return -oparg + 1;\n" in text
    assert "        default:\n            return PY_INVALID_STACK_EFFECT;\n" in text


def load_opcode_py(case: str) -> dict:
    namespace: dict = {"__name__": "opcode_under_test"}
    exec(compile(generated(case)[OUTPUTS["opcode_py"]], "opcode.py", "exec"), namespace)
    return namespace


def test_opcode_py_of_families_case():
    ns = load_opcode_py("families")
    assert ns["opmap"] == {"CACHE": 0, "LOAD_CONST": 100, "LOAD_ATTR": 106, "BINARY_OP": 122,
                           "LOAD_FAST": 124, "STORE_FAST": 125, "EXTENDED_ARG": 144,
                           "RESUME": 151}
    assert ns["opname"][122] == "BINARY_OP" and ns["opname"][1] == "<1>"
    assert ns["HAVE_ARGUMENT"] == 90 and ns["EXTENDED_ARG"] == 144
    assert ns["hasconst"] == [100]
    assert ns["hasname"] == [106]
    assert ns["haslocal"] == [124, 125]
    assert ns["hasjrel"] == [] and ns["hasjabs"] == []
    assert ns["_nb_ops"] == [("NB_ADD", "+"), ("NB_AND", "&"), ("NB_INPLACE_ADD", "+=")]
    assert ns["_specializations"] == {
        "BINARY_OP": ["BINARY_OP_ADAPTIVE", "BINARY_OP_ADD_INT", "BINARY_OP_INPLACE_ADD_UNICODE"],
        "LOAD_ATTR": ["LOAD_ATTR_ADAPTIVE", "LOAD_ATTR_SLOT", "LOAD_ATTR_MODULE"],
        "LOAD_FAST": ["LOAD_FAST__LOAD_CONST", "LOAD_FAST__LOAD_FAST"],
        "RESUME": ["RESUME_QUICK"],
    }
    assert ns["_specialized_instructions"] == [
        "BINARY_OP_ADAPTIVE", "BINARY_OP_ADD_INT", "BINARY_OP_INPLACE_ADD_UNICODE",
        "LOAD_ATTR_ADAPTIVE", "LOAD_ATTR_SLOT", "LOAD_ATTR_MODULE", "LOAD_FAST__LOAD_CONST",
        "LOAD_FAST__LOAD_FAST", "RESUME_QUICK"]
    assert ns["_cache_format"] == {"LOAD_ATTR": {"counter": 1, "version": 2, "index": 1},
                                   "BINARY_OP": {"counter": 1}}
    entries = ns["_inline_cache_entries"]
    assert len(entries) == 256
    assert {op: n for op, n in enumerate(entries) if n} == {106: 4, 122: 1}


def test_opcode_py_of_basic_case():
    ns = load_opcode_py("basic")
    assert ns["hasjrel"] == [93, 111, 140]
    assert ns["hascompare"] == [107]
    assert ns["hasfree"] == [137]
    assert ns["hasname"] == [101, 116]
    assert ns["haslocal"] == [125]
    assert ns["hasconst"] == [100]
    assert ns["_specializations"] == {} and ns["_cache_format"] == {}
    assert ns["_nb_ops"] == []
    assert set(ns["_inline_cache_entries"]) == {0}


def test_opcode_py_agrees_with_opcode_h():
    for case in CASES:
        ns = load_opcode_py(case)
        defines = genutil.read_defines(generated(case)[OUTPUTS["opcode_h"]])
        for name, number in ns["opmap"].items():
            assert defines[name] == number
        free = [n for n, name in enumerate(ns["opname"]) if name.startswith("<")]
        # dis gives the specialized instructions the free slots in order: so must opcode.h.
        for slot, name in zip(free, ns["_specialized_instructions"]):
            assert defines[name] == slot


def test_docs_reference():
    text = generated("families")[OUTPUTS["docs"]]
    assert "8 base instructions, 9 specialized instructions in 4 families.\n" in text
    assert ("| [`LOAD_ATTR`](#load_attr) | 4 (`_PyAttrCache`) | `LOAD_ATTR_ADAPTIVE` | "
            "`LOAD_ATTR_SLOT`, `LOAD_ATTR_MODULE` |\n") in text
    section = text.split("### LOAD_ATTR_MODULE\n")[1].split("### ")[0]
    assert "`6` · stack `(owner -- res)`" in section
    assert "family [`LOAD_ATTR`](#load_attr) (member)" in section
    assert "= _LOAD_MODULE_ATTR + _LOAD_ATTR_HIT" in section
    assert "A module attribute." in section
    assert "*Defined in `instructions/ops.inst`.*" in section


def test_composed_effect_keeps_names_passed_through_as_unused():
    m = genutil.model_of(GOLDEN / "families")
    inst = next(i for i in m.instructions if i.name == "LOAD_ATTR_MODULE")
    assert inst.effect.spelling() == "(owner -- res)"


# -- edge cases of the expansion, on small projects --------------------------------------------

def case_in(project, text: str, name: str) -> str:
    return case_of(genutil.generate(project(text))[OUTPUTS["cases"]], name)


def test_unbraced_else_dispatch_gets_braces(project):
    case = case_in(project, """
        inst A = 100 (a -- b) {
            b = f(a);
            if (b == NULL) goto error;
            else DISPATCH();
        }
    """, "A")
    # Both branches leave: no epilogue after the if/else (it could never run).
    assert case.endswith("    if (b == NULL) goto error;\n    else {\n        POKE(1, b);\n"
                         "        DISPATCH();\n    }\n}\n")


def test_exit_in_every_branch_means_no_final_epilogue(project):
    case = case_in(project, """
        inst A = 100 (a -- b) {
            b = f(a);
            if (b != NULL) {
                DISPATCH();
            }
            else if (oparg) {
                goto error;
            }
            else {
                goto pop_1_error;
            }
        }
    """, "A")
    assert case.endswith("        goto pop_1_error;\n    }\n}\n")
    assert case.count("DISPATCH();") == 1


def test_if_without_else_falls_through_to_the_epilogue(project):
    case = case_in(project, """
        inst A = 100 (a -- b) {
            b = f(a);
            if (b == NULL) {
                goto error;
            }
        }
    """, "A")
    assert case.endswith("        goto error;\n    }\n    POKE(1, b);\n    DISPATCH();\n}\n")


def test_unused_inputs_and_unmentioned_inputs_are_not_loaded(project):
    case = case_in(project, """
        inst A = 100 (unused, x, y -- unused, x, z) {
            z = f(y);
        }
    """, "A")
    assert case == genutil.dedent("""
        TARGET(A) {
            PyObject *y = PEEK(1);
            PyObject *z;
            z = f(y);
            POKE(1, z);
            DISPATCH();
        }
    """)


@pytest.mark.parametrize("effect", ["(a -- b)", "(-- b)"])
def test_error_if_in_an_unbraced_branch_keeps_its_else(project, effect):
    case = case_in(project, f"""
        inst A = 100 {effect} {{
            b = f(a);
            if (x) ERROR_IF(b == NULL, error);
            else DISPATCH();
        }}
    """, "A")
    assert "if (x) if (" not in case


def test_array_output_at_another_position_is_moved_or_rejected(project):
    root = project("""
        inst A = 100 (callable, args[oparg] -- args[oparg]) {
            Py_DECREF(callable);
        }
    """)
    try:
        files = genutil.generate(root)
    except genutil.GeneratorError:
        return  # rejected with a diagnostic: fine
    case = case_of(files[OUTPUTS["cases"]], "A")
    assert "memmove" in case or "for (" in case


def test_trailing_check_eval_breaker_before_an_early_dispatch(project):
    case = case_in(project, """
        inst A = 100 [eval_breaker] (a -- b) {
            b = f(a);
            if (b != NULL) {
                PREDICT(A);
                CHECK_EVAL_BREAKER();
                DISPATCH();
            }
            goto error;
        }
    """, "A")
    assert ("    if (b != NULL) {\n        POKE(1, b);\n        PREDICT(A);\n"
            "        CHECK_EVAL_BREAKER();\n        DISPATCH();\n    }\n    goto error;\n}\n") in case
    assert case.count("CHECK_EVAL_BREAKER") == 1


def test_predict_not_directly_before_a_completion_stays_in_place(project):
    case = case_in(project, """
        inst A = 100 (a -- b) {
            PREDICT(A);
            b = f(a);
        }
    """, "A")
    assert case == genutil.dedent("""
        TARGET(A) {
            PREDICTED(A);
            PyObject *a = PEEK(1);
            PyObject *b;
            PREDICT(A);
            b = f(a);
            POKE(1, b);
            DISPATCH();
        }
    """)


def test_error_if_in_a_composition_pops_the_inputs_of_its_part(project):
    # As part by part: _P2's error pops its input c (so the stack is 2 below the entry);
    # nothing was written before but the last part's `d`, stored once final (2.4), in a slot
    # the error pops.
    case = case_in(project, """
        op _P1 (a, b -- c) {
            c = f(a, b);
            ERROR_IF(c == NULL, error);
        }
        op _P2 (c -- d, e) {
            d = g(c);
            ERROR_IF(d == NULL, error);
            e = c;
        }
        inst A = 100 : _P1 + _P2;
    """, "A")
    assert case == genutil.dedent("""
        TARGET(A) {
            PyObject *a = PEEK(2);
            PyObject *b = PEEK(1);
            PyObject *c;
            PyObject *d;
            PyObject *e;
            {  // _P1
                c = f(a, b);
                if (c == NULL) goto pop_2_error;
            }
            {  // _P2
                d = g(c);
                POKE(2, d);
                if (d == NULL) goto pop_2_error;
                e = c;
            }
            POKE(1, e);
            DISPATCH();
        }
    """)

