#!/usr/bin/env python3
"""`python3 -m workbench explain` on a real build: runs tests/explain/program.py and checks
what the report says about it against what the program must do on any 3.11 specializing
interpreter (and, on a -Dstats=true build, the failure kind of the remainder that never
specializes).

Each check reads the instruction rows of one function's section (parsed into line, offset,
instruction, argument, form, the offset of the superinstruction it runs in, and the cache and
"why" lines under it), never a substring that could come from elsewhere in the text: the legend
at the end holds most instruction names and words such as " in ".

usage: check_explain.py PYTHON OUTPUT_DIR
"""

import html
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PROGRAM = ROOT / "tests" / "explain" / "program.py"
LEGEND = "Specialized forms and superinstructions above, from instructions/:"

# "  LINE OFFSET  OPNAME  ARGUMENT  FORM[  in OFFSET]" (workbench/explain.py's render_text)
ROW = re.compile(r"^  +(\d+) +(\d+)  ([A-Z_0-9]+)(.*)$")
FORM = re.compile(r"(?:^|\s)(member|adaptive|generic|superinstruction|quick)$")
INSIDE = re.compile(r"\s+in (\d+)$")


def explain(python, *args):
    return subprocess.run([sys.executable, "-m", "workbench", "explain", str(PROGRAM),
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


def rows(lines):
    """The instruction rows of a section: dicts with line, offset, opname, argument, form
    ("" for none), inside (the superinstruction's offset, or None), fields and why (the lines
    under the row)."""
    result = []
    for line in lines:
        match = ROW.match(line)
        if match:
            tail = match.group(4)
            inside = INSIDE.search(tail)
            if inside:
                tail = tail[:inside.start()]
            form = FORM.search(tail.rstrip())
            tail = tail.rstrip()
            if form:
                tail = tail[:form.start()]
            result.append({"line": int(match.group(1)), "offset": int(match.group(2)),
                           "opname": match.group(3), "argument": tail.strip(),
                           "form": form.group(1) if form else "",
                           "inside": int(inside.group(1)) if inside else None,
                           "fields": "", "why": ""})
        elif result and line.startswith(" " * 14) and line.strip():
            detail = line.strip()
            key = "fields" if re.match(r"\w+=", detail) else "why"
            result[-1][key] = detail
    return result


def legend(text):
    """{name: doc comment} of the legend at the end of the text."""
    lines = text.splitlines()
    if LEGEND not in lines:
        return {}
    entries = {}
    for line in lines[lines.index(LEGEND) + 1:]:
        if not line.startswith("  "):
            break
        name, _, doc = line.strip().partition(": ")
        entries[name] = doc
    return entries


def dsl_doc(name):
    """The `///` doc comment of `inst NAME` in instructions/, read here without the generator."""
    for path in sorted((ROOT / "instructions").glob("*.inst")):
        match = re.search(r"((?:^///.*\n)+)inst %s\b" % name, path.read_text(encoding="utf-8"), re.M)
        if match:
            return " ".join(" ".join(line[3:] for line in match.group(1).splitlines()).split())
    return None


def superinstruction_problems(sections, family_of=None):
    """What is wrong with the "in OFFSET" marks of every section: each superinstruction must
    mark the instructions it runs (the next parts - 1 code units) with its offset, and those
    must be its parts; no other instruction may carry a mark. A part named by a family's
    generic instruction (`LOAD_FAST__LOAD_ATTR`: its last part is a member) is any form of
    that family (`family_of`: {specialized form: generic})."""
    family_of = family_of or {}
    problems, marked = [], 0
    for name, found in sections.items():
        covered = {}
        for row in found:
            if row["form"] != "superinstruction" or row["inside"] is not None:
                continue  # inside another one: only the outer run is marked
            parts = row["opname"].split("__")
            for k, part in enumerate(parts[1:], 1):
                covered[row["offset"] + 2 * k] = (row["offset"], part)
        for row in found:
            if row["offset"] in covered:
                start, part = covered[row["offset"]]
                actual = row["opname"].split("__")[0]
                if row["inside"] != start or part not in (actual, family_of.get(actual)):
                    problems.append("%s offset %d: %s, marked in %s; expected %s... marked in %d"
                                    % (name, row["offset"], row["opname"], row["inside"], part, start))
                else:
                    marked += 1
            elif row["inside"] is not None:
                problems.append("%s offset %d: %s marked in %d, which does not run it"
                                % (name, row["offset"], row["opname"], row["inside"]))
    if not marked:
        problems.append("no instruction is marked as run inside a superinstruction")
    return problems


def check_report(text, page, stats, family_of=None):
    """[(ok, message)] about explain's plain text of program.py and its HTML page."""
    results = []

    def check(condition, message):
        results.append((bool(condition), message))

    names = ("Point.__init__", "norm1", "remainders", "main")
    sections = {name: rows(section(text, name)) for name in names}
    check(all(sections.values()), "a section with instructions for every function of the program")

    norm1 = sections["norm1"]
    loads = [r for r in norm1 if r["argument"] in ("0 (x)", "1 (y)")]
    check(len(loads) == 2 and all(r["opname"] == "LOAD_ATTR_INSTANCE_VALUE" and r["form"] == "member"
                                  for r in loads),
          "norm1's loads of x and y are LOAD_ATTR_INSTANCE_VALUE members: %s"
          % [(r["opname"], r["form"]) for r in loads])
    check(loads and all(re.search(r"(^|  )version=\d+ \(type __main__\.Point\)(  |$)", r["fields"])
                        for r in loads),
          "their cached type version is named as Point's (its tp_version_tag): %s"
          % [r["fields"] for r in loads])
    members = [r for r in norm1 if r["form"] == "member"]
    check(len(members) == 3 and all(r["fields"].startswith("counter=53 (53 misses left before it "
                                                            "deoptimizes)") for r in members),
          "each of norm1's 3 members' counters reads as the misses left (53 after specializing)")

    init = sections["Point.__init__"]
    stores = [r for r in init if r["argument"] in ("0 (x)", "1 (y)")]
    check(len(stores) == 2 and all(r["opname"] == "STORE_ATTR_INSTANCE_VALUE" and r["form"] == "member"
                                   for r in stores),
          "Point.__init__ stores x and y with STORE_ATTR_INSTANCE_VALUE members: %s"
          % [(r["opname"], r["form"]) for r in stores])
    # self.x = x: LOAD_FAST x; LOAD_FAST self fuse into LOAD_FAST__LOAD_FAST at offset 2.
    first = {r["offset"]: r for r in init}
    fused, inner = first.get(2, {}), first.get(4, {})
    check(fused.get("opname") == "LOAD_FAST__LOAD_FAST" and fused.get("form") == "superinstruction"
          and inner.get("opname") == "LOAD_FAST" and inner.get("argument") == "0 (self)"
          and inner.get("inside") == 2,
          "Point.__init__'s LOAD_FAST__LOAD_FAST at 2 is a superinstruction and the LOAD_FAST self "
          "at 4 is marked 'in 2': %s, %s" % (fused, inner))
    problems = superinstruction_problems(sections, family_of)
    check(not problems, "every superinstruction marks exactly the instructions it runs with its "
          "offset%s" % (": " + "; ".join(problems[:4]) if problems else ""))

    remainders = sections["remainders"]
    modulo = [r for r in remainders if r["argument"] == "6 (%)"]
    row = modulo[0] if len(modulo) == 1 else {}
    if stats:
        check(row.get("opname") == "BINARY_OP_ADAPTIVE" and row.get("form") == "adaptive"
              and row.get("why") == "last specialization attempt failed: REMAINDER",
              "a stats build keeps %% adaptive and names the failure kind REMAINDER: %s" % row)
    else:
        check(row.get("opname") == "BINARY_OP" and row.get("form") == "generic"
              and "gave up for good" in row.get("why", ""),
              "%% stays the generic BINARY_OP for good: %s" % row)
    heads = [r["offset"] for r in remainders if r["opname"].startswith("FOR_ITER")]
    back = [r for r in remainders if r["opname"] == "JUMP_BACKWARD_QUICK" and r["form"] == "quick"]
    check(len(heads) == 1 and len(back) == 1 and back[0]["argument"].endswith("(to %d)" % heads[0]),
          "the loop is shown: a FOR_ITER and the JUMP_BACKWARD_QUICK back to it: %s, %s"
          % (heads, [r["argument"] for r in back]))

    entries = legend(text)
    doc = dsl_doc("LOAD_ATTR_INSTANCE_VALUE")
    check(doc and entries.get("LOAD_ATTR_INSTANCE_VALUE") == doc,
          "the legend has LOAD_ATTR_INSTANCE_VALUE's doc comment from instructions/: %r"
          % entries.get("LOAD_ATTR_INSTANCE_VALUE"))
    shown = {r["opname"] for found in sections.values() for r in found if r["form"] not in ("", "generic")}
    check(entries and set(entries) == shown,
          "the legend lists exactly the specialized forms, superinstructions and quick forms shown%s"
          % ("" if set(entries) == shown else ": not shown %s, missing %s"
             % (sorted(set(entries) - shown), sorted(shown - set(entries)))))
    check(doc and "<span title='%s'>LOAD_ATTR_INSTANCE_VALUE</span>" % html.escape(doc, quote=True) in page,
          "the HTML page has the doc comment of LOAD_ATTR_INSTANCE_VALUE on hover")
    check(re.search(r"<tr class='plain fused'><td>7</td><td>4</td><td class='op'><span title='[^']*'>"
                    r"LOAD_FAST</span></td><td>0 \(self\)</td><td>\(runs in 2\)</td>", page),
          "the HTML page marks Point.__init__'s LOAD_FAST self at 4 as run in 2")
    return results


def check_function_only(text):
    """[(ok, message)] about --call main() --repeat 2 --function norm1."""
    found = rows(section(text, "norm1"))
    loads = [r for r in found if r["opname"] == "LOAD_ATTR_INSTANCE_VALUE"]
    others = [line for line in text.splitlines()[1:]
              if line and not line.startswith(" ") and not line.startswith("norm1 (")
              and line != LEGEND]
    return [(len(loads) == 2 and not others
             and all("(type __explain__.Point)" in r["fields"] for r in loads),
             "--call runs the file as a module (Point is __explain__.Point) and --function shows "
             "that function alone: %s" % (others or [r["fields"] for r in loads]))]


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
    html_text = page.read_text(encoding="utf-8") if page.exists() else ""
    families = subprocess.run(
        [python, "-c", "import opcode\nfor g, ms in opcode._specializations.items():\n"
                       "    for m in ms: print(m, g)"],
        capture_output=True, text=True, check=True).stdout
    family_of = dict(line.split() for line in families.splitlines())
    for condition, message in check_report(text, html_text, stats, family_of):
        check(condition, message)

    only = explain(python, "--call", "main()", "--repeat", "2", "--function", "norm1")
    check(only.returncode == 0, "explain --call --function exits 0 (got %d)" % only.returncode)
    for condition, message in check_function_only(only.stdout):
        check(condition, message)
    missing = explain(python, "--function", "nothing_here")
    check(missing.returncode != 0 and "defines no function 'nothing_here'" in missing.stderr,
          "an unknown --function is an error that names it")
    print("%d check(s) failed" % len(failures) if failures else "all checks passed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
