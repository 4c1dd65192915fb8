"""The command line end to end: a clean run, and every kind of mismatch found, confirmed,
minimized and saved."""

import re

from tests.fuzz import program
from conftest import run_fuzzer

SUMMARY = re.compile(r"^fuzz: (\d+) programs on (\d+) interpreters, (\d+) mismatches \(\d+\.\d s\)$")


def summary(completed):
    match = SUMMARY.match(completed.stdout.splitlines()[-1])
    assert match, completed.stdout + completed.stderr
    return tuple(int(group) for group in match.groups())


def marked_program(tmp_path, marker, seed=11):
    """A generated program with `marker = 1` put deep inside its second chunk's loop."""
    source = program.generate(seed).source
    position = source.index("        s = show(r)", source.index("def run_c1"))
    path = tmp_path / ("marked-%s.py" % marker.lower())
    path.write_text(source[:position] + "        %s = 1\n" % marker + source[position:], encoding="utf-8")
    return path


def test_generated_batches_on_two_interpreters(python311):
    completed = run_fuzzer("--python", "a=" + python311, "--python", "b=" + python311,
                           "--seed", 1000, "--count", 30, "--batch-size", 7, "--jobs", 2)
    assert completed.returncode == 0, completed.stdout + completed.stderr
    assert summary(completed) == (30, 2, 0)
    assert completed.stdout.startswith("fuzz: a = %s (Python 3.11." % python311)


def test_output_mismatch_is_minimized_saved_and_replayable(python311, fake_python, tmp_path):
    out = tmp_path / "out"
    pythons = ("--python", "real=" + python311, "--python", "fake=" + fake_python)
    completed = run_fuzzer(*pythons, "--replay", marked_program(tmp_path, "FUZZ_DIFFER"), "--out", out)
    assert completed.returncode == 1
    assert summary(completed) == (1, 2, 1)
    assert "+only the fake interpreter prints this" in completed.stdout
    assert "minimized; saved %s" % (out / "replay-marked-fuzz_differ.py") in completed.stdout
    saved = (out / "replay-marked-fuzz_differ.py").read_text()
    code = [line for line in saved.splitlines() if line and not line.startswith("#")]
    assert code == ["def run_c1():", "    FUZZ_DIFFER = 1"]
    assert "# replay: /usr/bin/python3 -m tests.fuzz --python real=%s --python fake=%s --replay THIS_FILE" \
        % (python311, fake_python) in saved
    assert (out / "replay-marked-fuzz_differ.full.py").read_text().count("\n") > 200
    again = run_fuzzer(*pythons, "--replay", out / "replay-marked-fuzz_differ.py",
                       "--out", tmp_path / "again")
    assert again.returncode == 1 and summary(again) == (1, 2, 1)


def test_crash_is_reported_with_its_signal_and_minimized(python311, fake_python, tmp_path):
    out = tmp_path / "out"
    completed = run_fuzzer("--python", "real=" + python311, "--python", "fake=" + fake_python,
                           "--replay", marked_program(tmp_path, "FUZZ_CRASH"), "--out", out)
    assert completed.returncode == 1
    assert "mismatch (crash) in" in completed.stdout
    assert "  fake: crash: killed by SIGSEGV" in completed.stdout
    saved = (out / "replay-marked-fuzz_crash.py").read_text()
    assert len([line for line in saved.splitlines() if line and not line.startswith("#")]) == 2


def test_nondeterministic_program_is_not_minimized(python311, fake_python, tmp_path):
    out = tmp_path / "out"
    completed = run_fuzzer("--python", "real=" + python311, "--python", "fake=" + fake_python,
                           "--replay", marked_program(tmp_path, "FUZZ_RANDOM"), "--out", out)
    assert completed.returncode == 1
    saved = out / "replay-marked-fuzz_random.full.py"
    assert "  nondeterministic program; saved %s" % saved in completed.stdout
    assert not (out / "replay-marked-fuzz_random.py").exists()


def test_mismatch_that_needs_its_batch_is_saved_as_a_batch_to_replay(python311, fake_python, tmp_path):
    folder = tmp_path / "batch"
    folder.mkdir()
    (folder / "a.py").write_text("FUZZ_ARM = 1\n")
    (folder / "b.py").write_text("print(1)\n")
    (folder / "c.py").write_text("FUZZ_ARMED_CRASH = 1\n")
    (folder / "d.py").write_text("print(3)\n")
    pythons = ("--python", "real=" + python311, "--python", "fake=" + fake_python)
    completed = run_fuzzer(*pythons, "--replay", folder, "--out", tmp_path / "out")
    assert completed.returncode == 1 and summary(completed) == (4, 2, 1)
    assert "alone it completes; in the same process before it: %s, %s" % (folder / "a.py", folder / "b.py") \
        in completed.stdout
    saved = tmp_path / "out" / "replay-c.batch"
    assert "  only in its batch; saved %s" % saved in completed.stdout
    assert sorted(path.name for path in saved.iterdir()) == ["0000-replay-a.py", "0001-replay-b.py",
                                                             "0002-replay-c.py"]
    again = run_fuzzer(*pythons, "--replay", saved, "--out", tmp_path / "again")
    assert again.returncode == 1 and "  fake: crash: killed by SIGSEGV" in again.stdout


def test_mismatch_that_does_not_come_back_is_transient(python311, fake_python, tmp_path):
    path = tmp_path / "once.py"
    path.write_text("FUZZ_ONCE = 1\n")
    completed = run_fuzzer("--python", "real=" + python311, "--python", "fake=" + fake_python,
                           "--replay", path, "--out", tmp_path / "out")
    assert completed.returncode == 1 and summary(completed) == (1, 2, 1)
    assert "  not reproduced; saved %s" % (tmp_path / "out" / "replay-once.full.py") in completed.stdout


def test_empty_replay_folder_is_an_error(python311, tmp_path):
    # replaying nothing checks nothing: the fuzz-regressions test once passed on an empty folder
    (tmp_path / "README.md").write_text("no programs here\n", encoding="utf-8")
    completed = run_fuzzer("--python", "a=" + python311, "--python", "b=" + python311, "--replay", tmp_path)
    assert completed.returncode == 2, completed.stdout + completed.stderr
    assert "fuzz: error: --replay %s: no *.py programs there" % tmp_path in completed.stderr


def test_unusable_command_lines(python311, tmp_path):
    one = run_fuzzer("--python", "a=" + python311)
    assert one.returncode == 2 and "at least two interpreters" in one.stderr
    missing = run_fuzzer("--python", "a=" + python311, "--python", "b=" + str(tmp_path / "nothing"))
    assert missing.returncode == 2 and "does not exist" in missing.stderr
    twice = run_fuzzer("--python", "a=" + python311, "--python", "a=" + python311)
    assert twice.returncode == 2 and "used twice" in twice.stderr
