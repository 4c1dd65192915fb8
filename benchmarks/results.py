"""The results file: raw measurements plus everything needed to interpret them later.

Only raw data is stored (every wall-clock sample, both callgrind totals); medians, spreads
and ratios are always recomputed from it by `benchmarks.report`, so a results file can be
re-reported with better statistics without re-measuring.

Layout of results.json (all keys always present):

    format          "quicken-benchmarks/1"
    complete        false while measuring or after an interruption or failure to finish
    metadata        date, host, harness, settings, child flags and environment
    interpreters    [{name, path, resolved, realpath, sha256, version, config_args,
                      uncached_modules}, ...] in command-line order; the first one is the
                    baseline (uncached_modules: the runner's standard modules without a
                    bytecode cache; absent from files written before it was recorded)
    benchmarks      {name: {summary, scales: {mode: scale}}}
    wall            {benchmark: {interpreter: [nanoseconds, ...]}}
    instructions    {benchmark: {interpreter: {workload, with_workload, without_workload}}}
    failures        [{benchmark, interpreter, mode, kind, message}, ...]
"""

import json
import os
from dataclasses import asdict, dataclass, field

FORMAT = "quicken-benchmarks/1"
MODES = ("wall", "instructions")


class ResultsError(Exception):
    """A results file cannot be read or is not a results file."""


@dataclass
class Results:
    metadata: dict
    interpreters: list
    benchmarks: dict = field(default_factory=dict)
    wall: dict = field(default_factory=dict)
    instructions: dict = field(default_factory=dict)
    failures: list = field(default_factory=list)
    complete: bool = False

    @property
    def names(self):
        """Interpreter names in command-line order; the first is the baseline."""
        return [interpreter["name"] for interpreter in self.interpreters]

    @property
    def modes(self):
        return list(self.metadata.get("settings", {}).get("modes", []))

    def measurements(self, mode):
        return self.wall if mode == "wall" else self.instructions

    def value(self, mode, benchmark, name):
        """The raw measurement of one interpreter on one benchmark, or None."""
        return self.measurements(mode).get(benchmark, {}).get(name)

    def failure(self, mode, benchmark, name):
        for failure in self.failures:
            if (failure["mode"], failure["benchmark"], failure["interpreter"]) == (mode, benchmark, name):
                return failure
        return None

    def add_failure(self, mode, benchmark, name, kind, message):
        self.failures.append({"benchmark": benchmark, "interpreter": name, "mode": mode,
                              "kind": kind, "message": message})

    def to_json(self):
        document = {"format": FORMAT}
        document.update(asdict(self))
        return document

    def save(self, path):
        """Write atomically, so that an interruption never leaves a truncated file."""
        temporary = "%s.tmp" % path
        with open(temporary, "w", encoding="utf-8") as stream:
            json.dump(self.to_json(), stream, indent=1, sort_keys=False)
            stream.write("\n")
        os.replace(temporary, path)

    @classmethod
    def from_json(cls, document):
        if not isinstance(document, dict) or document.get("format") != FORMAT:
            raise ResultsError("not a %s results file" % FORMAT)
        try:
            return cls(
                metadata=document["metadata"],
                interpreters=document["interpreters"],
                benchmarks=document["benchmarks"],
                wall=document["wall"],
                instructions=document["instructions"],
                failures=document["failures"],
                complete=document["complete"],
            )
        except KeyError as missing:
            raise ResultsError("results file lacks the %s field" % missing) from None

    @classmethod
    def load(cls, path):
        try:
            with open(path, encoding="utf-8") as stream:
                document = json.load(stream)
        except OSError as error:
            raise ResultsError("cannot read %s: %s" % (path, error.strerror)) from None
        except ValueError as error:
            raise ResultsError("%s is not JSON: %s" % (path, error)) from None
        try:
            return cls.from_json(document)
        except ResultsError as error:
            raise ResultsError("%s: %s" % (path, error)) from None


def comparison(old, new, name_old, name_new):
    """A Results holding interpreter `name_old` of `old` and `name_new` of `new`, side by side.

    The two columns are labelled "old:NAME" and "new:NAME"; the old one is the baseline.
    Only benchmarks measured in both files (in a mode present in both) appear.
    """
    label_old, label_new = "old:" + name_old, "new:" + name_new

    def relabel(interpreter, label):
        copy = dict(interpreter)
        copy["name"] = label
        return copy

    interpreters = [relabel(i, label_old) for i in old.interpreters if i["name"] == name_old]
    interpreters += [relabel(i, label_new) for i in new.interpreters if i["name"] == name_new]
    modes = [mode for mode in MODES if mode in old.modes and mode in new.modes]
    merged = Results(
        metadata={"comparison": {"old": old.metadata, "new": new.metadata},
                  "settings": {"modes": modes}},
        interpreters=interpreters,
        complete=old.complete and new.complete,
    )
    for mode in modes:
        target = merged.measurements(mode)
        for benchmark in old.measurements(mode):
            if benchmark not in new.measurements(mode):
                continue
            row = {}
            if old.value(mode, benchmark, name_old) is not None:
                row[label_old] = old.value(mode, benchmark, name_old)
            if new.value(mode, benchmark, name_new) is not None:
                row[label_new] = new.value(mode, benchmark, name_new)
            target[benchmark] = row
            merged.benchmarks[benchmark] = new.benchmarks.get(benchmark) or old.benchmarks.get(benchmark, {})
    for source, name, label in ((old, name_old, label_old), (new, name_new, label_new)):
        for failure in source.failures:
            if failure["interpreter"] == name:
                merged.add_failure(failure["mode"], failure["benchmark"], label,
                                   failure["kind"], failure["message"])
    return merged


def comparable_names(old, new):
    """Pairs of interpreter names to compare: every name present in both files, or, when
    each file holds exactly one interpreter, those two whatever their names."""
    common = [name for name in old.names if name in new.names]
    if common:
        return [(name, name) for name in common]
    if len(old.names) == 1 and len(new.names) == 1:
        return [(old.names[0], new.names[0])]
    return []
