"""The generator under bad input: random mutations of the real instructions give diagnostics
(never a traceback, never partial output); any depth of nesting; bounded memory for any number
of errors; a failed write leaves every output as it was. (Time linear in the input's size is
measured, not asserted: docs/dsl.md, section 5.)"""

from __future__ import annotations

import os
import random
import shutil

import pytest

import genutil
from generator import driver
from generator.__main__ import main
from generator.diagnostics import DiagnosticSink, Location
from genutil import ROOT, tree

# More with QUICKEN_MUTATIONS=N (each costs about half a second).
MUTATIONS = int(os.environ.get("QUICKEN_MUTATIONS", "40"))
TOKENS = ["{", "}", "(", ")", ";", ",", "--", "=", "DEOPT_IF(x);", "ERROR_IF(x, error);",
          "inst", "family", "cache", "op", "super", "///", "/*", "*/", "\"", "'", "#if 1",
          "members:", "[", "]", "oparg", "DISPATCH();", "STACK_SHRINK(1);", "\t", "\\", "é",
          "\x00", "9999", "if (", "else", "fuses", "jump", "->", "+"]


def mutate(text: str, rng: random.Random) -> str:
    lines = text.split("\n")
    kind = rng.randrange(5)
    at = rng.randrange(len(text))
    if kind == 0:  # delete a stretch
        return text[:at] + text[at + rng.randrange(1, 200):]
    if kind == 1:  # insert a token
        return text[:at] + rng.choice(TOKENS) + text[at:]
    if kind == 2:  # duplicate a line
        k = rng.randrange(len(lines))
        return "\n".join(lines[:k + 1] + [lines[k]] + lines[k + 1:])
    if kind == 3:  # swap two lines
        a, b = rng.randrange(len(lines)), rng.randrange(len(lines))
        lines[a], lines[b] = lines[b], lines[a]
        return "\n".join(lines)
    return text[:at] + text[at + 1:at + 2] + text[at:at + 1] + text[at + 2:]  # transpose


def test_random_mutations_give_diagnostics_never_a_traceback(tmp_path, capsys):
    rng = random.Random(20261203)
    sources = sorted((ROOT / "instructions").glob("*.inst"))
    outcomes = {0: 0, 1: 0}
    for n in range(MUTATIONS):
        root = tmp_path / f"m{n}"
        shutil.copytree(ROOT / "instructions", root / "instructions")
        victim = root / "instructions" / rng.choice(sources).name
        text = victim.read_text(encoding="utf-8")
        for _ in range(rng.randrange(1, 4)):
            text = mutate(text, rng)
        victim.write_bytes(text.encode("utf-8", errors="surrogateescape"))
        out = tmp_path / f"out{n}"
        status = main(["generate", "--root", str(root), "--output-root", str(out)])
        captured = capsys.readouterr()
        assert status in (0, 1), (n, captured.err[-2000:])
        outcomes[status] += 1
        if status == 1:
            assert tree(out) == [], n  # nothing was written
            assert "error(s); nothing was written" in captured.err
            assert "Traceback" not in captured.err
            first = captured.err.splitlines()[0]
            assert first.startswith("instructions/") and ": error: " in first, first
        shutil.rmtree(root)
    assert outcomes[1] >= MUTATIONS // 4  # the mutations do break things (and were reported)


def test_a_statement_without_its_semicolon_at_the_body_end_is_a_diagnostic(project):
    # `Py_DECREF()` as the body's last statement: the reader looked at the argument it does
    # not have (an AttributeError), and a last statement without `;` became a C error
    for last, col in (("Py_DECREF()", 15), ("Py_DECREF(x)", 16), ("r = x", 9)):
        text = f"inst A = 100 (x -- r) {{\n    r = x;\n    {last}\n}}\n"
        diags = genutil.errors(project(text))
        assert [(d.location.line, d.location.col, d.message) for d in diags] == [
            (3, col, "expected ';' after this statement")], last


def test_any_depth_of_nesting_parses(project):
    depth = 20_000  # far beyond Python's recursion limit
    body = "if (x) {\n" * depth + "Py_INCREF(x);\n" + "}\n" * depth
    m = genutil.model_of(project(f"inst A = 100 (x -- r) {{\n{body}    r = x;\n}}\n"))
    statements = m.instructions[0].parts[0].body.statements
    assert len(list(statements[0].walk())) == depth + 1
    assert {"r"} <= set().union(*(s.all_assigns for s in statements))


def test_a_guard_below_deep_nesting_still_sees_what_came_first(project):
    depth = 5_000
    family = ("cache C {\n counter: 1;\n}\ninst A = 100 (x -- r) {\n r = x;\n}\n"
              "inst A_AD (x -- unused) {\n DISPATCH_SAME_OPARG();\n}\n"
              "family A {\n cache: C;\n adaptive: A_AD;\n members: A_M;\n}\n")
    body = "Py_INCREF(x);\n" + "if (x) {\n" * depth + "DEOPT_IF(x == NULL);\n" + "}\n" * depth
    diags = genutil.errors(project({"a.inst": f"inst A_M (x -- r) {{\n{body}r = x;\n}}\n" + family}))
    assert [(d.location.line, d.notes[0][0].line) for d in diags] == [(2, depth + 3)]


def test_the_number_of_errors_kept_is_bounded():
    sink = DiagnosticSink(limit=100)
    for n in range(50_000, 0, -1):  # the last ones are the first in source order
        sink.error(Location("a.inst", n, 1), "broken")
        assert len(sink.diagnostics) < 200
    with pytest.raises(Exception) as info:
        sink.raise_if_any()
    err = info.value
    assert err.total == 50_000
    assert [d.location.line for d in err.diagnostics] == list(range(1, 101))


def test_a_failed_write_leaves_every_output_as_it_was(tmp_path, monkeypatch):
    root = tmp_path / "proj"
    genutil.write_project(root, "inst NOP = 9 (--) {\n}\ninst A = 100 (--) {\n}\n")
    out = tmp_path / "out"
    first = genutil.generate(root)
    driver.write_files(first, out)
    before = {rel: (out / rel).read_bytes() for rel in tree(out)}
    genutil.write_project(root, "inst NOP = 9 (--) {\n    x();\n}\ninst B = 101 (--) {\n}\n")
    second = genutil.generate(root)
    changed = [rel for rel in sorted(second) if second[rel] != first[rel]]
    assert len(changed) >= 3
    real_replace = os.replace
    calls = []

    def failing_replace(src, dst):
        calls.append(dst)
        if len(calls) == 3:
            raise OSError(28, "No space left on device")
        return real_replace(src, dst)

    monkeypatch.setattr(driver.os, "replace", failing_replace)
    with pytest.raises(OSError):
        driver.write_files(second, out)
    monkeypatch.setattr(driver.os, "replace", real_replace)
    assert {rel: (out / rel).read_bytes() for rel in tree(out)} == before
    assert not [p for p in out.rglob(".*") if p.is_file()]  # no temporary file left
