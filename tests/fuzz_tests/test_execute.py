"""Running batches: what a result holds, isolation between programs, and failures pinned on the
program that caused them."""

import pytest

from tests.fuzz import execute
from tests.fuzz.program import Program


def programs(*sources):
    return [Program("p%d" % index, source) for index, source in enumerate(sources)]


@pytest.fixture
def scratch(tmp_path):
    return str(tmp_path)


def test_result_holds_output_ending_and_final_globals(python311, scratch):
    [outcome] = execute.run_batch(python311, programs(
        "class C:\n    pass\nc = C()\nc.a = [1, 'x']\nn = 2**5000\nprint('hello')\n"), 30, scratch)
    assert outcome.status == "ok"
    assert outcome.text.splitlines() == [
        "hello", "", "ending: ok", "C = class C()", "c = C{'a': list[1, 'x']}",
        "n = int(5001 bits, 0x1%s)" % ("0" * 1250)]


def test_uncaught_exception_ends_only_its_program(python311, scratch):
    outcomes = execute.run_batch(python311, programs("print(1)\n1 / 0\nprint(2)", "print(3)"), 30, scratch)
    assert [o.status for o in outcomes] == ["ok", "ok"]
    assert "1\n\nending: ZeroDivisionError: division by zero\n" == outcomes[0].text
    assert outcomes[1].text.startswith("3\n")


def test_programs_cannot_change_what_the_next_one_sees(python311, scratch):
    outcomes = execute.run_batch(python311, programs(
        "import builtins, sys\nbuiltins.len = lambda x: 42\ndel builtins.abs\nbuiltins.extra = 1\n"
        "sys.setrecursionlimit(50)\nsys.stdout = None\nvalue = 1\n",
        "import sys\nprint(len([1, 2]), abs(-1), 'extra' in dir(__builtins__), sys.getrecursionlimit())\n"
        "print('value' in globals())\n"), 30, scratch)
    assert outcomes[1].text.startswith("2 1 False 1000\nFalse\n")


@pytest.mark.parametrize("marker, status, text", [
    ("FUZZ_CRASH", "crash", "killed by SIGSEGV"),
    ("FUZZ_EXIT", "exit", "exit status 3"),
    ("FUZZ_HANG", "timeout", "no result after 2 s"),
])
def test_failure_is_pinned_on_its_program_and_the_rest_still_runs(fake_python, scratch, marker, status, text):
    sources = ["print(%d)" % n for n in range(5)]
    sources[2] += "\n%s = 1" % marker
    outcomes = execute.run_batch(fake_python, programs(*sources), 2, scratch)
    assert [o.status for o in outcomes] == ["ok", "ok", status, "ok", "ok"]
    assert outcomes[2].text == text
    assert "alone it completes" not in outcomes[2].detail
    assert [o.text[0] for o in outcomes if not o.failed] == ["0", "1", "3", "4"]


def test_crash_at_exit_is_pinned_on_the_last_program(fake_python, scratch):
    outcomes = execute.run_batch(fake_python, programs("print(0)", "print(1)\nFUZZ_EXIT_CRASH = 1"),
                                 30, scratch)
    assert [o.status for o in outcomes] == ["ok", "crash"]
    assert outcomes[1].text == "killed by SIGSEGV after the last program (at exit)"


def test_failure_that_needs_an_earlier_program_names_it(fake_python, scratch):
    outcomes = execute.run_batch(fake_python, programs(
        "print(0)", "FUZZ_ARM = 1", "print(2)", "FUZZ_ARMED_CRASH = 1", "print(4)"), 30, scratch)
    assert [o.status for o in outcomes] == ["ok", "ok", "ok", "crash", "ok"]
    assert outcomes[3].detail.endswith("alone it completes; in the same process before it: p0, p1, p2")


def test_stray_output_from_the_interpreter_is_a_failure(python311, scratch):
    [outcome] = execute.run_batch(python311, programs("import os\nos.write(1, b'stray\\n')"), 30, scratch)
    assert outcome.status == "exit"
    assert outcome.text == "not a result line on stdout: b'stray'"


def test_imported_modules_are_described_by_name_and_made_ones_by_contents(python311, scratch):
    [outcome] = execute.run_batch(python311, programs(
        "import sys\nmade = type(sys)('made')\nmade.x = 1\n"), 30, scratch)
    assert outcome.text.splitlines()[-2:] == [
        "sys = module sys",
        "made = module{'__name__': 'made', '__doc__': None, '__package__': None, '__loader__': None, "
        "'__spec__': None, 'x': 1}"]
