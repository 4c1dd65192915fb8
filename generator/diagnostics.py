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


def _quote(location: Location) -> str:
    """The source line and a caret under the column (tabs kept, so that the caret lines up)."""
    if not location.source_line:
        return ""
    line = location.source_line.rstrip("\n")
    pad = "".join("\t" if c == "\t" else " " for c in line[:location.col - 1])
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


class GeneratorError(Exception):
    """Raised with every diagnostic found; nothing is written when it is raised."""

    def __init__(self, diagnostics: list[Diagnostic]):
        self.diagnostics = sorted(
            diagnostics, key=lambda d: (d.location.file, d.location.line, d.location.col, d.message)
        )
        super().__init__("\n".join(d.format() for d in self.diagnostics))


class DiagnosticSink:
    """Collects diagnostics so that one run reports every error, not just the first."""

    def __init__(self) -> None:
        self.diagnostics: list[Diagnostic] = []

    def error(self, location: Location, message: str,
              notes: tuple[tuple[Location, str], ...] = ()) -> None:
        self.diagnostics.append(Diagnostic(location, message, notes))

    def raise_if_any(self) -> None:
        if self.diagnostics:
            raise GeneratorError(self.diagnostics)
