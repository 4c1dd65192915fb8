"""`#line` directives for the cases: compiler errors and gdb point into instructions/.

Off by default (the committed generated_cases.c.h has none, so that it is the same on every
machine); `python3 -m generator lines OUT` writes a copy with them (absolute paths, for gdb),
which the build compiles with `-Dline_directives=true`.

Each case is aligned with the source lines of its body (or of its parts' bodies) line by line:
a line copied from a body, or a DSL statement expanded in its place (`DEOPT_IF(x)` becomes
`DEOPT_IF(x, FAMILY)`, an `ERROR_IF` four lines), belongs to that body line; what the
generator adds (loads of the inputs, stores, the epilogue, doc comments) belongs to the
generated file itself. A `#line` directive starts every run of lines whose origin does not
simply continue the previous line's.
"""

from __future__ import annotations

import difflib
from pathlib import Path

from . import dsl, model

Origin = tuple[str, int] | None  # (file, line), or None for the generated file
# Body statements the generator rewrites in place (section 4 of docs/dsl.md), by their call.
EXPANDED = {name + "(": dsl.form(name).kind for name in dsl.names_of(dsl.CASE_REWRITES)}


def _rewritten(line: str) -> str | None:
    """The kind of the DSL statement a body line starts with, if the case rewrites it."""
    return next((kind for call, kind in EXPANDED.items() if line.startswith(call)), None)


def body_lines(inst: model.Instruction, root: Path) -> list[tuple[str, tuple[str, int]]]:
    """(stripped text, origin) of every line of the instruction's bodies, in order."""
    result = []
    for part in inst.parts:
        source = part.body.source
        if source.source.name.startswith("<"):  # written by the generator (an adaptive form)
            continue
        first_line = source.source.location(source.start).line
        path = str((root / source.source.name).resolve())
        for k, line in enumerate(source.text.split("\n")):
            result.append((line.strip(), (path, first_line + k)))
    return result


def origins(case: list[str], inst: model.Instruction, root: Path) -> list[Origin]:
    """The origin of each line of a case (emit_cases.emit_instruction's lines)."""
    source = body_lines(inst, root)
    matcher = difflib.SequenceMatcher(None, [t for t, _ in source], [c.strip() for c in case],
                                      autojunk=False)
    result: list[Origin] = [None] * len(case)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            for k in range(j2 - j1):
                result[j1 + k] = source[i1 + k][1]
        elif tag == "replace":
            _expansions(source[i1:i2], [c.strip() for c in case[j1:j2]], result, j1)
    return result


def _expansions(source: list, case: list[str], result: list[Origin], offset: int) -> None:
    """In a stretch where the case differs from the body, give the lines that expand a DSL
    statement to that statement: `DEOPT_IF(x, FAMILY);`; an `ERROR_IF`'s `if (...) goto ...;`
    or its braced form; a `DISPATCH()`'s epilogue up to its `DISPATCH();`. The rest (stores
    and epilogues the generator adds) stays the generated file's."""
    i = 0
    j = 0
    while i < len(source) and j < len(case):
        text, origin = source[i]
        line = case[j]
        kind = _rewritten(text)
        if kind == dsl.GUARD and line.startswith(text[:text.index("(") + 1]):
            result[offset + j] = origin  # DEOPT_IF(x) -> DEOPT_IF(x, FAMILY)
            i, j = i + 1, j + 1
        elif kind == dsl.ERROR and line.startswith("if ("):
            result[offset + j] = origin
            j += 1
            if line.endswith("{"):
                while j < len(case):
                    result[offset + j] = origin
                    j += 1
                    if case[j - 1] == "}":
                        break
            i += 1
        elif kind in (dsl.DISPATCH, dsl.DISPATCH_JUMPED):
            while j < len(case):
                result[offset + j] = origin
                j += 1
                if case[j - 1] == "DISPATCH();":
                    break
            i += 1
        elif kind is not None:
            j += 1  # a line the generator added before the expansion
        else:
            i += 1


MARK = "//#line-origin "


def with_markers(case: list[str], inst: model.Instruction, root: Path) -> list[str]:
    """The case with a marker line wherever the origin does not continue the previous one;
    `resolve_markers` turns the markers into `#line` directives once the file is complete."""
    out: list[str] = []
    previous: Origin = None  # what comes before a case is the generator's, with its own numbers
    for line, origin in zip(case, origins(case, inst, root)):
        continues = (origin is None and previous is None) or (
            origin is not None and previous is not None and origin[0] == previous[0]
            and origin[1] == previous[1] + 1)
        if not continues:
            out.append(MARK + ("generated" if origin is None else f"{origin[1]} {origin[0]}"))
        out.append(line)
        previous = origin
    if previous is not None:
        out.append(MARK + "generated")  # what follows the case is the generator's
    return out


def resolve_markers(text: str, generated_path: str) -> str:
    """Replace the markers by `#line` directives: a source origin as it is, the generated
    file's own origin with the number of the line that follows the directive."""
    lines = text.split("\n")
    out: list[str] = []
    for line in lines:
        stripped = line.strip()
        if stripped.startswith(MARK):
            what = stripped[len(MARK):]
            if what == "generated":
                out.append(f'#line {len(out) + 2} "{generated_path}"')
            else:
                number, path = what.split(" ", 1)
                out.append(f'#line {number} "{path}"')
            continue
        out.append(line)
    return "\n".join(out)
