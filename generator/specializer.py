"""The specializer declared in the DSL (docs/dsl.md 2.3.1): what the analysis and the emitter
of the specialize functions (emit_specializer.py) share. A family that declares `specialize`
gets a generated adaptive instruction (`adaptive_source` writes it in the DSL and the analysis
reads it like any other), which at zero calls its specialize function: the family's
`specialize` block, each member's `when` in the order of `members:` (the first that does not
reject is installed, with the cache fills its `when` writes and those derived from its guards),
then `otherwise`. Failure kinds (for Py_STATS) are numbered per family: BUILTIN_FAILURES, then
the family's `failures`.
"""

from __future__ import annotations

import textwrap
from dataclasses import dataclass, field, replace

from . import ast, dsl
from .dsl import spell_effect
from .diagnostics import Location
from .lexer import PUNCT, Span, Token
from .statements import Reading

# Every family's first failure kinds; `failures:` continues after them.
BUILTIN_FAILURES = ("OTHER", "OUT_OF_RANGE")
# Py_STATS counts failure kinds in an array of this size (SPECIALIZATION_FAILURE_KINDS in
# pycore_code.h).
MAX_FAILURE_KINDS = 30

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
    inputs = generic.effect.inputs
    passed = [i.name for i in inputs if i.name != "unused"]
    params = [p.expression for p in family.specialize.params]
    args = ", ".join(["next_instr", "oparg" if has_arg else "0"] + passed + params)
    effect = spell_effect(inputs, [replace(o, name="unused") for o in generic.effect.outputs])
    number = f" = {family.adaptive_number}" if family.adaptive_number is not None else ""
    return textwrap.dedent(f"""\
        /// Adaptive {family.name}, generated from `family {family.name}`: counts down and runs
        /// the generic {family.name}; at zero, calls the family's specializer
        /// (`{function_name(family.name)}`), which installs a member or backs off, and runs
        /// again.
        inst {adaptive}{number} {effect} {{
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


def token_text(body: Span, tokens: list[Token]) -> str:
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
    guard_text: str = ""  # the guard's condition, as written (whitespace folded)

    def statements(self, family: str) -> list[str]:
        """The C statements of the fill, with the check that the value fits the entry."""
        lines = []
        if self.reader != "read_obj":
            ctype = READ_TYPES[self.reader]
            lines = [f"if ((uint64_t)({self.value}) != ({ctype})({self.value})) {{",
                     f"    FAIL_WITH({failure_macro(family, 'OUT_OF_RANGE')});", "}"]
        if self.reader is None:
            lines.append(f"cache->{self.entry} = (uint16_t)({self.value});")
        else:
            lines.append(f"{dsl.CACHE_READERS[self.reader]}(cache->{self.entry}, {self.value});")
        return lines


def _cache_read(tokens: list[Token], aliases: dict[str, tuple[str, str | None]]):
    """(entry, reader) when the tokens are exactly a read of a cache entry: `cache->e`,
    `read_u32(cache->e)`, or a local initialized from one (`aliases`)."""
    texts = [t.text for t in tokens]
    if len(texts) == 3 and texts[0] == "cache" and texts[1] == "->":
        return texts[2], None
    if len(texts) == 6 and texts[0] in dsl.CACHE_READERS and texts[1:3] == ["(", "cache"] \
            and texts[3] == "->" and texts[5] == ")":
        return texts[4], texts[0]
    if len(texts) == 1 and texts[0] in aliases:
        return aliases[texts[0]]
    return None


def derive_fills(body) -> list[Fill]:
    """The fills of the guards `DEOPT_IF(x != <cache entry>)` (either order) of a member's body
    (a model.Body): `cache->entry = x`. A local initialized from a cache entry (`uint32_t v =
    read_u32(cache->version);`) stands for it."""
    reading = body.reading
    tokens = reading.tokens
    aliases: dict[str, tuple[str, str | None]] = {}
    fills: list[Fill] = []
    for stmt in reading.walk():
        for name, lo, hi in stmt.declares:
            read = _cache_read(tokens[lo:hi], aliases)
            if read is not None:
                aliases[name.text] = read
        if stmt.kind != dsl.GUARD:
            continue
        lo, hi = stmt.args[0]
        splits = []
        j = lo
        while j < hi:  # the condition's operators outside brackets
            u = tokens[j]
            if u.kind == PUNCT and u.text in ("!=", "&&", "||", "?", "=="):
                splits.append(j)
            j = reading.brackets.after(j)
        if len(splits) != 1 or not tokens[splits[0]].is_punct("!="):
            continue
        left, right = tokens[lo:splits[0]], tokens[splits[0] + 1:hi]
        for side, other in ((left, right), (right, left)):
            read = _cache_read(side, aliases)
            if read is None or any(u.is_ident("cache") for u in other):
                continue
            fills.append(Fill(read[0], read[1], token_text(body.source, other), other,
                              stmt.location, token_text(body.source, tokens[lo:hi])))
            break
    return fills


@dataclass
class Admission:
    """A member's `when`, read: the `when` of its first part if that is an `op` with one (the
    admission the members it begins share), then its own; the blocks run one after the other
    in one scope of the specialize function, so the second sees what the first declares."""

    blocks: list[Reading]

    @property
    def location(self):
        """The member's own `when` (else the shared one)."""
        return self.blocks[-1].location

    def dsl_statements(self) -> list:
        return [s for block in self.blocks for s in block.dsl_statements()]

    @property
    def names(self) -> set[str]:
        return set().union(*(block.names for block in self.blocks))

    @property
    def declared(self) -> set[str]:
        return set().union(*(block.declared for block in self.blocks))

    @property
    def cache_accesses(self) -> list:
        return [a for block in self.blocks for a in block.cache_accesses]

    def writes_on_every_path(self) -> set[str]:
        """What the blocks write on every path through all of them (they run in sequence)."""
        return set().union(*(block.writes_on_every_path() for block in self.blocks))


@dataclass
class Specializer:
    """A family's specializer, checked: what the emitter of its function needs."""

    params: list[dsl.SpecializerParam]
    inputs: list  # the generic instruction's named inputs (model.StackItem), in stack order
    prologue: Reading  # the `specialize` block, read (statements.py)
    otherwise: Reading | None
    failures: list[str]  # BUILTIN_FAILURES + the family's
    members: list = field(default_factory=list)  # model.Instruction, in the order tried
