"""The specializer declared in the DSL (generator/specializer.py, emit_specializer.py): the
generated adaptive form, the specialize function (members tried in the order of `members:`, cache fills
written and derived from guards, failure kinds), and every check with its diagnostic."""

from __future__ import annotations

import genutil
from genutil import brief, errors

SPEC = "runtime/generated/Python/specialize_families.c.h"
CACHES_H = "runtime/generated/Include/internal/pycore_code_caches.h"

CACHE = """
cache C {
    counter: 1;
    version: 2;
    index: 1;
}
inst A = 100 (left, right -- res) {
    res = PyNumber_Add(left, right);
}
"""


def family(extra: str = "", members: str = "A_M", specialize: str = "specialize { }") -> str:
    return f"""
family A {{
    cache: C;
    adaptive: A_AD;
    members: {members};
    {extra}
    {specialize}
}}
"""


MEMBER = """
inst A_M (left, right -- res)
when {
    REJECT_IF(!PyLong_CheckExact(left));
    PyTypeObject *tp = Py_TYPE(left);
    cache->index = 3;
}
{
    PyTypeObject *tp = Py_TYPE(left);
    uint32_t type_version = read_u32(cache->version);
    DEOPT_IF(tp->tp_version_tag != type_version);
    res = left;
    Py_INCREF(res);
    Py_DECREF(left);
    Py_DECREF(right);
    (void)cache->index;
}
"""


def generated(project, files) -> dict[str, str]:
    return genutil.generate(project(files))


def test_adaptive_form_and_specialize_function(project):
    out = generated(project, {"a.inst": CACHE + family() + MEMBER})
    cases = out[genutil.CASES]
    # The adaptive instruction is generated: counter, call, back to the generic one.
    assert "TARGET(A_AD) {" in cases
    assert "_PyQuicken_Specialize_A(next_instr, oparg, left, right) < 0" in cases
    assert "JUMP_TO_INSTRUCTION(A);" in cases and "STAT_INC(A, deferred);" in cases
    spec = out[SPEC]
    assert "int\n_PyQuicken_Specialize_A(_Py_CODEUNIT *instr, int oparg, PyObject *left, " \
           "PyObject *right)\n{" in spec
    # The member's `when`, its written fill and the fill derived from its guard.
    member = spec[spec.index("// A_M"):spec.index("reject_A_M: ;")]
    assert "goto reject_A_M;" in member
    assert "cache->index = 3;" in member
    assert "write_u32(cache->version, tp->tp_version_tag);" in member
    assert "FAIL_WITH(QUICKEN_FAIL_A_OUT_OF_RANGE);" in member  # the value must fit
    assert member.index("write_u32") < member.index("_Py_SET_OPCODE(*instr, A_M);")
    assert "#define QUICKEN_FAIL_A_OTHER 0" in spec
    assert "int _PyQuicken_Specialize_A(_Py_CODEUNIT *instr, int oparg, PyObject *left, " \
           "PyObject *right);" in out[CACHES_H]


def test_members_are_tried_in_the_order_listed_and_parameters_are_passed(project):
    second = MEMBER.replace("A_M", "A_N").replace("PyLong_CheckExact", "PyFloat_CheckExact")
    spec_block = """specialize (PyObject *name = GETITEM(names, oparg)) {
        FAIL_IF(name == NULL, NO_NAME);
    }
    otherwise {
        FAIL(PyUnicode_CheckExact(left) ? STRING : OTHER);
    }"""
    out = generated(project, {"a.inst": CACHE + second + MEMBER + family(
        "failures: NO_NAME, STRING;", "A_M, A_N", spec_block)})
    spec = out[SPEC]
    assert spec.index("// A_M") < spec.index("// A_N")  # listed first (A_N is defined first)
    assert "PyObject *name)" in spec
    assert "_PyQuicken_Specialize_A(next_instr, oparg, left, right, GETITEM(names, oparg))" \
        in out[genutil.CASES]
    assert "FAIL_WITH(QUICKEN_FAIL_A_NO_NAME);" in spec
    assert "FAIL_WITH(PyUnicode_CheckExact(left) ? QUICKEN_FAIL_A_STRING : " \
           "QUICKEN_FAIL_A_OTHER);" in spec
    assert "#define QUICKEN_FAIL_A_NO_NAME 2" in spec


