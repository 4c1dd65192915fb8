"""Command line of the specialization workbench (docs/workbench.md).

    python3 -m workbench stats --python build-stats/python [--bench P]... [--script F]... [--output DIR]
    python3 -m workbench stats-compare BEFORE/stats.json AFTER/stats.json [--output DIR]
    python3 -m workbench advise STATS.json [--top N] [--candidates N]
    python3 -m workbench explain FILE.py --python PATH [--call EXPR] [--function NAME] [--html OUT]
    python3 -m workbench cases --python NAME=PATH [--python NAME=PATH]... [--bench P]...
                               [--script F]... [--opcode NAME]... [--show NAME] [--output FILE.md]

Exit status: 0 success; 1 some workload failed (the others' statistics are still written);
2 unusable command line, interpreter or input.
"""

import argparse
import os
import sys
from pathlib import Path

from benchmarks import catalog
from benchmarks.cli import EXIT_OK, EXIT_FAILURES, EXIT_USAGE, UsageError, choose_output_folder, \
    now, positive
from benchmarks.measure import RunFailure
from workbench import specreport, specstats

COMMANDS = ("stats", "stats-compare", "advise", "explain", "cases")


def stats_parser():
    parser = argparse.ArgumentParser(
        prog="python3 -m workbench stats",
        description="Run benchmarks (default: the whole suite) or scripts on a Py_STATS build "
                    "(-Dstats=true) and write the specialization statistics report: stats.json, "
                    "stats.md and PNG charts (docs/workbench.md).")
    parser.add_argument("--python", required=True, type=Path, help="a Py_STATS build's interpreter")
    parser.add_argument("--bench", dest="patterns", action="append", default=[], metavar="PATTERN",
                        help="only benchmarks whose name matches this shell pattern (repeatable)")
    parser.add_argument("--script", action="append", default=[], metavar="FILE",
                        help="also (or, without --bench, only) run this Python file (repeatable)")
    parser.add_argument("--scale", type=positive, default=None,
                        help="workload size for every benchmark (default: its INSTRUCTIONS_SCALE)")
    parser.add_argument("--output", type=Path, default=None,
                        help="folder to write into (default: bench-results/<date-time>)")
    parser.add_argument("--timeout", type=float, default=1800.0,
                        help="seconds allowed for one child process (default: 1800)")
    parser.add_argument("--suite", type=Path, default=catalog.SUITE_DIRECTORY)
    return parser


def stats_compare_parser():
    parser = argparse.ArgumentParser(
        prog="python3 -m workbench stats-compare",
        description="Two statistics reports side by side (before and after an edit to instructions/).")
    parser.add_argument("before", type=Path, metavar="BEFORE/stats.json")
    parser.add_argument("after", type=Path, metavar="AFTER/stats.json")
    parser.add_argument("--output", type=Path, default=None, help="also write compare.md here")
    return parser


def advise_parser():
    parser = argparse.ArgumentParser(
        prog="python3 -m workbench advise",
        description="Rank candidate superinstructions by the dispatches they would save, from "
                    "the pair counts of a statistics report, and print the best as DSL "
                    "declarations the generator accepts (docs/workbench.md).")
    parser.add_argument("stats", type=Path, metavar="STATS.json")
    parser.add_argument("--candidates", type=positive, default=20,
                        help="how many candidates to rank and check (default: 20)")
    parser.add_argument("--top", type=positive, default=5,
                        help="how many declarations to print (default: 5)")
    return parser


