"""Running batches of programs in child interpreters, and pinning failures on one program.

A child (child.py) runs a whole batch and writes one result line per program. If it dies (a
signal, a non-zero exit) or stops making progress for `timeout` seconds, the program that was
running is the first without a result line. That program is run once more on its own: if it
fails alone, the failure is its own; if not, it is recorded against it anyway, with a note naming
the programs that ran before it in the same process (a failure that needs their leftovers). The
rest of the batch then goes on in a new child. A failure after the last result (at interpreter
exit) is handled the same way, with the last program as the suspect.
"""

import hashlib
import json
import os
import re
import selectors
import subprocess
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from benchmarks.measure import describe_exit

CHILD = Path(__file__).resolve().parent / "child.py"
# -s: no user site; -S: no site module (nothing from site-packages or .pth files); -B: no bytecode
# caches written; -P: no script folder on sys.path (tests/fuzz holds program.py, driver.py, ...).
# Not -I or -E: they would ignore PYTHONHASHSEED. The environment is made whole instead.
CHILD_FLAGS = ("-s", "-S", "-B", "-P")
# Passed through from the harness's environment when set: a build configured with
# --enable-shared needs LD_LIBRARY_PATH to find libpython; a -Dchaos=true build takes its seed
# and rate from QUICKEN_CHAOS_* (a run is reproduced with the same values), a -Dstats=true build
# its statistics folder from QUICKEN_STATS_DIR. None of them changes what a program computes.
PASSED_THROUGH = ("LD_LIBRARY_PATH", "QUICKEN_CHAOS_SEED", "QUICKEN_CHAOS_RATE", "QUICKEN_STATS_DIR")
STDERR_TAIL = 20
MAX_STDERR = 100_000


def child_environment():
    """The child's whole environment. PYTHONHASHSEED=0 turns hash randomization off, so that
    str and bytes hashes, and so the order of sets and of dicts built by hash, are the same in
    every run and on every 3.11 with the same hash algorithm (siphash13). No other PYTHON*
    variable of the harness reaches the child."""
    environment = {"PATH": "/usr/local/bin:/usr/bin:/bin", "PYTHONHASHSEED": "0",
                   "LC_ALL": "C.UTF-8", "LANG": "C.UTF-8"}
    environment.update((name, os.environ[name]) for name in PASSED_THROUGH if name in os.environ)
    return environment


# Where the recursion limit is hit, CPython 3.11.2 appends to "maximum recursion depth exceeded"
# the name of the C check that hit it (Python/ceval.c's _Py_CheckRecursiveCall, `where`):
# nothing for a Python frame (ceval.c), " while calling a Python object" (Objects/call.c,
# methodobject.c, descrobject.c, ceval.c), " in comparison" (PyObject_RichCompare), " while
# getting the repr of an object" / "... the str of an object" (PyObject_Repr, PyObject_Str),
# " in __instancecheck__" / " in __subclasscheck__" / " in __issubclass__" (Objects/abstract.c).
# A specialized instruction skips some of those calls (COMPARE_OP_INT_JUMP compares without
# PyObject_RichCompare), so which check fires first depends on what was specialized when the
# limit was hit: upstream 3.11.2 differs from itself between a quickened and a fresh code object,
# and a build that specializes less (-Dspecialize=false) from upstream. Exactly these suffixes
# are dropped, and only right after the phrase; any other text is compared as is.
RECURSION_SUFFIXES = (
    " while calling a Python object",
    " in comparison",
    " while getting the repr of an object",
    " while getting the str of an object",
    " in __instancecheck__",
    " in __subclasscheck__",
    " in __issubclass__",
)
RECURSION_SUFFIX = re.compile("(maximum recursion depth exceeded)(?:%s)"
                              % "|".join(re.escape(suffix) for suffix in RECURSION_SUFFIXES))


def comparable(text):
    """The text of a finished program as it is compared (see RECURSION_SUFFIXES)."""
    return RECURSION_SUFFIX.sub(r"\1", text)


@dataclass(frozen=True)
class Outcome:
    """How one program ended on one interpreter.

    status is "ok" (text is the child's result), or "crash", "exit" or "timeout" (the process
    died by a signal, exited without a result, or hung in this program; text says how), or
    "uncompared" (the program finished but its final state could not be described in full,
    child.py; text says why). Two outcomes are the same when status and text are; detail
    (stderr, context, the tail of an uncompared result) is only reported.
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
        stderr_text = stderr.read().decode("utf-8", "backslashreplace")
        stderr_tail = "\n".join(stderr_text.splitlines()[-STDERR_TAIL:])
    os.unlink(batch_path)
    if problem is not None:
        return finished, Outcome(*problem, stderr_tail)
    if process.returncode == 0 and len(finished) == len(programs):
        if stderr_text and finished:    # written outside every program: at start-up or at exit
            last = finished[-1]
            written = capped(stderr_text, MAX_STDERR)
            if not written.endswith("\n"):
                written += "\n(no newline at the end)\n"
            finished[-1] = Outcome(last.status, last.text + "stderr outside the programs (start-up "
                                   "or exit):\n" + written, last.detail)
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
                    result = json.loads(line)
                    text = comparable(result["output"])
                    uncompared = result.get("uncompared")
                except (ValueError, TypeError, KeyError, AttributeError):
                    return outcomes, ("exit", "not a result line on stdout: %r" % line[:200])
                if uncompared is None:
                    outcomes.append(Outcome("ok", text))
                else:
                    outcomes.append(Outcome("uncompared", "final state not described in full: "
                                            + str(uncompared), text[-2000:]))
                deadline = time.monotonic() + timeout
    return outcomes, None


def capped(text, limit):
    """text, or its first `limit` characters with its length and the digest of the whole (so
    that two texts that differ anywhere still differ; the same as child.py's cap)."""
    if len(text) <= limit:
        return text
    digest = hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()
    return text[:limit] + "\n...cut at %d of %d characters; sha256 of the whole: %s\n" % (
        limit, len(text), digest)
