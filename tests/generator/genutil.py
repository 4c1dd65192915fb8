"""Helpers for the generator's tests (imported by conftest.py and the test modules)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from generator import emitters  # noqa: E402
from generator.diagnostics import Diagnostic, DiagnosticSink, GeneratorError  # noqa: E402
from generator.driver import find_sources, generate_files, load_model  # noqa: E402
from generator.lexer import SourceFile  # noqa: E402
from generator.parser import parse_source  # noqa: E402

OUTPUTS = emitters.OUTPUTS
CASES = OUTPUTS["cases"]


# A family A whose generic instruction takes an array (so its members' compositions are
# written part by part), with an adaptive form and a one-entry cache: append a member `A_M`.
ARRAY_FAMILY = """
        inst A = 100 (f, args[oparg] -- r) {
            r = call(f, args, oparg);
            ERROR_IF(r == NULL, error);
        }
        cache C {
            counter: 1;
        }
        inst A_AD (f, args[oparg] -- unused) {
            DISPATCH_SAME_OPARG();
        }
        family A {
            cache: C;
            adaptive: A_AD;
            members: A_M;
        }
"""


def dedent(text: str) -> str:
    return textwrap.dedent(text).lstrip("\n")


def write_project(root: Path, files: dict[str, str] | str) -> Path:
    """Write `files` ({name: text}; a bare name goes to instructions/) under `root`."""
    if isinstance(files, str):
        files = {"test.inst": files}
    (root / "instructions").mkdir(parents=True, exist_ok=True)
    for name, text in files.items():
        path = root / name if "/" in name else root / "instructions" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(dedent(text), encoding="utf-8")
    return root


def parse(text: str, name: str = "instructions/test.inst"):
    """(declarations, diagnostics) of one file's text, without analysis."""
    sink = DiagnosticSink()
    decls = parse_source(SourceFile(name, text), sink)
    return decls, sink.diagnostics


def model_of(root: Path):
    return load_model(find_sources(root), root)


def generate(root: Path) -> dict[str, str]:
    return generate_files(find_sources(root), root)


def errors(root: Path) -> list[Diagnostic]:
    """The diagnostics of analysing the project at `root`; fails if there are none."""
    try:
        load_model(find_sources(root), root)
    except GeneratorError as err:
        assert err.diagnostics, "GeneratorError without diagnostics"
        return err.diagnostics
    raise AssertionError("expected errors, the project loaded cleanly")


def brief(diags: list[Diagnostic]) -> list[tuple[int, int, str]]:
    return [(d.location.line, d.location.col, d.message) for d in diags]


def run_cli(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess:
    """`python3 -m generator ARGS` in a child process (the real command line)."""
    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT)
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    return subprocess.run([sys.executable, "-m", "generator", *args], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=120)


def tree(root: Path) -> list[str]:
    """Every file under root, relative, sorted."""
    if not root.exists():
        return []
    return sorted(str(p.relative_to(root)) for p in root.rglob("*") if p.is_file())


def case_of(cases_text: str, name: str) -> str:
    """The lines of one TARGET in generated_cases.c.h (its doc comment excluded), dedented."""
    lines = cases_text.split("\n")
    start = next(i for i, line in enumerate(lines) if line.strip() in (
        f"TARGET({name}) {{", f"TARGET_NO_PREV_INSTR({name}) {{"))
    indent = len(lines[start]) - len(lines[start].lstrip())
    end = next(i for i in range(start + 1, len(lines)) if lines[i] == " " * indent + "}")
    return "\n".join(line[indent:] for line in lines[start:end + 1]) + "\n"


# -- a small C expression evaluator -------------------------------------------------------
#
# Enough C for the stack-effect expressions: integer literals (decimal, hex), identifiers
# bound in an environment, calls of Py_MAX/Py_MIN, casts to Py_ssize_t, unary - + ! ~,
# * / %, + -, << >>, < <= > >=, == !=, &, ^, |, &&, ||, ?:. It translates to Python source once, then evaluates
# with C's int semantics (comparisons give 0/1, '/' truncates toward zero).