def explain_parser():
    parser = argparse.ArgumentParser(
        prog="python3 -m workbench explain",
        description="Run a Python file on an interpreter, then show each code object it defined "
                    "as quickened bytecode: the form of every instruction and its inline cache "
                    "decoded field by field (docs/workbench.md).")
    parser.add_argument("file", type=Path, metavar="FILE.py")
    parser.add_argument("--python", required=True, metavar="PATH",
                        help="the interpreter to explain (a -Dstats=true build names failure kinds)")
    parser.add_argument("--call", metavar="EXPR",
                        help="import FILE as a module (not __main__) and evaluate EXPR in it, e.g. "
                             "'run(1)'; without it FILE runs as __main__")
    parser.add_argument("--repeat", type=positive, default=1,
                        help="how many times to evaluate --call (default: 1)")
    parser.add_argument("--function", metavar="NAME",
                        help="show only this function (a qualified name: f, C.method) and the "
                             "code nested in it")
    parser.add_argument("--html", type=Path, metavar="OUT.html",
                        help="also write a self-contained HTML page (instructions' doc comments "
                             "on hover)")
    return parser


def cases_parser():
    parser = argparse.ArgumentParser(
        prog="python3 -m workbench cases",
        description="The machine code of each instruction case of built interpreters, side by "
                    "side: the instructions on each case's fall-through path to its dispatch, "
                    "its calls, branches and bytes (docs/workbench.md).")
    parser.add_argument("--python", dest="pythons", action="append", required=True,
                        metavar="NAME=PATH",
                        help="an interpreter built with its symbol table (repeatable; the first "
                             "is compared with each of the others)")
    parser.add_argument("--bench", dest="patterns", action="append", default=[], metavar="PATTERN",
                        help="run the benchmarks whose name matches (repeatable) under callgrind "
                             "on each interpreter, at their INSTRUCTIONS_SCALE or --scale: hot "
                             "paths and executions from what they ran")
    parser.add_argument("--script", action="append", default=[], metavar="FILE",
                        help="likewise run this Python file (repeatable)")
    parser.add_argument("--scale", type=positive, default=None,
                        help="the benchmarks' workload size (default: each one's INSTRUCTIONS_SCALE)")
    parser.add_argument("--suite", type=Path, default=catalog.SUITE_DIRECTORY)
    parser.add_argument("--opcode", action="append", default=[], metavar="NAME",
                        help="only this case (repeatable)")
    parser.add_argument("--show", metavar="NAME",
                        help="print case NAME's fall-through path, instruction by instruction")
    parser.add_argument("--output", type=Path, help="also write the table into this file")
    return parser


def main(argv=None):
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv or argv[0] not in COMMANDS:
        sys.stderr.write("usage: python3 -m workbench {%s} ...\n" % ",".join(COMMANDS))
        return EXIT_USAGE
    command, argv = argv[0], argv[1:]
    try:
        if command == "stats":
            return stats_command(stats_parser().parse_args(argv))
        if command == "explain":
            return explain_command(explain_parser().parse_args(argv))
        if command == "cases":
            return cases_command(cases_parser().parse_args(argv))
        if command == "advise":
            return advise_command(advise_parser().parse_args(argv))
        return stats_compare_command(stats_compare_parser().parse_args(argv))
    except (UsageError, catalog.CatalogError, specstats.StatsError) as error:
        sys.stderr.write("error: %s\n" % error)
        return EXIT_USAGE


def stats_command(options):
    python = os.path.abspath(options.python)  # the children run in CHILD_DIRECTORY
    if not os.path.isfile(python) or not os.access(python, os.X_OK):
        raise UsageError("%s is not an executable interpreter" % options.python)
    benchmarks = []
    if options.patterns or not options.script:
        benchmarks = catalog.select(catalog.discover(options.suite), options.patterns)
    for script in options.script:
        if not os.path.isfile(script):
            raise UsageError("no such script: %s" % script)
    output = choose_output_folder(options.output)
    data = {"format": specstats.FORMAT, "python": str(options.python), "command": ["python3", "-m", "workbench"] + sys.argv[1:], "created": now(),
            "tables": specstats.tables(python), "workloads": {}, "failures": {}}
    status = EXIT_OK
    work = [(b.name, b) for b in benchmarks] + [(os.path.basename(s), s) for s in options.script]
    for index, (name, item) in enumerate(work, 1):
        sys.stderr.write("[%d/%d] %s\n" % (index, len(work), name))
        try:
            if isinstance(item, str):
                counts = specstats.script_counts(python, item, [], options.timeout)
            else:
                counts = specstats.benchmark_counts(python, item, options.scale or item.instructions_scale,
                                                    options.timeout)
        except RunFailure as failure:
            sys.stderr.write("error: %s: %s\n" % (name, failure))
            data["failures"][name] = str(failure)
            status = EXIT_FAILURES
            continue
        data["workloads"][name] = counts
    if not data["workloads"]:
        raise UsageError("no workload produced statistics")
    specstats.save(output / "stats.json", data)
    charts = specreport.draw(data, output)
    (output / "stats.md").write_text(specreport.render(data, charts), encoding="utf-8")
    sys.stdout.write("Statistics report written to %s\n" % (output / "stats.md"))
    return status


