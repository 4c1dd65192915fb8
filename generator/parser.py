"""Parser: tokens of one .inst file -> declarations (ast.py).

Recursive descent over the grammar in docs/dsl.md. On a syntax error the parser reports it
and skips to the next top-level keyword, so one run shows every error of a file.
"""

from __future__ import annotations

from . import ast
from .diagnostics import DiagnosticSink, Location
from .lexer import (COMMENT, DOC, EOF_, IDENT, NUMBER, PUNCT, STRING, SourceFile, Span, Token,
                    match_brackets, tokenize)

TOP_LEVEL_KEYWORDS = ("inst", "op", "super", "family", "cache", "oparg", "baseline")
FLAG_NAMES = ("arg", "const", "name", "local", "free", "compare", "jump_forward",
              "jump_backward", "eval_breaker")


class _SyntaxError(Exception):
    pass


# What may stand in a C expression the generator copies into the cases (an array size, a
# condition): operands, calls, and operators that compute without assigning.
_BINARY = frozenset("+ - * / % & | ^ << >> < > <= >= == != && || ? : . ->".split())
_UNARY = frozenset("+ - ! ~ * &".split())


def expression_problem(tokens: list[Token]) -> str | None:
    """Why `tokens` is not a C expression the generator can copy, or None. Operands (names,
    numbers, parenthesized expressions, calls and indexing) must alternate with operators."""
    if not tokens:
        return "it is empty"
    expect_operand = True
    prev_is_open = False
    brackets = match_brackets(tokens)
    unbalanced = brackets.problem[3] if brackets.problem is not None else None
    for k, t in enumerate(tokens):
        if t.kind in (IDENT, NUMBER):
            if not expect_operand:
                return f"'{t.text}' follows an operand without an operator"
            expect_operand = False
        elif t.is_punct("(") or t.is_punct("["):
            if t.is_punct("[") and expect_operand:
                return "'[' needs something to index"
            # after an operand: a call or indexing; before one: a parenthesized expression
            expect_operand = True
        elif t.is_punct(")") or t.is_punct("]"):
            if k == unbalanced:
                return f"unbalanced '{t.text}'"
            if expect_operand and not (t.text == ")" and prev_is_open):
                return f"an operand is missing before '{t.text}'"
            expect_operand = False
        elif t.kind == PUNCT and expect_operand and t.text in _UNARY:
            pass
        elif t.kind == PUNCT and not expect_operand and t.text in _BINARY:
            expect_operand = True
        elif t.is_punct(",") and brackets.enclosing[k] >= 0 and \
                tokens[brackets.enclosing[k]].is_punct("("):
            expect_operand = True
        else:
            return f"'{t.text}' cannot stand there (no assignments, statements or strings)"
        prev_is_open = t.is_punct("(")
    if unbalanced == len(tokens):
        return f"'{brackets.problem[0].text}' is never closed"
    if expect_operand:
        return "it ends with an operator"
    return None


