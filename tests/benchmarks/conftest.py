"""Shared helpers for the benchmark-harness tests.

Run from the repository root: /usr/bin/python3 -m pytest tests/benchmarks
"""

import os
import subprocess
import sys
from pathlib import Path

import pytest

REPOSITORY = Path(__file__).resolve().parents[2]
if str(REPOSITORY) not in sys.path:
    sys.path.insert(0, str(REPOSITORY))

FIXTURES = Path(__file__).resolve().parent / "fixtures"
SUITE_OK = FIXTURES / "suite_ok"
SUITE_BROKEN = FIXTURES / "suite_broken"
SUITE_INVALID = FIXTURES / "suite_invalid"
PYTHON311 = "/usr/bin/python3.11"
HARNESS_PYTHON = sys.executable


@pytest.fixture
def python311():
    if not os.access(PYTHON311, os.X_OK):
        pytest.skip("%s is not installed" % PYTHON311)
    return PYTHON311


def make_script(path, body):
    """Write an executable shell script and return its path as a string."""
    path.write_text("#!/bin/sh\n" + body + "\n", encoding="utf-8")
    path.chmod(0o755)
    return str(path)


def run_harness(*arguments, timeout=300, package="benchmarks"):
    """Run `python3 -m benchmarks ARGUMENTS` (or another package of the repository's: the
    workbench) from the repository root, as users do."""
    return subprocess.run([HARNESS_PYTHON, "-m", package, *map(str, arguments)],
                          cwd=REPOSITORY, capture_output=True, text=True, timeout=timeout)


def run_workbench(*arguments, timeout=300):
    """Run `python3 -m workbench ARGUMENTS` from the repository root."""
    return run_harness(*arguments, timeout=timeout, package="workbench")
