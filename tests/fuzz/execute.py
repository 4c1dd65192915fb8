"""Running batches of programs in child interpreters, and pinning failures on one program.

A child (child.py) runs a whole batch and writes one result line per program. If it dies (a
signal, a non-zero exit) or stops making progress for `timeout` seconds, the program that was
running is the first without a result line. That program is run once more on its own: if it
fails alone, the failure is its own; if not, it is recorded against it anyway, with a note naming
the programs that ran before it in the same process (a failure that needs their leftovers). The
rest of the batch then goes on in a new child. A failure after the last result (at interpreter
exit) is handled the same way, with the last program as the suspect.
"""

import json
import os
import re
import selectors
import subprocess
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from benchmarks.measure import child_environment, describe_exit

CHILD = Path(__file__).resolve().parent / "child.py"
# -I: no PYTHON* variables, no user site, no script folder on sys.path; -S: no site module
# (nothing from site-packages or .pth files); -B: no bytecode caches written.
CHILD_FLAGS = ("-I", "-S", "-B")
STDERR_TAIL = 20

# Where the recursion limit is hit, CPython names the C call that hit it: "maximum recursion
# depth exceeded in comparison" (PyObject_RichCompare), "... while calling a Python object"
# (_PyObject_Call) and others. A specialized instruction skips those calls (COMPARE_OP_INT_JUMP
# compares without PyObject_RichCompare), so the suffix depends on which instructions were
# specialized when the limit was hit; upstream 3.11.2 differs from itself the same way between a
# quickened and a fresh code object. The suffix is dropped; the error itself is still compared.
RECURSION_SUFFIX = re.compile(r"(maximum recursion depth exceeded)[A-Za-z_ ]*")


def comparable(text):
    """The text of a finished program as it is compared (see RECURSION_SUFFIX)."""
    return RECURSION_SUFFIX.sub(r"\1", text)


@dataclass(frozen=True)
class Outcome:
    """How one program ended on one interpreter.

    status is "ok" (text is the child's result), or "crash", "exit" or "timeout" (the process
    died by a signal, exited without a result, or hung in this program; text says how). Two
    outcomes are the same when status and text are; detail (stderr, context) is only reported.
    """
    status: str
    text: str
    detail: str = ""

    @property
    def failed(self):
        return self.status != "ok"

    @property
    def result(self):
        """What is compared: how the program ended and its text, not the diagnostics."""
        return self.status, self.text


def run_batch(interpreter_path, programs, timeout, scratch):
    """One Outcome per program, in order, from as few child processes as failures allow."""
    outcomes = []
    pending = list(programs)
    while pending:
        finished, failure = run_child(interpreter_path, pending, timeout, scratch)
        if failure is None:
            return outcomes + finished
        suspect = len(finished) if len(finished) < len(pending) else len(finished) - 1
        before = pending[:suspect]
        if before:
            _, alone_failure = run_child(interpreter_path, [pending[suspect]], timeout, scratch)
            if alone_failure is not None:
                failure = alone_failure
            else:
                failure = Outcome(failure.status, failure.text, failure.detail
                                  + "\nalone it completes; in the same process before it: "
                                  + ", ".join(program.name for program in before))
        outcomes += finished[:suspect] + [failure]
        pending = pending[suspect + 1:]
    return outcomes


def run_child(interpreter_path, programs, timeout, scratch):
    """Run programs in one child: (outcomes of those that finished, failure Outcome or None)."""
    handle, batch_path = tempfile.mkstemp(suffix=".json", dir=scratch)
    with os.fdopen(handle, "w", encoding="utf-8") as stream:
        json.dump([{"name": program.name, "source": program.source} for program in programs], stream)
    with tempfile.TemporaryFile(dir=scratch) as stderr:
        process = subprocess.Popen([str(interpreter_path), *CHILD_FLAGS, str(CHILD), batch_path],
                                   stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=stderr,
                                   env=child_environment(), cwd=scratch)
        try:
            finished, problem = read_results(process, len(programs), timeout)
            if problem is None:
                try:
                    process.wait(timeout)
                except subprocess.TimeoutExpired:
                    problem = ("timeout", "no exit %g s after the last result" % timeout)
        finally:
            if process.poll() is None:
                process.kill()
            process.stdout.close()
            process.wait()
        stderr.seek(0)
        stderr_tail = "\n".join(stderr.read().decode("utf-8", "replace").splitlines()[-STDERR_TAIL:])
    os.unlink(batch_path)
    if problem is not None:
        return finished, Outcome(*problem, stderr_tail)
    if process.returncode == 0 and len(finished) == len(programs):
        return finished, None
    status = "crash" if process.returncode < 0 else "exit"
    where = "" if len(finished) < len(programs) else " after the last program (at exit)"
    return finished, Outcome(status, describe_exit(process.returncode) + where, stderr_tail)


def read_results(process, expected, timeout):
    """Result lines as they come, each within `timeout` seconds.

    Returns the outcomes read and None, or (status, text) of why reading stopped early: the
    child hung, or wrote something that is not a result line (the interpreter, not the
    program, wrote to stdout).
    """
    outcomes = []
    buffer = b""
    descriptor = process.stdout.fileno()
    with selectors.DefaultSelector() as selector:
        selector.register(descriptor, selectors.EVENT_READ)
        deadline = time.monotonic() + timeout
        while len(outcomes) < expected:
            remaining = deadline - time.monotonic()
            if remaining <= 0 or not selector.select(remaining):
                return outcomes, ("timeout", "no result after %g s" % timeout)
            chunk = os.read(descriptor, 1 << 16)
            if not chunk:
                return outcomes, None
            buffer += chunk
            *lines, buffer = buffer.split(b"\n")
            for line in lines:
                try:
                    outcomes.append(Outcome("ok", comparable(json.loads(line)["output"])))
                except (ValueError, TypeError, KeyError):
                    return outcomes, ("exit", "not a result line on stdout: %r" % line[:200])
                deadline = time.monotonic() + timeout
    return outcomes, None
