"""Run one benchmark inside the interpreter under test and print one JSON line.

This file is executed BY the interpreter being measured, as a script, never imported by the
harness.  It must therefore work on any Python 3.11 build using only the standard library.

    python -S -B runner.py BENCHMARK_FILE SCALE WARMUPS RUNS timed|untimed

It loads BENCHMARK_FILE (see "The benchmark contract" in docs/benchmarks.md), calls
`run(SCALE)` WARMUPS times untimed, runs the garbage collector, calls `run(SCALE)` RUNS
times, timing each call with time.perf_counter_ns when asked to ("timed"), then passes the
result of the last call (warm-up or measured) to `check(result, SCALE)`.  The last line of
standard output is one JSON object:

    {"protocol": 1, "status": "ok" | "check-failed" | "error", "benchmark": NAME,
     "scale": SCALE, "warmups": WARMUPS, "times_ns": [...], "message": TEXT,
     "python": {"version": sys.version, "executable": sys.executable, "cache_tag": ...}}

Exit status: 0 when the check passed, 3 when it failed, 4 when run() or check() raised
anything else, 2 on bad usage.  The process leaves through os._exit so that interpreter
finalization, which differs with what the workload left behind, is never counted.

Instruction counting relies on this layout: an "untimed" run with RUNS=0 executes exactly
the same steps as one with RUNS=1 except the measured call, so the difference of their
instruction counts is the cost of one steady-state call of run(SCALE).  "untimed" never
reads the clock: printing a measured time would make the report's length, and so its
instruction count, vary from run to run.  Keep both paths identical.  "counted" is "untimed"
that leaves through a normal interpreter exit: the specialization statistics of a Py_STATS
build are written while finalizing (workbench/specstats.py).
"""

import sys

# The harness's own modules live next to this file; make sure none of them can shadow a
# standard module imported below or by a benchmark.
del sys.path[0]

import gc
import os
import time
import traceback

PROTOCOL = 1
EXIT_OK, EXIT_USAGE, EXIT_CHECK_FAILED, EXIT_ERROR = 0, 2, 3, 4


def load_benchmark(path):
    """Execute a benchmark file as a fresh module (no bytecode cache is read or written)."""
    name = os.path.splitext(os.path.basename(path))[0]
    module = type(sys)("benchmark_" + name)
    module.__file__ = path
    sys.modules[module.__name__] = module  # dataclasses and pickle look modules up here
    with open(path, encoding="utf-8") as source:
        code = compile(source.read(), path, "exec")
    exec(code, module.__dict__)
    return name, module


def report(fields, exit_status, finalize=False):
    import json  # imported late so that both instruction-counting runs import it alike

    sys.stdout.write(json.dumps(fields) + "\n")
    sys.stdout.flush()
    sys.stderr.flush()
    if finalize:  # "counted": a Py_STATS build writes its statistics while finalizing
        sys.exit(exit_status)
    os._exit(exit_status)


def main(argv):
    if len(argv) != 6 or argv[5] not in ("timed", "untimed", "counted"):
        sys.stderr.write("usage: runner.py BENCHMARK_FILE SCALE WARMUPS RUNS timed|untimed|counted\n")
        return EXIT_USAGE
    if sys.flags.optimize:
        sys.stderr.write("runner.py: benchmark checks use assert; do not run with -O\n")
        return EXIT_USAGE
    path, scale, warmups, runs = argv[1], int(argv[2]), int(argv[3]), int(argv[4])
    timed = argv[5] == "timed"
    finalize = argv[5] == "counted"
    fields = {
        "protocol": PROTOCOL,
        "status": "error",
        "benchmark": os.path.splitext(os.path.basename(path))[0],
        "scale": scale,
        "warmups": warmups,
        "times_ns": [],
        "message": "",
        "python": {
            "version": sys.version,
            "executable": sys.executable,
            "cache_tag": sys.implementation.cache_tag,
        },
    }
    try:
        name, module = load_benchmark(path)
        result = None
        for _ in range(warmups):
            result = module.run(scale)
        gc.collect()
        times = fields["times_ns"]
        clock = time.perf_counter_ns
        for _ in range(runs):
            if timed:
                started = clock()
                result = module.run(scale)
                times.append(clock() - started)
            else:
                result = module.run(scale)
        if warmups + runs:
            module.check(result, scale)
    except AssertionError as failure:
        fields["status"] = "check-failed"
        fields["message"] = "".join(traceback.format_exception(failure))
        report(fields, EXIT_CHECK_FAILED, finalize)
    except BaseException as failure:  # report anything, even SystemExit, as an error
        fields["message"] = "".join(traceback.format_exception(failure))
        report(fields, EXIT_ERROR, finalize)
    fields["status"] = "ok"
    report(fields, EXIT_OK, finalize)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
