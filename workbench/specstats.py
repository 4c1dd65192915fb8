"""Specialization statistics of a Py_STATS build (`-Dstats=true`), per workload.

A Py_STATS build counts, for every opcode, its executions, the pairs of consecutive opcodes
and, for every family (counted on its generic opcode), specialization successes, failures by
kind, deferrals, hits, misses and deopts; specialized members count their own misses. It
writes them at exit into the folder QUICKEN_STATS_DIR names (runtime/patches/specialize.c.patch).

A workload's statistics are those of one call of a benchmark's run(scale), measured as the
callgrind mode measures instructions (benchmarks/measure.py): a runner process that makes the
call minus one that stops before it; start-up and imports cancel out (the runner's "counted"
mode exits normally, since the statistics are written while finalizing; what finalization and
the self-check do with the workload's result is counted with it). A script
(--script) counts whole, minus an interpreter that runs nothing.

Names never come from a hand list: opcode names, families and failure kinds are asked from
the stats build itself (its dis and opcode modules; the `generated` interpreter's opcode.py
carries each family's failure kinds, generated from instructions/).
"""

import json
import os
import subprocess
import tempfile
from pathlib import Path

from benchmarks.measure import INTERPRETER_FLAGS, CHILD_DIRECTORY, RunFailure, child_environment, \
    describe_exit, parse_report, runner_command

FORMAT = 1
FAMILY_COUNTERS = ("success", "failure", "deferred", "hit", "miss", "deopt")

_TABLES_PROGRAM = r"""
import dis, json, opcode, sys
print(json.dumps({
    "opnames": list(dis._all_opname) if hasattr(dis, "_all_opname") else list(opcode.opname),
    "families": opcode._specializations,
    "failure_kinds": getattr(opcode, "_specialization_failure_kinds", {}),
    "cache_tag": sys.implementation.cache_tag,
    "version": sys.version,
}))
"""


class StatsError(Exception):
    """The interpreter is not a Py_STATS build, or a workload wrote no statistics."""


# ---------------------------------------------------------------- the counts

def empty():
    return {"opcodes": {}, "other": {}}


def parse(text):
    """The counts of one stats file: {"opcodes": {opnum: {...}}, "other": {label: n}}.

    An opcode's entry has "execution_count", the FAMILY_COUNTERS present, "failure_kinds"
    {kind: n} and "pairs" {next opnum: n} (the opcode followed by next)."""
    counts = empty()
    for number, line in enumerate(text.splitlines(), 1):
        line = line.strip()
        if not line or ":" not in line:
            continue
        key, _, value = line.rpartition(":")
        key = key.strip()
        try:
            value = int(value)
        except ValueError:
            raise StatsError("line %d of the statistics is not 'name : count': %r" % (number, line))
        if key.startswith("opcode["):
            op_text, _, rest = key[len("opcode["):].partition("].")
            entry = counts["opcodes"].setdefault(int(op_text), {})
            if rest.startswith("pair_count["):
                pairs = entry.setdefault("pairs", {})
                pairs[int(rest[len("pair_count["):-1])] = value
            elif rest.startswith("specialization.failure_kinds["):
                kinds = entry.setdefault("failure_kinds", {})
                kinds[int(rest[len("specialization.failure_kinds["):-1])] = value
            elif rest.startswith("specialization."):
                entry[rest[len("specialization."):]] = value
            else:
                entry[rest] = value
        else:
            counts["other"][key] = value
    return counts


def combine(a, b, sign=1):
    """a + sign * b, key by key (nested dicts of ints)."""
    result = {}
    for key in set(a) | set(b):
        x, y = a.get(key), b.get(key)
        if isinstance(x, dict) or isinstance(y, dict):
            result[key] = combine(x or {}, y or {}, sign)
        else:
            result[key] = (x or 0) + sign * (y or 0)
    return result


def clean(counts):
    """Drops zero counts and empty entries; negative differences (counts that a process with the
    workload made fewer of than one without it, e.g. of the garbage collector) become zero."""
    result = {}
    for key, value in counts.items():
        if isinstance(value, dict):
            value = clean(value)
            if value:
                result[key] = value
        elif value > 0:
            result[key] = value
    return result


def read_folder(folder):
    """The sum of every stats file in a folder (one per process that exited)."""
    total = empty()
    files = sorted(Path(folder).glob("*.txt"))
    for path in files:
        total = combine(total, parse(path.read_text(encoding="utf-8", errors="replace")))
    return total, len(files)


# ---------------------------------------------------------------- running workloads

def tables(python):
    """Opcode names, families and failure kinds, as the interpreter itself knows them."""
    completed = subprocess.run([str(python), *INTERPRETER_FLAGS, "-c", _TABLES_PROGRAM],
                               env=child_environment(), cwd=CHILD_DIRECTORY,
                               capture_output=True, text=True, timeout=120)
    if completed.returncode != 0:
        raise StatsError("%s cannot describe its opcodes (%s):\n%s" % (
            python, describe_exit(completed.returncode), completed.stderr[-2000:]))
    return json.loads(completed.stdout.strip().splitlines()[-1])


def run_counted(command, timeout, expect_report):
    """Runs a command with a fresh QUICKEN_STATS_DIR; the counts its processes wrote."""
    with tempfile.TemporaryDirectory(prefix="quicken-stats-") as folder:
        environment = child_environment()
        environment["QUICKEN_STATS_DIR"] = folder
        try:
            completed = subprocess.run(command, env=environment, cwd=CHILD_DIRECTORY,
                                       capture_output=True, text=True, timeout=timeout)
        except subprocess.TimeoutExpired:
            raise RunFailure("timeout", "no result after %g s: %s" % (timeout, " ".join(command))) from None
        if expect_report:
            parse_report(completed)
        elif completed.returncode != 0:
            raise RunFailure("crash", "%s: %s\n%s" % (" ".join(command), describe_exit(completed.returncode),
                                                     completed.stderr[-2000:]))
        counts, files = read_folder(folder)
    if files == 0:
        raise StatsError("%s wrote no statistics: is it a Py_STATS build (-Dstats=true) of a tree "
                         "whose specialize.c honours QUICKEN_STATS_DIR?" % command[0])
    return counts