_C_TOKEN = re.compile(r"\s*(?:(0[xX][0-9a-fA-F]+|\d+)[uUlL]*|([A-Za-z_]\w*)|"
                      r"(<<|>>|<=|>=|==|!=|&&|\|\||[-+*/%<>&|^!~?:(),]))")

_BINARY = [  # lowest precedence first
    ("||",), ("&&",), ("|",), ("^",), ("&",), ("==", "!="), ("<", "<=", ">", ">="),
    ("<<", ">>"), ("+", "-"), ("*", "/", "%"),
]


def _cdiv(a: int, b: int) -> int:
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b >= 0) else -q


def _cmod(a: int, b: int) -> int:
    return a - _cdiv(a, b) * b


class CExpression:
    def __init__(self, text: str):
        self.text = text
        self.tokens: list[tuple[str, str]] = []
        pos = 0
        # Casts to a wider integer type (the generator widens stack depths to Py_ssize_t)
        # change nothing for the values evaluated here.
        text = re.sub(r"\(\s*Py_ssize_t\s*\)", " ", text.strip())
        while pos < len(text):
            m = _C_TOKEN.match(text, pos)
            if not m:
                raise ValueError(f"cannot read C expression {self.text!r} at {text[pos:]!r}")
            if m.group(1):
                self.tokens.append(("num", str(int(m.group(1), 0))))
            elif m.group(2):
                self.tokens.append(("name", m.group(2)))
            else:
                self.tokens.append(("op", m.group(3)))
            pos = m.end()
            while pos < len(text) and text[pos].isspace():
                pos += 1
        self.pos = 0
        python = self._ternary()
        if self.pos != len(self.tokens):
            raise ValueError(f"trailing tokens in C expression {self.text!r}")
        self.python = python
        self.code = compile(python, "<c-expression>", "eval")

    def _peek(self) -> str | None:
        return self.tokens[self.pos][1] if self.pos < len(self.tokens) else None

    def _take(self, expected: str | None = None) -> tuple[str, str]:
        if self.pos >= len(self.tokens):
            raise ValueError(f"unexpected end of C expression {self.text!r}")
        token = self.tokens[self.pos]
        if expected is not None and token[1] != expected:
            raise ValueError(f"expected {expected!r} in {self.text!r}, found {token[1]!r}")
        self.pos += 1
        return token

    def _ternary(self) -> str:
        cond = self._binary(0)
        if self._peek() == "?":
            self._take("?")
            yes = self._ternary()
            self._take(":")
            no = self._ternary()
            return f"(({yes}) if ({cond}) else ({no}))"
        return cond

    def _binary(self, level: int) -> str:
        if level == len(_BINARY):
            return self._unary()
        left = self._binary(level + 1)
        while self._peek() in _BINARY[level] and self.tokens[self.pos][0] == "op":
            op = self._take()[1]
            right = self._binary(level + 1)
            if op == "||":
                left = f"int(bool({left}) or bool({right}))"
            elif op == "&&":
                left = f"int(bool({left}) and bool({right}))"
            elif op in ("==", "!=", "<", "<=", ">", ">="):
                left = f"int(({left}) {op} ({right}))"
            elif op == "/":
                left = f"_cdiv({left}, {right})"
            elif op == "%":
                left = f"_cmod({left}, {right})"
            else:
                left = f"(({left}) {op} ({right}))"
        return left

    def _unary(self) -> str:
        token = self._peek()
        if token in ("-", "+", "~") and self.tokens[self.pos][0] == "op":
            self._take()
            return f"({token}({self._unary()}))"
        if token == "!":
            self._take()
            return f"int(not ({self._unary()}))"
        return self._primary()

    def _primary(self) -> str:
        kind, text = self._take()
        if kind == "num":
            return text
        if kind == "name":
            if self._peek() == "(":
                self._take("(")
                args = [self._ternary()]
                while self._peek() == ",":
                    self._take(",")
                    args.append(self._ternary())
                self._take(")")
                if text == "Py_MAX":
                    return f"max({', '.join(args)})"
                if text == "Py_MIN":
                    return f"min({', '.join(args)})"
                raise ValueError(f"unknown function {text} in {self.text!r}")
            return f"env[{text!r}]"
        if text == "(":
            inner = self._ternary()
            self._take(")")
            return f"({inner})"
        raise ValueError(f"unexpected {text!r} in C expression {self.text!r}")

    def __call__(self, **env: int) -> int:
        return eval(self.code, {"_cdiv": _cdiv, "_cmod": _cmod, "env": env, "int": int,
                                "bool": bool, "max": max, "min": min})


