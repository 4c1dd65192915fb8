"""Running benchmarks in child interpreters: one wall-clock sample, or one instruction count.

Every child runs `runner.py` (see its docstring for the protocol) with the same flags, the
same small environment and the same working directory, so that the only thing that differs
between two interpreters is the interpreter.

Instruction counts come from callgrind and are made of two runs of the runner in the same
process layout: one that stops after the warm-ups (RUNS=0) and one that also makes the
measured call (RUNS=1), both "untimed" so that no clock value reaches the output.  Their
difference is the cost of one steady-state call of `run(scale)`: interpreter start-up,
imports, warm-ups, the self-check and the JSON report appear in both runs and cancel out.
This needs no symbols in the binary (stripped, LTO and PGO builds all work) and no
cooperation from the interpreter.  Both runs see the same argv up to one digit (RUNS is "0"
or "1"), the same environment and working directory, and hash randomisation is off, so the
counts repeat exactly; see docs/benchmarks.md for the measured noise floor.
"""

import json
import os
import signal
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

RUNNER = Path(__file__).resolve().parent / "runner.py"
# -S: no site module, so nothing from site-packages or .pth files runs in the children.
# -B: never write bytecode caches, so no run changes the file system seen by the next one.
INTERPRETER_FLAGS = ("-S", "-B")
# A directory nobody writes to: the children's working directory.
CHILD_DIRECTORY = "/"
# Variables passed through from the harness's environment when set (a build tree
# configured with --enable-shared needs LD_LIBRARY_PATH to find libpython).
PASSED_THROUGH = ("LD_LIBRARY_PATH",)
CALLGRIND_OPTIONS = ("--tool=callgrind", "--dump-instr=no", "--dump-line=no")


class RunFailure(Exception):
    """A benchmark run did not produce a valid result.

    kind is one of: "crash" (no report, e.g. a signal or a non-zero exit), "check-failed"
    (the benchmark's self-check rejected its result), "error" (run() or check() raised),
    "timeout", or "tool" (valgrind misbehaved or produced no count).
    """

    def __init__(self, kind, message):
        super().__init__("%s: %s" % (kind, message))
        self.kind = kind
        self.message = message


def child_environment():
    environment = {
        "PATH": "/usr/local/bin:/usr/bin:/bin",
        "PYTHONHASHSEED": "0",
        "LC_ALL": "C.UTF-8",
        "LANG": "C.UTF-8",
    }
    for name in PASSED_THROUGH:
        if name in os.environ:
            environment[name] = os.environ[name]
    return environment


def runner_command(interpreter_path, benchmark_path, scale, warmups, runs, timed=True, how=None):
    how = how or ("timed" if timed else "untimed")
    return [str(interpreter_path), *INTERPRETER_FLAGS, str(RUNNER), str(benchmark_path),
            str(scale), str(warmups), str(runs), how]


def run_child(command, timeout):
    try:
        completed = subprocess.run(command, env=child_environment(), cwd=CHILD_DIRECTORY,
                                   capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        raise RunFailure("timeout", "no result after %g s: %s" % (timeout, " ".join(command))) from None
    except OSError as error:
        raise RunFailure("crash", "could not start %s: %s" % (command[0], error)) from None
    return completed


def describe_exit(returncode):
    if returncode < 0:
        try:
            return "killed by %s" % signal.Signals(-returncode).name
        except ValueError:
            return "killed by signal %d" % -returncode
    return "exit status %d" % returncode


def parse_report(completed):
    """The runner's JSON report, or RunFailure describing why there is none."""
    report = None
    lines = completed.stdout.strip().splitlines()
    if lines:
        try:
            report = json.loads(lines[-1])
        except ValueError:
            report = None
    if not isinstance(report, dict) or report.get("protocol") != 1:
        stderr = "\n".join(completed.stderr.strip().splitlines()[-20:])
        raise RunFailure("crash", "%s without a result%s" % (
            describe_exit(completed.returncode), ":\n" + stderr if stderr else ""))
    if report["status"] == "check-failed":
        raise RunFailure("check-failed", report["message"].strip())
    if report["status"] != "ok":
        raise RunFailure("error", report["message"].strip())
    if completed.returncode != 0:
        raise RunFailure("crash", "%s after reporting success" % describe_exit(completed.returncode))
    return report


def time_workload(interpreter_path, benchmark_path, scale, warmups, timeout):
    """Nanoseconds taken by one timed call of run(scale), after `warmups` untimed calls."""
    command = runner_command(interpreter_path, benchmark_path, scale, warmups, 1)
    report = parse_report(run_child(command, timeout))
    return report["times_ns"][0]


@dataclass(frozen=True)
class InstructionCount:
    workload: int          # instructions of one call of run(scale)
    with_workload: int     # whole process, RUNS=1
    without_workload: int  # whole process, RUNS=0


def callgrind_total(interpreter_path, benchmark_path, scale, warmups, runs, timeout, valgrind):
    """Instructions executed by a whole runner process under callgrind."""
    with tempfile.TemporaryDirectory(prefix="bench-callgrind-") as scratch:
        output = os.path.join(scratch, "callgrind.out")
        log = os.path.join(scratch, "valgrind.log")
        command = [valgrind, *CALLGRIND_OPTIONS, "--callgrind-out-file=" + output, "--log-file=" + log,
                   *runner_command(interpreter_path, benchmark_path, scale, warmups, runs, timed=False)]
        parse_report(run_child(command, timeout))
        try:
            with open(output, encoding="utf-8", errors="replace") as stream:
                for line in stream:
                    if line.startswith("totals:") or line.startswith("summary:"):
                        return int(line.split()[1])
        except OSError as error:
            raise RunFailure("tool", "callgrind wrote no profile: %s" % error) from None
        with open(log, encoding="utf-8", errors="replace") as stream:
            raise RunFailure("tool", "no totals in the callgrind profile; valgrind said:\n"
                             + stream.read()[-2000:])


def count_instructions(interpreter_path, benchmark_path, scale, warmups, timeout, valgrind="valgrind"):
    without = callgrind_total(interpreter_path, benchmark_path, scale, warmups, 0, timeout, valgrind)
    with_workload = callgrind_total(interpreter_path, benchmark_path, scale, warmups, 1, timeout, valgrind)
    if with_workload <= without:
        raise RunFailure("tool", "the workload cost no instructions (%d with it, %d without)"
                         % (with_workload, without))
    return InstructionCount(with_workload - without, with_workload, without)
