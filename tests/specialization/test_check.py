"""check.py's comparison (`compare`), fed the real probe output's shape with faults put in.

The reference output is probe.py run on Debian's python3.11; a right build's output is made
from it by applying expected-differences.txt. Each fault below is one the old rename-then-compare
check let through, or one the table must catch: another member than the listed one (the dict
site with CONTAINS_OP_SET, the list loop with FOR_ITER_RANGE, the range loop with
FOR_ITER_TUPLE), a superinstruction replaced by upstream's shorter one, a difference nobody
listed, a listed one that does not occur, an addition no situation reaches or no behaviour
program declares.

Run from the repository root: /usr/bin/python3 -m pytest tests/specialization/test_check.py
"""

import importlib.util
import os
import subprocess
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
PYTHON311 = "/usr/bin/python3.11"

spec = importlib.util.spec_from_file_location("specialization_check", HERE / "check.py")
check = importlib.util.module_from_spec(spec)
spec.loader.exec_module(check)


@pytest.fixture(scope="module")
def reference():
    if not os.access(PYTHON311, os.X_OK):
        pytest.skip("%s is not installed" % PYTHON311)
    completed = subprocess.run([PYTHON311, "-I", "-S", "-B", str(check.PROBE)],
                               capture_output=True, text=True, timeout=300, check=True)
    return completed.stdout.splitlines()


# Superinstructions of a build that has some of its own (quicken's six, removed by issue 22 and
# back since issue 20; tests/fuzz/regressions/superinstruction-*.py): the tests add them to the
# repository's table, so that a superinstruction the check must tell apart from upstream's
# shorter run is always among the faults tried, whatever instructions/ declares.
Expected = check.Expected

SUPERS = {
    ("fused_locals", 1): Expected("LOAD_FAST", "LOAD_FAST__POP_JUMP_FORWARD_IF_FALSE"),
    ("fused_locals", 3): Expected("LOAD_FAST__LOAD_FAST", "LOAD_FAST__LOAD_FAST__LOAD_FAST"),
    ("fused_locals", 7): Expected("LOAD_FAST__LOAD_FAST", "LOAD_FAST__LOAD_FAST__LOAD_CONST"),
    ("compare_int", 6): Expected("STORE_FAST__LOAD_FAST", "STORE_FAST__LOAD_FAST__LOAD_FAST"),
    ("for_list", 6): Expected("STORE_FAST__LOAD_FAST", "STORE_FAST__LOAD_FAST__LOAD_CONST"),
    ("store_list", 5): Expected("LOAD_CONST", "LOAD_CONST__RETURN_VALUE"),
}