# -- reading the generated stack_effect.c.h ---------------------------------------------------

def read_defines(text: str) -> dict[str, int]:
    """`#define NAME NUMBER` lines of a header."""
    result = {}
    for m in re.finditer(r"^#define\s+(\w+)\s+(-?\d+)\s*$", text, re.M):
        result[m.group(1)] = int(m.group(2))
    return result


_SE_TOKEN = re.compile(r"\s*(case\b|default\b|return\b|if\b|switch\b|[{}();:]|[^{}();:\s]+)")


def stack_effect_function(text: str):
    """The generated _PyOpcode_StackEffect, interpreted: {case label: f(oparg, jump)}.

    Reads the switch of stack_effect.c.h statement by statement: each `case NAME:` is followed
    by `return EXPR;` statements and `if (COND) { ... }` blocks. Anything else is an error.
    """
    start = text.index("switch (opcode) {")
    body = text[start + len("switch (opcode) {"):]
    # Cut at the end of the switch (the matching brace).
    depth = 1
    for i, ch in enumerate(body):
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
            if depth == 0:
                body = body[:i]
                break

    # Split into case blocks.
    blocks: dict[str, str] = {}
    for m in re.finditer(r"\b(case\s+(\w+)|default)\s*:(.*?)(?=\bcase\s+\w+\s*:|\bdefault\s*:|\Z)",
                         body, re.S):
        label = m.group(2) or "default"
        blocks[label] = m.group(3)

    def parse_statements(src: str, pos: int, end_brace: bool):
        stmts = []
        while True:
            while pos < len(src) and src[pos].isspace():
                pos += 1
            if pos >= len(src):
                if end_brace:
                    raise ValueError("unclosed block in stack_effect.c.h")
                return stmts, pos
            if src[pos] == "}":
                if not end_brace:
                    raise ValueError("unexpected '}' in stack_effect.c.h")
                return stmts, pos + 1
            if src.startswith("return", pos):
                semi = src.index(";", pos)
                expr = src[pos + len("return"):semi].strip()
                stmts.append(("return", expr))
                pos = semi + 1
            elif src.startswith("if", pos):
                open_ = src.index("(", pos)
                depth, j = 0, open_
                while True:
                    if src[j] == "(":
                        depth += 1
                    elif src[j] == ")":
                        depth -= 1
                        if depth == 0:
                            break
                    j += 1
                cond = src[open_ + 1:j]
                k = j + 1
                while src[k].isspace():
                    k += 1
                if src[k] != "{":
                    raise ValueError("if without braces in stack_effect.c.h")
                inner, pos = parse_statements(src, k + 1, True)
                stmts.append(("if", cond, inner))
            else:
                raise ValueError(f"unexpected statement in stack_effect.c.h: {src[pos:pos+40]!r}")

    functions = {}
    for label, src in blocks.items():
        stmts, _ = parse_statements(src, 0, False)
        functions[label] = _compile_statements(stmts)
    return functions


INVALID = "PY_INVALID_STACK_EFFECT"


def _compile_list(stmts):
    compiled = []
    for stmt in stmts:
        if stmt[0] == "return":
            expr = stmt[1]
            compiled.append(("return", None if expr == INVALID else CExpression(expr)))
        else:
            compiled.append(("if", CExpression(stmt[1]), _compile_list(stmt[2])))
    return compiled


def _run(stmts, oparg: int, jump: int):
    for stmt in stmts:
        if stmt[0] == "return":
            return INVALID if stmt[1] is None else stmt[1](oparg=oparg, jump=jump, **C_CONSTANTS)
        if stmt[1](oparg=oparg, jump=jump, **C_CONSTANTS):
            result = _run(stmt[2], oparg, jump)
            if result is not _FALLTHROUGH:
                return result
    return _FALLTHROUGH


