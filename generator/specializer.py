"""The specializer declared in the DSL: generated adaptive forms and specialize functions.

A family that declares `specialize` (docs/dsl.md 2.3.1) gets, from the generator,

- its adaptive instruction: counts down, and at zero calls the family's specialize function
  (`adaptive_source` writes it in the DSL and the analysis reads it like any other);
- its specialize function `_PyQuicken_Specialize_<FAMILY>` (emit_specializer.py): the family's
  shared analysis (`specialize { ... }`), then each member's `when { ... }` in the order the
  members are defined: the first that does not reject is installed, after the cache fills its
  `when` writes and the fills derived from its guards; `otherwise { ... }` says why none applied;
  `KEEP_GENERIC(kind)` installs the generic instruction for good where no member can ever
  apply (outside Py_STATS builds, which count it as a failure of that kind, as upstream does);
- the failure kinds (for Py_STATS), numbered per family: OTHER, OUT_OF_RANGE, then the
  family's `failures`.

This module holds what the analysis and the emitter share: the adaptive instruction's source,
the statements of specializer blocks, and the cache fills derived from guards.
"""

from __future__ import annotations

import textwrap
from dataclasses import dataclass, field

from . import ast
from .diagnostics import Location
from .lexer import IDENT, PUNCT, Token
from .statements import matching_paren

# Every family's first failure kinds; `failures:` continues after them.
BUILTIN_FAILURES = ("OTHER", "OUT_OF_RANGE")
# Py_STATS counts failure kinds in an array of this size (SPECIALIZATION_FAILURE_KINDS in
# pycore_code.h).
MAX_FAILURE_KINDS = 30

# The statements of specializer blocks, by block: what each may use.
BLOCK_MACROS = {
    "specialize": ("FAIL", "FAIL_IF", "KEEP_GENERIC", "ERROR_IF"),
    "when": ("REJECT_IF", "FAIL", "FAIL_IF", "KEEP_GENERIC", "ERROR_IF"),
    "otherwise": ("FAIL", "FAIL_IF", "KEEP_GENERIC", "ERROR_IF"),
}
ALL_MACROS = frozenset({"REJECT_IF", "FAIL", "FAIL_IF", "KEEP_GENERIC", "ERROR_IF"})
# Arguments of each: REJECT_IF(cond), FAIL(kind), FAIL_IF(cond, kind), KEEP_GENERIC(kind),
# ERROR_IF(cond).
MACRO_ARITY = {"REJECT_IF": 1, "FAIL": 1, "FAIL_IF": 2, "KEEP_GENERIC": 1, "ERROR_IF": 1}
# Interpreter macros that mean nothing in a specialize function (it is not the evaluation loop).
LOOP_ONLY = frozenset({"DEOPT_IF", "DISPATCH", "DISPATCH_JUMPED", "DISPATCH_SAME_OPARG",
                       "JUMP_TO_INSTRUCTION", "JUMPBY", "PEEK", "POKE", "STACK_SHRINK",
                       "STACK_GROW", "GETLOCAL", "SETLOCAL", "PREDICT", "GO_TO_INSTRUCTION",
                       "return", "goto"})

# Cache reads in a guard and the write that fills the same entry.
READERS = {"read_u16": "write_u16", "read_u32": "write_u32", "read_u64": "write_u64",
           "read_obj": "write_obj"}
WRITERS = frozenset(READERS.values())
# The unsigned type each reader returns: the fill checks its value fits.
READ_TYPES = {None: "uint16_t", "read_u16": "uint16_t", "read_u32": "uint32_t",
              "read_u64": "uint64_t"}


def function_name(family: str) -> str:
    return f"_PyQuicken_Specialize_{family}"


def failure_macro(family: str, kind: str) -> str:
    return f"QUICKEN_FAIL_{family}_{kind}"


