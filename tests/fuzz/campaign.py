"""A fuzzing run: batches on every interpreter in parallel, then each mismatch confirmed,
minimized and saved.

Work is split into batches of programs; `jobs` worker threads each take a batch, generate its
programs, run it on every interpreter in turn (one child process at a time per worker, so
`jobs` is the number of busy cores) and compare. Without keep_going the run stops at the first
batch with a mismatch.

Before a mismatch is minimized it is run again on its own, twice on every interpreter: if an
interpreter disagrees with itself the program is nondeterministic (a fuzzer bug, not an
interpreter's). If it does not come back alone, its batch is run again up to it: a mismatch
that needs the programs before it is saved as a folder to replay, one that does not come back
at all was transient. None of these is minimized; the verdict goes into the saved header.
"""

import re
import sys
import time
from concurrent.futures import FIRST_COMPLETED, ThreadPoolExecutor, wait
from dataclasses import dataclass
from pathlib import Path

from tests.fuzz import execute
from tests.fuzz.compare import compare
from tests.fuzz.minimize import Minimizer
from tests.fuzz.program import Program

PROGRESS_SECONDS = 15


@dataclass(frozen=True)
class Settings:
    interpreters: list      # benchmarks.interpreters.Interpreter, the first is the reference
    timeout: float          # seconds one program may take on one interpreter
    jobs: int
    out: Path               # where mismatches are saved
    keep_going: bool
    minimize_budget: int    # test runs the minimizer may make; 0: save mismatches unminimized


@dataclass(frozen=True)
class Finding:
    """What became of a mismatch."""
    verdict: str            # "minimized", "saved", "nondeterministic program",
                            # "only in its batch", "not reproduced"
    saved: list             # paths written


def run_on_all(settings, programs, scratch):
    """For each program, {interpreter name: Outcome}."""
    results = {interpreter.name: execute.run_batch(interpreter.resolved, programs, settings.timeout, scratch)
               for interpreter in settings.interpreters}
    return [{name: outcomes[index] for name, outcomes in results.items()} for index in range(len(programs))]


def check_batch(settings, make_programs, scratch):
    """Run one batch everywhere: (number of programs, mismatches)."""
    programs = make_programs()
    results = run_on_all(settings, programs, scratch)
    mismatches = [compare(program, outcomes, programs[:index])
                  for index, (program, outcomes) in enumerate(zip(programs, results))]
    return len(programs), [mismatch for mismatch in mismatches if mismatch is not None]


def fuzz(settings, batches, total, scratch, log=sys.stderr):
    """Run batches (callables returning lists of Program): (programs run, mismatches)."""
    started = last_report = time.monotonic()
    run, mismatches = 0, []
    with ThreadPoolExecutor(settings.jobs) as pool:
        pending = {pool.submit(check_batch, settings, batch, scratch) for batch in batches}
        while pending:
            done, pending = wait(pending, timeout=PROGRESS_SECONDS, return_when=FIRST_COMPLETED)
            for future in done:
                count, found = future.result()
                run += count
                mismatches += found
            if mismatches and not settings.keep_going:
                for future in pending:
                    future.cancel()
            now = time.monotonic()
            if now - last_report >= PROGRESS_SECONDS and pending:
                last_report = now
                print("fuzz: %d/%d programs, %d mismatches, %.0f programs/s"
                      % (run, total, len(mismatches), run / (now - started)), file=log, flush=True)
            pending = {future for future in pending if not future.cancelled()}
    return run, mismatches


def investigate(settings, mismatch, scratch):
    """Confirm a mismatch on its own, minimize it and save it: a Finding."""
    program = mismatch.program
    runs = [run_on_all(settings, [program], scratch)[0] for _ in range(2)]
    if any(runs[0][name].result != runs[1][name].result for name in runs[0]):
        return Finding("nondeterministic program", save(
            settings, program, mismatch, "nondeterministic program: an interpreter gave two "
            "different results when it ran it twice (a fuzzer bug)"))
    alone = compare(program, runs[0])
    if alone is None or alone.signature() != mismatch.signature():
        return investigate_in_batch(settings, mismatch, scratch)
    if settings.minimize_budget == 0:
        return Finding("saved", save(settings, program, alone, "a mismatch, not minimized"))

    def still_fails(source):
        candidate = compare(program, run_on_all(settings, [Program(program.name, source)], scratch)[0])
        return candidate is not None and candidate.signature() == alone.signature()

    minimizer = Minimizer(still_fails, settings.minimize_budget)
    small = Program(program.name, minimizer.minimize(program.source))
    final = compare(small, run_on_all(settings, [small], scratch)[0])
    note = "a minimized mismatch (%d test runs, %d lines from %d)" % (
        minimizer.tests, small.source.count("\n"), program.source.count("\n"))
    paths = [write(settings.out, slug(program) + ".py", small.source,
                   header(settings, small, final, note))]
    paths += save(settings, program, alone, "the full program of %s" % paths[0].name)
    return Finding("minimized", paths)


def investigate_in_batch(settings, mismatch, scratch):
    """A mismatch not reproduced alone: run its batch again up to it. If it comes back, save
    that batch as a folder to replay (its files run in name order in one process); if not, it
    was transient (the machine stalled past the timeout, say) and is saved whole."""
    program = mismatch.program
    batch = [*mismatch.before, program]
    again = compare(program, run_on_all(settings, batch, scratch)[-1])
    if again is None or again.signature() != mismatch.signature():
        return Finding("not reproduced", save(
            settings, program, mismatch, "not reproduced, alone or in its batch: transient "
            "(a stall of the machine past --timeout?) or nondeterministic across processes"))
    folder = settings.out / (slug(program) + ".batch")
    for position, earlier in enumerate(mismatch.before):
        write(folder, "%04d-%s.py" % (position, slug(earlier)), earlier.source, "")
    note = ("a mismatch that needs the programs run before it in the same process: replay this "
            "folder with --batch-size %d" % len(batch))
    write(folder, "%04d-%s.py" % (len(mismatch.before), slug(program)), program.source,
          header(settings, program, again, note))
    return Finding("only in its batch", [folder])


def save(settings, program, mismatch, note):
    return [write(settings.out, slug(program) + ".full.py", program.source,
                  header(settings, program, mismatch, note))]


def write(folder, name, source, head):
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text(head + source, encoding="utf-8")
    return path


def slug(program):
    """A file name for a program: 'seed 12' -> 'seed-12', 'dir/x.py' -> 'replay-x'."""
    stem = Path(program.name).stem if program.name.endswith(".py") else program.name
    prefix = "replay-" if program.name.endswith(".py") else ""
    return prefix + re.sub(r"[^A-Za-z0-9_.-]+", "-", stem)


def header(settings, program, mismatch, note):
    """Comment lines saying where the program comes from, what differed and how to rerun it."""
    pythons = " ".join("--python %s=%s" % (i.name, i.path) for i in settings.interpreters)
    lines = ["quicken differential fuzzer: %s" % note,
             "program: %s" % program.name,
             "replay: /usr/bin/python3 -m tests.fuzz %s --replay THIS_FILE" % pythons]
    if program.name.startswith("seed "):
        lines.append("the generated program: /usr/bin/python3 -m tests.fuzz --show %s"
                     % program.name.split()[1])
    lines += [""] + (mismatch.report().splitlines() if mismatch else ["(no mismatch left)"])
    return "".join("# %s\n" % line if line else "#\n" for line in lines) + "\n"
