"""Where an instruction lead does not turn into time: cachegrind's cache and branch simulation.

    /usr/bin/python3 -m benchmarks.cachesim --python debian=/usr/bin/python3.11 \
        --python release=build-release/python [--benchmark PATTERN ...] [--output FILE.json]

For each benchmark and interpreter, one steady-state call of `run(scale)` is measured the way
instruction mode measures it (benchmarks/measure.py): two runner processes under valgrind,
one that stops after the warm-ups and one that also makes the call, their difference kept, so
that start-up, imports and warm-ups cancel out. cachegrind runs with `--cache-sim=yes
--branch-sim=yes` and reports, per call:

    Ir     instructions executed           I1mr  first-level instruction cache misses
    D1m    first-level data cache misses (reads and writes)
    LLm    last-level misses (instructions and data)
    Bcm    mispredicted conditional branches (of Bc executed)
    Bim    mispredicted indirect branches (of Bi executed: the dispatch's computed gotos)

The first interpreter is the baseline; every other gets its ratio per event (baseline /
candidate: above 1 means fewer events). cachegrind simulates a generic machine (its default
cache sizes are the host's where it can read them; its branch predictor is a simple model),
so the figures explain a difference in wall time, they do not predict one. Takes about
twice as long as instruction mode.
"""

import argparse
import json
import os
import sys
import tempfile
from pathlib import Path

from . import catalog, stats
from .measure import RunFailure, parse_report, run_child, runner_command

EVENTS = ("Ir", "I1mr", "D1m", "LLm", "Bc", "Bcm", "Bi", "Bim")
SHOWN = ("Ir", "I1mr", "D1m", "LLm", "Bcm", "Bim")


def cachegrind_events(interpreter, benchmark, scale, runs, timeout, valgrind):
    """Every cachegrind event of one runner process, {name: count}."""
    with tempfile.TemporaryDirectory(prefix="bench-cachegrind-") as scratch:
        output = os.path.join(scratch, "cachegrind.out")
        command = [valgrind, "--tool=cachegrind", "--cache-sim=yes", "--branch-sim=yes",
                   "--cachegrind-out-file=" + output, "--log-file=" + os.path.join(scratch, "log"),
                   *runner_command(interpreter, benchmark, scale, 1, runs, timed=False)]
        parse_report(run_child(command, timeout))
        names = totals = None
        with open(output, encoding="utf-8", errors="replace") as stream:
            for line in stream:
                if line.startswith("events:"):
                    names = line.split()[1:]
                elif line.startswith("summary:"):
                    totals = [int(value) for value in line.split()[1:]]
        if names is None or totals is None or len(names) != len(totals):
            raise RunFailure("tool", "no event summary in cachegrind's output")
    raw = dict(zip(names, totals))
    return {
        "Ir": raw["Ir"], "I1mr": raw["I1mr"], "D1m": raw["D1mr"] + raw["D1mw"],
        "LLm": raw["ILmr"] + raw["DLmr"] + raw["DLmw"],
        "Bc": raw["Bc"], "Bcm": raw["Bcm"], "Bi": raw["Bi"], "Bim": raw["Bim"],
    }


def per_call(interpreter, benchmark, scale, timeout, valgrind):
    without = cachegrind_events(interpreter, benchmark, scale, 0, timeout, valgrind)
    with_call = cachegrind_events(interpreter, benchmark, scale, 1, timeout, valgrind)
    return {name: with_call[name] - without[name] for name in EVENTS}


def ratio(base, candidate):
    return stats.speedup(base, candidate) if candidate > 0 and base > 0 else float("nan")


def geometric_mean(values):
    """stats.geometric_mean of the ratios there are (nan: an event neither side had)."""
    values = [value for value in values if value == value]
    return stats.geometric_mean(values) if values else float("nan")


def count(value):
    return "%.2f M" % (value / 1e6) if abs(value) >= 1e6 else "%d" % value


def table(results, names):
    """Markdown: per benchmark, the baseline's counts, then each candidate's ratios."""
    base = names[0]
    header = ["benchmark"] + ["%s %s" % (base, event) for event in SHOWN]
    for name in names[1:]:
        header += ["%s %s" % (name, event) for event in SHOWN]
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" + "---:|" * (len(header) - 1)]
    ratios = {(name, event): [] for name in names[1:] for event in SHOWN}
    for benchmark in sorted(results):
        row = [benchmark] + [count(results[benchmark][base][event]) for event in SHOWN]
        for name in names[1:]:
            for event in SHOWN:
                value = ratio(results[benchmark][base][event], results[benchmark][name][event])
                ratios[name, event].append(value)
                row.append("%.3f" % value)
        lines.append("| " + " | ".join(row) + " |")
    mean = ["**geometric mean of ratios**"] + [""] * len(SHOWN)
    for name in names[1:]:
        mean += ["**%.3f**" % geometric_mean(ratios[name, event]) for event in SHOWN]
    lines.append("| " + " | ".join(mean) + " |")
    return "\n".join(lines)


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python3 -m benchmarks.cachesim", description=__doc__.split("\n")[0])
    parser.add_argument("--python", action="append", required=True, metavar="NAME=PATH",
                        help="an interpreter; the first is the baseline (at least two)")
    parser.add_argument("--suite", type=Path, default=catalog.SUITE_DIRECTORY,
                        help="folder of benchmark files (default: the project's suite)")
    parser.add_argument("--benchmark", action="append", default=[], metavar="PATTERN",
                        help="benchmarks to run (default: the whole suite)")
    parser.add_argument("--scale", type=int, default=None,
                        help="workload size (default: each benchmark's INSTRUCTIONS_SCALE)")
    parser.add_argument("--timeout", type=float, default=1800)
    parser.add_argument("--valgrind", default="valgrind")
    parser.add_argument("--output", default=None, help="also write the raw counts as JSON here")
    args = parser.parse_args(argv)
    interpreters = []
    for item in args.python:
        name, sep, path = item.partition("=")
        if not sep or not name or not path:
            parser.error("--python takes NAME=PATH, not %r" % item)
        interpreters.append((name, os.path.abspath(path)))  # the children run in /
    if len(interpreters) < 2:
        parser.error("give at least two interpreters: a baseline and a candidate")
    try:
        benchmarks = catalog.select(catalog.discover(args.suite), args.benchmark)
    except catalog.CatalogError as error:
        parser.error(str(error))
    results = {}
    for benchmark in benchmarks:
        scale = args.scale or benchmark.instructions_scale
        results[benchmark.name] = {}
        for name, path in interpreters:
            print("cachesim: %s on %s (scale %d)" % (benchmark.name, name, scale), file=sys.stderr)
            try:
                results[benchmark.name][name] = per_call(path, benchmark.path, scale,
                                                         args.timeout, args.valgrind)
            except RunFailure as failure:
                print("cachesim: %s on %s failed: %s" % (benchmark.name, name, failure),
                      file=sys.stderr)
                return 1
    if args.output:
        with open(args.output, "w", encoding="utf-8") as stream:
            json.dump({"interpreters": dict(interpreters), "events_per_call": results}, stream,
                      indent=1, sort_keys=True)
    print(table(results, [name for name, _ in interpreters]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
