"""Command line of the differential fuzzer (docs/fuzzing.md).

    python3 -m tests.fuzz --python stock=/usr/bin/python3.11 --python new=build/python \\
        [--seed S] [--count N] [--jobs J] [--batch-size K] [--out DIR] [--timeout T] [--keep-going]
    python3 -m tests.fuzz --python ... --replay FILE_OR_DIR [--replay ...]
    python3 -m tests.fuzz --show SEED

Exit status: 0 no mismatch; 1 some mismatch (each reported, minimized and saved under --out);
2 unusable command line or interpreter; 130 interrupted. The last line of output is a summary:
"fuzz: N programs on M interpreters, K mismatches (T s)".
"""

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

from benchmarks.interpreters import Interpreter, InterpreterError, check_unique, describe
from tests.fuzz import campaign, program
from tests.fuzz.minimize import DEFAULT_BUDGET

EXIT_OK, EXIT_MISMATCH, EXIT_USAGE, EXIT_INTERRUPTED = 0, 1, 2, 130


def positive(text):
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError("must be at least 1, got %d" % value)
    return value


def parser():
    result = argparse.ArgumentParser(
        prog="python3 -m tests.fuzz",
        description="Differential fuzzer: generate programs aimed at CPython 3.11's specializing "
                    "interpreter, run each on every --python, compare outputs, exceptions and final "
                    "state; minimize and save each mismatch. Program k of a run has seed SEED + k.")
    result.add_argument("--python", dest="pythons", action="append", default=[], metavar="NAME=PATH",
                        help="an interpreter (repeat; at least two; the first is the reference in reports)")
    result.add_argument("--seed", type=int, default=0, help="seed of the first program (default: 0)")
    result.add_argument("--count", type=positive, default=1000, help="programs to run (default: 1000)")
    result.add_argument("--jobs", type=positive, default=os.cpu_count() or 1,
                        help="batches run at the same time (default: the number of cores)")
    result.add_argument("--batch-size", type=positive, default=100,
                        help="programs per interpreter process (default: 100)")
    result.add_argument("--out", type=Path, default=Path("fuzz-results"), metavar="DIR",
                        help="folder for mismatches, minimized and whole (default: fuzz-results)")
    result.add_argument("--timeout", type=float, default=10.0,
                        help="seconds one program may run on one interpreter (default: 10)")
    result.add_argument("--keep-going", action="store_true",
                        help="run every program even after a mismatch "
                             "(default: stop after the first batch with one)")
    result.add_argument("--minimize-budget", type=int, default=DEFAULT_BUDGET, metavar="RUNS",
                        help="test runs the minimizer may make per mismatch; 0 saves mismatches "
                             "unminimized (default: %d)" % DEFAULT_BUDGET)
    result.add_argument("--replay", action="append", default=[], type=Path, metavar="FILE_OR_DIR",
                        help="run these saved programs (a folder: its *.py files) instead of generated ones")
    result.add_argument("--show", type=int, metavar="SEED", help="print the program of SEED and exit")
    return result


def main(argv=None):
    arguments = parser().parse_args(argv)
    if arguments.show is not None:
        sys.stdout.write(program.generate(arguments.show).source)
        return EXIT_OK
    try:
        interpreters = load_interpreters(arguments.pythons)
        replays = load_replays(arguments.replay)
    except (InterpreterError, OSError, ValueError) as error:
        print("fuzz: error: %s" % error, file=sys.stderr)
        return EXIT_USAGE
    settings = campaign.Settings(interpreters, arguments.timeout, arguments.jobs, arguments.out,
                                 arguments.keep_going, arguments.minimize_budget)
    if arguments.replay:
        make, items = (lambda replay: replay), replays
    else:
        make, items = program.generate, range(arguments.seed, arguments.seed + arguments.count)
    started = time.monotonic()
    try:
        with tempfile.TemporaryDirectory(prefix="quicken-fuzz-") as scratch:
            run, mismatches = campaign.fuzz(settings, batched(make, items, arguments.batch_size),
                                            len(items), scratch)
            mismatches.sort(key=lambda mismatch: order(mismatch.program))
            for mismatch in mismatches:
                print(mismatch.report(), flush=True)
                finding = campaign.investigate(settings, mismatch, scratch)
                print("  %s; saved %s" % (finding.verdict, ", ".join(map(str, finding.saved))), flush=True)
    except KeyboardInterrupt:
        print("fuzz: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    print("fuzz: %d programs on %d interpreters, %d mismatches (%.1f s)"
          % (run, len(interpreters), len(mismatches), time.monotonic() - started))
    return EXIT_MISMATCH if mismatches else EXIT_OK


def load_interpreters(specifications):
    if len(specifications) < 2:
        raise InterpreterError("give at least two interpreters to compare (--python NAME=PATH, "
                               "the same path twice under two names is allowed)")
    interpreters = [Interpreter.parse(specification) for specification in specifications]
    check_unique(interpreters)
    versions = set()
    for interpreter in interpreters:
        version = describe(interpreter)["version"].split()[0]
        versions.add(version)
        print("fuzz: %s = %s (Python %s)" % (interpreter.name, interpreter.resolved, version), flush=True)
    if len(versions) > 1:
        print("fuzz: warning: the interpreters are different releases (%s); their error messages "
              "and behaviour may differ for reasons that are not bugs" % ", ".join(sorted(versions)),
              file=sys.stderr, flush=True)
    return interpreters


def load_replays(paths):
    """Programs from files and folders (their *.py files, sorted), named by path."""
    programs = []
    for path in paths:
        files = sorted(path.glob("*.py")) if path.is_dir() else [path]
        if not files:
            # a replay of nothing checks nothing: a moved or emptied folder must not pass
            raise ValueError("--replay %s: no *.py programs there" % path)
        programs += [program.Program(str(file), file.read_text(encoding="utf-8")) for file in files]
    return programs


def batched(make, items, size):
    """Callables that make the programs of each batch (make(item) for `size` items), so that
    workers generate programs while children run rather than all of them up front."""
    return [lambda chunk=items[start:start + size]: [make(item) for item in chunk]
            for start in range(0, len(items), size)]


def order(item):
    """Generated programs by seed, then replayed ones by name."""
    name = item.name
    return (0, int(name.split()[1]), "") if name.startswith("seed ") else (1, 0, name)
