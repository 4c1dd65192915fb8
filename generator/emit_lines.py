"""`#line` directives: compiler errors and gdb point into instructions/.

Off by default (the committed generated files have none, so that they are the same on every
machine); `python3 -m generator lines DIR` writes copies of generated_cases.c.h and
specialize_families.c.h with them (absolute paths, for gdb), which the build compiles with
`-Dline_directives=true`.

The C writer knows where each line it copies comes from (cwriter.line_origins): a line of a
body or of a specializer block, or a DSL statement expanded in its place (`DEOPT_IF(x)`
becomes `DEOPT_IF(x, FAMILY)`, an `ERROR_IF` four lines), belongs to that body line; what the
generator adds (loads of the inputs, stores, the epilogue, doc comments) belongs to the
generated file itself. A `#line` directive starts every run of lines whose origin does not
simply continue the previous line's.
"""

from __future__ import annotations

from .cwriter import MARK


def resolve(text: str, generated_path: str) -> str:
    """The rendered file with its lines' origins (cwriter.marked) turned into `#line`
    directives: a source origin as it is, the generated file's own origin with the number of
    the line that follows the directive."""
    out: list[str] = []
    previous = None  # the file starts with its own numbering
    for line in text.split("\n"):
        origin = None
        if MARK in line:
            line, number, path = line.split(MARK)
            origin = (path, int(number))
            line = line if line.strip() else ""  # a blank line indented with the code
        continues = (origin is None and previous is None) or (
            origin is not None and previous is not None and origin == (previous[0], previous[1] + 1))
        if not continues:
            out.append(f'#line {len(out) + 2} "{generated_path}"' if origin is None
                       else f'#line {origin[1]} "{origin[0]}"')
        out.append(line)
        previous = origin
    return "\n".join(out)
