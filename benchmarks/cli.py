"""Command line: measure (the default), compare two results files, or list the benchmarks.

    python3 -m benchmarks --python stock=build-stock/python --python new=build/python [options]
    python3 -m benchmarks compare OLD.json NEW.json [--output DIR]
    python3 -m benchmarks report RESULTS.json [--output DIR]
    python3 -m benchmarks list

The specialization workbench (stats, stats-compare, advise, explain) is its own package:
python3 -m workbench (docs/workbench.md).

Exit status: 0 success; 1 some benchmark failed on some interpreter (everything else was
still measured and saved); 2 unusable command line, interpreter or benchmark folder;
130 interrupted (what was measured so far is saved).
"""

import argparse
import datetime
import os
import platform
import shutil
import subprocess
import sys
import time
from pathlib import Path

from benchmarks import catalog, charts, report
from benchmarks.interpreters import Interpreter, InterpreterError, cache_warning, check_unique, describe
from benchmarks.measure import CHILD_DIRECTORY, INTERPRETER_FLAGS, child_environment
from benchmarks.progress import Progress
from benchmarks.results import FORMAT, MODES, Results, ResultsError, comparable_names, comparison
from benchmarks.session import Settings, measure_all, total_steps

EXIT_OK, EXIT_FAILURES, EXIT_USAGE, EXIT_INTERRUPTED = 0, 1, 2, 130
RESULTS_FILE, REPORT_FILE = "results.json", "report.md"


class UsageError(Exception):
    pass


def positive(text):
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError("must be at least 1, got %d" % value)
    return value


def not_negative(text):
    value = int(text)
    if value < 0:
        raise argparse.ArgumentTypeError("must not be negative, got %d" % value)
    return value


def run_parser():
    parser = argparse.ArgumentParser(
        prog="python3 -m benchmarks",
        description="Measure the benchmark suite on several Python 3.11 interpreters. "
                    "The first --python is the baseline of every ratio. "
                    "Other commands: 'compare OLD.json NEW.json', 'report RESULTS.json', 'list'.")
    parser.add_argument("--python", dest="pythons", action="append", required=True, metavar="NAME=PATH",
                        help="an interpreter to measure (repeat; the first one is the baseline)")
    parser.add_argument("--bench", dest="patterns", action="append", default=[], metavar="PATTERN",
                        help="run only benchmarks whose name matches this shell pattern (repeatable)")
    parser.add_argument("--mode", choices=("wall", "instructions", "both"), default="wall",
                        help="wall-clock time, callgrind instruction counts, or both (default: wall)")
    parser.add_argument("--runs", type=positive, default=10,
                        help="timed runs per interpreter and benchmark in wall mode (default: 10)")
    parser.add_argument("--warmups", type=not_negative, default=1,
                        help="untimed calls of run() before the measured one, per process (default: 1)")
    parser.add_argument("--scale", type=positive, default=None,
                        help="workload size for every benchmark, instead of each benchmark's "
                             "WALL_SCALE / INSTRUCTIONS_SCALE")
    parser.add_argument("--output", type=Path, default=None,
                        help="folder for results.json, report.md and the charts "
                             "(default: bench-results/<date-time>)")
    parser.add_argument("--timeout", type=float, default=1800.0,
                        help="seconds allowed for one child process (default: 1800)")
    parser.add_argument("--suite", type=Path, default=catalog.SUITE_DIRECTORY,
                        help="folder of benchmark files (default: the project's suite)")
    parser.add_argument("--valgrind", default="valgrind", help="valgrind executable (default: valgrind)")
    return parser


def compare_parser():
    parser = argparse.ArgumentParser(
        prog="python3 -m benchmarks compare",
        description="Compare two results files: every interpreter name present in both, "
                    "OLD as the baseline.")
    parser.add_argument("old", type=Path, metavar="OLD.json")
    parser.add_argument("new", type=Path, metavar="NEW.json")
    parser.add_argument("--name", action="append", default=[],
                        help="compare only this interpreter name (repeatable)")
    parser.add_argument("--output", type=Path, default=None,
                        help="also write compare.md and charts into this folder")
    return parser