def adaptive_source(family: ast.FamilyDecl, generic: ast.InstDecl, has_arg: bool) -> str:
    """The DSL text of the family's adaptive instruction: the generic instruction's inputs, its
    outputs unnamed (the adaptive form never completes), and the counter."""
    adaptive = family.adaptive.name
    inputs = [i for i in generic.effect.inputs]
    passed = [i.name for i in inputs if i.name != "unused"]
    params = [p.expression for p in family.specialize.params]
    args = ", ".join(["next_instr", "oparg" if has_arg else "0"] + passed + params)
    ins = ", ".join(ast.spell_item(i.name, i.size, i.condition) for i in inputs)
    outs = ", ".join(ast.spell_item("unused", o.size, o.condition)
                     for o in generic.effect.outputs)
    effect = f"({ins}{' ' if ins else ''}--{' ' if outs else ''}{outs})"
    return textwrap.dedent(f"""\
        /// Adaptive {family.name}, generated from `family {family.name}`: counts down and runs
        /// the generic {family.name}; at zero, calls the family's specializer
        /// (`{function_name(family.name)}`), which installs a member or backs off, and runs
        /// again.
        inst {adaptive} {effect} {{
            if (ADAPTIVE_COUNTER_IS_ZERO(cache)) {{
                next_instr--;
                if ({function_name(family.name)}({args}) < 0) {{
                    next_instr++;
                    goto error;
                }}
                DISPATCH_SAME_OPARG();
            }}
            else {{
                STAT_INC({family.name}, deferred);
                DECREMENT_ADAPTIVE_COUNTER(cache);
                JUMP_TO_INSTRUCTION({family.name});
            }}
        }}
        """)


# -- statements of specializer blocks -------------------------------------------------------

@dataclass
class MacroUse:
    """`NAME(args);` in a specializer block: the tokens it spans and its arguments."""

    name: str
    token: Token
    first: int  # token index of the name
    last: int  # token index of the `;`
    args: list[list[Token]]


def split_args(tokens: list[Token], open_index: int, close_index: int) -> list[list[Token]]:
    args: list[list[Token]] = [[]]
    depth = 0
    for t in tokens[open_index + 1:close_index]:
        if t.kind == PUNCT and t.text in ("(", "[", "{"):
            depth += 1
        elif t.kind == PUNCT and t.text in (")", "]", "}"):
            depth -= 1
        if depth == 0 and t.is_punct(","):
            args.append([])
            continue
        args[-1].append(t)
    return [] if args == [[]] else args


def find_macros(body: ast.Body, names) -> tuple[list[MacroUse], list[tuple[Location, str]]]:
    """The uses of the specializer's macros in a block, and problems with them."""
    tokens = body.tokens
    uses: list[MacroUse] = []
    problems: list[tuple[Location, str]] = []
    k = 0
    while k < len(tokens):
        t = tokens[k]
        if t.kind == IDENT and t.text in names and k + 1 < len(tokens) \
                and tokens[k + 1].is_punct("("):
            close = matching_paren(tokens, k + 1)
            if close < 0 or close + 1 >= len(tokens) or not tokens[close + 1].is_punct(";"):
                problems.append((t.location, f"{t.text}(...) must be a statement ending in ';'"))
                k += 1
                continue
            uses.append(MacroUse(t.text, t, k, close + 1, split_args(tokens, k + 1, close)))
            k = close + 2
            continue
        k += 1
    return uses, problems


def identifiers(tokens: list[Token]) -> list[Token]:
    return [t for t in tokens if t.kind == IDENT]


def token_text(body: ast.Body, tokens: list[Token]) -> str:
    if not tokens:
        return ""
    return " ".join(body.source.text[tokens[0].start:tokens[-1].end].split())


# -- fills derived from guards --------------------------------------------------------------

@dataclass
class Fill:
    """`cache->entry` written when a member is installed, derived from a guard."""

    entry: str
    reader: str | None  # read_u32 etc., or None for a plain 16-bit entry
    value: str  # C expression, in the member's names
    value_tokens: list[Token]
    location: Location  # the guard

    def statements(self, family: str) -> list[str]:
        """The C statements of the fill, with the check that the value fits the entry."""
        lines = []
        if self.reader != "read_obj":
            ctype = READ_TYPES[self.reader]
            kind = failure_macro(family, "OUT_OF_RANGE")
            lines.append(f"if ((uint64_t)({self.value}) != ({ctype})({self.value})) {{")
            lines.append(f"    FAIL_WITH({kind});")
            lines.append("}")
        if self.reader is None:
            lines.append(f"cache->{self.entry} = (uint16_t)({self.value});")
        else:
            lines.append(f"{READERS[self.reader]}(cache->{self.entry}, {self.value});")
        return lines


