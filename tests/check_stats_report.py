#!/usr/bin/env python3
"""The statistics report on a real Py_STATS build (-Dstats=true), checked against counts known
by construction: `python3 -m workbench stats` on tests/stats_report/known_counts.py, whose
run(scale) makes a known number of calls of three small functions (one benchmark-style call of
run: the harness subtracts a process that stops before it, so nothing else is counted), at
scale 1 and at scale 2 (with the same file as a script too); then `stats-compare` of the two.

usage: check_stats_report.py PYTHON OUTPUT_DIR

Every figure below follows from CPython 3.11.2's rules, which the generated interpreter keeps:

- Quickening: a code object is quickened when its warm-up count reaches 8 (QUICKENING_WARMUP_
  DELAY; RESUME and JUMP_BACKWARD count one each). The functions have no loop, so calls 1-7 run
  the unquickened generic instruction and call 8 runs the adaptive form, whose counter is 0
  after quickening: it attempts to specialize at once.
- An attempt that succeeds installs a member and re-dispatches to it (the member's execution,
  and its hit, are counted); one that fails backs off: backoff b -> b + 1, 2**(b+1) - 1 runs
  deferred (adaptive_counter_backoff), and re-dispatches to the adaptive form, which counts an
  execution and its first deferral. So a site that always fails attempts at its adaptive runs
  1, 2, 5, 12, 27, 58, 121, ... (2**j - j); each adaptive run is one deferral; adaptive
  executions are runs plus attempts. A Py_STATS build keeps such a site adaptive
  (KEEP_GENERIC fails instead), as upstream's stats build does.
- A member that misses counts a miss on itself and on its family and runs the generic
  instruction (counted); its counter starts at 53 (miss_counter_start), and the 53rd miss
  deoptimizes (one deopt): the adaptive form with counter 31 << 4 | 5 (adaptive_counter_start),
  so 31 deferred runs and an attempt on the 32nd.

With N = CALLS * scale calls of each function (CALLS = 100 in known_counts.py):

- read(), `POINT.value`: LOAD_ATTR generic 7, adaptive 1, LOAD_ATTR_INSTANCE_VALUE N - 7
  (all hits), 1 success.
- add(1, 2) N times, then add(0.5, 0.25) N times: BINARY_OP generic 7 + 53 (the misses),
  adaptive 1 + 31 + 1, BINARY_OP_ADD_INT N - 7 + 53 with 53 misses, 1 deopt, then
  BINARY_OP_ADD_FLOAT from float call 85 on: N - 84; 2 successes, 31 deferred.
- below((1,), (2,)), `a < b` on tuples with no jump after it: COMPARE_OP generic 7, N - 7 adaptive runs with
  k attempts, all failing NOT_FOLLOWED_BY_COND_JUMP: k = 6 at N = 100, 7 at N = 200.

All exact for the benchmark call: no tolerance (the harness makes the same counts at every run).
The script counts whole, minus `-c pass`: the interpreter's own code that reads a script adds a
few generic and adaptive executions (measured once, see main()), so there generic, adaptive,
deferred and hit may exceed these figures by up to SCRIPT_SLACK; the rest stays exact.
"""

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from workbench import specstats  # noqa: E402

SUITE = ROOT / "tests" / "stats_report"
WORKLOAD = "known_counts"
SCRIPT = SUITE / "known_counts.py"
CALLS = 100  # known_counts.py's CALLS