@pytest.fixture(scope="module")
def real_table():
    return check.parse_table(check.EXPECTED.read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def real_programs():
    return check.declared_members(check.BEHAVIOUR)


@pytest.fixture(scope="module")
def table(real_table):
    # the repository's table lists them itself since they came back (issue 20): as these say
    assert all(real_table.get(key, forms) == forms for key, forms in SUPERS.items())
    return {**real_table, **SUPERS}


@pytest.fixture(scope="module")
def additions(table):
    return {e.built for e in table.values() if not (e.widened or e.fused)}


@pytest.fixture(scope="module")
def programs(real_programs):
    return {**real_programs, **{"%s.py" % e.built.lower(): [e.built] for e in SUPERS.values()}}


def right_build(reference, table):
    """The probe output of a build that specializes exactly as the table says."""
    out = []
    for line in reference:
        case, position, form = line.split()
        out.append(" ".join((case, position, table.get((case, int(position)), (None, form))[1])))
    return out


def mutate(lines, changes):
    """`lines` with the form at each (case, position) of `changes` replaced."""
    out = []
    for line in lines:
        case, position, form = line.split()
        out.append(" ".join((case, position, changes.get((case, int(position)), form))))
    assert out != lines, "no such instruction: %s" % changes
    return out


def first_position(lines, form):
    for line in lines:
        case, position, name = line.split()
        if name == form:
            return case, int(position)
    raise AssertionError("no %s in the probe output" % form)


def test_a_right_build_passes(reference, table, additions, programs):
    assert check.compare(right_build(reference, table), reference, table, additions,
                         programs) == []
    assert check.compare(right_build(reference, table), reference, table, additions,
                         programs, stats=True) == []


@pytest.mark.parametrize("case, position, wrong, listed", [
    ("contains_dict", 3, "CONTAINS_OP_SET", "CONTAINS_OP_DICT"),
    ("contains_dict", 6, "CONTAINS_OP_ADAPTIVE", "CONTAINS_OP_DICT"),
    ("contains_str", 3, "CONTAINS_OP_DICT", "CONTAINS_OP_STR"),
    ("quickened_not_run", 11, "CONTAINS_OP_SET", "CONTAINS_OP_ADAPTIVE"),
    ("contains_set_key", 3, "CONTAINS_OP_SET", "CONTAINS_OP_ADAPTIVE"),
    ("for_list", 5, "FOR_ITER_RANGE", "FOR_ITER_LIST"),
    ("for_range", 5, "FOR_ITER_TUPLE", "FOR_ITER_RANGE"),
    ("for_tuple", 5, "FOR_ITER_LIST", "FOR_ITER_TUPLE"),
    ("quickened_not_run", 7, "FOR_ITER_LIST", "FOR_ITER_ADAPTIVE"),
    ("subscr_str", 3, "BINARY_SUBSCR_LIST_INT", "BINARY_SUBSCR_STR_INT"),
    # a superinstruction replaced by upstream's shorter one, or by none
    ("fused_locals", 3, "LOAD_FAST__LOAD_FAST", "LOAD_FAST__LOAD_FAST__LOAD_FAST"),
    ("fused_locals", 7, "LOAD_FAST__LOAD_FAST", "LOAD_FAST__LOAD_FAST__LOAD_CONST"),
    ("compare_int", 6, "STORE_FAST__LOAD_FAST", "STORE_FAST__LOAD_FAST__LOAD_FAST"),
    ("for_list", 6, "STORE_FAST__LOAD_FAST", "STORE_FAST__LOAD_FAST__LOAD_CONST"),
    ("fused_locals", 1, "LOAD_FAST", "LOAD_FAST__POP_JUMP_FORWARD_IF_FALSE"),
    ("store_list", 5, "LOAD_CONST", "LOAD_CONST__RETURN_VALUE"),
    # another three-part superinstruction than the listed one
    ("fused_locals", 3, "LOAD_FAST__LOAD_FAST__LOAD_CONST", "LOAD_FAST__LOAD_FAST__LOAD_FAST"),
])
def test_another_form_at_a_listed_position_is_reported(reference, table, additions, programs,
                                                       case, position, wrong, listed):
    built = mutate(right_build(reference, table), {(case, position): wrong})
    for stats in (False, True):
        failures = check.compare(built, reference, table, additions, programs, stats)
        assert failures[0] == ("%s %d: the built interpreter has %s, expected-differences.txt "
                               "wants %s (upstream: %s)" % (case, position, wrong, listed,
                                                           table[case, position][0]))
        # and when that was the only situation reaching the listed form, that too
        assert failures[1:] in ([], [listed + ": no situation in probe.py reaches this addition"])


def test_the_issue_s_probe_output_is_reported(reference, table, additions, programs):
    """Every new member the wrong one at once: the old check printed "specializations agree"."""
    built = mutate(right_build(reference, table), {
        ("contains_dict", 3): "CONTAINS_OP_SET", ("contains_dict", 6): "CONTAINS_OP_SET",
        ("for_list", 5): "FOR_ITER_RANGE", ("for_range", 5): "FOR_ITER_TUPLE"})
    failures = check.compare(built, reference, table, additions, programs)
    assert [failure.split(":")[0] for failure in failures] == [
        "contains_dict 3", "contains_dict 6", "for_list 5", "for_range 5", "CONTAINS_OP_DICT"]


def test_a_difference_nobody_listed_is_reported(reference, table, additions, programs):
    built = right_build(reference, table)
    case, position = first_position(reference, "BINARY_SUBSCR_LIST_INT")
    failures = check.compare(mutate(built, {(case, position): "BINARY_SUBSCR_ADAPTIVE"}),
                             reference, table, additions, programs)
    assert failures == ["%s %d: the built interpreter has BINARY_SUBSCR_ADAPTIVE where upstream "
                        "has BINARY_SUBSCR_LIST_INT, and expected-differences.txt lists no "
                        "difference there" % (case, position)]
    # a project addition where nothing is listed
    case, position = first_position(reference, "LOAD_CONST__LOAD_FAST")
    failures = check.compare(mutate(built, {(case, position): "LOAD_CONST__RETURN_VALUE"}),
                             reference, table, additions, programs)
    assert len(failures) == 1 and failures[0].startswith("%s %d: " % (case, position))


def test_a_listed_difference_that_does_not_occur_is_reported(reference, table, additions,
                                                             programs):
    built = right_build(reference, table)
    case, position = first_position(reference, "LOAD_FAST__LOAD_FAST")
    longer = dict(table)
    longer[case, position] = Expected("LOAD_FAST__LOAD_FAST", "LOAD_FAST__LOAD_FAST__LOAD_FAST")
    longer["no_such_case", 1] = Expected("LOAD_FAST", "LOAD_FAST__POP_JUMP_FORWARD_IF_FALSE")
    failures = check.compare(built, reference, longer, additions, programs)
    assert failures == [
        "%s %d: the built interpreter has LOAD_FAST__LOAD_FAST, expected-differences.txt wants "
        "LOAD_FAST__LOAD_FAST__LOAD_FAST (upstream: LOAD_FAST__LOAD_FAST)" % (case, position),
        "no_such_case 1: expected-differences.txt lists LOAD_FAST -> "
        "LOAD_FAST__POP_JUMP_FORWARD_IF_FALSE, an instruction the probe did not print"]


def test_a_stale_upstream_form_in_the_table_is_reported(reference, table, additions, programs):
    stale = dict(table)
    stale["contains_dict", 3] = Expected("CONTAINS_OP_ADAPTIVE", "CONTAINS_OP_DICT")
    failures = check.compare(right_build(reference, table), reference, stale, additions, programs)
    assert failures == ["contains_dict 3: expected-differences.txt says upstream has "
                        "CONTAINS_OP_ADAPTIVE, it has CONTAINS_OP"]


def test_a_listed_form_that_is_not_an_addition_is_reported(reference, table, additions,
                                                           programs):
    """The table cannot excuse a wrong choice among upstream's own members."""
    case, position = first_position(reference, "BINARY_OP_ADD_INT")
    excused = dict(table)
    excused[case, position] = Expected("BINARY_OP_ADD_INT", "BINARY_OP_ADAPTIVE")
    built = mutate(right_build(reference, table), {(case, position): "BINARY_OP_ADAPTIVE"})
    failures = check.compare(built, reference, excused, additions, programs)
    assert failures == ["%s %d: expected-differences.txt wants BINARY_OP_ADAPTIVE, which is not "
                        "one of the project's additions (an upstream member installed where "
                        "upstream fails is marked `widened`)" % (case, position)]


def test_an_addition_nothing_reaches_is_reported(reference, table, additions, programs):
    failures = check.compare(right_build(reference, table), reference, table,
                             additions | {"FOR_ITER_GENERATOR"}, programs)
    assert failures == [
        "FOR_ITER_GENERATOR: no situation in probe.py reaches this addition",
        "FOR_ITER_GENERATOR: no behaviour program declares it (`# member: FOR_ITER_GENERATOR`)"]
    # reached by the probe (a superinstruction replaced everywhere by its shorter run) but
    # listed nowhere: every position it had is reported, and it is unreached
    built = right_build(reference, table)
    shorter = {key: e.upstream for key, e in table.items()
               if e.built == "LOAD_FAST__LOAD_FAST__LOAD_FAST"}
    failures = check.compare(mutate(built, shorter), reference, table, additions, programs)
    assert failures[-1] == "LOAD_FAST__LOAD_FAST__LOAD_FAST: no situation in probe.py reaches " \
                           "this addition"
    assert len(failures) == len(shorter) + 1


def test_an_addition_no_program_declares_is_reported(reference, table, additions, programs):
    fewer = {name: members for name, members in programs.items()
             if members != ["CONTAINS_OP_SET"]}
    assert len(fewer) == len(programs) - 1
    failures = check.compare(right_build(reference, table), reference, table, additions, fewer)
    assert failures == ["CONTAINS_OP_SET: no behaviour program declares it "
                        "(`# member: CONTAINS_OP_SET`)"]


def test_programs_declare_one_addition_each(reference, table, additions, programs):
    built = right_build(reference, table)
    odd = dict(programs, **{"two.py": ["FOR_ITER_LIST", "FOR_ITER_TUPLE"], "none.py": [],
                            "upstream.py": ["BINARY_SUBSCR_LIST_INT"]})
    failures = check.compare(built, reference, table, additions, odd)
    assert failures == [
        "behaviour/none.py: declares 0 members; one `# member: NAME` line each",
        "behaviour/two.py: declares 2 members; one `# member: NAME` line each",
        "behaviour/upstream.py: declares BINARY_SUBSCR_LIST_INT, which is not one of the "
        "project's additions"]


def test_instructions_missing_or_extra_are_reported(reference, table, additions, programs):
    built = right_build(reference, table)
    failures = check.compare(built[:-1], reference, table, additions, programs)
    case, position, form = reference[-1].split()
    assert failures == ["%s %s: upstream has %s; the built interpreter printed no instruction "
                        "there" % (case, position, form)]
    failures = check.compare(built + ["extra_case 0 LOAD_FAST"], reference, table, additions,
                             programs)
    assert failures == ["extra_case 0: the built interpreter has LOAD_FAST; upstream printed no "
                        "instruction there"]
    assert check.compare(built + ["garbage"], reference, table, additions, programs) == [
        "the probe output cannot be read: not a probe line: 'garbage'"]


def test_a_stats_build_keeps_the_adaptive_form_only_where_upstream_keeps_generic(
        reference, table, additions, programs):
    built = right_build(reference, table)
    case, position = first_position(reference, "BINARY_OP")
    kept = mutate(built, {(case, position): "BINARY_OP_ADAPTIVE"})
    assert check.compare(kept, reference, table, additions, programs, stats=True) == []
    assert len(check.compare(kept, reference, table, additions, programs, stats=False)) == 1
    # not an excuse for another member
    wrong = mutate(built, {("contains_dict", 3): "CONTAINS_OP_SET"})
    assert len(check.compare(wrong, reference, table, additions, programs, stats=True)) == 1
    case, position = first_position(reference, "BINARY_OP_ADD_INT")
    adaptive = mutate(built, {(case, position): "BINARY_OP_ADAPTIVE"})
    assert len(check.compare(adaptive, reference, table, additions, programs, stats=True)) == 1


def test_widened_lines_name_upstream_members_only(reference, table, additions, programs):
    case, position = first_position(reference, "LOAD_ATTR_ADAPTIVE")
    built = right_build(reference, table)
    # an upstream member where upstream fails: accepted only on a line marked `widened`
    member = mutate(built, {(case, position): "LOAD_ATTR_SLOT"})
    plain = {**table, (case, position): Expected("LOAD_ATTR_ADAPTIVE", "LOAD_ATTR_SLOT")}
    assert check.compare(member, reference, plain, additions, programs) == [
        "%s %d: expected-differences.txt wants LOAD_ATTR_SLOT, which is not one of the project's "
        "additions (an upstream member installed where upstream fails is marked `widened`)"
        % (case, position)]
    widened = {**table, (case, position): Expected("LOAD_ATTR_ADAPTIVE", "LOAD_ATTR_SLOT",
                                                         True)}
    assert check.compare(member, reference, widened, additions, programs) == []
    # and never on an addition
    addition = mutate(built, {(case, position): "LOAD_ATTR_CLASS"})
    marked = {**table, (case, position): Expected("LOAD_ATTR_ADAPTIVE", "LOAD_ATTR_CLASS",
                                                        True)}
    assert check.compare(addition, reference, marked, additions, programs) == [
        "%s %d: expected-differences.txt marks LOAD_ATTR_CLASS `widened`, but it is one of the "
        "project's additions" % (case, position)]


def test_fused_lines_follow_an_addition(reference, table, additions, programs):
    # the CALL after PRECALL_PY_EXACT_ARGS keeps its adaptive form (the table's `fused` lines):
    # accepted only where the instruction before it is one of the project's additions
    case, position = first_position(reference, "CALL_PY_EXACT_ARGS")
    assert table[case, position] == ("CALL_PY_EXACT_ARGS", "CALL_ADAPTIVE", False, True)
    built = right_build(reference, table)
    before = (case, position - 1)
    upstream_before = dict(line.rsplit(" ", 1) for line in reference)["%s %d" % before]
    unlisted = {key: e for key, e in table.items() if key != before}
    upstream_kept = mutate(built, {before: upstream_before})
    assert check.compare(upstream_kept, reference, unlisted, additions, programs) == [
        "%s %d: expected-differences.txt marks CALL_ADAPTIVE `fused`, but the instruction "
        "before it is no addition of the project's (%s)" % (case, position, upstream_before)]
    # and never on an addition
    marked = {**table, (case, position): Expected("CALL_PY_EXACT_ARGS", "CALL_PY_CLASS",
                                                        False, True)}
    addition = mutate(built, {(case, position): "CALL_PY_CLASS"})
    assert ("%s %d: expected-differences.txt marks CALL_PY_CLASS `fused`, but it is one of the "
            "project's additions" % (case, position)) in check.compare(
                addition, reference, marked, additions, programs)


def test_the_table_format():
    assert check.parse_table("# comment\n\na 1 X Y  # why\n") == {
        ("a", 1): ("X", "Y", False, False)}
    assert check.parse_table("a 1 X Y widened\n") == {("a", 1): ("X", "Y", True, False)}
    assert check.parse_table("a 1 X Y fused\n") == {("a", 1): ("X", "Y", False, True)}
    for text, message in [("a 1 X Y\na 1 X Z\n", "line 2: a 1 listed twice"),
                          ("a 1 X X\n", "line 1: a 1 lists no difference (X both)"),
                          ("a 1 X\n", "line 1: want `case position UPSTREAM_FORM BUILT_FORM"),
                          ("a 1 X Y wider\n", "line 1: want"),
                          ("a one X Y\n", "line 1: want")]:
        with pytest.raises(ValueError, match=message.replace("(", r"\(").replace(")", r"\)")):
            check.parse_table(text)


def test_the_repository_s_table_and_programs_agree(real_table, real_programs):
    """Without a build: each addition the table names has exactly one behaviour program."""
    declared = [members[0] for members in real_programs.values() if len(members) == 1]
    assert len(declared) == len(real_programs)
    assert sorted(declared) == sorted({e.built for e in real_table.values() if not (e.widened or e.fused)})
