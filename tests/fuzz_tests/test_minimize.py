"""The minimizer on its own: statements, compound statements and constants, with predicates run
in this process (the end-to-end runs with interpreters are in test_cli.py)."""

import contextlib
import io

from tests.fuzz import program
from tests.fuzz.minimize import Minimizer


def prints(word):
    """A predicate: the candidate, executed here, prints `word`."""
    def predicate(source):
        output = io.StringIO()
        with contextlib.redirect_stdout(output):
            try:
                exec(compile(source, "<candidate>", "exec"), {"__name__": "candidate"})
            except Exception as error:
                print(type(error).__name__)
        return word in output.getvalue()
    return predicate


def test_a_generated_program_shrinks_to_the_statement_that_matters():
    source = program.generate(3).source
    marked = source.replace("\ndef run_c1():\n", "\nMARKER = 1\n\ndef run_c1():\n")
    minimizer = Minimizer(lambda candidate: "MARKER" in candidate)
    assert minimizer.minimize(marked) == "MARKER = 1\n"
    assert minimizer.tests < 100


def test_compound_statements_unwrap_and_constants_shrink():
    source = ("total = 0\n"
              "for i in range(1000):\n"
              "    try:\n"
              "        if i == 700:\n"
              "            print('found', i)\n"
              "    except ValueError:\n"
              "        pass\n"
              "    total += i\n")
    result = Minimizer(prints("found")).minimize(source)
    assert result == "for i in range(1):\n    print('found', i)\n"


def test_candidates_that_do_not_compile_are_never_run():
    def predicate(source):
        compile(source, "<candidate>", "exec")   # raises if given `break` outside the loop
        return "break" in source

    result = Minimizer(predicate).minimize("for i in range(3):\n    x = i\n    break\n")
    assert result == "for i in range(1):\n    break\n"


def test_budget_bounds_the_test_runs():
    minimizer = Minimizer(lambda candidate: True, budget=5)
    minimizer.minimize(program.generate(4).source)
    assert minimizer.tests == 5
