"""The C writer: a body or a specializer block copied into the generated C as it is written
(comments, layout, preprocessor lines), with statements replaced by their expansions, removed
or followed by generated lines. The cases (emit_cases.py) and the specialize functions
(emit_specializer.py) both write their bodies through it.
"""

from __future__ import annotations

import contextlib

from .lexer import Span

INDENT = "    "


class BodyCopy:
    """Edits at offsets of the file's text, applied in order by lines()."""

    def __init__(self, body: Span):
        self.source = body.source
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
        end and without trailing blanks. Inside `line_origins`, each line that comes from the
        body carries its origin (`marked`)."""
        text, out, pos = self.text, _Text(self), self.start
        for start, end, what, lines in sorted(self.edits, key=lambda e: (e[0], e[1])):
            if start < pos:
                continue
            if what == "remove":
                line_start = text.rfind("\n", 0, start) + 1
                line_end = text.find("\n", end)
                line_end = len(text) if line_end == -1 else line_end
                if not text[line_start:start].strip() and not text[end:line_end].strip() \
                        and line_start >= pos:  # alone on its line: the line goes too
                    out.copy(pos, line_start)
                    pos = min(line_end + 1, self.end)
                else:
                    out.copy(pos, start)
                    pos = end
                continue
            out.copy(pos, start)
            pos = end
            indent = _indent_of(text, start)
            if what == "inline":
                out.add(lines[0], start, spread=True)
            elif what == "after":
                out.add("".join(f"\n{indent}{line}" for line in lines), None)
            elif what == "end":
                body_indent = _body_indent(text[self.start:self.end])
                if not out.ends_line():
                    out.add("\n", None)
                out.add("".join(f"{body_indent}{line}\n" for line in lines), None)
            else:  # the expansion of the statement at `start`: its lines are that line's
                out.add(("\n" + indent).join(lines), start)
        out.copy(pos, self.end)
        lines, origins = [line.expandtabs(4) for line in out.lines], out.origins
        while lines and not lines[0].strip():
            del lines[0], origins[0]
        while lines and not lines[-1].strip():
            del lines[-1], origins[-1]
        code = [line for line in lines if line.strip() and not _directive(line)]
        margin = min((len(line) - len(line.lstrip()) for line in code), default=0)
        lines = [line.strip() if _directive(line) else line[margin:].rstrip() for line in lines]
        if _ROOT is None or self.source.name.startswith("<"):  # or written by the generator
            return lines
        path = str((_ROOT / self.source.name).resolve())
        return [line if n is None else marked(line, path, n) for line, n in zip(lines, origins)]


class _Text:
    """The copy being made, as lines, each with its origin: the body line its first non-blank
    character comes from (for an expansion, its statement's line; a blank line, the line it is
    a copy of), else None."""

    def __init__(self, copy: BodyCopy):
        self.copy_of = copy
        self.lines = [""]
        self.origins: list[int | None] = [None]
        self.blank = [True]

    def ends_line(self) -> bool:
        return self.lines[-1] == "" and len(self.lines) > 1

    def copy(self, start: int, end: int) -> None:
        source = self.copy_of.source
        offset = start
        for k, piece in enumerate(self.copy_of.text[start:end].split("\n")):
            self._piece(piece, source.location(offset).line, new_line=k > 0)
            offset += len(piece) + 1

    def add(self, text: str, statement: int | None, spread: bool = False) -> None:
        """Generated text (`statement` None) or the expansion of the statement at offset
        `statement`: each line that statement's line, or with `spread` (an expansion in place,
        line for line) the statement's lines in turn."""
        line = None if statement is None else self.copy_of.source.location(statement).line
        for k, piece in enumerate(text.split("\n")):
            self._piece(piece, line + k if spread and line else line, new_line=k > 0)

    def _piece(self, piece: str, origin: int | None, new_line: bool) -> None:
        if new_line:
            self.lines.append("")
            self.origins.append(origin)
            self.blank.append(True)
        self.lines[-1] += piece
        if self.blank[-1] and piece.strip():
            self.origins[-1] = origin
            self.blank[-1] = False


# `line_origins(root)`: lines copied from bodies carry their origin (`#line`, emit_lines.py).
_ROOT = None
MARK = "\x00"


def marked(line: str, path: str, number: int) -> str:
    """`line` with its origin, which emit_lines.resolve turns into a `#line` directive."""
    return f"{line}{MARK}{number}{MARK}{path}"


@contextlib.contextmanager
def line_origins(root):
    """Within it, the lines of body copies carry their origins (paths under `root`)."""
    global _ROOT
    saved, _ROOT = _ROOT, root
    try:
        yield
    finally:
        _ROOT = saved


def _directive(line: str) -> bool:
    return line.lstrip().startswith("#")


def _indent_of(text: str, offset: int) -> str:
    line_start = text.rfind("\n", 0, offset) + 1
    line = text[line_start:offset]
    return line[: len(line) - len(line.lstrip())]


def _body_indent(text: str) -> str:
    """The indentation of the first line that is not blank."""
    return next((line[: len(line) - len(line.lstrip())] for line in text.split("\n")
                 if line.strip()), INDENT)


def braced(text: str, offset: int, lines: list[str]) -> list[str]:
    """Lines replacing a statement at `offset`: braced unless it stands in a block. A lone `if`
    is braced too: as the branch of an unbraced if/else it would capture the `else`."""
    before = text[:offset].rstrip()
    # look through comment lines above the statement
    while before[before.rfind("\n") + 1:].strip().startswith("//"):
        before = before[:before.rfind("\n")].rstrip() if "\n" in before else ""
    if len(lines) == 1 and not lines[0].startswith("if "):
        return lines
    if before.endswith((";", "{", "}", "*/")):
        return lines
    return ["{"] + [INDENT + line for line in lines] + ["}"]
