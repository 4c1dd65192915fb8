"""The C writer: a body or a specializer block copied into the generated C as it is written
(comments, layout, preprocessor lines), with statements replaced by their expansions, removed
or followed by generated lines. The cases (emit_cases.py) and the specialize functions
(emit_specializer.py) both write their bodies through it.
"""

from __future__ import annotations

from . import ast

INDENT = "    "


class BodyCopy:
    """Edits at offsets of the file's text, applied in order by lines()."""

    def __init__(self, body: ast.Body):
        self.text = body.source.text
        self.start, self.end = body.start, body.end
        self.edits: list[tuple[int, int, str, object]] = []  # (start, end, what, lines)

    def replace(self, start: int, end: int, lines: list[str], inline: bool = False) -> None:
        """The statement at [start, end) becomes `lines` (one line: in place), each further
        line at the statement's indentation."""
        self.edits.append((start, end, "inline" if inline else "lines", lines))

    def remove(self, start: int, end: int) -> None:
        """The statement goes, and its line with it if it stood alone there."""
        self.edits.append((start, end, "remove", None))

    def insert_after(self, offset: int, lines: list[str]) -> None:
        """`lines` on lines of their own after the statement ending at `offset` (after a
        comment that ends its line), at its indentation."""
        line_end = self.text.find("\n", offset)
        rest = self.text[offset:line_end if line_end >= 0 else self.end].strip()
        if rest.startswith("//") or (rest.startswith("/*") and rest.endswith("*/")):
            offset = line_end if line_end >= 0 else self.end
        self.edits.append((offset, offset, "after", lines))

    def append(self, lines: list[str]) -> None:
        """`lines` at the end of the body, at its indentation."""
        self.edits.append((self.end, self.end, "end", lines))

    def lines(self) -> list[str]:
        """The copy, dedented (preprocessor lines in column 1), without blank lines at either
        end and without trailing blanks."""
        text, out, pos = self.text, [], self.start
        for start, end, what, lines in sorted(self.edits, key=lambda e: (e[0], e[1])):
            if start < pos:
                continue
            if what == "remove":
                line_start = text.rfind("\n", 0, start) + 1
                line_end = text.find("\n", end)
                line_end = len(text) if line_end == -1 else line_end
                if not text[line_start:start].strip() and not text[end:line_end].strip() \
                        and line_start >= pos:  # alone on its line: the line goes too
                    out.append(text[pos:line_start])
                    pos = min(line_end + 1, self.end)
                else:
                    out.append(text[pos:start])
                    pos = end
                continue
            out.append(text[pos:start])
            pos = end
            indent = _indent_of(text, start)
            if what == "inline":
                out.append(lines[0])
            elif what == "after":
                out.append("".join(f"\n{indent}{line}" for line in lines))
            elif what == "end":
                body_indent = _body_indent(text[self.start:self.end])
                if not "".join(out).endswith("\n"):
                    out.append("\n")
                out.append("".join(f"{body_indent}{line}\n" for line in lines))
            else:
                out.append(("\n" + indent).join(lines))
        out.append(text[pos:self.end])
        lines = "".join(out).expandtabs(4).split("\n")
        while lines and not lines[0].strip():
            lines.pop(0)
        while lines and not lines[-1].strip():
            lines.pop()
        code = [line for line in lines if line.strip() and not _directive(line)]
        margin = min((len(line) - len(line.lstrip()) for line in code), default=0)
        return [line.strip() if _directive(line) else line[margin:].rstrip() for line in lines]


def _directive(line: str) -> bool:
    return line.lstrip().startswith("#")


def _indent_of(text: str, offset: int) -> str:
    line_start = text.rfind("\n", 0, offset) + 1
    line = text[line_start:offset]
    return line[: len(line) - len(line.lstrip())]


def _body_indent(text: str) -> str:
    for line in text.split("\n"):
        if line.strip():
            return line[: len(line) - len(line.lstrip())]
    return INDENT


def braced(text: str, offset: int, lines: list[str]) -> list[str]:
    """Lines replacing a statement at `offset`: braced unless it stands in a block. A lone `if`
    is braced too: as the branch of an unbraced if/else it would capture the `else`."""
    before = text[:offset].rstrip()
    while True:  # look through comment lines above the statement
        last_line = before[before.rfind("\n") + 1:]
        if last_line.strip().startswith("//"):
            before = before[:before.rfind("\n")].rstrip() if "\n" in before else ""
            continue
        break
    if len(lines) == 1 and not lines[0].startswith("if "):
        return lines
    if before.endswith((";", "{", "}")) or before.endswith("*/"):
        return lines
    return ["{"] + [INDENT + line for line in lines] + ["}"]