# The families the report must name, stated here rather than asked from the build: CPython
# 3.11.2's opcode._specializations plus the project's additions (the CONTAINS_OP and FOR_ITER
# families, BINARY_SUBSCR_STR_INT, members and superinstructions marked so). A change to instructions/ that adds or removes a form
# changes this list.
FAMILIES = {
    "BINARY_OP": {"BINARY_OP_ADAPTIVE", "BINARY_OP_ADD_FLOAT", "BINARY_OP_ADD_INT",
                  "BINARY_OP_ADD_UNICODE", "BINARY_OP_INPLACE_ADD_UNICODE",
                  "BINARY_OP_MULTIPLY_FLOAT", "BINARY_OP_MULTIPLY_INT",
                  "BINARY_OP_SUBTRACT_FLOAT", "BINARY_OP_SUBTRACT_INT",
                  # quicken's own
                  "BINARY_OP_FLOOR_DIVIDE_INT", "BINARY_OP_REMAINDER_INT",
                  "BINARY_OP_TRUE_DIVIDE_FLOAT", "BINARY_OP_ADD_FLOAT_INT",
                  "BINARY_OP_SUBTRACT_FLOAT_INT", "BINARY_OP_MULTIPLY_FLOAT_INT",
                  "BINARY_OP_ADD_FLOAT_STORED", "BINARY_OP_ADD_INT_STORED",
                  "BINARY_OP_MULTIPLY_FLOAT_STORED", "BINARY_OP_MULTIPLY_INT_STORED",
                  "BINARY_OP_SUBTRACT_FLOAT_STORED", "BINARY_OP_SUBTRACT_INT_STORED"},
    "BINARY_SUBSCR": {"BINARY_SUBSCR_ADAPTIVE", "BINARY_SUBSCR_DICT", "BINARY_SUBSCR_GETITEM",
                      "BINARY_SUBSCR_LIST_INT", "BINARY_SUBSCR_STR_INT", "BINARY_SUBSCR_TUPLE_INT"},
    "CALL": {"CALL_ADAPTIVE", "CALL_PY_EXACT_ARGS", "CALL_PY_WITH_DEFAULTS",
             # quicken's own
             "CALL_PY_KEYWORDS", "CALL_PY_CLASS"},
    "COMPARE_OP": {"COMPARE_OP_ADAPTIVE", "COMPARE_OP_FLOAT_JUMP", "COMPARE_OP_INT_JUMP",
                   "COMPARE_OP_STR_JUMP",
                   # quicken's own
                   "COMPARE_OP_FLOAT", "COMPARE_OP_INT", "COMPARE_OP_STR",
                   "COMPARE_OP_STR_ORDER_JUMP"},
    "CONTAINS_OP": {"CONTAINS_OP_ADAPTIVE", "CONTAINS_OP_DICT", "CONTAINS_OP_SET",
                    "CONTAINS_OP_STR"},
    "EXTENDED_ARG": {"EXTENDED_ARG_QUICK"},
    "FOR_ITER": {"FOR_ITER_ADAPTIVE", "FOR_ITER_LIST", "FOR_ITER_TUPLE", "FOR_ITER_RANGE",
                 "FOR_ITER_GEN"},
    "JUMP_BACKWARD": {"JUMP_BACKWARD_QUICK"},
    "LOAD_ATTR": {"LOAD_ATTR_ADAPTIVE", "LOAD_ATTR_INSTANCE_VALUE", "LOAD_ATTR_MODULE",
                  "LOAD_ATTR_SLOT", "LOAD_ATTR_WITH_HINT",
                  # quicken's own
                  "LOAD_ATTR_CLASS", "LOAD_ATTR_PROPERTY", "LOAD_ATTR_DESCRIPTOR"},
    "LOAD_CONST": {"LOAD_CONST__LOAD_FAST",
                   # quicken's own
                   "LOAD_CONST__RETURN_VALUE"},
    "LOAD_FAST": {"LOAD_FAST__LOAD_CONST", "LOAD_FAST__LOAD_FAST",
                  # quicken's own
                  "LOAD_FAST__POP_JUMP_FORWARD_IF_FALSE", "LOAD_FAST__LOAD_FAST__LOAD_CONST",
                  "LOAD_FAST__LOAD_FAST__LOAD_FAST", "LOAD_FAST__LOAD_ATTR"},
    "LOAD_GLOBAL": {"LOAD_GLOBAL_ADAPTIVE", "LOAD_GLOBAL_BUILTIN", "LOAD_GLOBAL_MODULE"},
    "LOAD_METHOD": {"LOAD_METHOD_ADAPTIVE", "LOAD_METHOD_CLASS", "LOAD_METHOD_MODULE",
                    "LOAD_METHOD_NO_DICT", "LOAD_METHOD_WITH_DICT", "LOAD_METHOD_WITH_VALUES",
                    # quicken's own
                    "LOAD_METHOD_INSTANCE_VALUE", "LOAD_METHOD_POLYMORPHIC"},
    "PRECALL": {"PRECALL_ADAPTIVE", "PRECALL_BOUND_METHOD", "PRECALL_BUILTIN_CLASS",
                "PRECALL_BUILTIN_FAST_WITH_KEYWORDS",
                "PRECALL_METHOD_DESCRIPTOR_FAST_WITH_KEYWORDS", "PRECALL_NO_KW_BUILTIN_FAST",
                "PRECALL_NO_KW_BUILTIN_O", "PRECALL_NO_KW_ISINSTANCE", "PRECALL_NO_KW_LEN",
                "PRECALL_NO_KW_LIST_APPEND", "PRECALL_NO_KW_METHOD_DESCRIPTOR_FAST",
                "PRECALL_NO_KW_METHOD_DESCRIPTOR_NOARGS", "PRECALL_NO_KW_METHOD_DESCRIPTOR_O",
                "PRECALL_NO_KW_STR_1", "PRECALL_NO_KW_TUPLE_1", "PRECALL_NO_KW_TYPE_1",
                "PRECALL_PYFUNC",
                # quicken's own
                "PRECALL_PY_EXACT_ARGS"},
    "RESUME": {"RESUME_QUICK"},
    "STORE_ATTR": {"STORE_ATTR_ADAPTIVE", "STORE_ATTR_INSTANCE_VALUE", "STORE_ATTR_SLOT",
                   "STORE_ATTR_WITH_HINT",
                   # quicken's own
                   "STORE_ATTR_PROPERTY", "STORE_ATTR_DESCRIPTOR"},
    "STORE_FAST": {"STORE_FAST__LOAD_FAST", "STORE_FAST__STORE_FAST",
                   # quicken's own
                   "STORE_FAST__LOAD_FAST__LOAD_FAST", "STORE_FAST__LOAD_FAST__LOAD_CONST"},
    "STORE_SUBSCR": {"STORE_SUBSCR_ADAPTIVE", "STORE_SUBSCR_DICT", "STORE_SUBSCR_LIST_INT"},
    "UNPACK_SEQUENCE": {"UNPACK_SEQUENCE_ADAPTIVE", "UNPACK_SEQUENCE_LIST",
                        "UNPACK_SEQUENCE_TUPLE", "UNPACK_SEQUENCE_TWO_TUPLE"},
}

