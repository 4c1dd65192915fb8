"""The real instruction set (instructions/*.inst): counts, agreement with upstream CPython
3.11.2, determinism, headers, and the `stale` / `diff` commands on copies of the project."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import genutil
from genutil import OUTPUTS, ROOT, run_cli
from generator.__main__ import main
from generator.emitters import REGEN_COMMAND

UPSTREAM = ROOT / "subprojects" / "Python-3.11.2"
# A stock build for upstream's compile.c: build-stock/ by the README's convention, or build/
# where that is one; else Debian's python3.11, which is CPython 3.11.2 with upstream's compile.c
# and is on every machine scripts/bootstrap has set up (the same oracle, never a skip).
STOCK_BUILDS = [ROOT / "build-stock", ROOT / "build"]
DEBIAN_PYTHON311 = Path("/usr/bin/python3.11")

needs_upstream = pytest.mark.skipif(
    not (UPSTREAM / "Include" / "opcode.h").exists(),
    reason=f"upstream CPython 3.11.2 tree not unpacked at {UPSTREAM} (run scripts/bootstrap)")


@pytest.fixture(scope="module")
def model():
    return genutil.model_of(ROOT)


@pytest.fixture(scope="module")
def files():
    return genutil.generate(ROOT)


def without_leading_comments(text: str) -> list[str]:
    lines = text.splitlines()
    while lines and lines[0].startswith(("//", "#")) and not lines[0].startswith("#ifndef"):
        lines.pop(0)
    return lines


# -- the model ---------------------------------------------------------------------------------

def test_every_specialized_instruction_belongs_to_its_family(model):
    for family in model.families:
        assert family.generic.role == "generic"
        for inst in family.specializations:
            assert inst.family is family
            assert inst.is_specialized


def test_compiler_effects_override_run_time_effects_for_precall_and_call(model, files):
    # docs/dsl.md: PRECALL and CALL tell the compiler what upstream tells it, while their
    # run-time effects generate the code.
    by_name = {i.name: i for i in model.instructions}
    effects = genutil.stack_effect_function(files[OUTPUTS["stack_effect"]])
    for name, upstream in (("PRECALL", lambda n: -n), ("CALL", lambda n: -1)):
        inst = by_name[name]
        assert getattr(inst, "compiler_effect", None) is not None, name
        for oparg in (0, 1, 7):
            assert effects[name](oparg, 0) == upstream(oparg)
    # PRECALL's run-time effect leaves the stack alone, CALL pops everything.
    assert by_name["PRECALL"].effect.delta.is_zero
    assert by_name["CALL"].effect.delta.render() == "-oparg - 1"


# -- agreement with upstream ------------------------------------------------------------------
#
# Every instruction of upstream 3.11.2 is compared with upstream; what the project adds is listed
# here, so that adding a specialization changes these lists, not the tests.

# Specialized instructions (family members) that upstream 3.11.2 does not have, {name: why}.
PROJECT_ADDITIONS: dict[str, str] = {
    "BINARY_OP_ADD_FLOAT_INT": "`+` on an exact float and a small exact int, either order",
    "BINARY_OP_ADD_FLOAT_STORED": "`x = a + b` on exact floats, a store into a local after it",
    "BINARY_OP_ADD_INT_STORED": "`x = a + b` on exact ints, a store into a local after it",
    "BINARY_OP_MULTIPLY_FLOAT_STORED": "`x = a * b` on exact floats, a store after it",
    "BINARY_OP_MULTIPLY_INT_STORED": "`x = a * b` on exact ints, a store after it",
    "BINARY_OP_SUBTRACT_FLOAT_STORED": "`x = a - b` on exact floats, a store after it",
    "BINARY_OP_SUBTRACT_INT_STORED": "`x = a - b` on exact ints, a store after it",
    "BINARY_OP_FLOOR_DIVIDE_INT": "`//` on two exact ints",
    "BINARY_OP_MULTIPLY_FLOAT_INT": "`*` on an exact float and a small exact int, either order",
    "BINARY_OP_REMAINDER_INT": "`%` on two exact ints",
    "BINARY_OP_SUBTRACT_FLOAT_INT": "`-` on an exact float and a small exact int, either order",
    "BINARY_OP_TRUE_DIVIDE_FLOAT": "`/` on two exact floats",
    "BINARY_SUBSCR_STR_INT": "str[int] for an exact str and a small non-negative int",
    "CALL_PY_KEYWORDS": "a Python function called with keywords in its parameters' order",
    "CALL_PY_CLASS": "a class with a Python __init__ called, __init__ run in the same loop",
    "PRECALL_PY_EXACT_ARGS": "a Python function called with exact arguments, from the PRECALL",
    "LOAD_ATTR_CLASS": "a class attribute read through its class",
    "LOAD_METHOD_INSTANCE_VALUE": "a callable kept in an instance's values, called as a method",
    "LOAD_METHOD_POLYMORPHIC": "a method looked up by type at a site that meets several types",
    "LOAD_ATTR_PROPERTY": "a property's Python getter run in the same loop",
    "STORE_ATTR_PROPERTY": "a property's Python setter run in the same loop",
    "LOAD_ATTR_DESCRIPTOR": "a data descriptor's Python __get__ run in the same loop",
    "STORE_ATTR_DESCRIPTOR": "a data descriptor's Python __set__ run in the same loop",
    "COMPARE_OP_FLOAT": "a comparison of two exact floats without a jump after it",
    "COMPARE_OP_INT": "a comparison of two small exact ints without a jump after it",
    "COMPARE_OP_STR": "a comparison of two exact strs without a jump after it",
    "COMPARE_OP_STR_ORDER_JUMP": "<, <=, > or >= of two exact strs with a jump after it",
    "CONTAINS_OP_ADAPTIVE": "CONTAINS_OP is a family of the project's",
    "CONTAINS_OP_DICT": "`in` an exact dict",
    "CONTAINS_OP_SET": "`in` an exact set or frozenset",
    "CONTAINS_OP_STR": "`in` an exact str",
    "FOR_ITER_ADAPTIVE": "FOR_ITER is a family of the project's",
    "FOR_ITER_LIST": "`for` over a list",
    "FOR_ITER_TUPLE": "`for` over a tuple",
    "FOR_ITER_RANGE": "`for` over a range of C longs",
    "FOR_ITER_GEN": "`for` over a generator, its frame resumed in the same loop",
    # Superinstructions the advisor proposed (docs/stats/advisor.md), kept for their measured gain.
    "LOAD_CONST__RETURN_VALUE": "`return CONSTANT`",
    "LOAD_FAST__LOAD_FAST__LOAD_CONST": "three loads, as in `(a, b, 1)` or `f(a, b, 1)`",
    "LOAD_FAST__LOAD_FAST__LOAD_FAST": "three local loads",
    "LOAD_FAST__LOAD_ATTR": "`self.x` while the attribute site is LOAD_ATTR_INSTANCE_VALUE or "
                            "LOAD_ATTR_SLOT",
    "LOAD_FAST__POP_JUMP_FORWARD_IF_FALSE": "`if local:`",
    "STORE_FAST__LOAD_FAST__LOAD_CONST": "a store, then a load and a constant (`i = ...; i + 1`)",
    "STORE_FAST__LOAD_FAST__LOAD_FAST": "a store, then two local loads",
}
# Families whose inline cache differs from upstream's, {generic instruction: why}.
PROJECT_CACHE_CHANGES: dict[str, str] = {
    "CONTAINS_OP": "a family of the project's: the adaptive counter",
    "FOR_ITER": "a family of the project's: the adaptive counter",
}


def test_counts(model):
    upstream_specialized = 71
    assert len(model.specialized_instructions()) == upstream_specialized + len(PROJECT_ADDITIONS)
    assert len(model.base_instructions()) == 110
    assert len(model.instructions) == 110 + upstream_specialized + len(PROJECT_ADDITIONS)


def test_names_and_numbers_are_unique(model):
    assert len({i.name for i in model.instructions}) == len(model.instructions)
    assert len({i.number for i in model.instructions}) == len(model.instructions)
    assert all(0 <= i.number < 255 for i in model.instructions)


def test_base_opcodes_are_the_baselines_and_specialized_ones_kept_or_written(model):
    from generator.baselines import BASELINES
    baseline = BASELINES["cpython_3_11_2"]
    base = {i.name: i.number for i in model.base_instructions()}
    assert base == baseline.base_opcodes
    specialized = {i.name: i for i in model.specialized_instructions()}
    for name, number in baseline.specialized.items():  # 3.11.2's keep theirs
        assert specialized[name].number == number, name
    for name in PROJECT_ADDITIONS:  # ours are written, so that an addition moves none of them
        assert not specialized[name].number_derived, name
    free = [n for n in range(1, 255) if n not in base.values()]
    assert sorted(i.number for i in specialized.values()) == free[:len(specialized)]


@needs_upstream
@pytest.mark.parametrize("key", ["opcode_h", "pycore_opcode_h"])
def test_headers_are_what_upstreams_script_makes_of_our_opcode_py(files, key, tmp_path):
    # Upstream derives both headers from Lib/opcode.py with its own script (which numbers the
    # specialized instructions itself); ours must be exactly what it makes of our opcode.py.
    script = UPSTREAM / "Tools" / "scripts" / "generate_opcode_h.py"
    opcode_py = tmp_path / "opcode.py"
    opcode_py.write_text(files[OUTPUTS["opcode_py"]], encoding="utf-8")
    outputs = {"opcode_h": tmp_path / "opcode.h", "pycore_opcode_h": tmp_path / "pycore_opcode.h"}
    subprocess.run([sys.executable, str(script), str(opcode_py), str(outputs["opcode_h"]),
                    str(outputs["pycore_opcode_h"])], check=True, capture_output=True)
    expected = outputs[key].read_text(encoding="utf-8")
    assert expected.startswith("// Auto-generated by Tools/scripts/generate_opcode_h.py")
    assert without_leading_comments(files[OUTPUTS[key]]) == without_leading_comments(expected)


_STRUCT = re.compile(r"typedef struct \{\n((?:\s*_Py_CODEUNIT \w+(?:\[\d+\])?;\n)+)\} (\w+);")
_ENTRIES = re.compile(r"#define INLINE_CACHE_ENTRIES_(\w+)\s*\\?\s*CACHE_ENTRIES\((\w+)\)")


def cache_layouts(text: str) -> tuple[dict, dict]:
    structs = {}
    for m in _STRUCT.finditer(text):
        fields = re.findall(r"_Py_CODEUNIT (\w+)(?:\[(\d+)\])?;", m.group(1))
        structs[m.group(2)] = [(name, int(size or 1)) for name, size in fields]
    return structs, dict(_ENTRIES.findall(text))


@needs_upstream
def test_cache_structs_equal_upstream_pycore_code_h(files):
    ours_structs, ours_entries = cache_layouts(files[OUTPUTS["caches_h"]])
    theirs_structs, theirs_entries = cache_layouts(
        (UPSTREAM / "Include" / "internal" / "pycore_code.h").read_text(encoding="utf-8"))
    layout = lambda structs, entries, family: structs[entries[family]]  # noqa: E731
    changed = {f for f in set(ours_entries) | set(theirs_entries)
               if f not in theirs_entries or f not in ours_entries
               or layout(ours_structs, ours_entries, f) != layout(theirs_structs, theirs_entries, f)}
    assert changed == set(PROJECT_CACHE_CHANGES)
    for family in set(ours_entries) - changed:  # the struct names too
        assert ours_entries[family] == theirs_entries[family]


# Data of opcode.py that upstream's own tools and `dis` read, all equal to upstream's except
# where the lists above say so.
OPCODE_PY_DATA = ["opname", "opmap", "cmp_op", "hasconst", "hasname", "hasjrel", "hasjabs",
                  "haslocal", "hascompare", "hasfree", "hasnargs", "HAVE_ARGUMENT",
                  "EXTENDED_ARG", "_nb_ops", "_specialization_stats", "__all__"]


def exec_opcode_py(text: str, name: str) -> dict:
    namespace: dict = {"__name__": name}
    exec(compile(text, name, "exec"), namespace)
    return namespace


@pytest.fixture(scope="module")
def opcode_pys(files):
    if not (UPSTREAM / "Lib" / "opcode.py").exists():
        pytest.skip(f"upstream CPython 3.11.2 tree not unpacked at {UPSTREAM}")
    return (exec_opcode_py(files[OUTPUTS["opcode_py"]], "generated opcode.py"),
            exec_opcode_py((UPSTREAM / "Lib" / "opcode.py").read_text(encoding="utf-8"),
                           "upstream opcode.py"))


@pytest.mark.parametrize("name", OPCODE_PY_DATA)
def test_opcode_py_data_equals_upstream(opcode_pys, name):
    ours, theirs = opcode_pys
    assert ours[name] == theirs[name]


def test_opcode_py_specializations_are_upstreams_plus_the_additions(opcode_pys):
    ours, theirs = opcode_pys
    additions = set(PROJECT_ADDITIONS)
    ours_list = ours["_specialized_instructions"]
    assert set(ours_list) - set(theirs["_specialized_instructions"]) == additions
    assert [n for n in ours_list if n not in additions] == theirs["_specialized_instructions"]
    # the order of a family's members is the order they are tried in
    kept = {family: sorted(n for n in members if n not in additions)
            for family, members in ours["_specializations"].items()}
    assert {f: m for f, m in kept.items() if m or f in theirs["_specializations"]} == \
        {f: sorted(m) for f, m in theirs["_specializations"].items()}


def test_opcode_py_caches_are_upstreams_except_the_changes(opcode_pys):
    ours, theirs = opcode_pys
    opmap = theirs["opmap"]
    differ = {name for name, op in opmap.items()
              if ours["_inline_cache_entries"][op] != theirs["_inline_cache_entries"][op]
              or ours["_cache_format"].get(name) != theirs["_cache_format"].get(name)}
    assert differ == set(PROJECT_CACHE_CHANGES)


# Names the generated opcode.py adds to upstream's, {name: why}: private, for quicken's tools.
OPCODE_PY_ADDITIONS = {
    "_specialization_failure_kinds": "names the failure_kinds[] counts of a Py_STATS build for "
                                     "the statistics report (workbench/specstats.py)",
}


def test_opcode_py_defines_the_same_public_names_as_upstream(opcode_pys):
    ours, theirs = opcode_pys
    public = lambda ns: {k for k in ns if not k.startswith("__")}  # noqa: E731
    assert public(ours) == public(theirs) | set(OPCODE_PY_ADDITIONS)
    assert not set(OPCODE_PY_ADDITIONS) & public(theirs)


# Stack effects: the generated _PyOpcode_StackEffect against upstream compile.c's
# stack_effect(), as built into a stock interpreter.
#
# Intended differences, {opcode name: why}. None at present: PRECALL and CALL, whose run-time
# effects differ from what upstream tells the compiler, declare `compiler` effects (docs/dsl.md
# 2.1) that reproduce upstream's accounting. An entry here exempts the opcode for every oparg
# and jump; the test fails if a listed opcode no longer differs, so the list stays true.
INTENDED_STACK_EFFECT_DIFFERENCES: dict[str, str] = {}

_UPSTREAM_STACK_EFFECTS = r"""
import json, sys
INVALID = 2**31 - 1
try:
    import ctypes
    f = ctypes.pythonapi.PyCompile_OpcodeStackEffectWithJump
    f.argtypes = [ctypes.c_int, ctypes.c_int, ctypes.c_int]
    f.restype = ctypes.c_int
    def effect(op, oparg, jump):
        return f(op, oparg, jump)
    how = "ctypes"
