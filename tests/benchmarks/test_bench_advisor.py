"""The superinstruction advisor (workbench/advisor.py) on made-up pair counts over the real
instructions/: what it ranks, what it leaves out, and what the generator refuses."""

import pytest
from conftest import REPOSITORY, run_workbench

from workbench import advisor, specstats


@pytest.fixture(scope="module")
def instructions():
    return advisor.load_instructions(REPOSITORY)


def stats_data(instructions, pairs):
    """A statistics file whose opcodes are the DSL's, with the given dispatch pair counts."""
    opnames = ["<%d>" % n for n in range(256)]
    for name, inst in instructions.items():
        opnames[inst.number] = name
    number = {name: inst.number for name, inst in instructions.items()}
    opcodes = {}
    for (first, second), count in pairs.items():
        entry = opcodes.setdefault(number[first], {"execution_count": 0, "pairs": {}})
        entry["pairs"][number[second]] = count
        entry["execution_count"] += count
    tables = {"opnames": opnames, "families": {}, "failure_kinds": {}, "cache_tag": "t", "version": "3.11.2"}
    return {"format": specstats.FORMAT, "tables": tables, "workloads": {"w": {"opcodes": opcodes, "other": {}}}}


PAIRS = {
    ("LOAD_FAST", "LOAD_ATTR_INSTANCE_VALUE"): 5000,   # LOAD_FAST__LOAD_ATTR is installed there
    ("LOAD_ATTR_INSTANCE_VALUE", "LOAD_FAST"): 4000,   # a member only as the last part
    ("STORE_FAST__STORE_FAST", "LOAD_FAST"): 1000,    # -> STORE_FAST + STORE_FAST + LOAD_FAST
    ("LOAD_FAST", "BINARY_SUBSCR_LIST_INT"): 800,      # members after the same parts:
    ("LOAD_FAST", "BINARY_SUBSCR_TUPLE_INT"): 700,     # alternatives, by pairs,
    ("LOAD_FAST", "BINARY_SUBSCR_DICT"): 100,          # each with a tenth of the group's
    ("POP_JUMP_BACKWARD_IF_TRUE", "LOAD_FAST"): 500,   # a part that jumps: the generator refuses
    ("LOAD_FAST", "RETURN_VALUE"): 300,
    ("LOAD_FAST", "LOAD_FAST"): 200,                   # LOAD_FAST__LOAD_FAST exists
    ("RESUME_QUICK", "LOAD_FAST"): 100,                # a quick form: no candidate
}


def test_candidates_are_the_parts_of_both_dispatches_ranked_by_pairs(instructions):
    ranked = advisor.rank(stats_data(instructions, PAIRS), instructions)
    assert [(c.parts, c.pairs) for c in ranked] == [
        (("LOAD_FAST", ("BINARY_SUBSCR_LIST_INT", "BINARY_SUBSCR_TUPLE_INT")), 1500),
        (("STORE_FAST", "STORE_FAST", "LOAD_FAST"), 1000),
        (("POP_JUMP_BACKWARD_IF_TRUE", "LOAD_FAST"), 500),
        (("LOAD_FAST", "RETURN_VALUE"), 300),
    ]
    assert ranked[1].share == pytest.approx(1000 / sum(PAIRS.values()))
    assert ranked[0].name == "LOAD_FAST__BINARY_SUBSCR"
    assert ranked[0].text == "LOAD_FAST + (BINARY_SUBSCR_LIST_INT | BINARY_SUBSCR_TUPLE_INT)"


def test_the_generator_decides_what_is_accepted(instructions):
    ranked = advisor.check_with_generator(advisor.rank(stats_data(instructions, PAIRS), instructions))
    verdicts = {c.name: c.rejected for c in ranked}
    assert verdicts["STORE_FAST__STORE_FAST__LOAD_FAST"] == ""
    assert verdicts["LOAD_FAST__RETURN_VALUE"] == ""
    assert verdicts["LOAD_FAST__BINARY_SUBSCR"] == ""
    assert "finishes early" in verdicts["POP_JUMP_BACKWARD_IF_TRUE__LOAD_FAST"]


def test_declarations_join_the_first_parts_family(tmp_path, instructions):
    candidates = advisor.rank(stats_data(instructions, PAIRS), instructions)
    (tmp_path / "a.inst").write_text("family STORE_FAST {\n    members: STORE_FAST__STORE_FAST;\n}\n")
    changes = advisor.add_to_sources(tmp_path, [candidates[1], candidates[3]])
    assert "members: STORE_FAST__STORE_FAST, STORE_FAST__STORE_FAST__LOAD_FAST;" in (tmp_path / "a.inst").read_text()
    extra = (tmp_path / "zz_advisor.inst").read_text()
    assert "family LOAD_FAST {\n    members: LOAD_FAST__RETURN_VALUE;\n}" in extra
    assert "super LOAD_FAST__RETURN_VALUE : LOAD_FAST + RETURN_VALUE;" in extra
    assert changes["LOAD_FAST__RETURN_VALUE"] == "in a new family LOAD_FAST"


def test_the_command_prints_ready_declarations(tmp_path, instructions):
    path = tmp_path / "stats.json"
    specstats.save(path, stats_data(instructions, PAIRS))
    completed = run_workbench("advise", path, "--top", "2")
    assert completed.returncode == 0, completed.stderr
    out = completed.stdout
    assert "| 1 | `LOAD_FAST + (BINARY_SUBSCR_LIST_INT \\| BINARY_SUBSCR_TUPLE_INT)` | 1,500 |" \
        in out
    assert "| 2 | `STORE_FAST + STORE_FAST + LOAD_FAST` | 1,000 |" in out
    assert "refused: 'POP_JUMP_BACKWARD_IF_TRUE' finishes early" in out
    assert "the best 2 the generator accepts, alone and together" in out
    assert ("super LOAD_FAST__BINARY_SUBSCR : LOAD_FAST + (BINARY_SUBSCR_LIST_INT | "
            "BINARY_SUBSCR_TUPLE_INT);") in out
