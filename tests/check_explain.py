#!/usr/bin/env python3
"""`python3 -m benchmarks explain` on a real build: runs tests/explain/program.py and checks
what the report says about it against what the program must do on any 3.11 specializing
interpreter (and, on a -Dstats=true build, the failure kind of the remainder that never
specializes).

usage: check_explain.py PYTHON OUTPUT_DIR
"""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PROGRAM = ROOT / "tests" / "explain" / "program.py"


def explain(python, *args):
    return subprocess.run([sys.executable, "-m", "benchmarks", "explain", str(PROGRAM),
                           "--python", python, *args],
                          cwd=ROOT, capture_output=True, text=True, timeout=300)


def section(text, name):
    """The lines of the code object NAME's section."""
    lines, inside = [], False
    for line in text.splitlines():
        if line and not line.startswith(" "):
            inside = line.startswith(name + " (")
        if inside:
            lines.append(line)
    return lines


def main():
    python, output = sys.argv[1], Path(sys.argv[2])
    output.mkdir(parents=True, exist_ok=True)
    page = output / "explain.html"
    failures = []

    def check(condition, message):
        print(("ok:     " if condition else "FAILED: ") + message)
        if not condition:
            failures.append(message)

    completed = explain(python, "--html", str(page))
    sys.stdout.write(completed.stdout)
    sys.stderr.write(completed.stderr)
    check(completed.returncode == 0, "explain exits 0 (got %d)" % completed.returncode)
    if completed.returncode != 0:
        return 1
    text = completed.stdout
    stats = ", statistics build" in text.splitlines()[0]
    check(all(section(text, name) for name in ("Point.__init__", "norm1", "remainders", "main")),
          "a section for every function of the program")
    norm1 = "\n".join(section(text, "norm1"))
    check("LOAD_ATTR_INSTANCE_VALUE" in norm1 and "member" in norm1,
          "norm1's attribute loads are LOAD_ATTR_INSTANCE_VALUE members")
    check("(type __main__.Point)" in norm1,
          "the cached type version is named as Point's (its tp_version_tag)")
    check("counter=53 (53 misses left before it deoptimizes)" in norm1,
          "a member's counter reads as the misses left (53 after specializing)")
    init = "\n".join(section(text, "Point.__init__"))
    check("STORE_ATTR_INSTANCE_VALUE" in init, "Point.__init__ stores into the inline values")
    check(any("superinstruction" in line for line in section(text, "main")) and " in " in text,
          "superinstructions are shown, with the instructions that run inside them")
    rows = section(text, "remainders")
    at = next(i for i, line in enumerate(rows) if "(%)" in line)
    if stats:
        check("BINARY_OP_ADAPTIVE" in rows[at] and "failed: REMAINDER" in "\n".join(rows[at:at + 3]),
              "a stats build keeps %% adaptive and names the failure kind REMAINDER: %r" % rows[at:at + 3])
    else:
        check(" BINARY_OP " in rows[at] and "for good" in rows[at + 1],
              "%% stays the generic BINARY_OP for good: %r" % rows[at:at + 3])
    check("FOR_ITER" in "\n".join(rows), "the loop is shown")
    check("LOAD_ATTR_INSTANCE_VALUE: " in text, "the legend has the DSL's doc comment")
    html = page.read_text(encoding="utf-8") if page.exists() else ""
    check("<span title='LOAD_ATTR of an instance attribute" in html,
          "the HTML page has the doc comment of LOAD_ATTR_INSTANCE_VALUE on hover")

    only = explain(python, "--call", "main()", "--repeat", "2", "--function", "norm1")
    check(only.returncode == 0 and section(only.stdout, "norm1") and not section(only.stdout, "main")
          and "(type __explain__.Point)" in only.stdout,
          "--call runs the file as a module and --function shows that function alone")
    missing = explain(python, "--function", "nothing_here")
    check(missing.returncode != 0 and "defines no function 'nothing_here'" in missing.stderr,
          "an unknown --function is an error that names it")
    print("%d check(s) failed" % len(failures) if failures else "all checks passed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