def test_a_composed_member_names_the_generic_inputs_by_stack_position(project):
    # The member's first part takes only the top input: the `when` still sees each of the
    # member's inputs as the generic input in its place (`x` is `right`, `y` is `left`), not
    # as the generic input in the first part's place.
    composed = """
op _GUARD_TOP (x -- x) {
    DEOPT_IF(!PyLong_CheckExact(x));
}
op _TAKE_BOTH (y, x -- res) {
    res = y;
    Py_DECREF(x);
}
inst A_M : _GUARD_TOP + _TAKE_BOTH
when {
    REJECT_IF(!PyLong_CheckExact(x) || y == NULL);
}
"""
    spec = generated(project, {"a.inst": CACHE + composed + family()})[SPEC]
    member = spec[spec.index("// A_M"):spec.index("reject_A_M: ;")]
    assert "PyObject *x = right;" in member and "PyObject *y = left;" in member
    assert "= left;" not in member.replace("PyObject *y = left;", "")


SHARED = """
op _GUARD_LONG (left, right -- left, right)
when {
    REJECT_IF(!PyLong_CheckExact(left));
    PyTypeObject *tp = Py_TYPE(left);
}
{
    PyTypeObject *tp = Py_TYPE(left);
    uint32_t type_version = read_u32(cache->version);
    DEOPT_IF(tp->tp_version_tag != type_version);
}
op _TAKE_LEFT (left, right -- res) {
    res = left;
    Py_DECREF(right);
    (void)cache->index;
}
op _TAKE_RIGHT (left, right -- res) {
    res = right;
    Py_DECREF(left);
}
inst A_M : _GUARD_LONG + _TAKE_LEFT
when {
    REJECT_IF(tp->tp_itemsize != 0);
    cache->index = 3;
}
inst A_N : _GUARD_LONG + _TAKE_RIGHT;
"""


def test_an_ops_when_is_the_shared_admission_of_the_members_it_begins(project):
    spec = generated(project, {"a.inst": CACHE + SHARED + family(members="A_M, A_N")})[SPEC]
    first = spec[spec.index("// A_M"):spec.index("reject_A_M: ;")]
    # The op's block, then the member's own, in one scope: `tp` declared by the first is
    # seen by the second; the fill derived from the op's guard is written.
    assert first.index("if (!PyLong_CheckExact(left)) {") < first.index("Py_TYPE(left);") \
        < first.index("if (tp->tp_itemsize != 0) {") < first.index("cache->index = 3;") \
        < first.index("write_u32(cache->version, tp->tp_version_tag);") \
        < first.index("_Py_SET_OPCODE(*instr, A_M);")
    # A member whose whole admission is the op's.
    second = spec[spec.index("// A_N"):spec.index("reject_A_N: ;")]
    assert "if (!PyLong_CheckExact(left)) {" in second and "tp_itemsize" not in second
    assert "write_u32(cache->version, tp->tp_version_tag);" in second
    assert "_Py_SET_OPCODE(*instr, A_N);" in second


def test_an_ops_when_is_checked_for_each_family_and_read_only_where_it_counts(project):
    # An unknown failure kind in the op's `when`: reported once, in the op.
    kinds = SHARED.replace("REJECT_IF(!PyLong_CheckExact(left));",
                           "FAIL_IF(!PyLong_CheckExact(left), ZEBRA);")
    assert [m for _, _, m in brief(errors(project({
        "a.inst": CACHE + kinds + family(members="A_M, A_N")})))] == [
        "unknown failure kind 'ZEBRA' of family A (declare it in 'failures:')"]
    # Where the op is not the first part of a member, its `when` would be ignored: an error.
    later = SHARED.replace("inst A_N : _GUARD_LONG + _TAKE_RIGHT;",
                           "op _NOTHING (left, right -- left, right) { }\n"
                           "inst A_N : _NOTHING + _GUARD_LONG + _TAKE_RIGHT\n"
                           "when { REJECT_IF(left == right); }")
    diags = errors(project({"a.inst": CACHE + later + family(members="A_M, A_N")}))
    # (and A_N's guard is filled from a `tp` that its own `when` does not define)
    assert [(d.location.line, d.message, [t for _, t in d.notes]) for d in diags][:1] == [
        (11, "the 'when' of _GUARD_LONG would be ignored in A_N: an op's 'when' is read only "
            "where the op is the first part of a member of a family that declares 'specialize'",
         ["_GUARD_LONG in A_N"])]
    assert len(diags) == 2 and "uses 'tp', which A_N's 'when' does not define" in diags[1].message


