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

# Each group is named after the kind of the token it matches.
_TOKEN_RE = re.compile(
    r"""
    (?P<DOC>///[^\n]*)
  | (?P<COMMENT>//[^\n]*|/\*.*?\*/)
  | (?P<IDENT>[A-Za-z_][A-Za-z_0-9]*)
  | (?P<NUMBER>(?:0[xX][0-9a-fA-F]+|\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)[uUlLfF]*)
  | (?P<STRING>"(?:[^"\\\n]|\\.)*")
  | (?P<CHAR>'(?:[^'\\\n]|\\.)+')
  | (?P<PUNCT>"""
    + "|".join(re.escape(p) for p in _PUNCTUATORS)
    + r""")
  | (?P<space>[ \t\r\f\v]+|\n)
    """,
    re.VERBOSE | re.DOTALL,
)


# '#' first on its line, after blanks: a preprocessor line (matched at a line's start), up to
# the newline that is not escaped by a backslash.
_PREPROC_LINE = re.compile(r"[ \t]*(#(?:[^\n]*\\\n)*[^\n]*)")


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


class Span(NamedTuple):
    """A C body in its file: its tokens (without the braces) and offsets; the parser finds it,
    the model keeps it and the emitters copy from it."""

    source: SourceFile
    tokens: list[Token]
    start: int  # offset just after '{'
    end: int  # offset of the closing '}'
    location: Location

    @property
    def text(self) -> str:
        return self.source.text[self.start:self.end]


def tokenize(source: SourceFile, sink: DiagnosticSink) -> list[Token]:
    """All tokens of the file, comments included, ending with an EOF token."""
    text = source.text
    tokens: list[Token] = []
    pos = 0
    at_line_start = True
    while pos < len(text):
        if at_line_start:
            m = _PREPROC_LINE.match(text, pos)
            if m:
                start, end = m.span(1)
                tokens.append(Token(PREPROC, text[start:end], start, end, source.location(start)))
                pos = end
                continue
        m = _TOKEN_RE.match(text, pos)
        if not m:
            what = {'"': "unterminated string literal", "'": "unterminated character literal"
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
        if kind == PUNCT and value == "/" and text.startswith("/*", pos):
            sink.error(source.location(pos), "unterminated comment")
            break
        tokens.append(Token(kind, value, pos, m.end(), source.location(pos)))
        pos = m.end()
    tokens.append(Token(EOF_, "", len(text), len(text), source.location(len(text))))
    return tokens


OPENERS = "([{"
CLOSERS = ")]}"


class Brackets(NamedTuple):
    """The brackets of a token list, matched once for every reader of it. `pairs[k]`: the
    index of the bracket matching the one at k, or -1; each kind is matched by its own nesting,
    so that one stray `)` does not move the end of a body or a block. `enclosing[k]`: the
    innermost bracket open at k, or -1. `problem`: where the brackets first do not nest (the
    token, what is wrong, the token it is about or None, the index of the closer where it
    shows, or the list's length for one never closed)."""

    pairs: list[int]
    enclosing: list[int]
    problem: tuple[Token, str, Token | None, int] | None

    def after(self, k: int) -> int:
        """The index just past the bracketed group opening at k (k + 1 for any other token
        and for an unclosed opener)."""
        close = self.pairs[k]
        return close + 1 if close > k else k + 1

    def close(self, k: int) -> int:
        """The index of the bracket closing the one at k, or -1."""
        close = self.pairs[k]
        return close if close > k else -1


def match_brackets(tokens: list[Token]) -> Brackets:
    pairs = [-1] * len(tokens)
    enclosing = [-1] * len(tokens)
    by_kind: list[list[int]] = [[], [], []]  # open brackets of each kind
    nested: list[int] = []  # open brackets of every kind, for the nesting and `enclosing`
    problem = None
    for k, t in enumerate(tokens):
        enclosing[k] = nested[-1] if nested else -1
        if t.kind != PUNCT or len(t.text) != 1:
            continue
        if t.text in OPENERS:
            by_kind[OPENERS.index(t.text)].append(k)
            nested.append(k)
        elif t.text in CLOSERS:
            kind = CLOSERS.index(t.text)
            if by_kind[kind]:
                o = by_kind[kind].pop()
                pairs[o], pairs[k] = k, o
            if problem is None and not nested:
                problem = (t, f"'{t.text}' closes nothing", None, k)
            elif problem is None and tokens[nested[-1]].text != OPENERS[kind]:
                opener = tokens[nested[-1]]
                problem = ((opener, f"'{opener.text}' is not closed before this '{t.text}'", t, k)
                           if opener.text != "{" else (t, f"'{t.text}' closes nothing", None, k))
            if nested:
                nested.pop()
    if nested and problem is None:
        opener = tokens[nested[-1]]
        problem = (opener, f"'{opener.text}' is never closed", None, len(tokens))
    return Brackets(pairs, enclosing, problem)
