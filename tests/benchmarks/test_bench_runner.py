"""The in-interpreter runner's protocol, exercised directly."""

import json
import subprocess

from benchmarks.measure import RUNNER, child_environment
from conftest import SUITE_BROKEN, SUITE_OK


def run_runner(python, *arguments, flags=("-S", "-B")):
    completed = subprocess.run([python, *flags, str(RUNNER), *map(str, arguments)],
                               env=child_environment(), capture_output=True, text=True, timeout=120)
    lines = completed.stdout.strip().splitlines()
    return completed.returncode, json.loads(lines[-1]) if lines else None


def test_ok_report_has_one_time_per_run(python311):
    status, report = run_runner(python311, SUITE_OK / "tiny.py", 2, 1, 3, "timed")
    assert status == 0
    assert report["status"] == "ok" and report["benchmark"] == "tiny"
    assert report["scale"] == 2 and report["warmups"] == 1
    assert len(report["times_ns"]) == 3 and all(t > 0 for t in report["times_ns"])
    assert report["python"]["version"].startswith("3.11")


def test_zero_runs_still_checks_the_warmup_result(python311):
    status, report = run_runner(python311, SUITE_BROKEN / "wrong_answer.py", 1, 1, 0, "timed")
    assert status == 3 and report["status"] == "check-failed" and report["times_ns"] == []


def test_failed_check_and_exception_are_told_apart(python311):
    status, report = run_runner(python311, SUITE_BROKEN / "wrong_answer.py", 1, 0, 1, "timed")
    assert status == 3 and report["status"] == "check-failed"
    assert "sum is 4951, expected 4950" in report["message"]
    status, report = run_runner(python311, SUITE_BROKEN / "raises.py", 1, 0, 1, "timed")
    assert status == 4 and report["status"] == "error"
    assert "ZeroDivisionError" in report["message"]


def test_optimized_mode_is_refused_because_checks_use_assert(python311):
    status, report = run_runner(python311, SUITE_OK / "tiny.py", 1, 0, 1, "timed", flags=("-S", "-B", "-O"))
    assert status == 2 and report is None
