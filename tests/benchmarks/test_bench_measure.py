"""Classifying child outcomes, the child environment, and interpreter specifications."""

import json
import subprocess

import pytest

from benchmarks.interpreters import Interpreter, InterpreterError
from benchmarks.measure import RunFailure, child_environment, parse_report, runner_command


def completed(returncode, stdout="", stderr=""):
    return subprocess.CompletedProcess(["python"], returncode, stdout, stderr)


def report_line(status, message=""):
    return json.dumps({"protocol": 1, "status": status, "message": message, "times_ns": [5]}) + "\n"


def test_signal_without_report_is_a_crash():
    with pytest.raises(RunFailure) as caught:
        parse_report(completed(-11, stderr="Fatal Python error: Segmentation fault\n"))
    assert caught.value.kind == "crash"
    assert "killed by SIGSEGV without a result" in caught.value.message
    assert "Segmentation fault" in caught.value.message


def test_exit_status_and_garbage_output_are_a_crash():
    with pytest.raises(RunFailure) as caught:
        parse_report(completed(1, stdout="not json\n", stderr="boom\n"))
    assert caught.value.kind == "crash" and "exit status 1" in caught.value.message


def test_reports_are_classified_by_status():
    assert parse_report(completed(0, stdout="noise\n" + report_line("ok")))["times_ns"] == [5]
    with pytest.raises(RunFailure) as caught:
        parse_report(completed(3, stdout=report_line("check-failed", "AssertionError: wrong")))
    assert caught.value.kind == "check-failed" and caught.value.message == "AssertionError: wrong"
    with pytest.raises(RunFailure) as caught:
        parse_report(completed(4, stdout=report_line("error", "ZeroDivisionError")))
    assert caught.value.kind == "error"
    with pytest.raises(RunFailure) as caught:   # success claimed, then died at exit
        parse_report(completed(-6, stdout=report_line("ok")))
    assert caught.value.kind == "crash" and "SIGABRT" in caught.value.message


def test_child_environment_is_fixed_and_small(monkeypatch):
    monkeypatch.setenv("PYTHONPATH", "/somewhere")
    monkeypatch.setenv("HOME", "/root")
    environment = child_environment()
    assert environment["PYTHONHASHSEED"] == "0"
    assert "PYTHONPATH" not in environment and "HOME" not in environment
    assert runner_command("/py", "/b.py", 3, 1, 0, timed=False)[-5:] == ["/b.py", "3", "1", "0", "untimed"]


def test_interpreter_specifications(python311):
    named = Interpreter.parse("stock=" + python311)
    assert (named.name, named.resolved) == ("stock", python311)
    bare = Interpreter.parse("python3.11")          # looked up on PATH, named after the file
    assert bare.name == "python3.11" and bare.resolved.endswith("/python3.11")
    with pytest.raises(InterpreterError, match="bad interpreter name"):
        Interpreter.parse("two words=" + python311)
    with pytest.raises(InterpreterError, match="no path given"):
        Interpreter.parse("stock=")
    with pytest.raises(InterpreterError, match="not found on PATH"):
        Interpreter.parse("no-such-python-anywhere")