def test_keep_generic_and_error(project):
    spec_block = """specialize {
        ERROR_IF(PyErr_Occurred());
        if (oparg > 3) {
            KEEP_GENERIC(OTHER);
        }
    }"""
    spec = generated(project, {"a.inst": CACHE + MEMBER + family(specialize=spec_block)})[SPEC]
    assert "KEEP_GENERIC_WITH(QUICKEN_FAIL_A_OTHER);" in spec
    assert "generic:\n" in spec and "_Py_SET_OPCODE(*instr, A);\n    return 0;" in spec
    assert "return -1;" in spec


def test_a_narrowed_member_rejects_other_sizes(project):
    text = """
cache C {
    counter: 1;
}
inst U = 100 (seq -- values[oparg]) {
    for (int i = 0; i < oparg; i++) {
        values[i] = seq;
    }
}
inst U_TWO (seq -- values[2])
when {
    FAIL_IF(!PyTuple_CheckExact(seq), OTHER);
}
{
    DEOPT_IF(!PyTuple_CheckExact(seq));
    values[0] = values[1] = seq;
}
family U {
    cache: C;
    adaptive: U_AD;
    members: U_TWO;
    specialize { }
}
"""
    spec = generated(project, {"a.inst": text})[SPEC]
    assert "if ((oparg) != 2) {\n            goto reject_U_TWO;" in spec


def test_a_cache_entry_read_but_never_written(project):
    member = MEMBER.replace("    cache->index = 3;\n", "")
    assert [(m, n) for _, _, m, n in [
        (d.location.line, d.location.col, d.message, [t for _, t in d.notes])
        for d in errors(project({"a.inst": CACHE + family() + member}))]] == [
        ("A_M reads cache->index, which its 'when' neither writes nor fills from a guard "
         "(DEOPT_IF(x != cache->index))", ["A_M's 'when'"])]


def test_a_derived_fill_needs_its_names_in_when(project):
    member = MEMBER.replace("    PyTypeObject *tp = Py_TYPE(left);\n    cache->index", "    cache->index")
    text = CACHE + family() + member
    diags = errors(project({"a.inst": text}))
    assert [d.message for d in diags] == [
        "the fill of cache->version derived from this guard uses 'tp', which A_M's 'when' "
        "does not define"]
    guard_line = genutil.dedent(text)[:genutil.dedent(text).index("DEOPT_IF")].count("\n") + 1
    assert diags[0].location.line == guard_line


def test_a_member_after_one_that_never_rejects_is_unreachable(project):
    first = MEMBER.replace("A_M", "A_N").replace("    REJECT_IF(!PyLong_CheckExact(left));\n", "")
    diags = errors(project({"a.inst": CACHE + MEMBER + first + family(members="A_N, A_M")}))
    assert [d.message for d in diags] == [
        "A_M is never tried: A_N before it never rejects (its 'when' has no REJECT_IF)"]
    assert [t for _, t in diags[0].notes] == ["A_N's 'when'"]


def test_unknown_failure_kind_suggests(project):
    member = MEMBER.replace("    cache->index = 3;\n",
                            "    FAIL_IF(tp == NULL, OUT_OF_RANGES);\n    cache->index = 3;\n")
    assert [d.message for d in errors(project({"a.inst": CACHE + family() + member}))] == [
        "unknown failure kind 'OUT_OF_RANGES' of family A; did you mean 'OUT_OF_RANGE'? "
        "(declare it in 'failures:')"]


def test_loop_macros_and_misplaced_macros_in_blocks(project):
    member = MEMBER.replace("    cache->index = 3;\n",
                            "    DEOPT_IF(tp == NULL);\n    cache->index = 3;\n")
    spec_block = "specialize {\n        REJECT_IF(oparg);\n    }"
    msgs = [d.message for d in errors(project({"a.inst": CACHE + family(
        specialize=spec_block) + member}))]
    assert msgs == [
        "REJECT_IF is not allowed in a 'specialize' block (there: FAIL, FAIL_IF, KEEP_GENERIC, "
        "ERROR_IF)",
        "DEOPT_IF in a 'when' block: specializer code runs outside the evaluation loop (use "
        "REJECT_IF, FAIL, FAIL_IF, KEEP_GENERIC, ERROR_IF)",
    ]


def test_wrong_argument_count(project):
    member = MEMBER.replace("    cache->index = 3;\n", "    FAIL_IF(tp == NULL);\n    cache->index = 3;\n")
    assert [d.message for d in errors(project({"a.inst": CACHE + family() + member}))] == [
        "FAIL_IF takes two arguments: FAIL_IF(condition, kind)"]


