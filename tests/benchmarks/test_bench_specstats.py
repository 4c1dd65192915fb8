"""The specialization statistics report (workbench/specstats.py, specreport.py) on made-up
counts; tests/check_stats_report.py runs it for real on a -Dstats=true build."""

import json

import pytest
from conftest import SUITE_OK, run_workbench

from workbench import specreport, specstats

# A build with one family, LOAD_X (generic 10, adaptive 11, members 12 and 13), and BINARY_Y
# (generic 20, adaptive 21, member 22).
TABLES = {
    "opnames": ["<0>"] + ["OP_%d" % n for n in range(1, 10)] + [
        "LOAD_X", "LOAD_X_ADAPTIVE", "LOAD_X_FAST", "LOAD_X_NEVER"] + ["OP_%d" % n for n in range(14, 20)]
        + ["BINARY_Y", "BINARY_Y_ADAPTIVE", "BINARY_Y_INT"],
    "families": {"LOAD_X": ["LOAD_X_ADAPTIVE", "LOAD_X_FAST", "LOAD_X_NEVER"],
                 "BINARY_Y": ["BINARY_Y_ADAPTIVE", "BINARY_Y_INT"]},
    "failure_kinds": {"LOAD_X": ["OTHER", "OUT_OF_RANGE", "NOT_A_DICT"]},
    "cache_tag": "quicken-311-00000000",
    "version": "3.11.2 (main)",
}

STATS_FILE = """\
opcode[10].specialization.success : 4
opcode[10].specialization.failure : 6
opcode[10].specialization.hit : 900
opcode[10].specialization.miss : 50
opcode[10].specialization.deopt : 2
opcode[10].specialization.deferred : 30
opcode[10].specialization.failure_kinds[2] : 5
opcode[10].specialization.failure_kinds[7] : 1
    opcode[10].execution_count : 10
    opcode[11].execution_count : 40
    opcode[12].execution_count : 950
opcode[12].specialization.miss : 50
opcode[12].pair_count[20] : 700
    opcode[20].execution_count : 100
opcode[20].pair_count[10] : 90
Calls to Python functions inlined: 12
"""


def test_parse_reads_every_kind_of_line():
    counts = specstats.parse(STATS_FILE)
    assert counts["opcodes"][10]["success"] == 4
    assert counts["opcodes"][10]["failure_kinds"] == {2: 5, 7: 1}
    assert counts["opcodes"][12]["pairs"] == {20: 700}
    assert counts["opcodes"][12]["execution_count"] == 950
    assert counts["other"] == {"Calls to Python functions inlined": 12}


def test_parse_rejects_a_line_that_is_not_a_count():
    with pytest.raises(specstats.StatsError, match="line 2"):
        specstats.parse("opcode[1].execution_count : 3\nopcode[1].execution_count : many\n")


def test_difference_of_two_processes_drops_what_cancels_and_what_shrank():
    with_call = specstats.parse(STATS_FILE)
    without = specstats.parse("    opcode[10].execution_count : 10\n    opcode[20].execution_count : 150\n"
                              "Calls to Python functions inlined: 2\n")
    difference = specstats.clean(specstats.combine(with_call, without, -1))
    assert 10 in difference["opcodes"] and "execution_count" not in difference["opcodes"][10]
    assert "execution_count" not in difference["opcodes"][20]  # 100 - 150 < 0: dropped
    assert difference["other"] == {"Calls to Python functions inlined": 10}


def test_family_rows_name_failure_kinds_from_the_build_tables():
    names = specstats.Names(TABLES)
    rows = {r["family"]: r for r in specstats.family_rows(specstats.parse(STATS_FILE), names)}
    load = rows["LOAD_X"]
    assert (load["generic"], load["adaptive"], load["specialized"]) == (10, 40, 950)
    assert load["failure_kinds"] == {"NOT_A_DICT": 5, "kind 7": 1}
    assert load["members"]["LOAD_X_NEVER"]["executions"] == 0
    assert load["members"]["LOAD_X_FAST"] == {"executions": 950, "misses": 50}
    assert rows["BINARY_Y"]["failure_kinds"] == {}


def data(workloads):
    return {"format": specstats.FORMAT, "python": "build-stats/python", "command": ["test"],
            "created": "now", "tables": TABLES, "workloads": workloads, "failures": {}}


def test_report_shows_rates_failures_members_never_run_mix_and_pairs():
    text = specreport.render(data({"w": specstats.parse(STATS_FILE)}))
    family_line = next(line for line in text.splitlines() if line.startswith("| `LOAD_X` |"))
    # executions 1,000, 95.0% specialized, 10 attempts, 40.0% success, 30 deferred, 900 hits,
    # 50 misses (5.3% of hits + misses), 2 deopts
    assert family_line.split(" | ")[1:10] == ["1,000", "95.0%", "10", "40.0%", "30", "900", "50",
                                              "5.3%", "2"]
    assert "| `LOAD_X` | NOT_A_DICT | 5 | 83.3% |" in text
    assert "Members that never ran: `BINARY_Y_INT`, `LOAD_X_NEVER`." in text
    assert "| `LOAD_X_FAST` | `BINARY_Y` | 700 |" in text
    assert "1,100 instructions executed" in text


def test_comparison_shows_both_sides(tmp_path):
    before = data({"w": specstats.parse(STATS_FILE)})
    after = data({"w": specstats.parse(STATS_FILE.replace("opcode[12].execution_count : 950",
                                                          "opcode[12].execution_count : 990"))})
    for name, value in (("before", before), ("after", after)):
        specstats.save(tmp_path / (name + ".json"), value)
    loaded = specstats.load(tmp_path / "before.json")
    assert loaded["workloads"]["w"]["opcodes"][12]["pairs"] == {20: 700}
    text = specreport.render_comparison(loaded, specstats.load(tmp_path / "after.json"), "before", "after")
    assert "| `LOAD_X_FAST` | 950 | 990 | +40 |" in text
    assert "1,100 before, 1,140 after (+3.64%)" in text


def test_load_rejects_other_files(tmp_path):
    path = tmp_path / "results.json"
    path.write_text(json.dumps({"format": 99}), encoding="utf-8")
    with pytest.raises(specstats.StatsError, match="not a statistics file"):
        specstats.load(path)


def test_charts_are_written(tmp_path):
    pytest.importorskip("matplotlib")
    charts = specreport.draw(data({"w": specstats.parse(STATS_FILE)}), tmp_path)
    assert [name for _, name in charts] == ["families.png", "mix.png"]
    for _, name in charts:
        assert (tmp_path / name).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_an_interpreter_without_py_stats_is_a_clear_error(python311, tmp_path):
    completed = run_workbench("stats", "--python", python311, "--suite", SUITE_OK, "--bench", "tiny",
                            "--scale", "1", "--output", tmp_path / "out")
    assert completed.returncode == 2
    assert "wrote no statistics" in completed.stderr and "Py_STATS" in completed.stderr
    assert not (tmp_path / "out" / "stats.json").exists()
