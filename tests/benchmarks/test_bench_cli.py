"""The command line end to end: success, and every way a run can fail."""

import json
import shutil
import subprocess

import pytest

from benchmarks import cli, session
from conftest import SUITE_BROKEN, SUITE_OK, make_script, run_harness, run_workbench


def load(folder):
    return json.loads((folder / "results.json").read_text())


def test_two_names_for_one_interpreter(python311, tmp_path):
    out = tmp_path / "out"
    completed = run_harness("--python", "a=" + python311, "--python", "b=" + python311,
                            "--suite", SUITE_OK, "--bench", "tiny", "--runs", 3, "--output", out)
    assert completed.returncode == 0, completed.stderr
    results = load(out)
    assert results["complete"] is True
    assert [i["name"] for i in results["interpreters"]] == ["a", "b"]
    assert results["interpreters"][0]["version"].startswith("3.11")
    assert results["metadata"]["settings"] == {"modes": ["wall"], "runs": 3, "warmups": 1,
                                               "scale": None, "timeout": 1800.0}
    assert results["metadata"]["child"]["environment"]["PYTHONHASHSEED"] == "0"
    assert results["benchmarks"]["tiny"]["scales"] == {"wall": 1}
    assert sorted(results["wall"]["tiny"]) == ["a", "b"]
    assert all(len(samples) == 3 for samples in results["wall"]["tiny"].values())
    assert results["failures"] == []
    assert "| tiny |" in (out / "report.md").read_text()
    assert (out / "speedup-wall.png").read_bytes().startswith(b"\x89PNG")
    # Progress names the benchmark, the interpreter and how far along the run is.
    assert "wall tiny (scale 1): b, run 3 of 3" in completed.stderr
    assert completed.stdout.rstrip().endswith("Results written to %s" % out)


def test_missing_interpreter_stops_before_measuring(tmp_path):
    out = tmp_path / "out"
    completed = run_harness("--python", "gone=/nonexistent/python3", "--suite", SUITE_OK, "--output", out)
    assert completed.returncode == 2
    assert "interpreter /nonexistent/python3 does not exist" in completed.stderr
    assert not out.exists()


def test_non_executable_interpreter(tmp_path):
    plain = tmp_path / "python"
    plain.write_text("not a program")
    completed = run_harness("--python", "x=%s" % plain, "--suite", SUITE_OK, "--output", tmp_path / "out")
    assert completed.returncode == 2
    assert "is not an executable file" in completed.stderr


def test_duplicate_names_are_refused(python311, tmp_path):
    completed = run_harness("--python", "a=" + python311, "--python", "a=" + python311,
                            "--suite", SUITE_OK, "--output", tmp_path / "out")
    assert completed.returncode == 2 and "used twice" in completed.stderr


def test_interpreter_that_cannot_start(tmp_path):
    broken = make_script(tmp_path / "python", "echo 'Fatal Python error: init failed' >&2; exit 1")
    completed = run_harness("--python", "broken=" + broken, "--suite", SUITE_OK,
                            "--output", tmp_path / "out")
    assert completed.returncode == 2
    assert "interpreter 'broken' (%s) failed to start: exit status 1" % broken in completed.stderr
    assert "Fatal Python error: init failed" in completed.stderr


def test_crash_in_one_benchmark_keeps_everything_else(python311, tmp_path):
    flaky = make_script(tmp_path / "python", 'case "$*" in *tiny_too.py*) kill -SEGV $$ ;; esac\n'
                                             'exec %s "$@"' % python311)
    out = tmp_path / "out"
    completed = run_harness("--python", "good=" + python311, "--python", "flaky=" + flaky,
                            "--suite", SUITE_OK, "--runs", 2, "--warmups", 0, "--output", out)
    assert completed.returncode == 1
    assert "1 benchmark run(s) failed" in completed.stderr
    results = load(out)
    assert sorted(results["wall"]["tiny"]) == ["flaky", "good"]
    assert list(results["wall"]["tiny_too"]) == ["good"]
    [failure] = results["failures"]
    assert (failure["benchmark"], failure["interpreter"], failure["kind"]) == ("tiny_too", "flaky", "crash")
    assert "SIGSEGV" in failure["message"]
    assert "| tiny_too | " in (out / "report.md").read_text()
    assert "FAILED (crash)" in (out / "report.md").read_text()