# How much the counts of a script may exceed those of the program's own code (see main()).
SCRIPT_SLACK = 10
COUNTERS = ("generic", "adaptive", "success", "failure", "deferred", "hit", "miss", "deopt")


def failing_attempts(runs):
    """Attempts of a site that always fails, in RUNS adaptive runs: at runs 2**j - j."""
    return sum(1 for j in range(1, 17) if 2 ** j - j <= runs)


def expected(scale):
    """{family: figures} of one call of known_counts.run(scale); members not named ran 0 times."""
    n = CALLS * scale
    k = failing_attempts(n - 7)
    return {
        "LOAD_ATTR": {"generic": 7, "adaptive": 1, "success": 1, "failure": 0, "deferred": 0,
                      "hit": n - 7, "miss": 0, "deopt": 0, "failure_kinds": {},
                      "members": {"LOAD_ATTR_INSTANCE_VALUE": (n - 7, 0)}},
        "BINARY_OP": {"generic": 7 + 53, "adaptive": 1 + 31 + 1, "success": 2, "failure": 0,
                      "deferred": 31, "hit": (n - 7) + (n - 84), "miss": 53, "deopt": 1,
                      "failure_kinds": {},
                      "members": {"BINARY_OP_ADD_INT": (n - 7 + 53, 53),
                                  "BINARY_OP_ADD_FLOAT": (n - 84, 0)}},
        "COMPARE_OP": {"generic": 7, "adaptive": n - 7 + k, "success": 0, "failure": k,
                       "deferred": n - 7, "hit": 0, "miss": 0, "deopt": 0,
                       "failure_kinds": {"NOT_FOLLOWED_BY_COND_JUMP": k}, "members": {}},
    }


