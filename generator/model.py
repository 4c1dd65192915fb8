"""The semantic model: plain data classes describing the checked instruction set, built by the
analyser (analysis.py) and sealed (Model.seal) before the emitters (emit_*.py) read it."""

from __future__ import annotations

import re
from dataclasses import dataclass, field, fields

from .dsl import spell_effect, spell_item
from .diagnostics import Location
from .lexer import Span


class Final:
    """A model object: once the analysis seals the model (Model.seal), assigning to a field
    raises, and its lists and sets are tuples and frozensets."""

    _sealed = False

    def __setattr__(self, name: str, value: object) -> None:
        if self._sealed:
            raise AttributeError(f"cannot set {type(self).__name__}.{name}: the model is final "
                                 f"once built")
        object.__setattr__(self, name, value)

    def _seal(self) -> None:
        if self._sealed:
            return
        object.__setattr__(self, "_sealed", True)
        for f in fields(self):
            value = getattr(self, f.name)
            if isinstance(value, (list, set)):
                value = tuple(value) if isinstance(value, list) else frozenset(value)
                object.__setattr__(self, f.name, value)
            for v in value if isinstance(value, (tuple, frozenset)) else (value,):
                if isinstance(v, Final):
                    v._seal()


HAVE_ARGUMENT = 90
DO_TRACING = 255
# Instructions whose named oparg values (`oparg NAME { ... }`) the generated tables carry:
# BINARY_OP's become the NB_* macros of opcode.h and `_nb_ops` in opcode.py, which dis reads.
NAMED_OPARGS = ("BINARY_OP",)


class Size:
    """A stack size: an integer plus symbolic C terms (`oparg`, `(oparg & 1)`), kept in
    first-seen order so that generated code is stable and readable."""

    def __init__(self, const: int = 0, terms: dict[str, int] | None = None):
        self.const = const
        self.terms = {t: c for t, c in (terms or {}).items() if c}

    @classmethod
    def term(cls, text: str) -> "Size":
        """The size of `text`, a C expression; `name + N` and `name - N` (`unused[oparg-1]`)
        are split into the name and the constant so that constants add up."""
        text = text.strip()
        if text.isdigit():
            return cls(int(text))
        inner = text[1:-1] if text.startswith("(") and text.endswith(")") else text
        m = re.fullmatch(r"\s*([A-Za-z_]\w*)\s*([-+])\s*(0|[1-9]\d*)\s*", inner)  # 010 is octal
        if m:
            return cls(int(m.group(3)) * (1 if m.group(2) == "+" else -1), {m.group(1): 1})
        return cls(0, {text: 1})

    def __add__(self, other: "Size", sign: int = 1) -> "Size":
        terms = dict(self.terms)
        for t, c in other.terms.items():
            terms[t] = terms.get(t, 0) + sign * c
        return Size(self.const + sign * other.const, terms)

    def __sub__(self, other: "Size") -> "Size":
        return self.__add__(other, -1)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Size) and self.const == other.const and \
            sorted(self.terms.items()) == sorted(other.terms.items())

    def __hash__(self) -> int:
        return hash((self.const, tuple(sorted(self.terms.items()))))

    @property
    def is_zero(self) -> bool:
        return self.const == 0 and not self.terms

    def positive_part(self) -> "Size":
        return Size(max(self.const, 0), {t: c for t, c in self.terms.items() if c > 0})

    def negative_part(self) -> "Size":
        """The part to subtract, as a positive size: (a - b).negative_part() == b."""
        return Size(max(-self.const, 0), {t: -c for t, c in self.terms.items() if c < 0})

    def render(self, wide: bool = False) -> str:
        """C text of the size. With `wide`, a sum is computed in Py_ssize_t: `oparg + 1` in int
        must wrap (-fwrapv) before it is widened to an address offset, which keeps the compiler
        from folding the constant into the address (PEEK of `(Py_ssize_t)oparg + 1` is one
        displaced load). Conditional items (0 or 1) stay int."""
        widen = wide and bool(self.terms) and (self.const != 0 or len(self.terms) > 1)
        parts: list[str] = []
        for t, c in self.terms.items():
            if widen and not t.endswith(" ? 1 : 0)"):  # a 0-or-1 item cannot make a sum wrap
                t = f"(Py_ssize_t){t}" if t.isidentifier() or t.startswith("(") else f"(Py_ssize_t)({t})"
            text = t if abs(c) == 1 else f"{abs(c)} * {t}"
            parts.append(f"{'-' if c < 0 else '+'} {text}")
        if self.const or not parts:
            parts.append(f"{'-' if self.const < 0 else '+'} {abs(self.const)}")
        text = " ".join(parts)
        return text[2:] if text.startswith("+ ") else "-" + text[2:]

    def __repr__(self) -> str:
        return f"Size({self.render()})"


