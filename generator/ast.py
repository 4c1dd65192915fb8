"""The syntax tree: what the parser read, with locations, before any meaning is checked."""

from __future__ import annotations

from dataclasses import dataclass, field

from .diagnostics import Location
from .dsl import SpecializerParam, spell_effect, spell_item
from .lexer import Span


@dataclass
class StackItem:
    name: str
    location: Location
    size: str | None = None  # C expression for an array: args[oparg]
    condition: str | None = None  # C expression for a conditional item: null if (oparg & 1)
    ctype: str | None = None  # a value's C type, not a stack slot: `frame: _PyInterpreterFrame *`

    @property
    def is_array(self) -> bool:
        return self.size is not None

    def spelling(self) -> str:
        return spell_item(self.name, self.size, self.condition, self.ctype)


@dataclass
class StackEffect:
    inputs: list[StackItem]
    outputs: list[StackItem]
    location: Location

    def spelling(self) -> str:
        return spell_effect(self.inputs, self.outputs)


@dataclass
class Ref:
    """A name as written: a flag, a part, an entry of a family."""

    name: str
    location: Location


@dataclass
class InstDecl:
    """`inst NAME [= N] [flags] effect [jump effect] { body }` or `op NAME effect { body }`."""

    kind: str  # "inst" or "op"
    name: str
    location: Location
    doc: str
    number: int | None  # None for an `op`, or derived (specialized instructions)
    number_location: Location | None
    flags: list[Ref]
    effect: StackEffect
    jump_effect: StackEffect | None
    body: Span
    fuses: list[Ref] = field(default_factory=list)  # also runs the instructions after it
    compiler_effect: StackEffect | None = None  # the effect the compiler sees, if different
    # a family member's admission: when it applies, how it fills (an `op`'s: the shared
    # admission of the members whose first part it is)
    when: Span | None = None


@dataclass
class CompositionDecl:
    """`inst NAME [= N] [flags] : A + B [fuses C];` (or `... : A + B [fuses C] when { ... }`)
    or `super NAME [= N] : A + B;`."""

    kind: str  # "inst" or "super"
    name: str
    location: Location
    doc: str
    number: int | None  # None: derived (specialized instructions only)
    number_location: Location | None
    flags: list[Ref]
    parts: list[Ref]
    when: Span | None = None  # a family member's admission (see InstDecl)
    # `super NAME : A + (B | C);`: the last part's other alternatives (parts[-1] is B)
    alternatives: list[Ref] = field(default_factory=list)
    fuses: list[Ref] = field(default_factory=list)  # `inst NAME : A + B fuses C` (see InstDecl)


@dataclass
class CacheEntryDecl:
    name: str
    size: int
    location: Location


@dataclass
class CacheDecl:
    name: str
    location: Location
    doc: str
    entries: list[CacheEntryDecl]


@dataclass
class SpecializeDecl:
    """A family's `specialize (params) { prologue }`."""

    location: Location
    params: list[SpecializerParam]
    body: Span


@dataclass
class FamilyDecl:
    name: str
    location: Location
    doc: str
    cache: Ref | None = None
    adaptive: Ref | None = None
    quick: Ref | None = None
    members: list[Ref] = field(default_factory=list)
    specialize: SpecializeDecl | None = None  # the specializer's shared analysis
    otherwise: Span | None = None  # runs when no member applies: says why (FAIL)
    failures: list[Ref] = field(default_factory=list)  # failure kinds, after OTHER
    # `adaptive: NAME = N;`: the opcode of an adaptive form the specializer generates
    adaptive_number: int | None = None
    adaptive_number_location: Location | None = None


@dataclass
class OpargValue:
    name: str
    text: str
    location: Location


@dataclass
class OpargDecl:
    """`oparg INSTRUCTION { NAME: "text"; ... }`: named values of an instruction's oparg."""

    name: str  # the instruction
    location: Location
    doc: str
    values: list[OpargValue]


@dataclass
class BaselineDecl:
    """`baseline NAME;`: the upstream instruction set whose base opcodes must be kept."""

    name: str
    location: Location
    doc: str


Declaration = BaselineDecl | InstDecl | CompositionDecl | CacheDecl | FamilyDecl | OpargDecl