def _cache_read(tokens: list[Token], aliases: dict[str, tuple[str, str | None]]):
    """(entry, reader) when the tokens are exactly a read of a cache entry: `cache->e`,
    `read_u32(cache->e)`, or a local initialized from one (`aliases`)."""
    texts = [t.text for t in tokens]
    if len(texts) == 3 and texts[0] == "cache" and texts[1] == "->":
        return texts[2], None
    if len(texts) == 6 and texts[0] in READERS and texts[1] == "(" and texts[2] == "cache" \
            and texts[3] == "->" and texts[5] == ")":
        return texts[4], texts[0]
    if len(texts) == 1 and texts[0] in aliases:
        return aliases[texts[0]]
    return None


def derive_fills(body: ast.Body) -> list[Fill]:
    """The fills of the guards `DEOPT_IF(x != <cache entry>)` (either order) of a member's body:
    `cache->entry = x`. A local initialized from a cache entry (`uint32_t v =
    read_u32(cache->version);`) stands for it."""
    tokens = body.tokens
    aliases: dict[str, tuple[str, str | None]] = {}
    fills: list[Fill] = []
    for k, t in enumerate(tokens):
        # `TYPE name = <cache read>;`
        if t.is_punct("=") and k >= 2 and tokens[k - 1].kind == IDENT \
                and (tokens[k - 2].kind == IDENT or tokens[k - 2].is_punct("*")):
            end = k + 1
            while end < len(tokens) and not tokens[end].is_punct(";"):
                end += 1
            read = _cache_read(tokens[k + 1:end], aliases)
            if read is not None:
                aliases[tokens[k - 1].text] = read
            continue
        if not (t.is_ident("DEOPT_IF") and k + 1 < len(tokens) and tokens[k + 1].is_punct("(")):
            continue
        close = matching_paren(tokens, k + 1)
        if close < 0:
            continue
        inside = tokens[k + 2:close]
        depth = 0
        splits = []
        for j, u in enumerate(inside):
            if u.kind == PUNCT and u.text in ("(", "["):
                depth += 1
            elif u.kind == PUNCT and u.text in (")", "]"):
                depth -= 1
            elif depth == 0 and u.kind == PUNCT and u.text in ("!=", "&&", "||", "?", "=="):
                splits.append(j)
        if len(splits) != 1 or not inside[splits[0]].is_punct("!="):
            continue
        left, right = inside[:splits[0]], inside[splits[0] + 1:]
        for side, other in ((left, right), (right, left)):
            read = _cache_read(side, aliases)
            if read is None or any(u.is_ident("cache") for u in other):
                continue
            fills.append(Fill(read[0], read[1], token_text(body, other), other, t.location))
            break
    return fills


def cache_writes(body: ast.Body) -> set[str]:
    """Cache entries a specializer block writes: `cache->e = ...`, `write_u32(cache->e, ...)`."""
    tokens = body.tokens
    written = set()
    for k in range(len(tokens) - 2):
        if tokens[k].is_ident("cache") and tokens[k + 1].is_punct("->") \
                and tokens[k + 2].kind == IDENT:
            after = tokens[k + 3] if k + 3 < len(tokens) else None
            before = tokens[k - 2] if k >= 2 else None
            if after is not None and after.kind == PUNCT and after.text.endswith("=") \
                    and after.text not in ("==", "!=", "<=", ">="):
                written.add(tokens[k + 2].text)
            elif before is not None and before.text in WRITERS and tokens[k - 1].is_punct("("):
                written.add(tokens[k + 2].text)
    return written


@dataclass
class Specializer:
    """A family's specializer, checked: what the emitter of its function needs."""

    location: Location
    params: list[ast.SpecializerParam]
    inputs: list  # the generic instruction's named inputs (model.StackItem), in stack order
    prologue: ast.Body
    otherwise: ast.Body | None
    failures: list[str]  # BUILTIN_FAILURES + the family's
    members: list = field(default_factory=list)  # model.Instruction, in the order tried
