"""Lexer: turns a .inst file into tokens with their locations.

One tokenizer serves both the declarations and the C bodies, so that a body can be analysed
token by token (identifiers, calls, assignments) while the generator still copies its original
text, comments and layout included.
"""

from __future__ import annotations

import bisect
import re
from typing import NamedTuple

from .diagnostics import DiagnosticSink, Location

# Token kinds
IDENT = "IDENT"
NUMBER = "NUMBER"
STRING = "STRING"
CHAR = "CHAR"
PUNCT = "PUNCT"
COMMENT = "COMMENT"
DOC = "DOC"  # a `///` line
PREPROC = "PREPROC"  # a `#...` line inside a body
EOF_ = "EOF"

_PUNCTUATORS = sorted(
    """
    >>= <<= ... -> ++ -- << >> <= >= == != && || += -= *= /= %= &= |= ^= ##
    { } [ ] ( ) ; : , . ? ~ ! + - * / % < > = & | ^ #
    """.split(),
    key=len,
    reverse=True,
)

_TOKEN_RE = re.compile(
    r"""
    (?P<doc>///[^\n]*)
  | (?P<comment>//[^\n]*|/\*.*?\*/)
  | (?P<ident>[A-Za-z_][A-Za-z_0-9]*)
  | (?P<number>(?:0[xX][0-9a-fA-F]+|\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)[uUlLfF]*)
  | (?P<string>"(?:[^"\\\n]|\\.)*")
  | (?P<char>'(?:[^'\\\n]|\\.)+')
  | (?P<punct>"""
    + "|".join(re.escape(p) for p in _PUNCTUATORS)
    + r""")
  | (?P<space>[ \t\r\f\v]+|\n)
    """,
    re.VERBOSE | re.DOTALL,
)


# '#' first on its line, after blanks: a preprocessor line (matched at a line's start).
_PREPROC_START = re.compile(r"[ \t]*#")


class Token(NamedTuple):
    """A token; a tuple, because a 10 MB file has millions of them."""

    kind: str
    text: str
    start: int  # offset in the file's text
    end: int
    location: Location

    def is_punct(self, text: str) -> bool:
        return self.kind == PUNCT and self.text == text

    def is_ident(self, text: str | None = None) -> bool:
        return self.kind == IDENT and (text is None or self.text == text)


class SourceFile:
    """A file's text plus line lookup for locations."""

    def __init__(self, name: str, text: str):
        self.name = name
        self.text = text
        self.lines = text.splitlines(keepends=True) or [""]
        self._line_starts = [0]
        for line in self.lines:
            self._line_starts.append(self._line_starts[-1] + len(line))

    def location(self, offset: int) -> Location:
        if offset >= len(self.text) and self.text.endswith("\n"):
            # The end of a file that ends with a newline: the start of the line after it.
            return Location(self.name, len(self.lines) + 1, 1, "")
        line_index = min(bisect.bisect_right(self._line_starts, offset) - 1, len(self.lines) - 1)
        col = offset - self._line_starts[line_index] + 1
        return Location(self.name, line_index + 1, col, self.lines[line_index])


def tokenize(source: SourceFile, sink: DiagnosticSink) -> list[Token]:
    """All tokens of the file, comments included, ending with an EOF token."""
    text = source.text
    tokens: list[Token] = []
    pos = 0
    at_line_start = True
    while pos < len(text):
        if at_line_start:
            # A preprocessor line: '#' first on its line (after blanks), up to the newline that
            # is not escaped by a backslash.
            m = _PREPROC_START.match(text, pos)
            if m:
                start = m.end() - 1
                end = start
                while True:
                    nl = text.find("\n", end)
                    if nl == -1:
                        end = len(text)
                        break
                    if text[nl - 1] == "\\":
                        end = nl + 1
                        continue
                    end = nl
                    break
                tokens.append(Token(PREPROC, text[start:end], start, end, source.location(start)))
                pos = end
                continue
        m = _TOKEN_RE.match(text, pos)
        if not m:
            what = {
                '"': "unterminated string literal",
                "'": "unterminated character literal",
            }.get(text[pos], f"unexpected character {text[pos]!r}")
            sink.error(source.location(pos), what)
            pos += 1
            at_line_start = False
            continue
        kind = m.lastgroup
        value = m.group()
        if kind == "space":
            if value == "\n":
                at_line_start = True
            pos = m.end()
            continue
        at_line_start = False
        token_kind = {
            "doc": DOC,
            "comment": COMMENT,
            "ident": IDENT,
            "number": NUMBER,
            "string": STRING,
            "char": CHAR,
            "punct": PUNCT,
        }[kind]
        if token_kind == PUNCT and value == "/" and text.startswith("/*", pos):
            sink.error(source.location(pos), "unterminated comment")
            break
        tokens.append(Token(token_kind, value, pos, m.end(), source.location(pos)))
        pos = m.end()
    tokens.append(Token(EOF_, "", len(text), len(text), source.location(len(text))))
    return tokens