def test_failed_self_check_and_exception(python311, tmp_path):
    out = tmp_path / "out"
    completed = run_harness("--python", "a=" + python311, "--suite", SUITE_BROKEN, "--runs", 1,
                            "--output", out)
    assert completed.returncode == 1
    results = load(out)
    kinds = {f["benchmark"]: f["kind"] for f in results["failures"]}
    assert kinds == {"raises": "error", "wrong_answer": "check-failed"}
    assert "sum is 4951, expected 4950" in completed.stderr
    assert list(results["wall"]["fine"]) == ["a"]
    assert "FAILED (check-failed)" in (out / "report.md").read_text()


def test_interruption_saves_partial_results(python311, tmp_path, monkeypatch, capsys):
    calls = []

    def fake_time_workload(*arguments):
        calls.append(arguments)
        if len(calls) > 2:        # the second benchmark is interrupted
            raise KeyboardInterrupt
        return 1_000_000

    monkeypatch.setattr(session, "time_workload", fake_time_workload)
    out = tmp_path / "out"
    status = cli.main(["--python", "a=" + python311, "--suite", str(SUITE_OK), "--runs", "2",
                       "--output", str(out)])
    assert status == 130
    results = load(out)
    assert results["complete"] is False
    assert results["wall"] == {"tiny": {"a": [1_000_000, 1_000_000]}}
    assert "**Incomplete results**" in (out / "report.md").read_text()


def test_default_output_folder_is_timestamped(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    first = cli.choose_output_folder(None)
    second = cli.choose_output_folder(None)
    assert first.parent.name == "bench-results" and first.is_dir()
    assert second != first and second.is_dir()   # never reuses a folder


@pytest.mark.skipif(shutil.which("valgrind") is None, reason="valgrind is not installed")
def test_instruction_counts_repeat_exactly(python311, tmp_path):
    out = tmp_path / "out"
    completed = run_harness("--mode", "instructions", "--python", "a=" + python311,
                            "--python", "b=" + python311, "--suite", SUITE_OK, "--bench", "tiny",
                            "--output", out)
    assert completed.returncode == 0, completed.stderr
    counts = load(out)["instructions"]["tiny"]
    assert counts["a"] == counts["b"]
    assert counts["a"]["workload"] == counts["a"]["with_workload"] - counts["a"]["without_workload"]
    assert counts["a"]["workload"] > 0
    assert "**1.000x**" in (out / "report.md").read_text()


def test_an_interpreter_without_bytecode_cache_is_named_in_a_warning():
    from benchmarks.interpreters import cache_warning
    described = {"name": "gen", "resolved": "/b/python", "uncached_modules": ["os", "json"]}
    warning = cache_warning(described)
    assert "interpreter 'gen' has no bytecode cache for os, json" in warning
    assert "/b/python -c 'import os, json'" in warning
    assert cache_warning(dict(described, uncached_modules=[])) is None


def test_an_uncached_standard_library_is_reported_and_warned_about(python311, tmp_path):
    from benchmarks.interpreters import Interpreter, describe
    # The interpreter looking for its bytecode in an empty folder has none (os is frozen: it
    # never reads a cache and is not named).
    empty = tmp_path / "empty-pycache"
    empty.mkdir()
    uncached = make_script(tmp_path / "uncached-python",
                           'exec %s -X pycache_prefix=%s "$@"' % (python311, empty))
    described = describe(Interpreter.parse("u=" + uncached))
    assert described["uncached_modules"] == ["traceback", "json"]
    completed = run_harness("--python", "u=" + uncached, "--suite", SUITE_OK, "--bench", "tiny",
                            "--runs", 1, "--output", tmp_path / "out")
    assert completed.returncode == 0, completed.stderr
    assert "warning: interpreter 'u' has no bytecode cache for traceback, json" in completed.stderr
    # describe() itself writes nothing (-B); the command the warning suggests does.
    assert list(empty.iterdir()) == []
    from benchmarks.measure import child_environment  # no PYTHONDONTWRITEBYTECODE from here
    subprocess.run([uncached, "-c", "import traceback, json"], env=child_environment(), check=True)
    assert describe(Interpreter.parse("u=" + uncached))["uncached_modules"] == []


def test_the_workbench_commands_name_their_new_home():
    for command in ("stats", "stats-compare", "advise", "explain"):
        completed = run_harness(command, "x.json")
        assert completed.returncode == 2
        assert completed.stderr == ("error: '%s' is the workbench's: python3 -m workbench %s x.json\n"
                                    % (command, command))
    completed = run_workbench()
    assert completed.returncode == 2
    assert completed.stderr.startswith("usage: python3 -m workbench {stats,stats-compare,advise,explain,cases}")