class Parser:
    def __init__(self, source: SourceFile, sink: DiagnosticSink):
        self.source = source
        self.sink = sink
        all_tokens = tokenize(source, sink)
        # Comments matter only inside bodies (their text is copied from the source);
        # documentation comments matter before declarations.
        self.tokens = [t for t in all_tokens if t.kind != COMMENT]
        self.brackets = match_brackets(self.tokens)
        self.pos = 0

    # -- token helpers -------------------------------------------------------------------

    @property
    def tok(self) -> Token:
        return self.tokens[self.pos]

    def advance(self) -> Token:
        token = self.tokens[self.pos]
        if token.kind != EOF_:
            self.pos += 1
        return token

    def fail(self, token: Token, expected: str) -> None:
        found = "end of file" if token.kind == EOF_ else f"'{token.text}'"
        self.sink.error(token.location, f"expected {expected}, found {found}")
        raise _SyntaxError

    def accept(self, text: str) -> bool:
        """Whether the next token is the punctuator `text`; if it is, it is consumed."""
        if not self.tok.is_punct(text):
            return False
        self.advance()
        return True

    def expect_punct(self, text: str) -> Token:
        if not self.tok.is_punct(text):
            self.fail(self.tok, f"'{text}'")
        return self.advance()

    def expect_ident(self, what: str) -> Token:
        if self.tok.kind != IDENT:
            self.fail(self.tok, what)
        return self.advance()

    def expect_number(self, what: str) -> tuple[int, Location]:
        if self.tok.kind != NUMBER:
            self.fail(self.tok, what)
        token = self.advance()
        try:
            return int(token.text, 0), token.location
        except ValueError:
            self.sink.error(token.location, f"expected an integer, found '{token.text}'")
            raise _SyntaxError from None

    # -- file ----------------------------------------------------------------------------

    def parse_file(self) -> list[ast.Declaration]:
        declarations: list[ast.Declaration] = []
        while self.tok.kind != EOF_:
            doc_lines: list[str] = []
            while self.tok.kind == DOC:
                doc_lines.append(self.advance().text[3:].removeprefix(" ").rstrip())
            if self.tok.kind == EOF_:
                if doc_lines:
                    self.sink.error(self.tokens[self.pos - 1].location,
                                    "documentation comment is not followed by a declaration")
                break
            doc = "\n".join(doc_lines)
            try:
                declarations.append(self.parse_declaration(doc))
            except _SyntaxError:
                self.recover()
        return declarations

    def recover(self) -> None:
        """Skip to the next token that can start a declaration at the top level."""
        while self.tok.kind != EOF_:
            token = self.tok
            if token.is_punct("{"):  # a body or a block: skip it (to the end if unclosed)
                close = self.brackets.close(self.pos)
                self.pos = close if close >= 0 else len(self.tokens) - 1
            elif token.kind == IDENT and token.text in TOP_LEVEL_KEYWORDS \
                    and token.location.col == 1:
                return
            self.advance()

    def parse_declaration(self, doc: str) -> ast.Declaration:
        token = self.tok
        if token.kind != IDENT or token.text not in TOP_LEVEL_KEYWORDS:
            self.fail(token, "'inst', 'op', 'super', 'family', 'cache', 'oparg' or 'baseline'")
        keyword = self.advance().text
        parse = {"family": self.parse_family, "cache": self.parse_cache,
                 "oparg": self.parse_oparg}.get(keyword)
        if parse is not None:
            return parse(doc)
        if keyword == "baseline":
            name = self.expect_ident("the name of an upstream instruction set (cpython_3_11_2)")
            self.expect_punct(";")
            return ast.BaselineDecl(name.text, name.location, doc)
        name = self.expect_ident(f"a name after '{keyword}'")
        if keyword == "op":
            effect = self.parse_effect()
            when = self.optional("when", self.parse_body)  # the admission of the members it begins
            return ast.InstDecl("op", name.text, name.location, doc, None, None, [], effect,
                                None, self.parse_body(), when=when)
        # Base instructions write upstream's opcode; specialized ones may leave it to the
        # generator (docs/dsl.md 2.1, "Name and number").
        number, number_location = None, None
        if self.accept("="):
            number, number_location = self.expect_number("an opcode number")
        elif self.tok.kind == NUMBER:
            self.fail(self.tok, "'=' before the opcode number")
        flags = self.parse_flags() if self.tok.is_punct("[") else []
        if keyword == "super" or self.tok.is_punct(":"):
            self.expect_punct(":")
            parts = [self.parse_part_ref()]
            alternatives: list[ast.Ref] = []
            while self.accept("+"):
                if keyword == "super" and self.accept("("):
                    # the last part: one of several members (docs/dsl.md 2.4)
                    last, *alternatives = self.parse_refs("|")
                    parts.append(last)
                    if not alternatives:
                        self.fail(self.tok, "'|' and another member (alternatives are two or "
                                            "more)")
                    self.expect_punct(")")
                    break
                parts.append(self.parse_part_ref())
            if len(parts) < 2:
                self.fail(self.tok, "'+' and another part (a composition has two or more parts)")
            fuses, when = [], None
            if keyword == "inst":
                fuses = self.optional("fuses", lambda: self.parse_refs("+")) or []
                when = self.optional("when", self.parse_body)
            if when is None:
                self.expect_punct(";")
            return ast.CompositionDecl(keyword, name.text, name.location, doc, number,
                                       number_location, flags, parts, when, alternatives, fuses)
        effect = self.parse_effect()
        jump_effect = self.optional("jump", self.parse_effect)
        compiler_effect = self.optional("compiler", self.parse_effect)
        fuses = self.optional("fuses", lambda: self.parse_refs("+")) or []
        when = self.optional("when", self.parse_body)
        body = self.parse_body()
        return ast.InstDecl("inst", name.text, name.location, doc, number, number_location,
                            flags, effect, jump_effect, body, fuses, compiler_effect, when)

    def optional(self, keyword: str, parse):
        """What `parse` reads after `keyword`, if that word comes next; else None."""
        if not self.tok.is_ident(keyword):
            return None
        self.advance()
        return parse()

    def parse_part_ref(self) -> ast.Ref:
        token = self.expect_ident("the name of an instruction or operation")
        return ast.Ref(token.text, token.location)

    def parse_refs(self, separator: str) -> list[ast.Ref]:
        """One name or more, with `separator` between them."""
        refs = [self.parse_part_ref()]
        while self.accept(separator):
            refs.append(self.parse_part_ref())
        return refs

    def parse_flags(self) -> list[ast.Ref]:
        self.expect_punct("[")
        flags = []
        while True:
            token = self.tok
            if token.kind != IDENT or token.text not in FLAG_NAMES:
                self.fail(token, "a flag (" + ", ".join(FLAG_NAMES) + ")")
            self.advance()
            flags.append(ast.Ref(token.text, token.location))
            if not self.accept(","):
                self.expect_punct("]")
                return flags

    # -- stack effects -------------------------------------------------------------------

    def parse_effect(self) -> ast.StackEffect:
        start = self.expect_punct("(")
        inputs = self.parse_items(until="--")
        self.expect_punct("--")
        outputs = self.parse_items(until=")")
        self.expect_punct(")")
        return ast.StackEffect(inputs, outputs, start.location)

    def parse_items(self, until: str) -> list[ast.StackItem]:
        if self.tok.is_punct(until):
            return []
        items = [self.parse_item()]
        while self.accept(","):
            items.append(self.parse_item())
        if not self.tok.is_punct(until):
            self.fail(self.tok, f"',' or '{until}'")
        return items

    def parse_item(self) -> ast.StackItem:
        name = self.expect_ident("a stack item name")
        if self.accept(":"):
            # A value handed between parts, `tp: PyTypeObject *`: its C type, identifiers and
            # then `*`s.
            words = [self.expect_ident("the C type of the value").text]
            while self.tok.is_ident():
                words.append(self.advance().text)
            stars = ""
            while self.tok.is_punct("*"):
                stars += self.advance().text
            return ast.StackItem(name.text, name.location,
                                 ctype=" ".join(words) + (" " + stars if stars else ""))
        if self.tok.is_punct("["):
            open_ = self.advance()
            size = self.raw_until_closing(open_, "the size of the array")
            if not size:
                self.fail(self.tok, "the size of the array (a C expression)")
            return ast.StackItem(name.text, name.location, size=size)
        if self.tok.is_ident("if"):
            self.advance()
            open_ = self.expect_punct("(")
            condition = self.raw_until_closing(open_, "the condition")
            if not condition:
                self.fail(self.tok, "a condition (a C expression)")
            return ast.StackItem(name.text, name.location, condition=condition)
        return ast.StackItem(name.text, name.location)

    def raw_until_closing(self, open_: Token, what: str) -> str:
        """The C text between `open_` and its matching closer (consumed), checked to be an
        expression: it is copied into the cases."""
        close = self.brackets.close(self.pos - 1)
        if close < 0:
            self.sink.error(open_.location, f"'{open_.text}' is never closed")
            raise _SyntaxError
        first = self.tok
        inside = self.tokens[self.pos:close]
        self.pos = close + 1
        problem = expression_problem(inside)
        if inside and problem:
            self.sink.error(first.location, f"malformed C expression in {what}: {problem}")
        return " ".join(self.source.text[first.start:self.tokens[close].start].split())

    # -- bodies --------------------------------------------------------------------------

    def parse_body(self) -> Span:
        open_ = self.expect_punct("{")
        close = self.brackets.close(self.pos - 1)
        if close < 0:
            self.sink.error(open_.location, "'{' of this body is never closed")
            raise _SyntaxError
        # `///` inside a body is an ordinary comment.
        body_tokens = [t for t in self.tokens[self.pos:close] if t.kind != DOC]
        self.pos = close + 1
        return Span(self.source, body_tokens, open_.end, self.tokens[close].start,
                        open_.location)

    # -- families and caches -------------------------------------------------------------

    def parse_family(self, doc: str) -> ast.FamilyDecl:
        name = self.expect_ident("the family's name (its generic instruction)")
        family = ast.FamilyDecl(name.text, name.location, doc)
        self.expect_punct("{")
        seen: set[str] = set()
        while not self.tok.is_punct("}"):
            field_token = self.tok
            if field_token.kind != IDENT or field_token.text not in (
                "cache", "adaptive", "quick", "members", "failures", "specialize", "otherwise"
            ):
                self.fail(field_token, "'cache:', 'adaptive:', 'quick:', 'members:', "
                                       "'failures:', 'specialize', 'otherwise' or '}'")
            self.advance()
            if field_token.text in seen:
                self.sink.error(field_token.location,
                                f"'{field_token.text}' is given twice in family {name.text}")
            seen.add(field_token.text)
            if field_token.text == "specialize":
                params = self.parse_specializer_params() if self.tok.is_punct("(") else []
                family.specialize = ast.SpecializeDecl(field_token.location, params,
                                                       self.parse_body())
                continue
            if field_token.text == "otherwise":
                family.otherwise = self.parse_body()
                continue
            self.expect_punct(":")
            if field_token.text in ("members", "failures"):
                getattr(family, field_token.text).extend(self.parse_refs(","))
            else:
                setattr(family, field_token.text, self.parse_part_ref())
                if field_token.text == "adaptive" and self.accept("="):
                    # the opcode of a generated adaptive form
                    family.adaptive_number, family.adaptive_number_location = \
                        self.expect_number("an opcode number")
            self.expect_punct(";")
        self.expect_punct("}")
        return family

    def parse_specializer_params(self) -> list[ast.SpecializerParam]:
        """`(TYPE NAME = EXPRESSION, ...)`: values computed in the evaluation loop."""
        self.expect_punct("(")
        params = []
        while not self.tok.is_punct(")"):
            type_tokens = []
            while not self.tok.is_punct("="):
                if self.tok.kind != IDENT and not self.tok.is_punct("*"):
                    self.fail(self.tok, "a parameter: 'TYPE NAME = EXPRESSION'")
                type_tokens.append(self.advance())
            if len(type_tokens) < 2 or type_tokens[-1].kind != IDENT:
                self.fail(self.tok, "a type and a name before '='")
            name = type_tokens[-1]
            ctype = " ".join(t.text for t in type_tokens[:-1]).replace("* ", "*")
            self.expect_punct("=")
            first = self.tok
            inside = []
            while not (self.tok.is_punct(",") or self.tok.is_punct(")")):
                if self.tok.kind == EOF_:
                    self.fail(self.tok, "')' after the parameters")
                if self.tok.is_punct("(") or self.tok.is_punct("["):  # a call, an index
                    close = self.brackets.close(self.pos)
                    if close < 0:
                        self.pos = len(self.tokens) - 1
                        continue
                    inside += self.tokens[self.pos:close]
                    self.pos = close
                inside.append(self.advance())
            if not inside:
                self.fail(self.tok, "an expression after '='")
            problem = expression_problem(inside)
            if problem:
                self.sink.error(first.location, f"malformed C expression for '{name.text}': "
                                                f"{problem}")
            expression = " ".join(self.source.text[first.start:inside[-1].end].split())
            params.append(ast.SpecializerParam(ctype, name.text, expression, name.location))
            self.accept(",")
        self.expect_punct(")")
        return params

    def parse_cache(self, doc: str) -> ast.CacheDecl:
        name = self.expect_ident("the cache struct's name")
        self.expect_punct("{")
        entries = []
        while not self.tok.is_punct("}"):
            entry = self.expect_ident("a cache entry name or '}'")
            self.expect_punct(":")
            size, size_location = self.expect_number("the entry's size in code units")
            if size <= 0:
                self.sink.error(size_location, f"cache entry '{entry.text}' must be at least one code unit")
            self.expect_punct(";")
            entries.append(ast.CacheEntryDecl(entry.text, size, entry.location))
        self.expect_punct("}")
        if not entries:
            self.sink.error(name.location, f"cache {name.text} has no entries")
        return ast.CacheDecl(name.text, name.location, doc, entries)

    def parse_oparg(self, doc: str) -> ast.OpargDecl:
        name = self.expect_ident("the instruction whose oparg values these are")
        self.expect_punct("{")
        values = []
        while not self.tok.is_punct("}"):
            value = self.expect_ident("a value name or '}'")
            self.expect_punct(":")
            if self.tok.kind != STRING:
                self.fail(self.tok, "a string (how dis shows the value)")
            text = self.advance().text[1:-1]
            self.expect_punct(";")
            values.append(ast.OpargValue(value.text, text, value.location))
        self.expect_punct("}")
        return ast.OpargDecl(name.text, name.location, doc, values)


def parse_source(source: SourceFile, sink: DiagnosticSink) -> list[ast.Declaration]:
    return Parser(source, sink).parse_file()