def test_members_without_when_and_when_without_specialize(project):
    plain = MEMBER.replace("when {\n    REJECT_IF(!PyLong_CheckExact(left));\n"
                           "    PyTypeObject *tp = Py_TYPE(left);\n    cache->index = 3;\n}\n", "")
    diags = errors(project({"a.inst": CACHE + family() + plain}))
    assert [d.message for d in diags] == [
        "A_M is a member of family A, whose specializer would never install it: give it a "
        "'when' block"]
    hand = CACHE + MEMBER + "inst A_AD (left, right -- unused) {\n    DISPATCH_SAME_OPARG();\n}\n"
    diags = errors(project({"a.inst": hand + family(specialize="")}))
    assert [d.message for d in diags] == [
        "A_M has a 'when' block, but family A declares no 'specialize' that would try it"]


def test_a_written_adaptive_form_conflicts(project):
    hand = "inst A_AD (left, right -- unused) {\n    DISPATCH_SAME_OPARG();\n}\n"
    diags = errors(project({"a.inst": CACHE + MEMBER + hand + family()}))
    assert [d.message for d in diags] == [
        "A_AD is generated from family A's 'specialize'; remove this definition"]
    assert [t for _, t in diags[0].notes] == ["the specializer is declared here"]


def test_specialize_needs_a_cache_and_an_adaptive_name(project):
    text = CACHE + MEMBER + """
family A {
    members: A_M;
    specialize { }
}
"""
    msgs = [d.message for d in errors(project({"a.inst": text}))]
    assert ("family A declares 'specialize' but no 'adaptive:' name for the instruction it "
            "generates") in msgs


def test_an_unknown_cache_name_is_one_error(project):
    # A typo in 'cache:' is reported once, not again for every member and the adaptive form
    # whose bodies use `cache`.
    text = CACHE + MEMBER + family().replace("cache: C;", "cache: Cx;")
    assert [d.message for d in errors(project({"a.inst": text}))] == [
        "unknown cache 'Cx'; did you mean 'C'?"]


def test_duplicate_and_too_many_failure_kinds(project):
    kinds = ", ".join(f"K{i}" for i in range(29))
    msgs = [d.message for d in errors(project({"a.inst": CACHE + MEMBER + family(
        f"failures: OTHER, {kinds};")}))]
    assert msgs == ["duplicate failure kind 'OTHER' (every family has it)",
                    "family A has 31 failure kinds; Py_STATS counts at most 30 "
                    "(SPECIALIZATION_FAILURE_KINDS)"]


def test_parameters_parse_errors(project):
    text = CACHE + MEMBER + family(specialize="specialize (PyObject *name) { }")
    diags = errors(project({"a.inst": text}))
    assert "expected a parameter: 'TYPE NAME = EXPRESSION'" in diags[0].message


# -- the code layout and the .pyc identity (generator/layout.py) ------------------------------



def test_layout_fingerprint_and_identity():
    from generator import layout
    from generator.baselines import BASELINES

    base = BASELINES["cpython_3_11_2"]
    rows = layout.baseline_layout(base)
    assert ("LOAD_GLOBAL", 116, 5) in rows and ("FOR_ITER", 93, 0) in rows
    digest = layout.fingerprint(rows)
    assert digest == layout.fingerprint(list(rows))  # deterministic
    changed = [(n, o, 1 if n == "FOR_ITER" else c) for n, o, c in rows]
    other = layout.fingerprint(changed)
    assert other != digest

    class FakeModel:
        def __init__(self, rows, baseline):
            self._rows, self.baseline = rows, baseline

    def identity(rows, baseline=base):
        real = layout.layout
        layout.layout = lambda m: m._rows
        try:
            return layout.pyc_identity(FakeModel(rows, baseline))
        finally:
            layout.layout = real

    same = identity(rows)
    assert (same.magic, same.cache_tag, same.baseline) == (3495, "cpython-311", base)
    moved = identity(changed)
    assert moved.baseline is None
    assert 10000 <= moved.magic < 20000 and moved.magic == 10000 + int(other[:8], 16) % 10000
    assert moved.cache_tag == "quicken-311-" + other[:8] and "." not in moved.cache_tag
    assert identity(changed) == moved  # stable
    assert identity(rows, None).magic != 3495  # no baseline: always derived


