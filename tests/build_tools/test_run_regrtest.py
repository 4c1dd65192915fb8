"""tests/run_regrtest.py's skip list: reasons required, `layout:` lines only for a build whose
code layout is not CPython 3.11.2's, `generic:` lines only for the generic baseline."""

import sys

import pytest

from conftest import ROOT

sys.path.insert(0, str(ROOT / "tests"))
import run_regrtest  # noqa: E402


def write(tmp_path, text):
    path = tmp_path / "skips.txt"
    path.write_text(text, encoding="utf-8")
    return str(path)


def test_layout_lines_apply_only_to_another_layout(tmp_path):
    path = write(tmp_path, "# comment\n\n"
                           "test_always  # a reason\n"
                           "layout: test.test_dis.DisTests.test_x  # asserts 3.11.2's offsets\n"
                           "layout:test_importlib  # the magic number\n")
    assert run_regrtest.read_skips(path, layout_differs=False) == ["test_always"]
    assert run_regrtest.read_skips(path, layout_differs=True) == [
        "test_always", "test.test_dis.DisTests.test_x", "test_importlib"]


@pytest.mark.parametrize("line", ["test_x", "layout: test_x", "test_x #", "layout test_x  # why",
                                  "generic: test_x", "specialize: test_x  # why"])
def test_a_line_without_a_reason_is_an_error(tmp_path, line):
    path = write(tmp_path, line + "\n")
    with pytest.raises(SystemExit) as info:
        run_regrtest.read_skips(path, layout_differs=True)
    assert f"{path}:1: expected '[layout:|generic:|supers:] test_name  # reason'" in str(info.value)


def test_generic_lines_apply_only_to_the_generic_baseline(tmp_path):
    path = write(tmp_path, "test_always  # a reason\n"
                           "generic: test.test_dis.DisTests.test_binary_specialize  # asserts a member\n"
                           "layout: test_importlib  # the magic number\n")
    assert run_regrtest.read_skips(path, False) == ["test_always"]
    assert run_regrtest.read_skips(path, False, generic=True) == [
        "test_always", "test.test_dis.DisTests.test_binary_specialize"]
    assert run_regrtest.read_skips(path, True, generic=True) == [
        "test_always", "test.test_dis.DisTests.test_binary_specialize", "test_importlib"]


def test_supers_lines_apply_only_when_the_superinstructions_differ(tmp_path):
    path = write(tmp_path, "supers: test.test_dis.DisTests.test_super_instructions  # 3.11.2's supers\n"
                           "test_always  # a reason\n")
    assert run_regrtest.read_skips(path, True, generic=True) == ["test_always"]
    assert run_regrtest.read_skips(path, False, supers_differ=True) == [
        "test.test_dis.DisTests.test_super_instructions", "test_always"]


def test_the_project_skip_list_reads():
    names = run_regrtest.read_skips(str(ROOT / "tests" / "regrtest-skips.txt"), True)
    assert names and len(names) == len(set(names))