def report_parser():
    parser = argparse.ArgumentParser(
        prog="python3 -m benchmarks report",
        description="Rewrite report.md and the charts from a saved results file.")
    parser.add_argument("results", type=Path, metavar="RESULTS.json")
    parser.add_argument("--output", type=Path, default=None,
                        help="folder to write into (default: the results file's folder)")
    return parser


def list_parser():
    parser = argparse.ArgumentParser(prog="python3 -m benchmarks list",
                                     description="List the benchmarks with their default scales.")
    parser.add_argument("--suite", type=Path, default=catalog.SUITE_DIRECTORY)
    return parser


COMMANDS = ("run", "compare", "report", "list")
# The workbench's commands, once here (docs/workbench.md).
MOVED = ("stats", "stats-compare", "advise", "explain")


def main(argv=None):
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv and argv[0] in MOVED:
        sys.stderr.write("error: '%s' is the workbench's: python3 -m workbench %s\n"
                         % (argv[0], " ".join(argv)))
        return EXIT_USAGE
    command = argv[0] if argv and argv[0] in COMMANDS else "run"
    if argv and argv[0] == command:
        argv = argv[1:]
    try:
        if command == "compare":
            return compare_command(compare_parser().parse_args(argv))
        if command == "report":
            return report_command(report_parser().parse_args(argv))
        if command == "list":
            return list_command(list_parser().parse_args(argv))
        return run_command(run_parser().parse_args(argv))
    except (UsageError, InterpreterError, catalog.CatalogError, ResultsError) as error:
        sys.stderr.write("error: %s\n" % error)
        return EXIT_USAGE


# ---------------------------------------------------------------- measuring

def run_command(options):
    interpreters = [Interpreter.parse(specification) for specification in options.pythons]
    check_unique(interpreters)
    benchmarks = catalog.select(catalog.discover(options.suite), options.patterns)
    modes = MODES if options.mode == "both" else (options.mode,)
    valgrind = options.valgrind
    if "instructions" in modes:
        valgrind = shutil.which(options.valgrind)
        if valgrind is None:
            raise UsageError("instructions mode needs valgrind, and %r was not found" % options.valgrind)
    settings = Settings(modes=modes, runs=options.runs, warmups=options.warmups, scale=options.scale,
                        timeout=options.timeout, valgrind=valgrind)
    described = [describe(interpreter) for interpreter in interpreters]
    for description in described:
        warning = cache_warning(description)
        if warning:
            sys.stderr.write("warning: %s\n" % warning)

    output = choose_output_folder(options.output)
    results = Results(metadata=metadata(settings, valgrind), interpreters=described)
    save = lambda: results.save(output / RESULTS_FILE)  # noqa: E731 - a tiny callback
    save()
    progress = Progress(total_steps(settings, benchmarks, interpreters))
    progress.note("Measuring %d benchmark(s) on %s in %s mode; results go to %s"
                  % (len(benchmarks), ", ".join(i.name for i in interpreters),
                     " and ".join(modes), output))
    status = EXIT_OK
    try:
        measure_all(interpreters, benchmarks, settings, results, save, progress)
        results.complete = True
    except KeyboardInterrupt:
        progress.note("Interrupted: saving what was measured so far.")
        status = EXIT_INTERRUPTED
    finally:
        progress.finish()
        results.metadata["finished"] = now()
        save()
        write_reports(results, output, "Benchmark results")
    if status == EXIT_OK and results.failures:
        sys.stderr.write("error: %d benchmark run(s) failed:\n" % len(results.failures))
        for line in report.failure_lines(results):
            sys.stderr.write("  %s\n" % line[2:])
        status = EXIT_FAILURES
    sys.stdout.write(report.render(results))
    sys.stdout.write("\nResults written to %s\n" % output)
    return status