except (ImportError, AttributeError):
    import _opcode, opcode
    def effect(op, oparg, jump):
        kw = {-1: None, 0: False, 1: True}[jump]
        try:
            if op >= opcode.HAVE_ARGUMENT:
                return _opcode.stack_effect(op, oparg, jump=kw)
            return _opcode.stack_effect(op, jump=kw)  # upstream ignores oparg below 90
        except ValueError:
            return INVALID
    how = "_opcode"
out = {op: [[effect(op, oparg, jump) for jump in (-1, 0, 1)] for oparg in range(301)]
       for op in range(256)}
json.dump({"how": how, "effects": out}, sys.stdout)
"""


def stock_interpreter() -> Path:
    for build in STOCK_BUILDS:
        python = build / "python"
        options = build / "meson-info" / "intro-buildoptions.json"
        if python.exists() and options.exists():
            values = {o["name"]: o["value"] for o in json.loads(options.read_text())}
            if values.get("interpreter") == "stock":
                return python
    version = subprocess.run([str(DEBIAN_PYTHON311), "-I", "-c",
                              "import sys; print(sys.implementation.name, *sys.version_info[:3])"],
                             capture_output=True, text=True).stdout.split()
    if version != ["cpython", "3", "11", "2"]:
        pytest.fail("no stock CPython 3.11.2 for upstream's compile.c: neither a stock build in " +
                    " or ".join(str(b) for b in STOCK_BUILDS) + " nor Debian's " +
                    f"{DEBIAN_PYTHON311} (it says {' '.join(version) or 'nothing'}); run "
                    "scripts/bootstrap, which installs it")
    return DEBIAN_PYTHON311


@pytest.fixture(scope="module")
def upstream_stack_effects():
    python = stock_interpreter()
    result = subprocess.run([str(python), "-I", "-c", _UPSTREAM_STACK_EFFECTS],
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    return {int(op): values for op, values in data["effects"].items()}


def test_stack_effects_equal_upstream_compile_c(files, upstream_stack_effects):
    effects = genutil.stack_effect_function(files[OUTPUTS["stack_effect"]])
    defines = genutil.read_defines(files[OUTPUTS["opcode_h"]])
    names = {number: name for name, number in defines.items()
             if name not in ("HAVE_ARGUMENT",) and not name.startswith("NB_")}
    assert set(effects) - {"default"} <= set(defines)
    invalid = 2**31 - 1
    differing: dict[str, list] = {}
    compared = 0
    for op in range(256):
        name = names.get(op)
        fn = effects.get(name, effects["default"])
        for oparg in range(301):
            for index, jump in enumerate((-1, 0, 1)):
                ours = fn(oparg, jump)
                ours = invalid if ours == genutil.INVALID else ours
                theirs = upstream_stack_effects[op][oparg][index]
                compared += 1
                if ours != theirs:
                    differing.setdefault(name or str(op), []).append((oparg, jump, ours, theirs))
    assert compared == 256 * 301 * 3
    unexpected = {k: v[:3] for k, v in differing.items()
                  if k not in INTENDED_STACK_EFFECT_DIFFERENCES}
    assert unexpected == {}, "stack effects differ from upstream (oparg, jump, ours, upstream)"
    no_longer = set(INTENDED_STACK_EFFECT_DIFFERENCES) - set(differing)
    assert no_longer == set(), "documented differences that no longer exist"


def test_stack_effect_table_covers_exactly_the_base_instructions(files, model):
    effects = genutil.stack_effect_function(files[OUTPUTS["stack_effect"]])
    assert set(effects) == {i.name for i in model.base_instructions()} | {"default"}


def test_shared_error_exits_cover_exactly_the_pops_used(files):
    # ERROR_IF(cond, error) popping N = 1..4 inputs jumps to pop_N_error; the labels fall
    # through from the largest N used down to pop_1_error, then unwind.
    text = files[OUTPUTS["cases"]]
    used = {int(n) for n in re.findall(r"goto pop_(\d+)_error;", text)}
    assert used and used <= {1, 2, 3, 4}
    labels = re.findall(r"^        pop_(\d+)_error:\n            STACK_SHRINK\(1\);$", text, re.M)
    assert [int(n) for n in labels] == list(range(max(used), 0, -1))
    assert text.endswith("        pop_1_error:\n            STACK_SHRINK(1);\n"
                         "            goto error;\n")


# -- determinism and headers ------------------------------------------------------------------

def test_generating_twice_gives_identical_files(files):
    again = genutil.generate(ROOT)
    assert set(again) == set(OUTPUTS.values())
    for rel in sorted(files):
        assert again[rel].encode() == files[rel].encode(), rel


# Files whose text does not depend on the order the declarations were read in (the cases
# follow declaration order by design, and the cache structs follow the caches' order).
ORDER_INDEPENDENT = sorted(OUTPUTS[k] for k in ("targets", "specialize", "stack_effect",
                                                "opcode_h", "pycore_opcode_h", "opcode_py",
                                                "docs"))


def test_file_order_does_not_change_the_tables(files):
    paths = genutil.find_sources(ROOT)
    assert len(paths) >= 2
    reordered = genutil.generate_files(list(reversed(paths)), ROOT)
    for rel in ORDER_INDEPENDENT:
        assert reordered[rel] == files[rel], rel
    # Order-dependent files hold the same pieces, in another order.
    cases = lambda text: sorted(re.findall(r"TARGET\((\w+)\)", text))  # noqa: E731
    assert cases(reordered[OUTPUTS["cases"]]) == cases(files[OUTPUTS["cases"]])
    assert cache_layouts(reordered[OUTPUTS["caches_h"]]) == \
        cache_layouts(files[OUTPUTS["caches_h"]])


HEADER_LINES = [
    "Generated by quicken's generator (generator/) from instructions/*.inst -- do not edit.",
    f"Regenerate with: {REGEN_COMMAND}",
]


@pytest.mark.parametrize("key", sorted(OUTPUTS))
def test_every_generated_file_starts_with_the_header(files, key):
    text = files[OUTPUTS[key]]
    if OUTPUTS[key].endswith(".md"):
        expected = f"<!-- {HEADER_LINES[0]}\n     {HEADER_LINES[1]} -->\n"
    elif OUTPUTS[key].endswith(".py"):
        expected = "".join(f"# {line}\n" for line in HEADER_LINES)
    else:
        expected = "".join(f"// {line}\n" for line in HEADER_LINES)
    assert text.startswith(expected)
    assert "meson compile -C build regen" in HEADER_LINES[1]
    assert "python3 -m generator" in HEADER_LINES[1]


# -- stale and diff on copies of the project --------------------------------------------------

def copy_project(dest: Path) -> Path:
    """Copy the inputs and the generated files, then regenerate the copy so that it is fresh
    whatever the state of the checkout."""
    shutil.copytree(ROOT / "instructions", dest / "instructions")
    for rel in sorted(set(OUTPUTS.values())):
        target = dest / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        if (ROOT / rel).exists():
            shutil.copy2(ROOT / rel, target)
    from generator.driver import write_files
    write_files(genutil.generate(dest), dest)
    return dest


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, f"{old!r} is not unique in {path}"
    path.write_text(text.replace(old, new), encoding="utf-8")


# UNARY_POSITIVE is no part of any composition: editing its body changes its case only. The
# edit is a comment before the statement: a comment after it would end up after the store the
# generator inserts right after the statement (see test_emit_stores.py).
BODY_LINE = "    res = PyNumber_Positive(value);\n"
EDITED_LINE = "    /* edited */ res = PyNumber_Positive(value);\n"


def sections(report: str) -> list[str]:
    return [line for line in report.splitlines() if line.startswith("=== ")]


def test_committed_files_are_fresh():
    result = run_cli("stale")
    assert result.stdout == ""
    assert result.returncode == 0


def test_stale_detects_an_edited_body(tmp_path, capsys):
    root = copy_project(tmp_path / "copy")
    assert main(["stale", "--root", str(root)]) == 0
    assert capsys.readouterr().out == ""
    edit(root / "instructions" / "core.inst", BODY_LINE, EDITED_LINE)
    assert main(["stale", "--root", str(root)]) == 1
    assert capsys.readouterr().out == (
        f"stale: {OUTPUTS['cases']} (run: meson compile -C build regen)\n")


def test_stale_detects_an_edited_generated_file(tmp_path, capsys):
    root = copy_project(tmp_path / "copy")
    edit(root / OUTPUTS["opcode_h"], "#define DO_TRACING", "#define  DO_TRACING")
    (root / OUTPUTS["targets"]).unlink()
    result = run_cli("stale", "--root", str(root))
    assert result.returncode == 1
    assert result.stdout.splitlines() == [
        f"stale: {OUTPUTS['opcode_h']} (run: meson compile -C build regen)",
        f"stale: {OUTPUTS['targets']} (run: meson compile -C build regen)",
    ]


def test_stale_names_a_file_the_generator_does_not_write(tmp_path, capsys):
    root = copy_project(tmp_path / "copy")
    (root / "runtime" / "generated" / "Python" / "meson.build").write_text("# hand-written\n")
    assert main(["stale", "--root", str(root)]) == 1
    assert capsys.readouterr().out == (
        "stale: runtime/generated/Python/meson.build is not written by the generator "
        "(runtime/generated/ holds generated files only)\n")


def test_generate_writes_only_changed_files(tmp_path, capsys):
    root = copy_project(tmp_path / "copy")
    assert main(["generate", "--root", str(root)]) == 0
    assert capsys.readouterr().out == "generated files are up to date\n"
    edit(root / "instructions" / "core.inst", BODY_LINE, EDITED_LINE)
    mtimes = {rel: (root / rel).stat().st_mtime_ns for rel in OUTPUTS.values()}
    assert main(["generate", "--root", str(root)]) == 0
    assert capsys.readouterr().out == f"wrote {OUTPUTS['cases']}\n"
    for rel, mtime in mtimes.items():
        if rel != OUTPUTS["cases"]:
            assert (root / rel).stat().st_mtime_ns == mtime, rel
    assert EDITED_LINE.strip() in (root / OUTPUTS["cases"]).read_text()


def test_generate_into_an_output_root(tmp_path, capsys):
    root = copy_project(tmp_path / "copy")
    out = tmp_path / "out"
    assert main(["generate", "--root", str(root), "--output-root", str(out)]) == 0
    assert sorted(capsys.readouterr().out.splitlines()) == \
        sorted(f"wrote {rel}" for rel in OUTPUTS.values())
    for rel in OUTPUTS.values():
        assert (out / rel).read_bytes() == (root / rel).read_bytes()


def test_diff_of_a_body_edit_names_only_that_instruction(tmp_path, capsys):
    root = copy_project(tmp_path / "copy")
    assert main(["diff", "--root", str(root)]) == 0
    assert capsys.readouterr().out == "no changes\n"
    edit(root / "instructions" / "core.inst", BODY_LINE, EDITED_LINE)
    assert main(["diff", "--root", str(root)]) == 1
    report = capsys.readouterr().out
    assert sections(report) == ["=== UNARY_POSITIVE ==="]
    assert f"--- a/{OUTPUTS['cases']}" in report
    assert "-            res = PyNumber_Positive(value);" in report
    assert "+            /* edited */ res = PyNumber_Positive(value);" in report


def test_diff_of_a_part_names_the_compositions_using_it(tmp_path, capsys):
    root = copy_project(tmp_path / "copy")
    edit(root / "instructions" / "core.inst", "    SETLOCAL(oparg, value);\n",
         "    SETLOCAL(oparg, value);  /* edited */\n")
    assert main(["diff", "--root", str(root)]) == 1
    assert sections(capsys.readouterr().out) == [
        "=== STORE_FAST ===", "=== STORE_FAST__LOAD_FAST ===", "=== STORE_FAST__LOAD_FAST__LOAD_CONST ===",
        "=== STORE_FAST__LOAD_FAST__LOAD_FAST ===", "=== STORE_FAST__STORE_FAST ==="]


def test_diff_of_an_added_line_changes_only_that_case(tmp_path, capsys):
    # The documentation names the file an instruction is defined in, not the line: an added
    # line changes nothing for the instructions declared after it.
    root = copy_project(tmp_path / "copy")
    edit(root / "instructions" / "core.inst", BODY_LINE, "    assert(value != NULL);\n" + BODY_LINE)
    assert main(["diff", "--root", str(root)]) == 1
    report = capsys.readouterr().out
    assert sections(report) == ["=== UNARY_POSITIVE ==="]
    assert f"+++ b/{OUTPUTS['cases']}" in report
    assert "+            assert(value != NULL);" in report
    assert f"+++ b/{OUTPUTS['docs']}" not in report


def test_diff_against_a_git_revision(tmp_path, capsys):
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    root = copy_project(tmp_path / "copy")
    git = ["git", "-C", str(root), "-c", "user.name=t", "-c", "user.email=t@example.org"]
    subprocess.run(git + ["init", "-q"], check=True)
    subprocess.run(git + ["add", "-A"], check=True)
    subprocess.run(git + ["commit", "-q", "-m", "base"], check=True)
    edit(root / "instructions" / "core.inst", BODY_LINE, EDITED_LINE)
    assert main(["generate", "--root", str(root)]) == 0
    capsys.readouterr()
    # The working tree is regenerated: no changes against it, one against HEAD.
    assert main(["diff", "--root", str(root)]) == 0
    assert capsys.readouterr().out == "no changes\n"
    assert main(["diff", "--root", str(root), "--git", "HEAD"]) == 1
    assert sections(capsys.readouterr().out) == ["=== UNARY_POSITIVE ==="]


def test_diff_of_a_flag_change_names_the_instruction_and_the_tables(tmp_path, capsys):
    root = copy_project(tmp_path / "copy")
    edit(root / "instructions" / "core.inst", "inst NOP = 9 (--) {",
         "inst NOP = 9 [eval_breaker] (--) {")
    assert main(["diff", "--root", str(root)]) == 1
    # its case and its docs; DO_TRACING's table, as NOP now checks the eval breaker (may run
    # code) and dispatches with the tracing check: it has no checked copy any more
    assert sections(capsys.readouterr().out) == ["=== NOP ===", f"=== {OUTPUTS['targets']} ==="]
    edit(root / "instructions" / "core.inst", "inst LOAD_CLOSURE = 136 [free]",
         "inst LOAD_CLOSURE = 136 [local]")
    assert main(["diff", "--root", str(root)]) == 1
    report = capsys.readouterr().out
    assert sections(report) == ["=== LOAD_CLOSURE ===", "=== NOP ===",
                                f"=== {OUTPUTS['opcode_py']} ===", f"=== {OUTPUTS['targets']} ==="]
    assert "-hasfree.append(136)" in report and "+haslocal.append(136)" in report


def test_diff_reports_errors(tmp_path, capsys):
    root = copy_project(tmp_path / "copy")
    edit(root / "instructions" / "core.inst", "inst NOP = 9 (--) {",
         "inst NOP = 9 (--) {\n}\ninst NOP2 = 255 (--) {")
    assert main(["diff", "--root", str(root)]) == 2
    assert "opcode 255 of NOP2 is out of range" in capsys.readouterr().err


def test_diff_of_a_body_comment_names_only_that_instruction(tmp_path, capsys):
    root = copy_project(tmp_path / "copy")
    edit(root / "instructions" / "core.inst", BODY_LINE,
         "    res = PyNumber_Positive(value);  // NOTE: edited\n")
    assert main(["diff", "--root", str(root)]) == 1
    assert sections(capsys.readouterr().out) == ["=== UNARY_POSITIVE ==="]
    edit(root / "instructions" / "core.inst", "res = PyNumber_Positive(value);  // NOTE: edited\n",
         "// NOTE: edited\n" + BODY_LINE)
    assert main(["diff", "--root", str(root)]) == 1
    assert [s for s in sections(capsys.readouterr().out) if "NOTE" in s] == []


SPLIT_SAMPLE = """\
// header
#ifndef POKE
        // A: The doc of A.
        // Its second line.
        TARGET(A) {
            // B: a comment in the body, indented as the body
            x = 1;
    // C: a comment at another indentation
            TARGET(D) {
        }

        TARGET(E) {
        }
"""


def test_review_splits_the_cases_at_8_space_doc_comments_and_targets():
    from generator.review import _split_cases
    chunks = _split_cases(SPLIT_SAMPLE)
    lines = SPLIT_SAMPLE.splitlines()
    assert list(chunks) == ["(file header)", "A", "E"]
    assert chunks["(file header)"] == lines[:2]
    assert chunks["A"] == lines[2:11]
    assert chunks["E"] == lines[11:]


def test_diff_of_a_doc_line_names_only_that_instruction(project, capsys):
    root = project({"a.inst": """
        /// Does A.
        /// NOTE: more about A.
        inst A = 100 (--) {
        }
        inst B = 101 (--) {
        }
    """})
    assert main(["generate", "--root", str(root)]) == 0
    capsys.readouterr()
    edit(root / "instructions" / "a.inst", "NOTE: more about A.", "NOTE: even more about A.")
    assert main(["diff", "--root", str(root)]) == 1
    assert sections(capsys.readouterr().out) == ["=== A ==="]


def test_cli_runs_from_another_directory(tmp_path):
    result = run_cli("check", "--root", str(ROOT), cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    m = genutil.model_of(ROOT)  # the same counts, computed in this process
    assert result.stdout == (f"{len(m.instructions)} instructions, {len(m.families)} families, "
                             f"{len(m.caches)} caches: no errors\n")
    assert len(m.instructions) > 170  # it did read the real instructions


REMAINDER = "inst BINARY_OP_REMAINDER_INT = 182 : _GUARD_BOTH_INT + _REMAINDER_INT\n"
TABLES = ["specializers", "specialize", "opcode_h", "pycore_opcode_h", "caches_h", "targets",
          "opcode_py"]


def test_moving_a_definition_changes_no_decision_and_no_number(tmp_path):
    # The order of `members:` decides the order the specializer tries them in; where a member
    # is defined decides nothing: the specialize functions and the opcode tables stay the same.
    root = copy_project(tmp_path / "copy")
    path = root / "instructions" / "operators.inst"
    text = path.read_text(encoding="utf-8")
    start = text.index(REMAINDER)
    while text.rfind("\n", 0, start - 1) >= 0 and \
            text[text.rfind("\n", 0, start - 1) + 1:].startswith("///"):  # its doc comment too
        start = text.rfind("\n", 0, start - 1) + 1
    end = text.index("\n}\n", start) + 3  # after its `when` (a composition: no body of its own)
    moved = text[:start] + text[end:].lstrip("\n") + "\n" + text[start:end]
    floor_divide = "inst BINARY_OP_FLOOR_DIVIDE_INT"  # defined after it: now before it
    assert text.index(REMAINDER) < text.index(floor_divide)
    assert moved.index(REMAINDER) > moved.index(floor_divide)
    assert moved.count("/// `int % int`") == 1 and \
        moved.index("/// `int % int`") > moved.index(floor_divide)  # with its doc comment
    path.write_text(moved, encoding="utf-8")
    assert main(["generate", "--root", str(root)]) == 0
    for key in TABLES:
        assert (root / OUTPUTS[key]).read_text() == (ROOT / OUTPUTS[key]).read_text(), key


def test_adding_a_member_renumbers_nothing_and_its_diff_is_small(tmp_path, capsys):
    root = copy_project(tmp_path / "copy")
    path = root / "instructions" / "operators.inst"
    edit(path, "BINARY_OP_FLOOR_DIVIDE_INT, BINARY_OP_TRUE_DIVIDE_FLOAT;",
         "BINARY_OP_FLOOR_DIVIDE_INT, BINARY_OP_TRUE_DIVIDE_FLOAT, BINARY_OP_XOR_INT;")
    path.write_text(path.read_text(encoding="utf-8") + """
/// `int ^ int` (a member added by a test).
inst BINARY_OP_XOR_INT (left, right -- res)
when {
    REJECT_IF(oparg != NB_XOR || !two_ints);
}
{
    DEOPT_IF(!PyLong_CheckExact(left));
    DEOPT_IF(!PyLong_CheckExact(right));
    STAT_INC(BINARY_OP, hit);
    res = PyNumber_Xor(left, right);
    Py_DECREF(right);
    Py_DECREF(left);
    ERROR_IF(res == NULL, error);
}
""", encoding="utf-8")
    taken = {i.number for i in genutil.model_of(ROOT).instructions}
    free = min(n for n in range(1, 255) if n not in taken)  # the opcode it must get
    assert main(["diff", "--root", str(root)]) == 1
    report = capsys.readouterr().out.splitlines()
    opcodes = report[:report.index(next(line for line in report[1:] if line.startswith("===")))]
    assert opcodes == ["=== opcodes ===",
                       f"added:      BINARY_OP_XOR_INT = {free}  (derived: write "
                       f"'BINARY_OP_XOR_INT = {free}' in, so that a later addition cannot move "
                       f"it)"]
    assert not any(line.startswith("renumbered") for line in report)
    assert len(report) < 200, len(report)
    sections = [line for line in report if line.startswith("=== ")]
    assert "=== BINARY_OP_XOR_INT ===" in sections  # its case, specializer block and docs
    assert not any("layout" in s for s in sections)

def test_diff_against_a_bad_revision_fails(tmp_path):
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    result = run_cli("diff", "--git", "no-such-revision")
    assert result.returncode == 2
    assert result.stdout == ""
    assert "error: 'no-such-revision' is not a commit" in result.stderr


def test_diff_survives_a_closed_pipe(tmp_path):
    root = copy_project(tmp_path / "copy")
    edit(root / "instructions" / "core.inst", BODY_LINE, EDITED_LINE)
    # `diff | head -1`: the reader goes away after one line
    reader = subprocess.Popen(["head", "-c", "1"], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    writer = subprocess.run([sys.executable, "-m", "generator", "diff", "--root", str(root)],
                            cwd=ROOT, stdout=reader.stdin, stderr=subprocess.PIPE, timeout=120)
    reader.stdin.close()
    assert reader.stdout.read() == b"="
    reader.wait()
    assert writer.returncode == 1  # there are changes; no traceback about the pipe
    assert writer.stderr == b""


def test_dis_and_summarize_stats_number_the_specialized_instructions_as_opcode_h(files):
    # 3.11.2's dis gives the opcodes the base instructions leave free, from 1 up, to the names
    # of _specialized_instructions in order (summarize_stats does the same): that must be
    # exactly opcode.h's numbers.
    namespace: dict = {}
    exec(compile(files[OUTPUTS["opcode_py"]], "opcode.py", "exec"), namespace)
    all_opname = list(namespace["opname"])
    empty = [slot for slot, name in enumerate(all_opname) if name.startswith("<")]
    by_dis = dict(zip(namespace["_specialized_instructions"], empty))
    defines = genutil.read_defines(files[OUTPUTS["opcode_h"]])
    assert by_dis == {name: defines[name] for name in namespace["_specialized_instructions"]}
    assert len(by_dis) == len(namespace["_specialized_instructions"])


def test_the_model_is_final_once_built(model):
    # The emitters only read what the analysis built (model.Final, Model.seal).
    inst = next(i for i in model.instructions if i.name == "BINARY_OP_ADD_INT")
    family = next(f for f in model.families if f.name == "BINARY_OP")
    op = inst.parts[0]
    for obj, field in [(model, "instructions"), (inst, "number"), (inst, "family"),
                       (family, "members"), (model.caches[0], "entries"), (op, "name"),
                       (op.body, "source"), (op.effect, "inputs"), (op.effect.inputs[0], "name")]:
        with pytest.raises(AttributeError, match="the model is final once built"):
            setattr(obj, field, None)
    for sequence in (model.instructions, model.families, inst.parts, inst.fuses, family.members,
                     op.effect.inputs, model.caches[0].entries):
        assert isinstance(sequence, tuple)
    assert isinstance(inst.flags, frozenset)


def test_the_model_holds_no_syntax_tree(model):
    # What the emitters read is the model's own: no object of the parser's syntax tree
    # (generator/ast.py) is reachable from it; bodies are the lexer's spans and tokens.
    seen, todo, kinds = set(), [model], set()
    while todo:
        obj = todo.pop()
        if id(obj) in seen or isinstance(obj, (str, int, float, bool, type(None))):
            continue
        seen.add(id(obj))
        kinds.add(type(obj).__module__)
        assert type(obj).__module__ != "generator.ast", f"{type(obj).__name__} in the model"
        if isinstance(obj, dict):
            todo.extend(obj.keys())
            todo.extend(obj.values())
        elif isinstance(obj, (tuple, list, set, frozenset)):
            todo.extend(obj)
        elif hasattr(obj, "__dict__"):
            todo.extend(vars(obj).values())
    assert {"generator.model", "generator.lexer", "generator.statements"} <= kinds