@dataclass
class StackItem(Final):
    name: str
    location: Location
    array_size: str | None = None
    condition: str | None = None
    ctype: str | None = None  # a value one part of a composition hands to a later one

    @property
    def is_array(self) -> bool:
        return self.array_size is not None

    @property
    def is_value(self) -> bool:
        """A C value in a variable of the instruction's block, not a stack slot: it takes no
        room on the stack and is never stored there (`tp: PyTypeObject *`)."""
        return self.ctype is not None

    @property
    def is_unused(self) -> bool:
        return self.name == "unused"

    @property
    def size(self) -> Size:
        if self.ctype is not None:
            return Size()
        if self.array_size is not None:
            return Size.term(_parenthesize(self.array_size))
        if self.condition is not None:
            return Size.term(f"(({self.condition}) ? 1 : 0)")
        return Size(1)

    def shape(self) -> str:
        """The item without its name: what family members must agree on."""
        if self.ctype is not None:
            return self.ctype
        if self.array_size is not None:
            return f"[{self.array_size}]"
        if self.condition is not None:
            return f"if ({self.condition})"
        return "1"

    def spelling(self) -> str:
        return spell_item(self.name, self.array_size, self.condition, self.ctype)


def upstream_supers(baseline) -> set[str]:
    """A baseline's superinstructions (`A__B`) (super_starts)."""
    return {n for n in (baseline and baseline.specialized) or {} if "__" in n}


def super_starts(names: list[str], upstream: set[str]) -> tuple[int, ...]:
    """The parts of a superinstruction (by their instructions' names) after the first that
    upstream runs as an instruction of their own (with its position and after a dispatch that
    checks the tracing state): each, unless it is the second half of an upstream
    superinstruction (`A__B` in `upstream`) whose first half started one."""
    starts, start = [], 0
    for k in range(1, len(names)):
        if not (k - 1 == start and f"{names[k - 1]}__{names[k]}" in upstream):
            starts.append(k)
            start = k
    return tuple(starts)


def super_closed_by(names: list[str], upstream: set[str]) -> set[str]:
    """The instructions before which quickening may not install a superinstruction (by its
    parts' names): if its last part starts an instruction of its own, upstream would run it as
    the first half of one of its superinstructions (`A__B` in `upstream`) with the instruction
    after it, whose second half then has the first half's position."""
    last = len(names) - 1
    if last == 0 or last not in super_starts(names, upstream):
        return set()
    return {second for first, _, second in (n.partition("__") for n in upstream)
            if first == names[last]}


# What reads an instruction's own position in a body.
POSITION_READS = frozenset({"prev_instr", "INSTR_OFFSET", "_PyInterpreterFrame_LASTI",
                            "first_instr"})


def error_goto_label(reading, stmt) -> str | None:
    """The label of a `goto` to an error exit (`error`, `exception_unwind`, `pop_2_error`,
    `unbound_local_error`: a label naming an error or the unwinding), else None."""
    tokens = reading.tokens
    if tokens[stmt.first].text != "goto" or stmt.last <= stmt.first:
        return None
    label = tokens[stmt.first + 1].text
    return label if "error" in label or "unwind" in label else None


def _parenthesize(expr: str) -> str:
    expr = expr.strip()
    return expr if expr.isidentifier() or expr.isdigit() else f"({expr})"


