"""benchmarks.cachesim: cachegrind's cache and branch events per call, side by side."""

import json
import shutil

import pytest

from benchmarks import cachesim
from conftest import SUITE_OK


@pytest.fixture
def valgrind():
    if shutil.which("valgrind") is None:
        pytest.skip("valgrind is not installed")


def test_the_same_interpreter_twice_gives_the_same_events(python311, valgrind, tmp_path, capsys):
    output = tmp_path / "events.json"
    status = cachesim.main(["--suite", str(SUITE_OK), "--benchmark", "tiny",
                            "--python", "a=" + python311, "--python", "b=" + python311,
                            "--output", str(output)])
    assert status == 0
    events = json.loads(output.read_text())["events_per_call"]["tiny"]
    assert events["a"] == events["b"]  # hash seed, argv, environment fixed: counts repeat
    assert events["a"]["Ir"] > 100_000  # the call itself: 2,000 squares summed
    assert 0 < events["a"]["Bcm"] < events["a"]["Bc"]
    assert 0 <= events["a"]["Bim"] <= events["a"]["Bi"]
    table = capsys.readouterr().out.splitlines()
    assert table[0].startswith("| benchmark | a Ir | a I1mr |")
    row = [cell.strip() for cell in table[2].split("|")[1:-1]]
    assert row[0] == "tiny" and row[7] == "1.000"  # Ir
    # equal counts: 1, or no ratio where both are zero (the tiny call may miss no cache line)
    assert set(row[8:]) <= {"1.000", "nan"}


def test_one_interpreter_or_an_unknown_benchmark_is_a_usage_error(python311, capsys):
    with pytest.raises(SystemExit) as caught:
        cachesim.main(["--suite", str(SUITE_OK), "--python", "a=" + python311])
    assert caught.value.code == 2
    assert "at least two interpreters" in capsys.readouterr().err
    with pytest.raises(SystemExit) as caught:
        cachesim.main(["--suite", str(SUITE_OK), "--benchmark", "nosuch",
                       "--python", "a=" + python311, "--python", "b=" + python311])
    assert caught.value.code == 2
    assert "no benchmark matches 'nosuch'" in capsys.readouterr().err


def test_ratios_and_counts_in_the_table():
    base = dict.fromkeys(cachesim.EVENTS, 2_000_000)
    candidate = dict(base, Ir=1_000_000, Bim=0)
    table = cachesim.table({"x": {"a": base, "b": candidate}}, ["a", "b"]).splitlines()
    row = [cell.strip() for cell in table[2].split("|")[1:-1]]
    assert row[:2] == ["x", "2.00 M"]
    assert row[7] == "2.000"  # Ir: half as many
    assert row[12] == "nan"  # no mispredicted indirect branch: no ratio
    assert cachesim.count(999) == "999"
