"""Measuring a selection of benchmarks on several interpreters, saving after every benchmark.

Wall-clock mode interleaves the interpreters run by run (A B C A B C ...), one fresh process
per timed run, so that slow drifts of the machine (thermal state, other jobs) hit every
interpreter alike.  Instruction mode needs no interleaving: counts do not drift.

A benchmark that fails on an interpreter (crash, failed self-check, exception, timeout) is
recorded as a failure for that pair, its samples for that pair are dropped, and the session
goes on with everything else; the caller turns recorded failures into a non-zero exit.
"""

from dataclasses import dataclass

from benchmarks import report, stats
from benchmarks.measure import RunFailure, count_instructions, time_workload


@dataclass(frozen=True)
class Settings:
    modes: tuple
    runs: int
    warmups: int
    scale: object        # an int applied to every benchmark, or None for their defaults
    timeout: float
    valgrind: str

    def scale_for(self, benchmark, mode):
        return self.scale or benchmark.scale_for(mode)


def total_steps(settings, benchmarks, interpreters):
    per_benchmark = 0
    for mode in settings.modes:
        per_benchmark += len(interpreters) * (settings.runs if mode == "wall" else 1)
    return per_benchmark * len(benchmarks)


def measure_all(interpreters, benchmarks, settings, results, save, progress):
    """Fill `results` mode by mode, benchmark by benchmark, calling save() after each one."""
    for benchmark in benchmarks:
        results.benchmarks[benchmark.name] = {
            "summary": benchmark.summary,
            "scales": {mode: settings.scale_for(benchmark, mode) for mode in settings.modes},
        }
    for mode in settings.modes:
        for benchmark in benchmarks:
            if mode == "wall":
                measure_wall(interpreters, benchmark, settings, results, progress)
            else:
                measure_instructions(interpreters, benchmark, settings, results, progress)
            save()


def record_failure(results, mode, benchmark, interpreter, failure, progress):
    results.add_failure(mode, benchmark.name, interpreter.name, failure.kind, failure.message)
    progress.note("FAILED %s %s on %s: %s\n%s" % (mode, benchmark.name, interpreter.name,
                                                  failure.kind, indent(failure.message)))


def indent(text, prefix="    "):
    return "\n".join(prefix + line for line in text.strip().splitlines()[-25:])


def measure_wall(interpreters, benchmark, settings, results, progress):
    scale = settings.scale_for(benchmark, "wall")
    samples = {interpreter.name: [] for interpreter in interpreters}
    failed = set()
    for run in range(settings.runs):
        for interpreter in interpreters:
            if interpreter.name in failed:
                progress.advance()
                continue
            progress.status("wall %s (scale %d): %s, run %d of %d"
                            % (benchmark.name, scale, interpreter.name, run + 1, settings.runs))
            try:
                nanoseconds = time_workload(interpreter.resolved, benchmark.path, scale,
                                            settings.warmups, settings.timeout)
            except RunFailure as failure:
                failed.add(interpreter.name)
                record_failure(results, "wall", benchmark, interpreter, failure, progress)
            else:
                samples[interpreter.name].append(nanoseconds)
            progress.advance()
    results.wall[benchmark.name] = {name: values for name, values in samples.items()
                                    if values and name not in failed}
    progress.note("wall %s: %s" % (benchmark.name, wall_summary(results.wall[benchmark.name], interpreters)))


def wall_summary(samples, interpreters):
    parts = []
    baseline = interpreters[0].name
    for interpreter in interpreters:
        values = samples.get(interpreter.name)
        if not values:
            parts.append("%s failed" % interpreter.name)
            continue
        median = stats.median(values)
        text = "%s %s ±%.1f%%" % (interpreter.name, report.format_milliseconds(median),
                                  100 * stats.relative_stdev(values))
        if interpreter.name != baseline and samples.get(baseline):
            text += " (%s)" % report.format_speedup(stats.speedup(stats.median(samples[baseline]), median))
        parts.append(text)
    return ", ".join(parts)


def measure_instructions(interpreters, benchmark, settings, results, progress):
    scale = settings.scale_for(benchmark, "instructions")
    counts = {}
    for interpreter in interpreters:
        progress.status("instructions %s (scale %d): %s under callgrind"
                        % (benchmark.name, scale, interpreter.name))
        try:
            count = count_instructions(interpreter.resolved, benchmark.path, scale, settings.warmups,
                                       settings.timeout, settings.valgrind)
        except RunFailure as failure:
            record_failure(results, "instructions", benchmark, interpreter, failure, progress)
        else:
            counts[interpreter.name] = {"workload": count.workload, "with_workload": count.with_workload,
                                        "without_workload": count.without_workload}
        progress.advance()
    results.instructions[benchmark.name] = counts
    parts = []
    baseline = counts.get(interpreters[0].name)
    for interpreter in interpreters:
        count = counts.get(interpreter.name)
        if count is None:
            parts.append("%s failed" % interpreter.name)
            continue
        text = "%s %s" % (interpreter.name, report.format_count(count["workload"]))
        if baseline and interpreter is not interpreters[0]:
            text += " (%s)" % report.format_speedup(stats.speedup(baseline["workload"], count["workload"]))
        parts.append(text)
    progress.note("instructions %s: %s" % (benchmark.name, ", ".join(parts)))
