#!/usr/bin/env python3
"""Run upstream's regression suite (`python -m test`) on a quicken build.

usage: run_regrtest.py --python PYTHON [--jobs N] [--timeout S] [--skips FILE]
                       [--huntrleaks WARMUPS:RUNS] [-- TEST...]

Runs the TESTs, or else the whole suite, minus what FILE lists. Each line of FILE is
`test_name  # reason` (leave a whole test file out) or `test.test_x.Class.method  # reason`
(a glob pattern of test cases, given to regrtest's --ignore); a line without a reason is an
error, because a skip nobody can explain is a bug hidden. A line that starts with `layout:`
applies only to an interpreter whose code layout is not CPython 3.11.2's (its
sys.implementation.cache_tag is not upstream's `cpython-311`, generator/layout.py): tests that
assert 3.11.2's exact bytecode (offsets, cache entries, the magic number). A line that starts
with `generic:` applies only with --generic-baseline (a -Dspecialize=false build): tests that
assert that an instruction specializes. A line that starts with `supers:` applies only to an
interpreter whose quickening installs other superinstructions than 3.11.2's five (its
opcode._specializations names others, or --no-superinstructions: a -Dsuperinstructions=false
build): tests that assert 3.11.2's superinstructions in quickened bytecode.

The suite runs as upstream's `make test` (Tools/scripts/run_tests.py) and buildbots run it:
`-u all,-largefile,-audio,-gui` (resource-gated tests run; without it they are skipped unlisted)
and `--fail-env-changed` (a test that leaks a thread, a file, a child process or an unraisable
exception fails). Failed tests are re-run once in verbose mode (regrtest's -w, as upstream's),
and regrtest then drops a test that passes again from its failed list. This script does not:
it reads regrtest's output, and a test that crashed or timed out in its first run fails the run
even if its re-run passed (a crash or a hang is never a timing flake), while a test that failed
and then passed is reported on a `run_regrtest: flaky:` line, which scripts/summarize-tests
carries into the summary. A test that fails twice fails the run, as before.
--huntrleaks is regrtest's -R (a Py_DEBUG build): each test runs WARMUPS + RUNS times and fails
when the total reference count or the allocated memory blocks grow in every one of the RUNS, or
the open file descriptors change in any of them.

The suite runs in a scratch folder under the build directory (regrtest writes its temporary
files into the current directory) with a clean environment: no PYTHON* variables leak in.
"""
import argparse
import os
import re
import signal
import subprocess
import sys
import tempfile

SKIP_LINE = re.compile(r"^(?:(layout|generic|supers):\s*)?(test_\w+|test\.[\w.*?\[\]]+)\s*#\s*(\S.*)$")
UPSTREAM_CACHE_TAG = "cpython-311"  # CPython 3.11.2's sys.implementation.cache_tag
# CPython 3.11.2's superinstructions (its Lib/opcode.py _specializations).
UPSTREAM_SUPERS = {"LOAD_CONST__LOAD_FAST", "LOAD_FAST__LOAD_CONST", "LOAD_FAST__LOAD_FAST",
                   "STORE_FAST__LOAD_FAST", "STORE_FAST__STORE_FAST"}
# Upstream's `make test` resources (Tools/scripts/run_tests.py).
RESOURCES = "all,-largefile,-audio,-gui"
# Prints the cache tag, then the superinstructions the interpreter's opcode module names.
FACTS = ("import sys, opcode; print(sys.implementation.cache_tag); "
         "print(' '.join(sorted({n for f in opcode._specializations.values() for n in f if '__' in n})))")


