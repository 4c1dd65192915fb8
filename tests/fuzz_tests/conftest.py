"""Shared helpers for the fuzzer's tests.

Run from the repository root: /usr/bin/python3 -m pytest tests/fuzz_tests
"""

import os
import subprocess
import sys
from pathlib import Path

import pytest

REPOSITORY = Path(__file__).resolve().parents[2]
if str(REPOSITORY) not in sys.path:
    sys.path.insert(0, str(REPOSITORY))

PYTHON311 = "/usr/bin/python3.11"
FAKE_PYTHON = Path(__file__).resolve().parent / "fake_python.py"


@pytest.fixture
def python311():
    if not os.access(PYTHON311, os.X_OK):
        pytest.skip("%s is not installed" % PYTHON311)
    return PYTHON311


@pytest.fixture
def fake_python(python311, tmp_path):
    """An executable interpreter that misbehaves on marker words (fake_python.py)."""
    path = tmp_path / "fake-python"
    path.write_text("#!%s\n%s" % (python311, FAKE_PYTHON.read_text(encoding="utf-8")), encoding="utf-8")
    path.chmod(0o755)
    return str(path)


def run_fuzzer(*arguments, timeout=300):
    """Run `python3 -m tests.fuzz ARGUMENTS` from the repository root, as users do."""
    return subprocess.run([sys.executable, "-m", "tests.fuzz", *map(str, arguments)],
                          cwd=REPOSITORY, capture_output=True, text=True, timeout=timeout)
