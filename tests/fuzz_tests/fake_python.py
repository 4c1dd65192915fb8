"""A stand-in interpreter for the fuzzer's tests: /usr/bin/python3.11, except that a program
whose text contains one of the marker words below (as a whole word) misbehaves as that marker
says. conftest.fake_python makes it an executable script, which the fuzzer runs like any
interpreter: `fake-python -s -S -B -P child.py BATCH.json`."""

import json
import os
import re
import sys

REAL = "/usr/bin/python3.11"
# marker -> code put in front of the program (it leaves no globals behind: they are compared)
SEGV = "__import__('os').kill(__import__('os').getpid(), __import__('signal').SIGSEGV)"
MISBEHAVIOUR = {
    "FUZZ_DIFFER": "print('only the fake interpreter prints this')\n",
    "FUZZ_CRASH": SEGV + "\n",
    "FUZZ_HANG": "while True:\n    pass\n",
    "FUZZ_EXIT": "__import__('os')._exit(3)\n",
    "FUZZ_EXIT_CRASH": "__import__('atexit').register(lambda: %s)\n" % SEGV,
    "FUZZ_RANDOM": "print(__import__('random').random())\n",
    # Only what reaches stderr after the last program, the child exiting with status 0.
    "FUZZ_STDERR_AT_EXIT": "__import__('atexit').register(__import__('os').write, 2, "
                           "b'only the fake interpreter writes this at exit\\n')\n",
    # A crash that needs an earlier program of the same process: sys is not restored between them.
    "FUZZ_ARM": "__import__('sys').fuzz_armed = True\n",
    "FUZZ_ARMED_CRASH": "if getattr(__import__('sys'), 'fuzz_armed', False):\n    %s\n" % SEGV,
    # A crash the first time only (a flag file in the working folder, the run's scratch folder).
    "FUZZ_ONCE": "if not __import__('os').path.exists('fuzz-once'):\n"
                 "    open('fuzz-once', 'w').close()\n    %s\n" % SEGV,
}


def main(arguments):
    if arguments and arguments[-1].endswith(".json"):
        with open(arguments[-1], encoding="utf-8") as stream:
            programs = json.load(stream)
        for program in programs:
            for marker, prefix in MISBEHAVIOUR.items():
                if re.search(r"\b%s\b" % marker, program["source"]):
                    program["source"] = prefix + program["source"]
        arguments[-1] += ".fake.json"
        with open(arguments[-1], "w", encoding="utf-8") as stream:
            json.dump(programs, stream)
    os.execv(REAL, [REAL, *arguments])


if __name__ == "__main__":
    main(sys.argv[1:])
