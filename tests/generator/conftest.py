"""Shared setup for the generator's tests: the project root on sys.path, small-project fixtures."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent
for path in (str(ROOT), str(HERE)):
    if path not in sys.path:
        sys.path.insert(0, path)

import genutil  # noqa: E402  (needs the paths above)


@pytest.fixture
def project(tmp_path):
    """project({"a.inst": text, ...}) -> a project root holding instructions/*.inst."""

    def make(files: dict[str, str] | str, root: Path | None = None) -> Path:
        return genutil.write_project(root or tmp_path / "proj", files)

    return make
