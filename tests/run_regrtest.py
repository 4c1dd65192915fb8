#!/usr/bin/env python3
"""Run upstream's regression suite (`python -m test`) on a quicken build.

usage: run_regrtest.py --python PYTHON [--jobs N] [--timeout S] [--skips FILE] [-- TEST...]

With TESTs, runs just those; otherwise the whole suite minus what FILE lists. Each line of FILE is
`test_name  # reason` (leave a whole test file out) or `test.test_x.Class.method  # reason`
(a glob pattern of test cases, given to regrtest's --ignore); a line without a reason is an
error, because a skip nobody can explain is a bug hidden. Failed tests are re-run once in verbose mode (regrtest's -w), which
absorbs timing flakes on a loaded 2-core machine; a test that fails twice fails the run.

The suite runs in a scratch folder under the build directory (regrtest writes its temporary
files into the current directory) with a clean environment: no PYTHON* variables leak in.
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

SKIP_LINE = re.compile(r"^(test_\w+|test\.[\w.*?\[\]]+)\s*#\s*(\S.*)$")


def read_skips(path: str) -> list[str]:
    """The names and patterns of FILE, in order."""
    names = []
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            m = SKIP_LINE.match(line)
            if not m:
                raise SystemExit(f"{path}:{number}: expected 'test_name  # reason', got {line!r}")
            names.append(m.group(1))
    return names


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--python", required=True, help="the interpreter under test")
    parser.add_argument("--jobs", type=int, default=0, help="workers; 0 = cores + 1")
    parser.add_argument("--timeout", type=int, default=900, help="per-test timeout, seconds")
    parser.add_argument("--skips", help="file of tests to leave out, one per line with a reason")
    parser.add_argument("tests", nargs="*", help="run only these tests")
    args = parser.parse_args()

    jobs = args.jobs or (os.cpu_count() or 1) + 1
    command = [os.path.abspath(args.python), "-m", "test", f"-j{jobs}", f"--timeout={args.timeout}",
               "-w", "--slowest"]
    if args.tests:
        command += args.tests
    elif args.skips:
        skips = read_skips(args.skips)
        files = [name for name in skips if "." not in name]
        cases = [name for name in skips if "." in name]
        print(f"run_regrtest: leaving out {len(files)} test files and {len(cases)} test-case "
              f"patterns listed in {args.skips}", flush=True)
        command += [f"--ignore={pattern}" for pattern in cases]
        if files:
            command += ["-x"] + files

    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    env["LC_ALL"] = env.get("LC_ALL", "C.UTF-8")
    scratch_root = os.path.join(os.path.dirname(os.path.abspath(args.python)), "regrtest-tmp")
    os.makedirs(scratch_root, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=scratch_root) as scratch:
        print("run_regrtest:", " ".join(command), flush=True)
        return subprocess.call(command, cwd=scratch, env=env, stdin=subprocess.DEVNULL)


if __name__ == "__main__":
    sys.exit(main())
