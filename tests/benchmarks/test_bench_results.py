"""Results files: saving and loading, and comparing two of them."""

import json

import pytest

from benchmarks.cli import main
from benchmarks.results import Results, ResultsError, comparable_names, comparison


def make_results(names, wall=None, instructions=None, failures=(), modes=("wall", "instructions")):
    results = Results(
        metadata={"created": "2024-01-01T00:00:00+00:00", "settings": {"modes": list(modes), "runs": 3,
                                                                        "warmups": 1, "scale": None}},
        interpreters=[{"name": name, "path": "/bin/" + name, "resolved": "/bin/" + name,
                       "version": "3.11.2"} for name in names],
        wall=wall or {},
        instructions=instructions or {},
        complete=True,
    )
    for failure in failures:
        results.add_failure(*failure)
    return results


def counts(workload):
    return {"workload": workload, "with_workload": workload + 1000, "without_workload": 1000}


def test_round_trip_preserves_everything(tmp_path):
    original = make_results(
        ["stock", "new"],
        wall={"calls": {"stock": [100, 110, 105], "new": [90, 95, 92]}},
        instructions={"calls": {"stock": counts(5000), "new": counts(4000)}},
        failures=[("wall", "nbody", "new", "crash", "killed by SIGSEGV")],
    )
    path = tmp_path / "results.json"
    original.save(path)
    assert not (tmp_path / "results.json.tmp").exists()
    loaded = Results.load(path)
    assert loaded == original
    assert loaded.names == ["stock", "new"]
    assert loaded.failure("wall", "nbody", "new")["kind"] == "crash"
    assert json.loads(path.read_text())["format"] == "quicken-benchmarks/1"


def test_load_rejects_other_files(tmp_path):
    not_json = tmp_path / "garbage.json"
    not_json.write_text("{not json")
    with pytest.raises(ResultsError, match="not JSON"):
        Results.load(not_json)
    other = tmp_path / "other.json"
    other.write_text('{"format": "something-else"}')
    with pytest.raises(ResultsError, match="not a quicken-benchmarks"):
        Results.load(other)
    with pytest.raises(ResultsError, match="cannot read"):
        Results.load(tmp_path / "missing.json")


def test_comparison_pairs_same_names_old_as_baseline():
    old = make_results(["stock", "new"], wall={"calls": {"stock": [100], "new": [80]},
                                               "nbody": {"stock": [200], "new": [200]}})
    new = make_results(["stock", "new"], wall={"calls": {"stock": [100], "new": [40]}})
    assert comparable_names(old, new) == [("stock", "stock"), ("new", "new")]
    merged = comparison(old, new, "new", "new")
    assert merged.names == ["old:new", "new:new"]
    assert merged.wall == {"calls": {"old:new": [80], "new:new": [40]}}  # nbody only in old


def test_comparable_names_with_single_differently_named_interpreters():
    old = make_results(["a"])
    new = make_results(["b"])
    assert comparable_names(old, new) == [("a", "b")]
    assert comparable_names(make_results(["a", "c"]), make_results(["b", "d"])) == []


def test_compare_command_prints_the_speedup(tmp_path, capsys):
    old = make_results(["new"], wall={"calls": {"new": [100, 100, 100]}},
                       instructions={"calls": {"new": counts(6_000_000)}})
    new = make_results(["new"], wall={"calls": {"new": [50, 50, 50]}},
                       instructions={"calls": {"new": counts(4_000_000)}})
    old.save(tmp_path / "old.json")
    new.save(tmp_path / "new.json")
    status = main(["compare", str(tmp_path / "old.json"), str(tmp_path / "new.json"),
                   "--output", str(tmp_path / "cmp")])
    output = capsys.readouterr().out
    assert status == 0
    assert "| Benchmark | old:new | new:new | new:new vs old:new |" in output
    assert "2.000x" in output                       # wall: 100 / 50
    assert "1.500x" in output                       # instructions: 6M / 4M
    assert (tmp_path / "cmp" / "compare-new.md").read_text().count("| calls |") == 2
    assert (tmp_path / "cmp" / "compare-new-speedup-wall.png").read_bytes().startswith(b"\x89PNG")


def test_compare_command_fails_clearly_without_common_interpreters(tmp_path, capsys):
    make_results(["a", "b"]).save(tmp_path / "old.json")
    make_results(["c", "d"]).save(tmp_path / "new.json")
    assert main(["compare", str(tmp_path / "old.json"), str(tmp_path / "new.json")]) == 2
    assert "no interpreter to compare" in capsys.readouterr().err


def test_report_command_rewrites_report_and_charts(tmp_path, capsys):
    make_results(["stock", "new"], instructions={"calls": {"stock": counts(900), "new": counts(300)}},
                 modes=("instructions",)).save(tmp_path / "results.json")
    assert main(["report", str(tmp_path / "results.json")]) == 0
    assert "| calls | 0.0 M | 0.0 M | 3.000x |" in capsys.readouterr().out
    assert "3.000x" in (tmp_path / "report.md").read_text()
    assert (tmp_path / "speedup-instructions.png").read_bytes().startswith(b"\x89PNG")