def choose_output_folder(requested):
    if requested is None:
        base = Path("bench-results") / time.strftime("%Y%m%d-%H%M%S")
        folder, suffix = base, 1
        while folder.exists():
            suffix += 1
            folder = base.with_name("%s-%d" % (base.name, suffix))
    else:
        folder = requested
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise UsageError("cannot create the output folder %s: %s" % (folder, error.strerror)) from None
    return folder


def now():
    return datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")


def cpu_model():
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as stream:
            for line in stream:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def valgrind_version(valgrind):
    if not valgrind:
        return None
    try:
        return subprocess.run([valgrind, "--version"], capture_output=True, text=True,
                              timeout=30).stdout.strip()
    except (OSError, subprocess.TimeoutExpired):
        return None


def metadata(settings, valgrind):
    return {
        "format": FORMAT,
        "created": now(),
        "host": platform.node(),
        "machine": platform.machine(),
        "platform": platform.platform(),
        "cpu": cpu_model(),
        "cpu_count": os.cpu_count(),
        "load_average_at_start": list(os.getloadavg()),
        "harness_python": sys.version,
        "command": sys.argv,
        "valgrind": valgrind_version(valgrind) if "instructions" in settings.modes else None,
        "settings": {"modes": list(settings.modes), "runs": settings.runs, "warmups": settings.warmups,
                     "scale": settings.scale, "timeout": settings.timeout},
        "child": {"flags": list(INTERPRETER_FLAGS), "environment": child_environment(),
                  "cwd": CHILD_DIRECTORY},
    }


def write_reports(results, folder, title, report_name=REPORT_FILE, chart_prefix=""):
    (folder / report_name).write_text(report.render(results, title), encoding="utf-8")
    if len(results.names) < 2:
        return
    for mode in results.modes:
        try:
            charts.draw(results, mode, folder / ("%sspeedup-%s.png" % (chart_prefix, mode)))
        except ImportError as error:
            sys.stderr.write("warning: no charts (%s)\n" % error)
            return


# ---------------------------------------------------------------- comparing and listing

def compare_command(options):
    old = Results.load(options.old)
    new = Results.load(options.new)
    pairs = comparable_names(old, new)
    if options.name:
        pairs = [pair for pair in pairs if pair[0] in options.name]
    if not pairs:
        raise UsageError("no interpreter to compare: %s has %s, %s has %s" % (
            options.old, ", ".join(old.names), options.new, ", ".join(new.names)))
    sections = []
    for name_old, name_new in pairs:
        merged = comparison(old, new, name_old, name_new)
        title = "%s (%s) compared with %s (%s)" % (name_new, options.new, name_old, options.old)
        sections.append(report.render(merged, title))
        if options.output is not None:
            folder = choose_output_folder(options.output)
            write_reports(merged, folder, title, report_name="compare-%s.md" % name_new,
                          chart_prefix="compare-%s-" % name_new)
    sys.stdout.write("\n".join(sections))
    if options.output is not None:
        sys.stdout.write("\nComparison written to %s\n" % options.output)
    return EXIT_OK


def report_command(options):
    results = Results.load(options.results)
    folder = choose_output_folder(options.output or options.results.parent)
    write_reports(results, folder, "Benchmark results")
    sys.stdout.write(report.render(results))
    sys.stdout.write("\nReport written to %s\n" % folder)
    return EXIT_OK


def list_command(options):
    benchmarks = catalog.discover(options.suite)
    width = max(len(b.name) for b in benchmarks)
    for benchmark in benchmarks:
        sys.stdout.write("%-*s  wall %3d  instructions %2d  %s\n" % (
            width, benchmark.name, benchmark.wall_scale, benchmark.instructions_scale, benchmark.summary))
    return EXIT_OK