def test_real_layout_is_upstreams_until_a_cache_changes():
    from generator import layout
    from test_real_instructions import PROJECT_CACHE_CHANGES
    m = genutil.model_of(genutil.ROOT)
    identity = layout.pyc_identity(m)
    if PROJECT_CACHE_CHANGES:
        assert identity.magic != 3495 and identity.cache_tag.startswith("quicken-311-")
    else:
        assert (identity.magic, identity.cache_tag) == (3495, "cpython-311")
    header = genutil.generate(genutil.ROOT)[CACHES_H]
    assert f"#define QUICKEN_PYC_MAGIC_NUMBER {identity.magic}\n" in header
    assert f'#define QUICKEN_CACHE_TAG "{identity.cache_tag}"\n' in header


# -- what is left of upstream's specialize.c ---------------------------------------------------

def test_patched_specialize_c_keeps_no_decision_logic(tmp_path):
    import shutil
    import subprocess
    import pytest
    upstream = genutil.ROOT / "subprojects" / "Python-3.11.2" / "Python" / "specialize.c"
    if not upstream.exists() or shutil.which("patch") is None:
        pytest.skip("upstream CPython 3.11.2 tree not unpacked (run scripts/bootstrap)")
    patched = tmp_path / "specialize.c"
    shutil.copy(upstream, patched)
    subprocess.run(["patch", "-s", str(patched),
                    str(genutil.ROOT / "runtime" / "patches" / "specialize.c.patch")], check=True)
    # Upstream's decisions: its specialize functions, failure kinds, the calls that count a
    # failure or install a specialized instruction; all generated from instructions/ now (the
    # macros stay defined for the generated functions).
    text = patched.read_text(encoding="utf-8")
    code = "\n".join(line for line in text.splitlines() if not line.startswith("#define"))
    assert "_Py_Specialize_" in upstream.read_text(encoding="utf-8")
    for trace in ("_Py_Specialize_", "SPEC_FAIL_", "SPECIALIZATION_FAIL(", "_Py_SET_OPCODE(*instr",
                  "ClassifyIterator", "analyze_descriptor("):
        assert trace not in code, trace
    assert '#include "specialize_families.c.h"' in text


def test_cache_entries_are_read_and_written_with_their_width(project):
    # version has 2 code units, index 1: a 16-bit read of version reads half of it, a 32-bit
    # read of index reads the next entry too; in a body and in a `when` alike.
    member = MEMBER.replace("    cache->index = 3;\n",
                            "    cache->index = 3;\n    write_u64(cache->version, 7);\n"
                            "    cache->version = 1;\n").replace(
        "    (void)cache->index;\n",
        "    (void)cache->index;\n    (void)read_u32(cache->index);\n"
        "    (void)read_u16(cache->version);\n    (void)cache->nope;\n")
    assert brief(errors(project({"a.inst": CACHE + family() + member}))) == [
        (23, 22, "cache->version has 2 code units, but write_u64 writes 4; use write_u32 "
                 "(cache C)"),
        (24, 12, "cache->version has 2 code units, but used directly, it is an array of 2 code "
                 "units; use write_u32 (cache C)"),
        (35, 27, "cache->index has 1 code unit, but read_u32 reads 2; use read_u16 (cache C)"),
        (36, 27, "cache->version has 2 code units, but read_u16 reads 1; use read_u32 "
                 "(cache C)"),
        (37, 18, "cache C has no entry 'nope' (it has: counter, version, index)"),
    ]


def test_a_member_whose_when_rejects_whenever_an_earlier_one_does(project):
    # A_N rejects only when left is not an int; A_M rejects then too (and more): it is never
    # installed. With a condition on a name the block assigns, nothing can be concluded.
    first = MEMBER.replace("A_M", "A_N")
    second = MEMBER.replace("    REJECT_IF(!PyLong_CheckExact(left));\n",
                            "    REJECT_IF(oparg > 2);\n    REJECT_IF(!PyLong_CheckExact(left));\n")
    diags = errors(project({"a.inst": CACHE + second + first + family(members="A_N, A_M")}))
    assert [d.message for d in diags] == [
        "A_M is never installed: whenever A_N (tried before it) rejects, A_M's 'when' rejects "
        "too (! PyLong_CheckExact ( left ))"]
    assert [t for _, t in diags[0].notes] == ["A_N's 'when'"]
    local = MEMBER.replace("    REJECT_IF(!PyLong_CheckExact(left));\n",
                           "    int ok = PyLong_CheckExact(left);\n    REJECT_IF(!ok);\n")
    genutil.model_of(project({"a.inst": CACHE + local.replace("A_M", "A_N") + local
                              + family(members="A_N, A_M")}))  # no error


