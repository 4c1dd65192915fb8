"""Errors as values with locations: ``file:line:col: error: message`` plus the line and a caret."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Location:
    """A place in a source file: 1-based line and column."""

    file: str
    line: int
    col: int
    source_line: str = ""

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.col}"


# A quoted line shows at most this many characters on each side of the column: a long
# line (thousands of names) quoted whole by each of its diagnostics would make the report
# quadratic in the line's length.
QUOTE_SIDE = 80


def _quote(location: Location) -> str:
    """The source line and a caret under the column (tabs kept, so that the caret lines up);
    a long line is cut to a window around the column, marked with `...`."""
    if not location.source_line:
        return ""
    full = location.source_line.rstrip("\n")
    col = location.col - 1
    start = max(col - QUOTE_SIDE, 0)
    end = min(col + QUOTE_SIDE, len(full))
    line = ("..." if start else "") + full[start:end] + ("..." if end < len(full) else "")
    before = ("..." if start else "") + full[start:col]
    pad = "".join("\t" if c == "\t" else " " for c in before)
    return f"\n{line}\n{pad}^"


@dataclass(frozen=True)
class Diagnostic:
    location: Location
    message: str
    # Other places that explain the error: ((location, text), ...), shown as `note:` lines.
    notes: tuple[tuple[Location, str], ...] = ()

    def format(self) -> str:
        text = f"{self.location}: error: {self.message}{_quote(self.location)}"
        for location, note in self.notes:
            text += f"\n{location}: note: {note}{_quote(location)}"
        return text


def _order(d: Diagnostic):
    return (d.location.file, d.location.line, d.location.col, d.message)


class GeneratorError(Exception):
    """Raised with the diagnostics found, in source order; nothing is written when it is
    raised. `total` counts them all, also those a sink did not keep."""

    def __init__(self, diagnostics: list[Diagnostic], total: int | None = None):
        self.diagnostics = sorted(diagnostics, key=_order)
        self.total = len(self.diagnostics) if total is None else total
        super().__init__(f"{self.total} error(s)")

    def __str__(self) -> str:
        return "\n".join(d.format() for d in self.diagnostics)


class DiagnosticSink:
    """Collects diagnostics so that one run reports every error, not just the first; keeps
    the first `limit` in source order and counts the rest, so that memory stays bounded
    however many errors a broken input makes."""

    def __init__(self, limit: int = 10_000) -> None:
        self.diagnostics: list[Diagnostic] = []
        self.limit = limit
        self.total = 0

    def error(self, location: Location, message: str,
              notes: tuple[tuple[Location, str], ...] = ()) -> None:
        self.total += 1
        self.diagnostics.append(Diagnostic(location, message, notes))
        if len(self.diagnostics) >= 2 * self.limit:  # amortized: sort and cut now and then
            self.diagnostics = sorted(self.diagnostics, key=_order)[:self.limit]

    def raise_if_any(self) -> None:
        if self.diagnostics:
            raise GeneratorError(sorted(self.diagnostics, key=_order)[:self.limit], self.total)
