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


# The re-run verdict: regrtest 3.11 drops a test that passes when re-run (-w) from its failed
# list and exits 0; run_regrtest.py must not let a crash or a timeout pass that way.
def regrtest_output(first_result, rerun, final, failed_again=()):
    lines = ["0:00:01 load avg: 0.10 [ 1/3] test_fine passed\n",
             f"0:00:02 load avg: 0.10 [ 2/3/1] test_flip {first_result}\n",
             "0:00:03 load avg: 0.10 [ 3/3/1] test_other passed\n",
             "\n", "== Tests result: FAILURE ==\n", "\n",
             "Re-running failed tests in verbose mode\n",
             "Re-running test_flip in verbose mode\n"]
    if failed_again:
        lines += [f"{len(failed_again)} test failed again:\n", "    " + " ".join(failed_again) + "\n"]
    lines += ["\n", f"== Tests result: {final} ==\n", "\n", "2 tests OK.\n"]
    if rerun:
        lines += ["\n", f"{len(rerun)} re-run test{'s' if len(rerun) > 1 else ''}:\n",
                  "    " + " ".join(rerun) + "\n"]
    lines += ["\n", "Total duration: 3.0 sec\n"]
    return lines


@pytest.mark.parametrize("first", ["crashed (Exit code -11)", "timed out (15 min 0 sec)"])
def test_a_crash_or_timeout_that_passes_when_rerun_fails_the_run(first):
    verdict = run_regrtest.judge_reruns(regrtest_output(first, ["test_flip"], "FAILURE then SUCCESS"))
    assert verdict.fatal is True
    assert verdict.lines == [f"run_regrtest: FAILED: test_flip {first} in its first run; regrtest "
                             "re-ran it, but a crash or a timeout is never a flake"]


def test_a_failure_that_passes_when_rerun_is_reported_flaky():
    verdict = run_regrtest.judge_reruns(regrtest_output("failed (1 failure)", ["test_flip"],
                                                        "FAILURE then SUCCESS"))
    assert verdict.fatal is False
    assert verdict.lines == ["run_regrtest: flaky: test_flip failed (1 failure) in its first run, "
                             "passed when re-run"]


def test_a_failure_that_repeats_is_neither_flaky_nor_hidden():
    verdict = run_regrtest.judge_reruns(regrtest_output("failed (1 failure)", ["test_flip"],
                                                        "FAILURE then FAILURE", ["test_flip"]))
    assert verdict.fatal is False and verdict.lines == []


def test_a_rerun_whose_list_cannot_be_read_is_fatal():
    verdict = run_regrtest.judge_reruns(regrtest_output("failed", [], "FAILURE then SUCCESS"))
    assert verdict.fatal is True and "list of re-run tests was not found" in verdict.lines[0]


# End to end, with Debian's python3.11 (CPython 3.11.2, regrtest included): a test module that
# kills its worker the first time and passes the second. regrtest alone says "FAILURE then
# SUCCESS" and exits 0; run_regrtest.py exits 1 and says why.
CRASH_ONCE = '''\
import os, unittest
MARK = os.path.join(os.path.dirname(os.path.abspath(__file__)), "crashed-once")

class T(unittest.TestCase):
    def test_it(self):
        if not os.path.exists(MARK):
            open(MARK, "w").close()
            os._exit(7)
'''


def test_end_to_end_a_worker_crash_that_does_not_repeat_fails(tmp_path):
    import subprocess
    testdir = tmp_path / "tests"
    testdir.mkdir()
    (testdir / "test_crash_once.py").write_text(CRASH_ONCE, encoding="utf-8")
    python = tmp_path / "python"  # run_regrtest.py keeps its scratch folder beside the interpreter
    python.symlink_to("/usr/bin/python3.11")
    result = subprocess.run([sys.executable, str(ROOT / "tests" / "run_regrtest.py"),
                             "--python", str(python), "--jobs", "2", "--timeout", "120",
                             "--testdir", str(testdir), "--", "test_crash_once"],
                            capture_output=True, text=True, timeout=300)
    assert "test_crash_once crashed" in result.stdout, result.stdout
    assert "== Tests result: FAILURE then SUCCESS ==" in result.stdout, result.stdout
    assert ("run_regrtest: FAILED: test_crash_once crashed (Exit code 7) in its first run"
            in result.stdout), result.stdout
    assert result.returncode == 1
