#!/usr/bin/env python3
"""`python3 -m workbench cases` on a real build: the dispatch table and the loop are found in
the executable, every opcode of 3.11.2 has a case whose path reaches a dispatch, and a
program that runs one instruction a known number of times shows that count.

usage: check_cases.py PYTHON SCRATCH_DIR
"""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from workbench import cases  # noqa: E402

# BUILD_SLICE runs 5,000 times in one frame, YIELD_VALUE 3,000 times in a generator's frame,
# which runs in a call of the loop inside the loop (callgrind names it _PyEval_EvalFrameDefault'2).
PROGRAM = """\
def f(a):
    for i in range(5000):
        a[1:2:1]
def g():
    for i in range(3000):
        yield i
f([1, 2, 3])
for x in g():
    pass
"""


def main():
    python, scratch = sys.argv[1], Path(sys.argv[2])
    scratch.mkdir(parents=True, exist_ok=True)
    failures = []

    def check(condition, message):
        if not condition:
            failures.append(message)

    found = cases.read_cases(python)
    stock_names = subprocess.run(["/usr/bin/python3.11", "-I", "-c",
                                  "import opcode; print(' '.join(opcode.opmap))"],
                                 capture_output=True, text=True, check=True).stdout.split()
    for name in stock_names:
        check(name in found, f"no case for 3.11.2's {name}")
    for name in ("NOP", "LOAD_FAST", "LOAD_CONST", "POP_TOP", "BUILD_SLICE", "STORE_FAST"):
        case = found.get(name)
        if case is None:
            continue
        check(case.path.end == "dispatch", f"{name}'s path ends in {case.path.end}")
        check(0 < len(case.path.insns) < 60, f"{name}'s path has {len(case.path.insns)} instructions")
        check(case.executions is None, f"{name} has executions without a workload")
    check(len({found[n].address for n in ("NOP", "LOAD_FAST", "STORE_FAST")}) == 3,
          "NOP, LOAD_FAST and STORE_FAST share a label")
    check(found["BUILD_SLICE"].path.calls >= 1, "BUILD_SLICE's path calls nothing (PySlice_New)")

    program = scratch / "slices.py"
    program.write_text(PROGRAM, encoding="utf-8")
    ran = cases.read_cases(python, [["-S", "-B", str(program)]])
    slices = ran["BUILD_SLICE"].executions
    check(slices is not None and 5000 <= slices < 5100,
          f"BUILD_SLICE ran {slices} times, the program runs it 5000 times")
    check(ran["BUILD_SLICE"].path.end == "dispatch", "BUILD_SLICE's hot path reaches no dispatch")
    yields = ran["YIELD_VALUE"].executions
    check(yields is not None and 3000 <= yields < 3100,
          f"YIELD_VALUE ran {yields} times, the program runs it 3000 times")
    check(ran["SETUP_ANNOTATIONS"].executions == 0,
          f"SETUP_ANNOTATIONS, which the program never runs, ran {ran['SETUP_ANNOTATIONS'].executions} times")
    text = cases.render([("built", ran), ("static", found)])
    check("| BUILD_SLICE |" in text, "the table has no BUILD_SLICE row")

    for failure in failures:
        print("FAIL:", failure)
    print(f"{len(found)} cases read; BUILD_SLICE ran {slices} times, YIELD_VALUE {yields} times "
          f"under callgrind")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