@dataclass
class StackEffect(Final):
    inputs: list[StackItem]
    outputs: list[StackItem]
    location: Location

    @staticmethod
    def total(items: list[StackItem]) -> Size:
        return sum((item.size for item in items), Size())

    @property
    def delta(self) -> Size:
        return self.total(self.outputs) - self.total(self.inputs)

    def shape(self) -> tuple[tuple[str, ...], tuple[str, ...]]:
        return tuple(i.shape() for i in self.inputs), tuple(o.shape() for o in self.outputs)

    @staticmethod
    def offsets_from_bottom(items: list[StackItem]) -> list[Size]:
        result, below = [], Size()
        for item in items:
            result.append(below)
            below = below + item.size
        return result

    def pass_through(self) -> set[int]:
        """Indexes of outputs that are an input left in place (same name and position, or
        `unused` slots): the epilogue does not store them."""
        in_pos = {i.name: (p, i.shape()) for i, p in
                  zip(self.inputs, self.offsets_from_bottom(self.inputs)) if not i.is_unused}
        out_pos = self.offsets_from_bottom(self.outputs)
        return {index for index, o in enumerate(self.outputs)
                if o.is_unused or in_pos.get(o.name) == (out_pos[index], o.shape())}

    def spelling(self) -> str:
        return spell_effect(self.inputs, self.outputs)

    def kept_inputs(self) -> list[int | None]:
        """For each output, the index of the input it is (passed through in the same place,
        pass_through() with a matching shape), else None: how a composition tells which item
        an earlier part's output still is (compose_effects, _named_before)."""
        kept = self.pass_through()
        in_at = {p: k for k, p in enumerate(self.offsets_from_bottom(self.inputs))}
        out_pos = self.offsets_from_bottom(self.outputs)
        result: list[int | None] = []
        for j, out in enumerate(self.outputs):
            k = in_at.get(out_pos[j])
            same = j in kept and k is not None and self.inputs[k].shape() == out.shape()
            result.append(k if same else None)
        return result

    def without_values(self) -> "StackEffect":
        """The stack items alone (the values of a composition's parts are variables)."""
        return StackEffect([i for i in self.inputs if not i.is_value],
                           [o for o in self.outputs if not o.is_value], self.location)


@dataclass
class Body(Final):
    """An instruction's or op's body: its source and its reading (statements.py), the one
    understanding of it that the checks and the emitters share."""

    source: Span
    reading: object  # statements.Reading

    @property
    def statements(self) -> list:
        """The body's statements as a tree (statements.Statement)."""
        return self.reading.statements

    @property
    def uses_cache(self) -> bool:
        return "cache" in self.reading.names

    @property
    def completes(self) -> bool:
        """Whether some path finishes with the generated epilogue."""
        return self.reading.falls_through or any(
            s.kind in ("dispatch", "dispatch_jumped") for s in self.reading.dsl_statements())


@dataclass
class Operation(Final):
    """A piece of code with a stack effect: the body of an `inst`, or an `op`."""

    name: str
    effect: StackEffect
    jump_effect: StackEffect | None
    body: Body


@dataclass
class Cache(Final):
    name: str
    location: Location
    doc: str
    entries: list[tuple[str, int]]

    @property
    def size(self) -> int:
        return sum(size for _, size in self.entries)


