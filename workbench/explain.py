"""Explain: what the specializer made of a program's code (python3 -m workbench explain).

The program runs on the interpreter under study (workbench/explain_child.py, in that
interpreter); afterwards every code object it defined is shown as quickened bytecode: each
instruction's current form (specialized member, adaptive, superinstruction, quick form, or a
generic instruction the specializer gave up on), and its inline cache decoded field by field with
the build's cache layout (its opcode._cache_format, which the generator writes from the `cache`
declarations of instructions/): the counter as what it means for that form (misses left before
deoptimizing, or runs left before the next specialization attempt and the backoff), versions
with the type that has that version tag, cached pointers with the attribute they point to. On a
statistics build (-Dstats=true) an instruction that stayed adaptive or generic also shows the
failure kind of its last specialization attempt. The DSL's doc comment of every instruction
comes from instructions/ (the plain text's legend, the HTML page's hover text).
"""

import html
import json
import os
import subprocess
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

CHILD = Path(__file__).with_name("explain_child.py")
ROOT = Path(__file__).resolve().parent.parent


class ExplainError(Exception):
    """The program could not be run and explained."""


def run(python, path, call=None, repeat=1, function=None, timeout=600):
    """The child's findings for PATH run on PYTHON (a dict, explain_child.FORMAT)."""
    with tempfile.TemporaryDirectory(prefix="explain-") as scratch:
        out = os.path.join(scratch, "explain.json")
        command = [str(python), str(CHILD), out, os.path.abspath(path)]
        if call is not None:
            command += ["--call", call, "--repeat", str(repeat)]
        if function is not None:
            command += ["--function", function]
        # The user's program runs in the user's environment (PYTHONPATH, a virtual
        # environment's variables), as `python FILE` would; a statistics build writes its
        # figures into the scratch folder, not to stderr.
        env = dict(os.environ, QUICKEN_STATS_DIR=scratch)
        completed = subprocess.run(command, env=env, stdin=subprocess.DEVNULL,
                                   capture_output=True, text=True, timeout=timeout)
        if completed.returncode != 0 or not os.path.exists(out):
            if os.path.exists(out + ".error"):
                with open(out + ".error", encoding="utf-8") as f:
                    why = "the program raised:\n" + f.read().rstrip()
            else:
                why = completed.stderr.strip()[-2000:]
            raise ExplainError("%s %s failed (exit status %d):\n%s" % (
                python, path, completed.returncode, why))
        with open(out, encoding="utf-8") as f:
            data = json.load(f)
    data["program_output"] = completed.stdout
    return data


def load_docs(root=ROOT):
    """{instruction name: doc comment} from instructions/, or an empty dict when instructions/
    cannot be loaded (the report then lacks the doc comments only)."""
    try:
        from generator.driver import find_sources, load_model
        model = load_model(find_sources(root), root)
    except Exception:  # noqa: BLE001 - a broken instructions/ must not stop explaining a build
        return {}
    return {inst.name: " ".join(inst.doc.split()) for inst in model.instructions}


@dataclass
class Field:
    name: str
    size: int
    value: int
    meaning: str = ""


@dataclass
class Row:
    offset: int
    line: int
    opname: str
    base: str
    form: str  # member, adaptive, generic, superinstruction, quick, plain
    arg: object
    argrepr: str
    fields: list = field(default_factory=list)
    why: str = ""
    fused_into: int | None = None  # offset of the superinstruction this one runs inside


def forms(data):
    """{opname: form} from the build's opcode._specializations."""
    result = {}
    for family, members in data["specializations"].items():
        if any(name.endswith("_ADAPTIVE") for name in members):
            result[family] = "generic"  # a family that specializes: its generic form gave up
        for name in members:
            if name.endswith("_ADAPTIVE"):
                result[name] = "adaptive"
            elif "__" in name:
                result[name] = "superinstruction"
            elif name.endswith("_QUICK"):
                result[name] = "quick"
            else:
                result[name] = "member"
    return result


