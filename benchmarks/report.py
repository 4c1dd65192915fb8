"""Markdown reports: one table per mode, ratios against the first interpreter.

Every ratio is a speedup of an interpreter over the baseline (the first interpreter):
baseline / candidate, for wall-clock medians and for instruction counts alike, so that a
number above 1.00 always means "better than the baseline".
"""

from benchmarks import stats

MODE_TITLES = {
    "wall": "Wall-clock time per call of run(scale)",
    "instructions": "Instructions per call of run(scale) (callgrind)",
}


def wall_summaries(results, benchmark):
    """{interpreter: stats.Summary} for the interpreters that have wall samples."""
    return {name: stats.Summary.of(samples)
            for name, samples in results.wall.get(benchmark, {}).items() if samples}


def format_milliseconds(nanoseconds):
    milliseconds = nanoseconds / 1e6
    if milliseconds >= 100:
        return "%.0f ms" % milliseconds
    if milliseconds >= 10:
        return "%.1f ms" % milliseconds
    return "%.2f ms" % milliseconds


def format_count(instructions):
    return "%.1f M" % (instructions / 1e6)


def format_speedup(value):
    return "%.3fx" % value


def missing_cell(results, mode, benchmark, name):
    failure = results.failure(mode, benchmark, name)
    return "FAILED (%s)" % failure["kind"] if failure else "—"


def speedup_rows(results, mode):
    """(benchmark, {name: cell text}, {name: speedup or None}) for every benchmark."""
    names = results.names
    baseline = names[0]
    rows = []
    for benchmark in sorted(results.measurements(mode)):
        cells = {}
        speedups = {}
        if mode == "wall":
            summaries = wall_summaries(results, benchmark)
            for name in names:
                summary = summaries.get(name)
                if summary is None:
                    cells[name] = missing_cell(results, mode, benchmark, name)
                    continue
                cells[name] = "%s ±%.1f%%" % (format_milliseconds(summary.median),
                                              100 * summary.relative_stdev)
                if name != baseline and baseline in summaries:
                    low, middle, high = stats.speedup_range(summaries[baseline], summary)
                    speedups[name] = middle
                    cells[name + " speedup"] = "%s (%.2f–%.2f)" % (format_speedup(middle), low, high)
        else:
            counts = {name: value["workload"]
                      for name, value in results.instructions.get(benchmark, {}).items()}
            for name in names:
                if name not in counts:
                    cells[name] = missing_cell(results, mode, benchmark, name)
                    continue
                cells[name] = format_count(counts[name])
                if name != baseline and baseline in counts:
                    speedups[name] = stats.speedup(counts[baseline], counts[name])
                    cells[name + " speedup"] = format_speedup(speedups[name])
        rows.append((benchmark, cells, speedups))
    return rows


def geometric_means(rows, names):
    """{name: (geometric mean of its speedups, number of benchmarks)} for non-baseline names."""
    means = {}
    for name in names[1:]:
        values = [speedups[name] for _, _, speedups in rows if name in speedups]
        if values:
            means[name] = (stats.geometric_mean(values), len(values))
    return means


def table(results, mode):
    """The Markdown table for one mode: absolute figures, then speedups vs the baseline."""
    names = results.names
    baseline = names[0]
    rows = speedup_rows(results, mode)
    header = ["Benchmark"] + names + ["%s vs %s" % (name, baseline) for name in names[1:]]
    lines = ["| " + " | ".join(header) + " |",
             "|" + "---|" + "---:|" * (len(header) - 1)]
    for benchmark, cells, _ in rows:
        line = [benchmark] + [cells.get(name, "—") for name in names]
        line += [cells.get(name + " speedup", "—") for name in names[1:]]
        lines.append("| " + " | ".join(line) + " |")
    means = geometric_means(rows, names)
    if len(names) > 1:
        footer = ["**geometric mean**"] + [""] * len(names)
        for name in names[1:]:
            if name in means:
                mean, count = means[name]
                note = "" if count == len(rows) else " (%d of %d)" % (count, len(rows))
                footer.append("**%s**%s" % (format_speedup(mean), note))
            else:
                footer.append("—")
        lines.append("| " + " | ".join(footer) + " |")
    return "\n".join(lines)


def legend(mode, baseline):
    if mode == "wall":
        return ("Median of the timed runs ± relative standard deviation. Speedup = %s median / "
                "candidate median (above 1 is faster); in brackets the range obtained by pairing "
                "the interquartile ends of both interpreters." % baseline)
    return ("Instructions executed by one call of run(scale), measured as the difference of two "
            "callgrind runs (with and without the call). Speedup = %s count / candidate count "
            "(above 1 means fewer instructions)." % baseline)


def interpreter_lines(results):
    lines = []
    for index, interpreter in enumerate(results.interpreters):
        role = " (baseline)" if index == 0 else ""
        version = " ".join(interpreter.get("version", "?").split())
        lines.append("- **%s**%s: `%s` — %s" % (interpreter["name"], role,
                                                interpreter.get("resolved", interpreter.get("path")), version))
    return lines


def settings_line(results):
    settings = results.metadata.get("settings", {})
    parts = []
    if "runs" in settings and "wall" in settings.get("modes", ()):
        parts.append("%d timed runs per interpreter (one process each, interleaved)" % settings["runs"])
    if "warmups" in settings:
        parts.append("%d warm-up call(s) per process" % settings["warmups"])
    if settings.get("scale"):
        parts.append("scale %d for every benchmark" % settings["scale"])
    elif parts:
        parts.append("each benchmark's default scale per mode")
    return "; ".join(parts)


def failure_lines(results):
    lines = []
    for failure in results.failures:
        first = failure["message"].strip().splitlines()
        summary = first[-1] if first else ""
        lines.append("- %s / %s / %s: **%s** — %s" % (failure["mode"], failure["benchmark"],
                                                     failure["interpreter"], failure["kind"], summary))
    return lines


def render(results, title="Benchmark results"):
    lines = ["# " + title, ""]
    metadata = results.metadata
    if "created" in metadata:
        lines.append("Measured %s on %s (%s, %s CPUs)." % (
            metadata["created"], metadata.get("host", "?"), metadata.get("cpu", "?"),
            metadata.get("cpu_count", "?")))
        lines.append("")
    if not results.complete:
        lines += ["**Incomplete results**: the run was interrupted or stopped early.", ""]
    lines += interpreter_lines(results)
    settings = settings_line(results)
    if settings:
        lines += ["", "Settings: " + settings + "."]
    for mode in results.modes:
        if not results.measurements(mode):
            continue
        lines += ["", "## " + MODE_TITLES[mode], "", table(results, mode), "",
                  legend(mode, results.names[0])]
    failures = failure_lines(results)
    if failures:
        lines += ["", "## Failures", ""] + failures
    return "\n".join(lines) + "\n"
