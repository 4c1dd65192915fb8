"""Shared by every pytest suite under tests/ (pytest loads a conftest.py of every parent folder
of the tests it runs): refuse to run with assertions off.

pytest rewrites the `assert`s of test modules and conftest files, which then hold under
`python -O`; but the helpers they call (genutil.py, the fuzzer, the harness) are plain modules
whose `assert`s `-O` or PYTHONOPTIMIZE removes, so a check would pass without running.
"""

import sys

import pytest


def pytest_configure(config):
    if sys.flags.optimize:
        raise pytest.UsageError(
            "the tests run with assertions removed (python -O or PYTHONOPTIMIZE=%s): "
            "unset PYTHONOPTIMIZE and run again" % sys.flags.optimize)