def decode_fields(entry, layout, form, data):
    """The cache of ENTRY as fields of LAYOUT ({name: size in code units}, in order)."""
    if form not in ("member", "adaptive"):
        return []  # a generic instruction reads no cache entry
    fields, position = [], 0
    versions = {int(k): v for k, v in data["type_versions"].items()}
    objects = {int(k): v for k, v in data["object_names"].items()}
    for name, size in layout.items():
        value = 0
        for k in range(size):
            value |= entry["caches"][position + k] << (16 * k)
        position += size
        if name == "counter":
            if form == "member":
                meaning = "%d misses left before it deoptimizes" % value
            elif form == "adaptive":
                if value == 0:
                    meaning = "tries to specialize when next run"
                else:
                    meaning = "next try in %d runs (backoff %d)" % (value >> 4, value & 15)
            else:
                meaning = ""
        elif form != "member":
            continue  # stale: only the counter is read before a member is installed
        elif size == 4:
            meaning = objects.get(value, "")
            fields.append(Field(name, size, value, meaning))
            continue
        elif size == 2 and "version" in name and "keys" not in name and "func" not in name:
            meaning = ("type %s" % versions[value]) if value in versions else ""
        else:
            meaning = ""
        fields.append(Field(name, size, value, meaning))
    return fields


def why(entry, form, data):
    """Why an instruction of a family stayed adaptive or generic."""
    failure = entry.get("failure")
    if failure:
        family, kind = failure
        kinds = data["failure_kinds"].get(family, [])
        name = kinds[kind] if 0 <= kind < len(kinds) else "kind %d" % kind
        return "last specialization attempt failed: %s" % name
    if form == "generic":
        return ("the generic instruction: the specializer gave up for good (no member can apply), "
                "or the build does not specialize (-Dspecialize=false)")
    if form == "adaptive":
        counter = entry["caches"][0] if entry["caches"] else 0
        if counter & 15 and data["site_failures"]:
            return ("not specialized: no failed attempt recorded, so it deoptimized (which "
                    "restarts at backoff 5)")
        if counter & 15:
            return ("not specialized: backoff %d after failed attempts or a deopt (which restarts "
                    "at backoff 5); a -Dstats=true build names the failure kind" % (counter & 15))
        return "not specialized yet: tries when next run"
    return ""


def rows(record, data):
    kinds = forms(data)
    result, fused_until, fused_at = [], -1, None
    for entry in record["instructions"]:
        form = kinds.get(entry["opname"], "plain")
        row = Row(entry["offset"], entry["line"], entry["opname"], entry["base"], form,
                  entry["arg"], entry["argrepr"])
        if entry["offset"] <= fused_until:
            row.fused_into = fused_at  # runs inside the superinstruction, when fallen into
        elif form == "superinstruction":
            parts = entry["opname"].count("__") + 1
            fused_at, fused_until = entry["offset"], entry["offset"] + 2 * (parts - 1)
        layout = data["cache_format"].get(entry["base"])
        if layout and record["quickened"]:
            row.fields = decode_fields(entry, layout, form, data)
            row.why = why(entry, form, data)
        result.append(row)
    return result


def argument_text(row, width=40):
    text = "" if row.arg is None else str(row.arg)
    if row.argrepr:
        shown = row.argrepr if len(row.argrepr) <= width else row.argrepr[:width - 3] + "..."
        text += " (%s)" % shown
    return text


def summary(record_rows):
    counts = {}
    for row in record_rows:
        counts[row.form] = counts.get(row.form, 0) + 1
    order = ["member", "adaptive", "generic", "superinstruction", "quick", "plain"]
    names = {"member": "specialized", "superinstruction": "superinstructions", "quick": "quick forms",
             "plain": "others"}
    return ", ".join("%d %s" % (counts[k], names.get(k, k)) for k in order if counts.get(k))


def title(record):
    return "%s (%s:%d)" % (record["qualname"], os.path.basename(record["filename"]),
                           record["firstlineno"])


