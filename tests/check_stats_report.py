#!/usr/bin/env python3
"""The statistics report on a real Py_STATS build (-Dstats=true): `python3 -m benchmarks stats`
on two benchmarks at scale 1 and one script, then checks what the report says against what the
workloads must do.

usage: check_stats_report.py PYTHON SCRIPT OUTPUT_DIR
"""

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def main():
    python, script, output = sys.argv[1], sys.argv[2], Path(sys.argv[3])
    completed = subprocess.run(
        [sys.executable, "-m", "benchmarks", "stats", "--python", python, "--bench", "int_arith",
         "--bench", "attributes", "--scale", "1", "--script", script, "--output", str(output)],
        cwd=ROOT, capture_output=True, text=True, timeout=600)
    sys.stdout.write(completed.stdout)
    sys.stderr.write(completed.stderr)
    failures = []

    def check(condition, message):
        print(("ok:     " if condition else "FAILED: ") + message)
        if not condition:
            failures.append(message)

    check(completed.returncode == 0, "the stats command exits 0 (got %d)" % completed.returncode)
    if completed.returncode != 0:
        return 1
    sys.path.insert(0, str(ROOT))
    from benchmarks import specstats
    data = specstats.load(output / "stats.json")
    tables = data["tables"]
    check(sorted(data["workloads"]) == sorted(["int_arith", "attributes", Path(script).name]),
          "one set of counts per workload")
    from_build = subprocess.run([python, "-S", "-c", "import opcode; print(sorted(opcode._specializations))"],
                                capture_output=True, text=True, check=True).stdout.strip()
    check(str(sorted(tables["families"])) == from_build, "the families are the build's own")
    specializing = {generic for generic, forms in tables["families"].items()
                    if any(form.endswith("_ADAPTIVE") for form in forms)}
    check(all(kinds[:2] == ["OTHER", "OUT_OF_RANGE"] for kinds in tables["failure_kinds"].values())
          and set(tables["failure_kinds"]) == specializing and len(specializing) >= 11,
          "every specializing family's failure kinds come from the build's opcode module (%d)"
          % len(specializing))

    names = specstats.Names(tables)
    for workload, family, member in (("int_arith", "BINARY_OP", "BINARY_OP_ADD_INT"),
                                     ("int_arith", "COMPARE_OP", None),
                                     ("attributes", "LOAD_ATTR", "LOAD_ATTR_INSTANCE_VALUE"),
                                     ("attributes", "STORE_ATTR", None)):
        counts = data["workloads"][workload]
        rows = {r["family"]: r for r in specstats.family_rows(counts, names)}
        row = rows[family]
        check(row["hit"] > 0 and row["specialized"] > 0,
              "%s: %s hits (%d) and runs specialized forms (%d)" % (workload, family, row["hit"], row["specialized"]))
        if member:
            check(row["members"][member]["executions"] > 0,
                  "%s: %s ran (%d)" % (workload, member, row["members"][member]["executions"]))
    report = (output / "stats.md").read_text(encoding="utf-8")
    for heading in ("## Families", "## Quick forms and superinstructions", "## Top failure kinds",
                    "## Members", "## Instruction mix",
                    "## Consecutive pairs", "## Per workload"):
        check(heading in report, "the report has " + heading)
    section = report.split("## Top failure kinds")[1].split("##")[0]
    check(section.count("\n| `") >= 3 and not re.search(r"\| kind \d+ \|", section),
          "every failure kind in the report has a name")
    for chart in ("families.png", "mix.png"):
        check((output / chart).read_bytes()[:4] == b"\x89PNG", chart + " is a PNG")

    compared = subprocess.run([sys.executable, "-m", "benchmarks", "stats-compare",
                               str(output / "stats.json"), str(output / "stats.json")],
                              cwd=ROOT, capture_output=True, text=True, timeout=120)
    check(compared.returncode == 0 and "(+0.00%)" in compared.stdout,
          "a report compared with itself shows no change")
    print("%d check(s) failed" % len(failures) if failures else "all checks passed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