def read_skips(path: str, layout_differs: bool, generic: bool = False,
               supers_differ: bool = False) -> list[str]:
    """The names and patterns of FILE that apply, in order."""
    names = []
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            m = SKIP_LINE.match(line)
            if not m:
                raise SystemExit(f"{path}:{number}: expected '[layout:|generic:|supers:] test_name  # reason', "
                                 f"got {line!r}")
            if m.group(1) == "layout" and not layout_differs:
                continue
            if m.group(1) == "generic" and not generic:
                continue
            if m.group(1) == "supers" and not supers_differ:
                continue
            names.append(m.group(2))
    return names


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--python", required=True, help="the interpreter under test")
    parser.add_argument("--jobs", type=int, default=0, help="workers; 0 = cores + 1")
    parser.add_argument("--timeout", type=int, default=900, help="per-test timeout, seconds")
    parser.add_argument("--skips", help="file of tests to leave out, one per line with a reason")
    parser.add_argument("--generic-baseline", action="store_true",
                        help="the build does not specialize (-Dspecialize=false): apply `generic:` lines")
    parser.add_argument("--no-superinstructions", action="store_true",
                        help="quickening installs no superinstructions (-Dsuperinstructions=false): "
                             "apply `supers:` lines")
    parser.add_argument("--huntrleaks", metavar="WARMUPS:RUNS",
                        help="regrtest's -R: hunt reference leaks (needs a Py_DEBUG build)")
    parser.add_argument("--testdir", help="regrtest's --testdir: take the tests from DIR "
                                          "(this script's own tests)")
    parser.add_argument("tests", nargs="*", help="run only these tests")
    args = parser.parse_args()

    jobs = args.jobs or (os.cpu_count() or 1) + 1
    command = [os.path.abspath(args.python), "-m", "test", f"-j{jobs}", f"--timeout={args.timeout}",
               "-u", RESOURCES, "--fail-env-changed", "-w", "--slowest"]
    if args.huntrleaks:
        if not re.fullmatch(r"\d+:\d+", args.huntrleaks):
            parser.error(f"--huntrleaks: expected WARMUPS:RUNS, e.g. 3:3, got {args.huntrleaks!r}")
        command += ["-R", args.huntrleaks]
    if args.testdir:
        command += ["--testdir", os.path.abspath(args.testdir)]
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    env["LC_ALL"] = env.get("LC_ALL", "C.UTF-8")
    files: list[str] = []
    if args.skips:
        facts = subprocess.run([os.path.abspath(args.python), "-c", FACTS],
                               env=env, capture_output=True, text=True, check=True).stdout.split("\n")
        tag, supers = facts[0].strip(), set(facts[1].split())
        layout_differs = tag != UPSTREAM_CACHE_TAG
        supers_differ = args.no_superinstructions or supers != UPSTREAM_SUPERS
        skips = read_skips(args.skips, layout_differs, args.generic_baseline, supers_differ)
        files = [name for name in skips if "." not in name]
        cases = [name for name in skips if "." in name]
        which = "a code layout of its own" if layout_differs else "upstream 3.11.2's layout"
        which += ", other superinstructions than 3.11.2's" if supers_differ else ""
        print(f"run_regrtest: cache tag {tag} ({which}): leaving out {len(files)} test "
              f"files and {len(cases)} test-case patterns listed in {args.skips}", flush=True)
        command += [f"--ignore={pattern}" for pattern in cases]
    if args.tests:
        command += [name for name in args.tests if name not in files]
    elif files:
        command += ["-x"] + files

    scratch_root = os.path.join(os.path.dirname(os.path.abspath(args.python)), "regrtest-tmp")
    os.makedirs(scratch_root, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=scratch_root) as scratch:
        print("run_regrtest:", " ".join(command), flush=True)
        child = subprocess.Popen(command, cwd=scratch, env=env, stdin=subprocess.DEVNULL,
                                 stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                 preexec_fn=default_signals, text=True, errors="replace")
        output = []
        for line in child.stdout:
            sys.stdout.write(line)
            sys.stdout.flush()
            output.append(line)
        status = child.wait()
    verdict = judge_reruns(output)
    for line in verdict.lines:
        print(line, flush=True)
    if status == 0 and verdict.fatal:
        return 1
    return status


# A test's result line in regrtest's progress output: `... [ 12/434/1] test_x failed (...)`.
RESULT_LINE = re.compile(r"\]\s+(test_\w+|test\.[\w.]+)\s+(failed|crashed|timed out)\b(.*)$")
# The head of one of regrtest's closing lists (`2 re-run tests:`, `1 test failed again:`).
LIST_HEAD = re.compile(r"^\d+ (re-run tests?|tests? failed again):$")


class Verdict:
    """What the re-runs of one regrtest run mean: `lines` to print, `fatal` if any first run
    crashed or timed out."""

    def __init__(self):
        self.lines: list[str] = []
        self.fatal = False


def closing_lists(output: list[str]) -> dict[str, list[str]]:
    """regrtest's `N ...:` lists (printlist: names on indented lines after the head), by head
    without the count ("re-run tests", "test failed again", ...)."""
    lists: dict[str, list[str]] = {}
    current = None
    for raw in output:
        line = raw.rstrip("\n")
        head = LIST_HEAD.match(line.strip())
        if head:
            current = lists.setdefault(head.group(1).replace("tests", "test"), [])
        elif current is not None and line.startswith(" ") and line.strip():
            current += line.split()
        else:
            current = None
    return lists


def judge_reruns(output: list[str]) -> Verdict:
    """Read regrtest's output: the tests it re-ran (its `N re-run tests:` list) and how each
    ended the first time (its progress line). A crash or a timeout is fatal even when the re-run
    passed; a failure that passed when re-run is flaky."""
    verdict = Verdict()
    first: dict[str, str] = {}
    for line in output:
        m = RESULT_LINE.search(line.rstrip("\n"))
        if m and m.group(1) not in first:
            first[m.group(1)] = (m.group(2) + m.group(3)).strip()
    lists = closing_lists(output)
    rerun = lists.get("re-run test", [])
    failed_again = set(lists.get("test failed again", []))
    for name in rerun:
        how = first.get(name, "failed (its first result line was not found)")
        if how.startswith(("crashed", "timed out")):
            verdict.fatal = True
            verdict.lines.append(f"run_regrtest: FAILED: {name} {how} in its first run; regrtest "
                                 f"re-ran it, but a crash or a timeout is never a flake")
        elif name not in failed_again:
            verdict.lines.append(f"run_regrtest: flaky: {name} {how} in its first run, "
                                 f"passed when re-run")
    results = [line.strip() for line in output if line.startswith("== Tests result:")]
    if results and " then " in results[-1] and not rerun:
        verdict.fatal = True
        verdict.lines.append(f"run_regrtest: FAILED: regrtest says {results[-1]!r} but its list "
                             f"of re-run tests was not found in the output")
    return verdict


def default_signals():
    """In the child: SIGINT and SIGQUIT back to their default actions. A shell starts a
    background job (`cmd &`, nohup, CI runners) with SIGINT ignored, and an ignored signal stays
    ignored across exec: the interpreter then installs no KeyboardInterrupt handler, and
    test_signal, test_threading's interrupt_main, test_pdb, test_generators and the
    multiprocessing tests fail for that reason alone."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.signal(signal.SIGQUIT, signal.SIG_DFL)


if __name__ == "__main__":
    sys.exit(main())