# What stats.md says at scale 1, worked out by hand from expected(1): executions are generic +
# adaptive + members; LOAD_ATTR 93 of 101 specialized, BINARY_OP (146 + 16) of (60 + 33 + 162),
# miss rate 53 of (109 + 53), deopts per hit 1 of 109; COMPARE_OP 7 + (93 + 6).
REPORT_LINES = (
    ("Families", "| `LOAD_ATTR` | 101 | 92.1% | 1 | 100.0% | 0 | 93 | 0 | 0.0% | 0 | 0.0% |"),
    ("Families", "| `BINARY_OP` | 255 | 63.5% | 2 | 100.0% | 31 | 109 | 53 | 32.7% | 1 | 0.9% |"),
    ("Families", "| `COMPARE_OP` | 106 | 0.0% | 6 | 0.0% | 93 | 0 | 0 | - | 0 | - |"),
    ("Top failure kinds", "| `COMPARE_OP` | NOT_FOLLOWED_BY_COND_JUMP | 6 | 100.0% |"),
    ("Members", "| `LOAD_ATTR_INSTANCE_VALUE` | 93 | 0 | 0.0% |"),
    ("Members", "| `BINARY_OP_ADD_INT` | 146 | 53 | 36.3% |"),
    ("Members", "| `BINARY_OP_ADD_FLOAT` | 16 | 0 | 0.0% |"),
)
NEVER_RAN = ("LOAD_ATTR_SLOT", "LOAD_ATTR_MODULE", "BINARY_OP_MULTIPLY_INT", "COMPARE_OP_INT_JUMP")

# stats-compare of scale 1 (before) with scale 2 (after): expected(2) has LOAD_ATTR 193 of 201
# specialized, BINARY_OP (246 + 116) of (60 + 33 + 362) and 309 hits.
COMPARE_LINES = (
    "| `LOAD_ATTR` | 92.1% | 96.0% | 93 | 193 | 0 | 0 | 0 | 0 |",
    "| `BINARY_OP` | 63.5% | 79.6% | 109 | 309 | 53 | 53 | 1 | 1 |",
    "| `COMPARE_OP` | 0.0% | 0.0% | 0 | 0 | 0 | 0 | 0 | 0 |",
    "Workloads in both: known_counts. Left out (in one only): known_counts.py.",
)


def family_figures(data, workload):
    """{family: the report's figures} of a workload, by the report's own reading of the counts."""
    rows = specstats.family_rows(data["workloads"][workload], specstats.Names(data["tables"]))
    return {row["family"]: row for row in rows}


def check_counts(data, workload, scale, slack=0):
    """[(ok, message)]: the workload's figures against expected(scale), exactly. With SLACK (a
    script, which counts whole), the counts of code other than the program's may add up to SLACK
    to generic, adaptive, deferred and hit, and members the program never runs are not checked;
    successes, failures by kind, misses, deopts and the program's members stay exact."""
    results = []
    rows = family_figures(data, workload)
    for family, want in expected(scale).items():
        row = rows.get(family)
        if row is None:
            results.append((False, "%s: no %s row" % (workload, family)))
            continue
        got = {name: row[name] for name in COUNTERS}
        got["failure_kinds"] = row["failure_kinds"]
        wrong = {name: want[name] for name in COUNTERS + ("failure_kinds",)
                 if not (want[name] <= got[name] <= want[name] + slack
                         if slack and name in ("generic", "adaptive", "deferred", "hit")
                         else got[name] == want[name])}
        results.append((not wrong, "%s: %s counts %s (%s)" % (
            workload, family, got, "expected %s%s" % (wrong, " + up to %d" % slack if slack else "")
            if wrong else "as expected" + (" within + %d" % slack if slack else ""))))
        members = {m: (c["executions"], c["misses"]) for m, c in row["members"].items()
                   if not slack or m in want["members"]}
        wanted = {m: want["members"].get(m, (0, 0)) for m in members}
        if members:
            results.append((members == wanted, "%s: %s members' (executions, misses) %s (%s)" % (
                workload, family, members, "as expected" if members == wanted else "expected %s" % wanted)))
    return results


def table_section(report, heading):
    parts = report.split("## %s\n" % heading)
    return parts[1].split("\n## ")[0] if len(parts) == 2 else ""