def benchmark_counts(python, benchmark, scale, timeout):
    """The counts of one call of run(scale): a process with it minus one without."""
    with_call = run_counted(runner_command(python, benchmark.path, scale, 0, 1, how="counted"),
                            timeout, expect_report=True)
    without = run_counted(runner_command(python, benchmark.path, scale, 0, 0, how="counted"),
                          timeout, expect_report=True)
    return clean(combine(with_call, without, -1))


def script_counts(python, script, arguments, timeout):
    """The counts of running a script, minus those of an interpreter that runs nothing."""
    script = os.path.abspath(script)
    with_script = run_counted([str(python), *INTERPRETER_FLAGS, script, *arguments], timeout,
                              expect_report=False)
    nothing = run_counted([str(python), *INTERPRETER_FLAGS, "-c", "pass"], timeout,
                          expect_report=False)
    return clean(combine(with_script, nothing, -1))


def save(path, data):
    """Writes the statistics file through a temporary file: a failed write leaves the old one."""
    path = Path(path)
    temporary = path.with_name(path.name + ".tmp")
    temporary.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    os.replace(temporary, path)


def load(path):
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        raise StatsError("cannot read statistics %s: %s" % (path, error)) from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise StatsError("%s is not a statistics file of format %d" % (path, FORMAT))
    for workload in data["workloads"].values():  # JSON keys are strings; opcodes are numbers
        workload["opcodes"] = {int(op): {key: ({int(k): v for k, v in value.items()}
                                                if isinstance(value, dict) else value)
                                          for key, value in entry.items()}
                               for op, entry in workload["opcodes"].items()}
    return data


# ---------------------------------------------------------------- what the counts say

class Names:
    """Opcode names, families and failure kinds of the build that made the statistics."""

    def __init__(self, tables):
        self.opnames = tables["opnames"]
        self.families = tables["families"]          # {generic: [adaptive, members...]}
        self.failure_kinds = tables["failure_kinds"]  # {generic: [kind names]}
        self.number = {name: n for n, name in enumerate(self.opnames)
                       if name and not name.startswith("<")}
        self.family_of = {}
        for generic, members in self.families.items():
            self.family_of[generic] = generic
            for member in members:
                self.family_of[member] = generic

    def name(self, op):
        if 0 <= op < len(self.opnames) and self.opnames[op] and not self.opnames[op].startswith("<"):
            return self.opnames[op]
        return "<%d>" % op

    def kind(self, family, index):
        kinds = self.failure_kinds.get(family, [])
        return kinds[index] if index < len(kinds) else "kind %d" % index

    def specializes(self, generic):
        """Whether a family specializes (has an adaptive form), rather than listing the quick
        forms or superinstructions quickening installs for its generic instruction."""
        return any(form.endswith("_ADAPTIVE") for form in self.families.get(generic, ()))

    def is_specialized(self, name):
        """A member of a specializing family, other than its adaptive form."""
        family = self.family_of.get(name)
        return (family is not None and name != family and not name.endswith("_ADAPTIVE")
                and self.specializes(family))

    def is_quick(self, name):
        """A quick form or superinstruction."""
        family = self.family_of.get(name)
        return family is not None and name != family and not self.specializes(family)


def family_rows(counts, names):
    """Per family: executions of its generic, adaptive and specialized forms and its counters."""
    rows = []
    opcodes = counts["opcodes"]
    for generic in sorted(names.families):
        entry = opcodes.get(names.number.get(generic, -1), {})
        members = [m for m in names.families[generic] if not m.endswith("_ADAPTIVE")]
        adaptive = [m for m in names.families[generic] if m.endswith("_ADAPTIVE")]
        executions = {m: opcodes.get(names.number.get(m, -1), {}).get("execution_count", 0)
                      for m in names.families[generic]}
        misses = {m: opcodes.get(names.number.get(m, -1), {}).get("miss", 0) for m in members}
        row = {
            "family": generic,
            "specializing": bool(adaptive),  # else its members are quick forms or superinstructions
            "generic": entry.get("execution_count", 0),
            "adaptive": sum(executions[m] for m in adaptive),
            "specialized": sum(executions[m] for m in members),
            "members": {m: {"executions": executions[m], "misses": misses[m]} for m in members},
            "failure_kinds": {names.kind(generic, k): n
                              for k, n in sorted(entry.get("failure_kinds", {}).items())},
        }
        for counter in FAMILY_COUNTERS:
            row[counter] = entry.get(counter, 0)
        rows.append(row)
    return rows


def ratio(part, whole):
    return part / whole if whole else None


def instruction_mix(counts, names):
    """[(name, executions)] by executions, most first."""
    mix = [(names.name(op), entry.get("execution_count", 0)) for op, entry in counts["opcodes"].items()]
    return sorted((item for item in mix if item[1]), key=lambda item: (-item[1], item[0]))


def pairs(counts, names):
    """[(first, second, count)] by count, most first."""
    result = []
    for op, entry in counts["opcodes"].items():
        for following, count in entry.get("pairs", {}).items():
            result.append((names.name(op), names.name(following), count))
    return sorted(result, key=lambda item: (-item[2], item[0], item[1]))


def total(workloads):
    result = empty()
    for counts in workloads.values():
        result = combine(result, counts)
    return result
