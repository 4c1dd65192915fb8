"""A hand-written tokenizer and parser: recursive-descent JSON parsing (string scanning,
escape handling, number conversion, nested containers) and a precedence-climbing
arithmetic expression parser and evaluator.

The JSON results are compared with the standard json module on the same text;
the expressions are compared with Python's own evaluation of the same text.
"""

import json

WALL_SCALE = 12
INSTRUCTIONS_SCALE = 1

DOCUMENTS_PER_SCALE = 43
EXPRESSIONS_PER_SCALE = 540


class SyntaxProblem(Exception):
    pass


# ---------------------------------------------------------------- JSON

WHITESPACE = " \t\n\r"
ESCAPES = {'"': '"', "\\": "\\", "/": "/", "b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t"}
NUMBER_CHARACTERS = set("+-0123456789.eE")


class JsonParser:
    def __init__(self, text):
        self.text = text
        self.position = 0

    def fail(self, message):
        raise SyntaxProblem("offset %d: %s" % (self.position, message))

    def skip_whitespace(self):
        text = self.text
        position = self.position
        while position < len(text) and text[position] in WHITESPACE:
            position += 1
        self.position = position

    def parse(self):
        value = self.value()
        self.skip_whitespace()
        if self.position != len(self.text):
            self.fail("trailing data")
        return value

    def value(self):
        self.skip_whitespace()
        ch = self.text[self.position]
        if ch == "{":
            return self.object()
        if ch == "[":
            return self.array()
        if ch == '"':
            return self.string()
        if ch in "-0123456789":
            return self.number()
        for word, meaning in (("true", True), ("false", False), ("null", None)):
            if self.text.startswith(word, self.position):
                self.position += len(word)
                return meaning
        self.fail("unexpected %r" % ch)

    def object(self):
        self.position += 1
        result = {}
        self.skip_whitespace()
        if self.text[self.position] == "}":
            self.position += 1
            return result
        while True:
            self.skip_whitespace()
            if self.text[self.position] != '"':
                self.fail("expected a key")
            key = self.string()
            self.skip_whitespace()
            if self.text[self.position] != ":":
                self.fail("expected ':'")
            self.position += 1
            result[key] = self.value()
            self.skip_whitespace()
            ch = self.text[self.position]
            self.position += 1
            if ch == "}":
                return result
            if ch != ",":
                self.fail("expected ',' or '}'")

    def array(self):
        self.position += 1
        result = []
        self.skip_whitespace()
        if self.text[self.position] == "]":
            self.position += 1
            return result
        while True:
            result.append(self.value())
            self.skip_whitespace()
            ch = self.text[self.position]
            self.position += 1
            if ch == "]":
                return result
            if ch != ",":
                self.fail("expected ',' or ']'")

    def string(self):
        text = self.text
        position = self.position + 1
        pieces = []
        start = position
        while True:
            ch = text[position]
            if ch == '"':
                pieces.append(text[start:position])
                self.position = position + 1
                return "".join(pieces)
            if ch == "\\":
                pieces.append(text[start:position])
                code = text[position + 1]
                if code == "u":
                    pieces.append(chr(int(text[position + 2:position + 6], 16)))
                    position += 6
                else:
                    pieces.append(ESCAPES[code])
                    position += 2
                start = position
            else:
                position += 1

    def number(self):
        text = self.text
        start = position = self.position
        while position < len(text) and text[position] in NUMBER_CHARACTERS:
            position += 1
        literal = text[start:position]
        self.position = position
        if "." in literal or "e" in literal or "E" in literal:
            return float(literal)
        return int(literal)


def make_document(seed, depth=4):
    """A deterministic nested document with strings, escapes, numbers and literals."""
    state = seed

    def next_number():
        nonlocal state
        state = state * 48271 % 2147483647
        return state

    def build(level):
        kind = next_number() % (6 if level < depth else 4)
        if kind == 0:
            return next_number() % 100_000 - 50_000
        if kind == 1:
            return (next_number() % 10_000) / 64
        if kind == 2:
            return "text %d \"quoted\" tab\t newline\n é \\ %d" % (next_number() % 97, level)
        if kind == 3:
            return (True, False, None)[next_number() % 3]
        if kind == 4:
            return [build(level + 1) for _ in range(next_number() % 6)]
        return {"key%d" % (next_number() % 50): build(level + 1) for _ in range(next_number() % 6)}

    return {"id": seed, "items": [build(1) for _ in range(12)]}


# ---------------------------------------------------------------- arithmetic expressions

def tokenize_expression(text):
    tokens = []
    i = 0
    while i < len(text):
        ch = text[i]
        if ch == " ":
            i += 1
        elif ch.isdigit():
            j = i
            while j < len(text) and text[j].isdigit():
                j += 1
            tokens.append(int(text[i:j]))
            i = j
        elif text.startswith("//", i):
            tokens.append("//")
            i += 2
        elif ch in "+-*%()":
            tokens.append(ch)
            i += 1
        else:
            raise SyntaxProblem("unexpected %r" % ch)
    return tokens


BINDING = {"+": 1, "-": 1, "*": 2, "//": 2, "%": 2}


def evaluate_expression(tokens):
    position = 0

    def primary():
        nonlocal position
        token = tokens[position]
        position += 1
        if token == "(":
            value = climb(1)
            position += 1  # ")"
            return value
        if token == "-":
            return -primary()
        return token

    def climb(minimum):
        nonlocal position
        left = primary()
        while position < len(tokens):
            op = tokens[position]
            strength = BINDING.get(op) if isinstance(op, str) else None
            if strength is None or strength < minimum:
                break
            position += 1
            right = climb(strength + 1)
            if op == "+":
                left = left + right
            elif op == "-":
                left = left - right
            elif op == "*":
                left = left * right
            elif op == "//":
                left = left // right
            else:
                left = left % right
        return left

    return climb(1)


def make_expression(seed):
    """Random arithmetic text; // and % are only ever followed by a literal, never by 0."""
    state = seed
    pieces = []
    depth = 0
    for term in range(24):
        state = state * 48271 % 2147483647
        opens = state % 5 == 0 and term < 20
        if term:
            operators = ("+", "-", "*") if opens else ("+", "-", "*", "//", "%", "+")
            pieces.append(operators[state % len(operators)])
        if opens:
            pieces.append("(")
            depth += 1
        pieces.append(str(state % 997 + 1))
        if depth and not opens and state % 3 == 0:
            pieces.append(")")
            depth -= 1
    pieces.append(")" * depth)
    return " ".join(pieces)


def run(scale):
    texts = [json.dumps(make_document(seed), indent=1 if seed % 2 else None)
             for seed in range(1, DOCUMENTS_PER_SCALE * scale + 1)]
    documents = [JsonParser(text).parse() for text in texts]
    expressions = [make_expression(seed) for seed in range(1, EXPRESSIONS_PER_SCALE * scale + 1)]
    values = [evaluate_expression(tokenize_expression(text)) for text in expressions]
    return texts, documents, expressions, values


def check(result, scale):
    texts, documents, expressions, values = result
    assert len(documents) == DOCUMENTS_PER_SCALE * scale
    for text, document in zip(texts, documents):
        assert document == json.loads(text), "JSON parse differs from the json module"
    for text, value in zip(expressions, values):
        assert value == eval(text, {"__builtins__": {}}), text
    try:
        JsonParser('{"a": [1, 2,, 3]}').parse()
    except SyntaxProblem:
        pass
    else:
        raise AssertionError("malformed JSON was accepted")