def _compile_statements(stmts):
    compiled = _compile_list(stmts)

    def run(oparg: int, jump: int):
        result = _run(compiled, oparg, jump)
        if result is _FALLTHROUGH:
            raise ValueError("a case of stack_effect.c.h falls through without returning")
        return result

    return run


_FALLTHROUGH = object()

# Macros the stack-effect expressions may use: FVS_* from CPython 3.11.2's Include/ceval.h.
C_CONSTANTS = {"FVS_MASK": 0x4, "FVS_HAVE_SPEC": 0x4}


# -- running the straight-line path of a generated case --------------------------------------

_SIM_LOAD = re.compile(r"^PyObject \*(\w+) = (?:\((.*)\) \? )?PEEK\((.*?)\)(?: : NULL)?;$")
_SIM_POKE = re.compile(r"^POKE\((.*), (\w+)\);$")
_SIM_COND_POKE = re.compile(r"^if \((.*)\) \{ POKE\((.*), (\w+)\); \}$")
_SIM_MOVE = re.compile(r"^STACK_(GROW|SHRINK)\((.*)\);$")


def simulate(case: str, oparg: int, stack: list[str]) -> list[str]:
    """The stack after the path of `case` (from case_of) that takes no branch of the body.

    Follows the stack traffic only: the loads of the prologue (`PyObject *x = PEEK(n);`,
    conditional ones too), POKE, `if (cond) { POKE(...); }`, STACK_GROW and STACK_SHRINK, up to
    the first DISPATCH(). The parts of a composition (`{  // NAME` ... `}`) run in turn; any
    other braced block (an error exit, a branch) is skipped, and so is every other line. An
    input's value is the stack item it was loaded from; any other stored name stands for
    itself (an output). Slots never written show as '?'.
    """
    slots = dict(enumerate(stack))
    sp = len(stack)
    values: dict[str, str] = {}
    lines = [line.strip() for line in case.strip().split("\n")]
    assert lines[0].startswith("TARGET(") and lines[-1] == "}", case
    skip = 0
    for line in lines[1:-1]:
        if skip:
            skip += line.count("{") - line.count("}")
            continue
        if line == "DISPATCH();":
            return [slots.get(i, "?") for i in range(sp)]
        if line.startswith("{  // ") or line == "}":
            continue  # a part of a composition: its lines run in turn
        if m := _SIM_LOAD.match(line):
            name, cond, offset = m.groups()
            present = cond is None or CExpression(cond)(oparg=oparg)
            values[name] = slots.get(sp - CExpression(offset)(oparg=oparg), "?") \
                if present else "NULL"
        elif m := _SIM_POKE.match(line):
            offset, name = m.groups()
            slots[sp - CExpression(offset)(oparg=oparg)] = values.get(name, name)
        elif m := _SIM_COND_POKE.match(line):
            cond, offset, name = m.groups()
            if CExpression(cond)(oparg=oparg):
                slots[sp - CExpression(offset)(oparg=oparg)] = values.get(name, name)
        elif m := _SIM_MOVE.match(line):
            amount = CExpression(m.group(2))(oparg=oparg)
            sp += amount if m.group(1) == "GROW" else -amount
        elif line.endswith("{"):
            skip = 1
    raise AssertionError(f"no DISPATCH() on the straight path of:\n{case}")


def preprocess(text: str, defined: set[str]) -> str:
    """`text` without the lines that #ifdef/#ifndef/#else/#endif leave out when the macros in
    `defined` are defined (and no others); the directives themselves are dropped too."""
    kept = []
    stack: list[bool] = []  # for each open #if: whether its current branch is kept
    for line in text.split("\n"):
        words = line.split()
        directive = words[0] if words and words[0].startswith("#") else None
        if directive in ("#ifdef", "#ifndef"):
            stack.append((words[1] in defined) == (directive == "#ifdef"))
        elif directive == "#else":
            stack[-1] = not stack[-1]
        elif directive == "#endif":
            stack.pop()
        elif all(stack):
            kept.append(line)
    assert not stack, "unterminated #if"
    return "\n".join(kept)
