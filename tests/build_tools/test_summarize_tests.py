"""scripts/summarize-tests: the closing line shows what a passing run did not fully check —
skips inside a test (pytest's -rs lines, `partly skipped:` lines) and regression tests that
passed only when re-run — instead of counting such a test as a plain pass."""

import json
import subprocess
import sys

from conftest import ROOT

SCRIPT = ROOT / "scripts" / "summarize-tests"


def summarize(tmp_path, entries):
    log = tmp_path / "testlog.json"
    log.write_text("".join(json.dumps(e) + "\n" for e in entries), encoding="utf-8")
    result = subprocess.run([sys.executable, str(SCRIPT), str(log)], capture_output=True, text=True)
    return result.returncode, result.stdout.splitlines()


def test_a_clean_run_is_one_plain_line(tmp_path):
    status, lines = summarize(tmp_path, [{"name": "a", "result": "OK", "stdout": "fine\n"},
                                         {"name": "b", "result": "OK", "stdout": ""}])
    assert status == 0 and lines[-1] == "2 passed, 0 failed"


def test_skips_inside_a_passing_test_are_named_and_counted(tmp_path):
    pytest_out = ("....s.\n=========================== short test summary info ===\n"
                  "SKIPPED [1] tests/x/test_y.py:12: no stock interpreter\n5 passed, 1 skipped\n")
    status, lines = summarize(tmp_path, [
        {"name": "generator", "result": "OK", "stdout": pytest_out},
        {"name": "abi", "result": "OK", "stdout": "partly skipped: abi: no stock build at b\n"},
        {"name": "smoke", "result": "OK", "stdout": "smoke: ok\n"}])
    assert status == 0
    assert "    skipped inside: tests/x/test_y.py:12: no stock interpreter" in lines
    assert "    skipped inside: abi: no stock build at b" in lines
    assert lines[-1] == "3 passed, 0 failed, 2 partly skipped"


def test_a_flaky_regression_test_is_named_and_counted(tmp_path):
    out = ("== Tests result: FAILURE then SUCCESS ==\n"
           "run_regrtest: flaky: test_x failed (1 failure) in its first run, passed when re-run\n")
    status, lines = summarize(tmp_path, [{"name": "regrtest", "result": "OK", "stdout": out}])
    assert status == 0
    assert "    flaky: test_x failed (1 failure) in its first run, passed when re-run" in lines
    assert lines[-1] == "1 passed, 0 failed, 1 flaky"


def test_a_failure_fails(tmp_path):
    status, lines = summarize(tmp_path, [{"name": "a", "result": "FAIL", "stdout": ""},
                                         {"name": "b", "result": "TIMEOUT", "stdout": ""}])
    assert status == 1 and lines[-1] == "0 passed, 2 failed"