def render_text(data, docs):
    out = ["Explained on %s (cache tag %s%s)" % (
        data["version"].split()[0], data["cache_tag"],
        ", statistics build" if data["stats_build"] else "")]
    used = set()
    for record in data["codes"]:
        record_rows = rows(record, data)
        out.append("")
        if not record["quickened"]:
            out.append("%s: not quickened (it ran fewer than 8 times: calls plus loop "
                       "iterations)" % title(record))
            continue
        out.append("%s: %s" % (title(record), summary(record_rows)))
        for row in record_rows:
            used.add(row.opname)
            argument = argument_text(row)
            mark = "  in %d" % row.fused_into if row.fused_into is not None else ""
            out.append("  %5d %5d  %-40s %-24s %s%s" % (row.line, row.offset, row.opname, argument,
                                                        row.form if row.form != "plain" else "",
                                                        mark))
            if row.fields:
                out.append("  %12s%s" % ("", "  ".join(
                    "%s=%s%s" % (f.name, hex(f.value) if f.size == 4 else f.value,
                                 " (%s)" % f.meaning if f.meaning else "") for f in row.fields)))
            if row.why:
                out.append("  %12s%s" % ("", row.why))
    kinds = forms(data)
    legend = [name for name in sorted(used) if docs.get(name) and kinds.get(name, "generic") != "generic"]
    if legend:
        out += ["", "Specialized forms and superinstructions above, from instructions/:"]
        for name in legend:
            out.append("  %s: %s" % (name, docs[name]))
    return "\n".join(out) + "\n"


STYLE = """
body { font-family: sans-serif; margin: 2em; }
table { border-collapse: collapse; margin-bottom: 2em; }
td, th { padding: 2px 8px; text-align: left; vertical-align: top; font-family: monospace; }
th { border-bottom: 1px solid #888; font-family: sans-serif; }
tr.member td.op { color: #06c; font-weight: bold; }
tr.adaptive td.op { color: #b60; }
tr.generic td.op { color: #b00; }
tr.superinstruction td.op { color: #070; }
tr.fused { color: #999; }
td.op span { border-bottom: 1px dotted #888; cursor: help; }
td.why { color: #555; font-family: sans-serif; }
"""


def render_html(data, docs):
    e = html.escape
    parts = ["<!DOCTYPE html>", "<html><head><meta charset='utf-8'><title>quicken explain</title>",
             "<style>%s</style></head><body>" % STYLE,
             "<h1>Quickened bytecode</h1>",
             "<p>%s, cache tag <code>%s</code>%s. Hover over an instruction for its doc comment in "
             "instructions/.</p>" % (e(data["version"].split()[0]), e(data["cache_tag"]),
                                     ", statistics build" if data["stats_build"] else "")]
    for record in data["codes"]:
        record_rows = rows(record, data)
        parts.append("<h2>%s</h2>" % e(title(record)))
        if not record["quickened"]:
            parts.append("<p>Not quickened (it ran fewer than 8 times).</p>")
            continue
        parts.append("<p>%s</p>" % e(summary(record_rows)))
        parts.append("<table><tr><th>line</th><th>offset</th><th>instruction</th><th>argument</th>"
                     "<th>form</th><th>inline cache</th><th>why</th></tr>")
        for row in record_rows:
            doc = docs.get(row.opname) or docs.get(row.base) or ""
            argument = argument_text(row, 80)
            cache = "<br>".join(
                "%s = %s%s" % (e(f.name), hex(f.value) if f.size == 4 else f.value,
                               e(" (%s)" % f.meaning) if f.meaning else "") for f in row.fields)
            classes = row.form + (" fused" if row.fused_into is not None else "")
            form = row.form if row.form != "plain" else ""
            if row.fused_into is not None:
                form += " (runs in %d)" % row.fused_into
            parts.append("<tr class='%s'><td>%d</td><td>%d</td><td class='op'><span title='%s'>%s"
                         "</span></td><td>%s</td><td>%s</td><td>%s</td><td class='why'>%s</td></tr>"
                         % (classes, row.line, row.offset, e(doc, quote=True), e(row.opname),
                            e(argument), e(form.strip()), cache, e(row.why)))
        parts.append("</table>")
    parts.append("</body></html>")
    return "\n".join(parts) + "\n"