@dataclass
class Instruction(Final):
    name: str
    number: int  # written, or (specialized instructions) derived by the analysis
    location: Location
    doc: str
    flags: set[str]
    kind: str  # "inst" (own body), "composed" (ops sharing oparg), "super"
    parts: list[Operation]  # one part for a plain instruction
    effect: StackEffect  # for a composition: the composed effect
    jump_effect: StackEffect | None = None
    family: "Family | None" = None
    role: str | None = None  # generic | adaptive | quick | member
    fuses: "list[Instruction]" = field(default_factory=list)  # also runs the next ones
    # (family's array size, this member's constant size): what the member knows more
    narrowed: list[tuple[str, str]] = field(default_factory=list)
    compiler_effect: StackEffect | None = None  # what compile.c and frameobject.c are told
    number_location: Location | None = None  # where the number is written, if it is
    number_derived: bool = False  # the number comes from the numbering rule, not the source
    # A member of a family with a specializer: its `when` block, and the cache fills derived
    # from its guards (specializer.Fill).
    when: object = None  # specializer.Admission
    fills: list = field(default_factory=list)
    # A superinstruction: its later parts that the baseline runs as an instruction of their
    # own, not as the second half of one of its superinstructions (super_starts).
    starts: tuple[int, ...] = ()
    # A superinstruction whose last part is a specialized member of another family, or one of
    # several members of it (`A + (B | C)`): those members, in the declared order, and the
    # bodies of the alternatives after the first (whose body is parts[-1]). The last part runs
    # as the member the site holds, if it is one of them; else the superinstruction ends after
    # the part before, dispatching the site as it is. Its guards miss as that member's own and
    # its inline cache follows it (emit_cases.py, docs/dsl.md 2.4).
    member_parts: "tuple[Instruction, ...]" = ()
    alternatives: "list[Operation]" = field(default_factory=list)

    @property
    def installed_over(self) -> tuple[str, ...]:
        """A superinstruction's parts as quickening sees them: a member part by its family's
        generic instruction, which the site holds before it specializes."""
        names = [p.name for p in self.parts]
        if self.member_parts:
            names[-1] = self.member_parts[0].family.generic.name
        return tuple(names)

    @property
    def bodies(self) -> "list[Operation]":
        """Every body the instruction may run: its parts' and the last part's alternatives'."""
        return self.parts + self.alternatives

    def member_at(self, index: int, name: str) -> "Instruction | None":
        """The member that part `index` runs (its body `name`), if that part is a member part."""
        if not self.member_parts or index != len(self.parts) - 1:
            return None
        return next(m for m in self.member_parts if m.name == name)

    def part_owner(self, index: int, name: str) -> "Instruction":
        """Whose inline cache a part's body reads and whose family its guards miss to: a member
        part's member's, every other part's the instruction's."""
        return self.member_at(index, name) or self

    def start_checks(self, index: int) -> bool:
        """Whether the later part `index` (one of `starts`) checks the tracing state first: code
        in the parts since the previous start may have turned it on (Reading.completion_code);
        then the rest runs instruction by instruction, traced (emit_cases.py)."""
        first = max([0] + [k for k in self.starts if k < index])
        return any(part.body.reading.completion_code().get(-1) is not None
                   for part in self.parts[first:index])

    @property
    def symbolic_stack(self) -> bool:
        """A composition (not a superinstruction) whose parts pass values to each other in C
        variables, the stack written once at the end (and before an error exit): every item a
        scalar, no part moving or reading the stack itself, assigning one of its inputs, or
        leaving other than by an error exit. Its later parts may then guard (emit_cases.py)."""
        if self.kind != "composed":
            return False
        for part in self.parts:
            reading = part.body.reading
            items = part.effect.inputs + part.effect.outputs
            if part.jump_effect is not None or any(i.is_array or i.condition for i in items):
                return False
            if "stack_pointer" in reading.names or any(
                    s.kind in ("stack_move", "exit", "dispatch") and
                    not error_goto_label(reading, s) for s in reading.walk()):
                return False
            assigned = set().union(*(s.all_assigns for s in reading.statements))
            if assigned & {i.name for i in part.effect.inputs}:
                return False
        return True

    def unwritten_before(self, index: int) -> bool:
        """Whether a composition's parts before `index` leave the stack as it was on entry:
        each passes every item through where it was (values aside), moves no stack and reads
        no `stack_pointer`, so nothing is written before part `index` and it may guard (what
        the earlier parts change otherwise is checked as for one body: docs/dsl.md 4.3)."""
        if self.kind != "composed":
            return False
        for part in self.parts[:index]:
            effect, reading = part.effect.without_values(), part.body.reading
            if len(effect.outputs) != len(effect.inputs) or \
                    len(effect.pass_through()) != len(effect.outputs):
                return False
            if "stack_pointer" in reading.names or any(
                    s.kind == "stack_move" for s in reading.walk()):
                return False
        return True

    def completion_code(self) -> dict[int, object]:
        """Its completions (statements.Reading.completion_code) -> a statement that may run
        Python code on a path there, or None. A composition's parts are decided together (code
        in any part counts everywhere); an `eval_breaker` instruction checks the eval breaker
        (which may run any code) at every completion."""
        codes = [part.body.reading.completion_code() for part in self.bodies]
        if self.kind == "composed" and not any(
                c is not None for part in codes[:-1] for c in part.values()):
            codes = codes[-1:]  # no code before its last part: that part's completions decide
        elif self.kind != "inst":  # what a superinstruction's part start checked counts no more
            last = max((0,) + self.starts)
            ran = next((c for part in codes[last:] for c in part.values() if c is not None),
                       None)
            codes = [{**dict.fromkeys(codes[-1], ran), -1: ran}]
        if "eval_breaker" in self.flags:
            return dict.fromkeys(codes[0], self)
        return codes[0]

    @property
    def stores_position(self) -> bool:
        """Whether the case stores its position (`frame->prev_instr`) on entry, as upstream's
        every case does. Only code it runs (a traceback, `f_lineno`: Change.observes_position),
        leaving other than by completing, a guard or an error exit, or reading the position can
        observe it; without those, it stores it on its error exits only (emit_cases.py), unless
        it also moves next_instr (then the error exit would not know its position)."""
        errors = moves = False
        for part in self.bodies:
            reading = part.body.reading
            if any(t.text in POSITION_READS for t in reading.tokens):
                return True
            for stmt in reading.walk():
                if any(c.observes_position for c in stmt.changes):
                    return True
                if stmt.kind == "exit" and error_goto_label(reading, stmt) is None:
                    return True
                errors = errors or stmt.kind in ("error", "exit")
                moves = moves or "next_instr" in stmt.assigns or any(
                    c.token.text in ("JUMPBY", "JUMPTO") for c in stmt.changes)
        return "eval_breaker" in self.flags or (errors and moves)

    @property
    def has_arg(self) -> bool:
        """Base instructions from HAVE_ARGUMENT on take an argument; specialized ones take
        their generic instruction's."""
        if self.is_specialized and self.family is not None:
            return self.family.generic.has_arg
        if self.number is None:  # a base instruction without a number, already an error:
            return True  # assume an argument rather than report oparg uses as errors too
        return self.number >= HAVE_ARGUMENT

    @property
    def is_specialized(self) -> bool:
        return self.role in ("adaptive", "quick", "member")

    @property
    def cache(self) -> "Cache | None":
        return self.family.cache if self.family else None