def stats_compare_command(options):
    before, after = specstats.load(options.before), specstats.load(options.after)
    text = specreport.render_comparison(before, after, str(options.before), str(options.after))
    if options.output is not None:
        folder = choose_output_folder(options.output)
        (folder / "compare.md").write_text(text, encoding="utf-8")
    sys.stdout.write(text)
    return EXIT_OK


def advise_command(options):
    from workbench import advisor
    from generator.diagnostics import GeneratorError
    data = specstats.load(options.stats)
    try:
        instructions = advisor.load_instructions(advisor.ROOT)
    except GeneratorError as error:
        raise UsageError("instructions/ has errors; run python3 -m generator check:\n%s"
                         % error.diagnostics[0].format()) from None
    candidates = advisor.check_with_generator(advisor.rank(data, instructions, options.candidates))
    sys.stdout.write("Superinstruction candidates from %s (%s):\n\n" % (
        options.stats, ", ".join(sorted(data["workloads"]))))
    sys.stdout.write(advisor.render(candidates, options.top) + "\n")
    return EXIT_OK


def explain_command(options):
    from workbench import explain
    if not options.file.is_file():
        raise UsageError("%s: no such file" % options.file)
    try:
        data = explain.run(options.python, options.file, options.call, options.repeat,
                           options.function)
    except (explain.ExplainError, OSError) as error:
        raise UsageError(str(error)) from None
    docs = explain.load_docs()
    sys.stdout.write(explain.render_text(data, docs))
    if options.html:
        options.html.write_text(explain.render_html(data, docs), encoding="utf-8")
        sys.stdout.write("\nHTML written to %s\n" % options.html)
    return EXIT_OK


def cases_command(options):
    from benchmarks import measure
    from workbench import cases
    workloads = []
    if options.patterns:
        for bench in catalog.select(catalog.discover(options.suite), options.patterns):
            # the runner's arguments, as instruction mode runs it (the interpreter left out:
            # each interpreter in turn runs them)
            workloads.append(measure.runner_command(
                "python", bench.path, options.scale or bench.instructions_scale, 1, 1,
                timed=False)[1:])
    for script in options.script:
        if not os.path.isfile(script):
            raise UsageError("no such script: %s" % script)
        workloads.append([*measure.INTERPRETER_FLAGS, os.path.abspath(script)])
    interpreters = []
    for item in options.pythons:
        label, sep, path = item.partition("=")
        if not sep or not label or not path:
            raise UsageError("--python takes NAME=PATH, not %r" % item)
        if not os.path.isfile(path) or not os.access(path, os.X_OK):
            raise UsageError("%s is not an executable interpreter" % path)
        try:
            sys.stderr.write("reading %s%s\n" % (path, " and running the workloads under callgrind"
                                                  if workloads else ""))
            interpreters.append((label, cases.read_cases(os.path.abspath(path), workloads)))
        except (cases.CasesError, OSError) as error:
            raise UsageError(str(error)) from None
    if options.show:
        sys.stdout.write(cases.render_paths(interpreters, options.show))
        return EXIT_OK
    text = cases.render(interpreters, options.opcode)
    if options.output:
        options.output.write_text(text, encoding="utf-8")
    sys.stdout.write(text)
    return EXIT_OK
