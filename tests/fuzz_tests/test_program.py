"""Generated programs: reproducible from the seed, valid, and runnable to the end."""

import re
import subprocess
import tempfile

from tests.fuzz import execute, program, scenarios
from conftest import REPOSITORY, run_fuzzer

SEEDS = range(300)


def test_same_seed_same_program_and_seeds_differ():
    assert program.generate(42) == program.generate(42)
    assert len({program.generate(seed).source for seed in range(20)}) == 20


def test_show_prints_the_program_of_a_seed():
    completed = run_fuzzer("--show", 42)
    assert completed.returncode == 0, completed.stderr
    assert completed.stdout == program.generate(42).source


def test_programs_compile():
    for seed in SEEDS:
        compile(program.generate(seed).source, "seed %d" % seed, "exec")


def test_every_family_is_generated():
    titles = "".join(program.generate(seed).source for seed in SEEDS)
    families = {family.__name__ for family in scenarios.FAMILIES}
    found = {"binary_op": "binary op", "compare": "compare", "subscript": "subscript",
             "attributes": "attributes", "globals_and_builtins": "globals and builtin",
             "calls": "calls of the", "unpack": "unpack", "iteration": "iteration",
             "generators": "generator", "recursion": "recursion"}
    assert set(found) == families
    for family, words in found.items():
        assert re.search(r"^# c\d: %s" % words, titles, re.MULTILINE), family


def test_programs_run_to_their_end(python311):
    """No program ends on an uncaught exception: every site and event catches what it raises,
    so the whole program runs (an early end would hide the rest of it from the comparison)."""
    programs = [program.generate(seed) for seed in SEEDS]
    with tempfile.TemporaryDirectory() as scratch:
        outcomes = execute.run_batch(python311, programs, 30, scratch)
    endings = {p.name: o.text if o.failed else re.search(r"^ending: .*", o.text, re.MULTILINE).group()
               for p, o in zip(programs, outcomes)}
    assert {name: ending for name, ending in endings.items() if ending != "ending: ok"} == {}


# Runs programs in a fresh 3.11 and lists the specialized instructions left in their functions.
SPECIALIZED_AT_THE_END = """
import builtins, contextlib, dis, io, opcode, sys, types
sys.path.insert(0, sys.argv[1])
from tests.fuzz import program
pristine = dict(vars(builtins))
found = set()
for seed in range(int(sys.argv[2])):
    namespace = {"__name__": "__main__"}
    with contextlib.redirect_stdout(io.StringIO()):
        exec(compile(program.generate(seed).source, "seed", "exec"), namespace)
    builtins.__dict__.clear()
    builtins.__dict__.update(pristine)
    functions = [v for v in namespace.values() if isinstance(v, types.FunctionType)]
    functions += [f for c in namespace.values() if isinstance(c, type)
                  for f in vars(c).values() if isinstance(f, types.FunctionType)]
    for function in functions:
        found.update(i.opname for i in dis.get_instructions(function, adaptive=True))
print(" ".join(sorted(set(opcode._specialized_instructions) - found)))
"""


def test_programs_reach_every_specialized_instruction(python311):
    """Each of 3.11's specialized instructions is still in place in some function at the end of
    the first 300 programs (so it was specialized to, and its scenario is not dead)."""
    completed = subprocess.run([python311, *execute.CHILD_FLAGS, "-c", SPECIALIZED_AT_THE_END,
                                str(REPOSITORY), "300"],
                               env=execute.child_environment(), capture_output=True, text=True, timeout=120)
    assert completed.returncode == 0, completed.stderr
    assert completed.stdout.split() == []


def test_show_drops_only_the_recursion_suffixes_that_depend_on_specialization():
    # The chaos build's batch mismatch of seed 5550351 (issue 20): a loop recorded a result only
    # when show() changed, and two RecursionErrors in a row differed in their suffix alone where
    # a random deopt made another C check hit the limit; Debian's gave one entry, chaos two.
    namespace = {}
    exec(program.PRELUDE, namespace)
    show = namespace["show"]
    plain = show(RecursionError("maximum recursion depth exceeded"))
    assert plain == "!RecursionError: maximum recursion depth exceeded"
    for suffix in (" in comparison", " while calling a Python object", " in __instancecheck__"):
        assert show(RecursionError("maximum recursion depth exceeded" + suffix)) == plain
    for kept in (" while normalizing an exception", " in comparison!", "in comparison"):
        assert show(RecursionError("maximum recursion depth exceeded" + kept)) != plain
    assert show(ValueError("maximum recursion depth exceeded in comparison")).endswith("comparison")