@dataclass
class Family(Final):
    name: str
    generic: Instruction
    cache: Cache | None
    adaptive: Instruction | None
    quick: Instruction | None
    members: list[Instruction] = field(default_factory=list)
    specializer: object = None  # specializer.Specializer, when the family declares one

    @property
    def specializations(self) -> list[Instruction]:
        """In opcode.py's order: adaptive, quick, then members."""
        return [i for i in (self.adaptive, self.quick) if i is not None] + list(self.members)


@dataclass
class Model(Final):
    instructions: list[Instruction]  # in declaration order (files sorted by name)
    families: list[Family]  # sorted by name
    caches: list[Cache]
    opargs: dict[str, list[tuple[str, str]]] = field(default_factory=dict)
    baseline: object = None  # baselines.Baseline declared by `baseline NAME;`, if any

    def seal(self) -> "Model":
        """Make the model final (Final): the analysis calls this last, so that the emitters
        only read what it built."""
        self._seal()
        return self

    def by_number(self) -> list[Instruction]:
        return sorted(self.instructions, key=lambda i: i.number)

    def base_instructions(self) -> list[Instruction]:
        return [i for i in self.by_number() if not i.is_specialized]

    def specialized_instructions(self) -> list[Instruction]:
        return [i for f in self.families for i in f.specializations]

    @property
    def untraced_dispatch(self) -> set[str]:
        """The instructions that dispatch the next one without reading the tracing state
        (DISPATCH_NO_TRACE_CHECK): those that keep it (Instruction.completion_code) and never
        run while tracing is on (DO_TRACING deoptimizes what it dispatches: a specialized
        instruction that no base instruction jumps into), or have a checked copy that runs
        instead (a base instruction: emit_cases.py, opcode_targets_traced)."""
        jumped = self.jumped_into
        return {inst.name for inst in self.instructions if inst.name not in jumped
                and any(code is None for code in inst.completion_code().values())}

    @property
    def jumped_into(self) -> set[str]:
        """The instructions a base instruction jumps into (JUMP_TO_INSTRUCTION): the only
        specialized ones that may start while tracing is on."""
        return {part.body.reading.tokens[s.args[0][0]].text
                for inst in self.instructions if not inst.is_specialized
                for part in inst.parts for s in part.body.reading.walk()
                if s.form is not None and s.form.name == "JUMP_TO_INSTRUCTION" and s.args}

    @property
    def predicted(self) -> set[str]:
        """The instructions a body names in PREDICT() or JUMP_TO_INSTRUCTION()."""
        return {t.text for inst in self.instructions for part in inst.bodies
                for t in part.body.reading.references}