def check_report(report):
    """[(ok, message)]: stats.md of scale 1 alone shows the known figures."""
    results = []
    for heading in ("Families", "Quick forms and superinstructions", "Top failure kinds",
                    "Members", "Instruction mix", "Consecutive pairs", "Per workload"):
        results.append(("## %s\n" % heading in report, "the report has ## " + heading))
    for heading, line in REPORT_LINES:
        lines = table_section(report, heading).splitlines()
        results.append((line in lines, "## %s has the line %s" % (heading, line)))
    never = [line for line in table_section(report, "Members").splitlines()
             if line.startswith("Members that never ran:")]
    names = set(re.findall(r"`(\w+)`", never[0])) if never else set()
    results.append((set(NEVER_RAN) <= names and not names & {"LOAD_ATTR_INSTANCE_VALUE",
                                                              "BINARY_OP_ADD_INT",
                                                              "BINARY_OP_ADD_FLOAT"},
                    "'Members that never ran' names %s and not the members that ran"
                    % ", ".join(NEVER_RAN)))
    kinds = table_section(report, "Top failure kinds")
    results.append((kinds.count("\n| `") >= 1 and not re.search(r"\| kind \d+ \|", kinds),
                    "every failure kind in the report has a name"))
    return results


def check_families(data):
    got = {family: set(forms) for family, forms in data["tables"]["families"].items()}
    missing = {f: sorted(FAMILIES[f] - got.get(f, set())) for f in FAMILIES if FAMILIES[f] - got.get(f, set())}
    extra = {f: sorted(got[f] - FAMILIES.get(f, set())) for f in got if got[f] - FAMILIES.get(f, set())}
    return [(got == FAMILIES, "the families and their forms are the stated ones%s" % (
        "" if got == FAMILIES else " (missing %s, not stated %s)" % (missing, extra)))]


def check_comparison(text):
    lines = text.splitlines()
    return [(line in lines, "stats-compare has the line %s" % line) for line in COMPARE_LINES]


def stats(python, output, scale, *extra):
    return subprocess.run(
        [sys.executable, "-m", "workbench", "stats", "--python", python, "--suite", str(SUITE),
         "--bench", WORKLOAD, "--scale", str(scale), "--output", str(output), *extra],
        cwd=ROOT, capture_output=True, text=True, timeout=600)


def main():
    python, output = sys.argv[1], Path(sys.argv[2])
    failures = []

    def check(condition, message):
        print(("ok:     " if condition else "FAILED: ") + message)
        if not condition:
            failures.append(message)

    def report_all(results):
        for condition, message in results:
            check(condition, message)

    one, two = output / "scale-1", output / "scale-2"
    for folder, scale, extra in ((one, 1, ()), (two, 2, ("--script", str(SCRIPT)))):
        completed = stats(python, folder, scale, *extra)
        sys.stdout.write(completed.stdout)
        sys.stderr.write(completed.stderr)
        check(completed.returncode == 0, "the stats command at scale %d exits 0 (got %d)"
              % (scale, completed.returncode))
        if completed.returncode != 0:
            return 1
    first, second = specstats.load(one / "stats.json"), specstats.load(two / "stats.json")
    check(sorted(first["workloads"]) == [WORKLOAD]
          and sorted(second["workloads"]) == [WORKLOAD, SCRIPT.name],
          "one set of counts per workload: %s, %s" % (sorted(first["workloads"]), sorted(second["workloads"])))
    report_all(check_families(first))
    report_all(check_counts(first, WORKLOAD, 1))
    report_all(check_counts(second, WORKLOAD, 2))
    # A script counts whole, minus `-c pass`: with the interpreter's code that reads a script
    # (measured once on build-stats: 3-5 more generic executions and one more deferred
    # adaptive run per family, 2 LOAD_ATTR_MODULE hits) and the file's `if __name__ ...`.
    report_all(check_counts(second, SCRIPT.name, 1, slack=SCRIPT_SLACK))
    report_all(check_report((one / "stats.md").read_text(encoding="utf-8")))
    for chart in ("families.png", "mix.png"):
        check((one / chart).read_bytes()[:4] == b"\x89PNG", chart + " is a PNG")

    compared = subprocess.run([sys.executable, "-m", "workbench", "stats-compare",
                               str(one / "stats.json"), str(two / "stats.json")],
                              cwd=ROOT, capture_output=True, text=True, timeout=120)
    check(compared.returncode == 0, "stats-compare exits 0 (got %d)" % compared.returncode)
    report_all(check_comparison(compared.stdout))
    print("%d check(s) failed" % len(failures) if failures else "all checks passed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