def test_constant_conditions(project):
    member = MEMBER.replace("    REJECT_IF(!PyLong_CheckExact(left));\n",
                            "    REJECT_IF(!PyLong_CheckExact(left));\n    REJECT_IF(0);\n"
                            "    FAIL_IF(1 && (2 > 1), OTHER);\n    ERROR_IF(true);\n").replace(
        "    res = left;\n", "    DEOPT_IF(false);\n    ERROR_IF(0x0, error);\n    res = left;\n")
    assert [d.message for d in errors(project({"a.inst": CACHE + family() + member}))] == [
        "the condition of REJECT_IF is always false: it never rejects the member",
        "the condition of FAIL_IF is always true: it always fails the specialization",
        "the condition of DEOPT_IF is always false: it never deoptimizes",
        "the condition of ERROR_IF is always false: it never takes the error exit",
        # FAIL_IF(1, ...) always leaves: the index written after it is written on no path
        "A_M reads cache->index, which its 'when' does not write on every path that installs "
        "the member: it can be installed with the entry unset",
    ]  # ERROR_IF(true): the unconditional error exit


def test_an_entry_written_on_some_paths_only(project):
    member = MEMBER.replace("    cache->index = 3;\n",
                            "    if (oparg) {\n        cache->index = 3;\n    }\n"
                            "    else if (oparg > 1) {\n        FAIL(OTHER);\n    }\n")
    diags = errors(project({"a.inst": CACHE + family() + member}))
    assert [d.message for d in diags] == [
        "A_M reads cache->index, which its 'when' does not write on every path that installs "
        "the member: it can be installed with the entry unset"]
    both = MEMBER.replace("    cache->index = 3;\n",
                          "    if (oparg) {\n        cache->index = 3;\n    }\n"
                          "    else {\n        FAIL(OTHER);\n    }\n")
    genutil.model_of(project({"a.inst": CACHE + family() + both}))  # no error


def test_names_a_specializer_block_cannot_see(project):
    # A typo, and a local of another block: C errors in the specialize function, unless the
    # generator reports them. Calls, members, types and offsetof's member are the C compiler's.
    member = MEMBER.replace("    cache->index = 3;\n",
                            "    REJECT_IF(lfet == NULL);\n    cache->index = (uint16_t)tp->tp_flags;\n"
                            "    size_t o = offsetof(PyObject, ob_type) + sizeof(struct x);\n"
                            "    REJECT_IF(not_here);\n")
    diags = errors(project({"a.inst": CACHE + family() + member}))
    assert [d.message for d in diags] == [
        "unknown name 'lfet' in A_M's 'when'; did you mean 'left'?: a specializer block sees its "
        "own locals, the family's 'specialize' locals and parameters, and the instruction's "
        "inputs",
        "unknown name 'not_here' in A_M's 'when': a specializer block sees its own locals, the "
        "family's 'specialize' locals and parameters, and the instruction's inputs",
    ]


def test_specialize_parameters_that_shadow(project):
    spec = ("specialize (PyObject *left = NULL, int oparg = 1, PyObject *x = NULL, "
            "PyObject *x = NULL) { }")
    diags = errors(project({"a.inst": CACHE + family(specialize=spec) + MEMBER}))
    assert [d.message for d in diags] == [
        "the specialize parameter 'left' of family A has the name of an input of the generic "
        "instruction",
        "the specialize parameter 'oparg' of family A has the name of a parameter of the "
        "specialize function",
        "the specialize parameter 'x' of family A has the name of the parameter at "
        f"instructions/a.inst:{diags[2].location.line}:{diags[2].location.col - 20}",
    ]



def test_an_ops_when_in_a_superinstruction_is_an_error(project):
    # A superinstruction is never a family member: an op's `when` in one of its parts would
    # never be read.
    sup = """
op _CHECK_INT (left, right -- left, right)
when {
    REJECT_IF(!PyLong_CheckExact(left));
}
{
}
inst A_P = 200 (left, right -- left, right) { }
super A_S = 201 : A_P + _CHECK_INT;
"""
    text = CACHE + MEMBER + sup + family()
    diags = errors(project({"a.inst": text}))
    assert [(d.location.line, d.message, [t for _, t in d.notes]) for d in diags] == [
        (text[:text.index("op _CHECK_INT")].count("\n") + 1,  # the op
         "the 'when' of _CHECK_INT would be ignored in A_S: an op's 'when' is read only "
         "where the op is the first part of a member of a family that declares 'specialize'",
         ["_CHECK_INT in A_S"])]
