"""The statement table: every statement and macro name the DSL gives a meaning to, declared once.

A body (of an `inst` or an `op`) and the blocks of a specializer (`specialize`, `when`,
`otherwise`) are C, read by one reader (statements.py). The names below are the ones that
reader treats as more than C: the DSL's own statements (the generator rewrites them), the
interpreter's exits and stack moves (they end an instruction or move the stack), and the
evaluation loop's macros that a specializer block must not use. For each: what kind of
statement it is, where it is allowed, its arguments, and how it is written in each output.
No other module names these statements: the reader classifies, the analysis checks by kind,
the emitters expand by kind.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from .diagnostics import Location

# Where a statement stands: an instruction's (or op's) body, or a specializer block.
BODY = "body"
BLOCKS = ("specialize", "when", "otherwise")
EVERYWHERE = frozenset((BODY,) + BLOCKS)

# Kinds of statements, for the reader and everything after it.
GUARD = "guard"                  # DEOPT_IF: a miss leaves for the generic instruction
ERROR = "error"                  # ERROR_IF: an error exit
DISPATCH = "dispatch"            # DISPATCH(): completes with the stack effect
DISPATCH_JUMPED = "dispatch_jumped"  # DISPATCH_JUMPED(): completes with the jump effect
REJECT = "reject"                # REJECT_IF: this member does not apply
FAIL = "fail"                    # FAIL(kind): no member applies
FAIL_IF = "fail_if"              # FAIL_IF(cond, kind)
KEEP_GENERIC = "keep_generic"    # KEEP_GENERIC(kind): no member ever applies
EXIT = "exit"                    # leaves the instruction without the generated epilogue
STACK_MOVE = "stack_move"        # moves the stack pointer
TRAILING = "trailing"            # moved after the generated stack update when it ends a path
STAT = "stat"                    # a statistics update (Py_STATS builds)
POSITIONAL = "positional"        # the stack by position: never in the DSL
LOOP = "loop"                    # the evaluation loop's: not in a specializer block
JUMP = "jump"                    # moves next_instr (JUMPBY): the last part of a composition only

# Kinds that are statements of the DSL (the generator rewrites them); the others are the
# runtime's own macros, which the DSL knows.
DSL_KINDS = frozenset({GUARD, ERROR, DISPATCH, DISPATCH_JUMPED, REJECT, FAIL, FAIL_IF,
                       KEEP_GENERIC})
# Kinds after which no path continues.
EXITING_KINDS = frozenset({DISPATCH, DISPATCH_JUMPED, EXIT})


@dataclass(frozen=True)
class Form:
    """One name of the table."""

    name: str
    kind: str
    allowed: frozenset[str]  # where it may stand
    # Its arguments by where it stands (a DSL statement's are checked; None: not checked).
    params: dict[str, tuple[str, ...]] | None = None
    note: str = ""  # added to the message about a wrong number of arguments
    call: bool = True  # written as a call, NAME(...); else a keyword (`goto`, `return`)
    does: str = ""  # a conditional statement: what it does when its condition holds
    # A constant condition this statement may have (ERROR_IF(true, error): the error exit that
    # pops the inputs, unconditionally); any other constant condition is a mistake.
    constant_ok: bool | None = None

    def usage(self, where: str) -> str:
        return f"{self.name}({', '.join(self.params[where])})"

    def arity_message(self, where: str) -> str:
        params = self.params[where]
        count = {0: "no arguments", 1: "one argument", 2: "two arguments"}[len(params)]
        note = f" ({self.note})" if self.note else ""
        return f"{self.name} takes {count}: {self.usage(where)}{note}"


def _forms(kind: str, names: str, allowed=frozenset((BODY,)), **kw) -> list[Form]:
    return [Form(name, kind, allowed, **kw) for name in names.split()]


TABLE: dict[str, Form] = {f.name: f for f in [
    # The DSL's statements. Their order is the order the diagnostics list them in.
    Form("DEOPT_IF", GUARD, frozenset((BODY,)), {BODY: ("condition",)},
         note="the family is implied", does="deoptimizes"),
    Form("REJECT_IF", REJECT, frozenset(("when",)), {"when": ("condition",)},
         does="rejects the member"),
    Form("FAIL", FAIL, frozenset(BLOCKS), {b: ("kind",) for b in BLOCKS}),
    Form("FAIL_IF", FAIL_IF, frozenset(BLOCKS), {b: ("condition", "kind") for b in BLOCKS},
         does="fails the specialization"),
    Form("KEEP_GENERIC", KEEP_GENERIC, frozenset(BLOCKS), {b: ("kind",) for b in BLOCKS}),
    Form("ERROR_IF", ERROR, EVERYWHERE,
         {BODY: ("condition", "label"), **{b: ("condition",) for b in BLOCKS}},
         does="takes the error exit", constant_ok=True),
    Form("DISPATCH", DISPATCH, frozenset((BODY,)), {BODY: ()}),
    Form("DISPATCH_JUMPED", DISPATCH_JUMPED, frozenset((BODY,)), {BODY: ()}),
    # The interpreter's exits: they leave without the generated epilogue.
    *_forms(EXIT, "DISPATCH_SAME_OPARG DISPATCH_GOTO DISPATCH_GOTO_TRACED JUMP_TO_INSTRUCTION"),
    Form("Py_UNREACHABLE", EXIT, EVERYWHERE),
    *_forms(EXIT, "goto return", call=False),
    *_forms(STACK_MOVE, "STACK_SHRINK STACK_GROW"),
    # Statements that end a path move after the generated stack update.
    *_forms(TRAILING, "PREDICT CHECK_EVAL_BREAKER"),
    *_forms(STAT, "STAT_INC STAT_DEC OBJECT_STAT_INC OBJECT_STAT_INC_COND CALL_STAT_INC",
            EVERYWHERE),
    # The stack by position: the DSL names every item instead.
    *_forms(POSITIONAL, "TOP SECOND THIRD FOURTH PEEK POKE SET_TOP SET_SECOND SET_THIRD "
                        "SET_FOURTH PUSH POP BASIC_PUSH BASIC_POP", frozenset()),
    # More of the evaluation loop: meaningless in a specialize function.
    *_forms(JUMP, "JUMPBY JUMPTO"),
    *_forms(LOOP, "GETLOCAL SETLOCAL GO_TO_INSTRUCTION"),
]}

# Names the generated files are compiled beside: C's, the evaluation loop's macros (3.11.2's
# ceval.c and the generated cases), opcode.h's own. An instruction, family or cache named like
# one of them would redefine it (opcode.h defines every instruction's name as a macro).
RUNTIME_NAMES = frozenset("""
    NULL EOF assert offsetof errno
    TARGET DISPATCH DISPATCH_GOTO PRE_DISPATCH_GOTO PREDICT PREDICTED PREDICT_ID JUMPBY JUMPTO
    NEXTOPARG INSTRUCTION_START INSTR_OFFSET DISPATCH_SAME_OPARG GETLOCAL SETLOCAL GETITEM
    GLOBALS BUILTINS LOCALS STACK_LEVEL EMPTY TOP SECOND THIRD FOURTH PEEK POKE SET_TOP
    SET_SECOND SET_THIRD SET_FOURTH PUSH POP BASIC_PUSH BASIC_POP STACK_GROW STACK_SHRINK
    CHECK_EVAL_BREAKER DEOPT_IF ERROR_IF JUMP_TO_INSTRUCTION GO_TO_INSTRUCTION STAT_INC
    STAT_DEC OBJECT_STAT_INC OBJECT_STAT_INC_COND CALL_STAT_INC KWNAMES_LEN
    UNBOUNDLOCAL_ERROR_MSG NAME_ERROR_MSG USE_COMPUTED_GOTOS LLTRACE TRACING_NEXTOPARG
    ADAPTIVE_COUNTER_IS_ZERO DECREMENT_ADAPTIVE_COUNTER HAVE_ARGUMENT HAS_ARG MIN_ARGS
    FAIL_WITH KEEP_GENERIC_WITH SPECIALIZATION_FAIL DO_TRACING DISPATCH_NO_TRACE_CHECK
    DISPATCH_GOTO_TRACED TRACED_TARGET TARGET_NO_PREV_INSTR INSTRUCTION_START_NO_PREV_INSTR
""".split())
# Prefixes of the C API's and the generator's own names.
RUNTIME_PREFIXES = ("Py", "_Py", "PY_", "_PY", "QUICKEN_", "INLINE_CACHE_ENTRIES_", "NB_")


def runtime_name(name: str, prefixes: bool = True) -> bool:
    """Whether an instruction (or, prefixes aside, a cache: they are upstream's `_Py...Cache`
    structs) named so would clash with the runtime's C."""
    return name in RUNTIME_NAMES or name in TABLE or (prefixes and
                                                      name.startswith(RUNTIME_PREFIXES))


# Cache accessors: the reads of an entry of each width, and the writes that fill one.
CACHE_READERS = {"read_u16": "write_u16", "read_u32": "write_u32", "read_u64": "write_u64",
                 "read_obj": "write_obj"}
CACHE_WRITERS = frozenset(CACHE_READERS.values())
# How many code units each accessor reads or writes; a plain `cache->entry` is one.
CACHE_WIDTHS = {None: 1, "read_u16": 1, "write_u16": 1, "read_u32": 2, "write_u32": 2,
                "read_u64": 4, "write_u64": 4, "read_obj": 4, "write_obj": 4}


def cache_width_problem(entry: str, size: int, accessor: str | None, write: bool) -> str | None:
    """Why `cache->entry` (an entry of `size` code units) may not be accessed this way."""
    width = CACHE_WIDTHS[accessor]
    if width == size:
        return None
    fitting = [a for a, w in CACHE_WIDTHS.items() if a is not None and w == size
               and (a in CACHE_WRITERS) == write]
    if accessor is None:
        if not fitting:
            return None  # no accessor has its size: the entry is used as the array it is
        how = f"used directly, it is an array of {size} code units"
    else:
        how = f"{accessor} {'writes' if write else 'reads'} {width}"
    return (f"cache->{entry} has {size} code unit{'s' if size > 1 else ''}, but {how}"
            + (f"; use {' or '.join(fitting)}" if fitting else
               "; use it directly" if size == 1 else ""))

# Statements whose argument names an instruction (PREDICT(X), JUMP_TO_INSTRUCTION(X)).
NAMES_INSTRUCTION = frozenset({"PREDICT", "JUMP_TO_INSTRUCTION"})


def form(name: str) -> Form | None:
    return TABLE.get(name)


def misplaced(f: Form, where: str, called: bool) -> str | None:
    """The message for a name of the table standing where it is not allowed, or None."""
    if where in f.allowed:
        return None
    if where == BODY:
        if f.kind == POSITIONAL:
            return (f"'{f.name}' accesses the stack by position; declare the item in the stack "
                    f"effect and use its name") if called else None
        return (f"{f.name} is a statement of specializer blocks (allowed in "
                f"{', '.join(repr(b) for b in BLOCKS if b in f.allowed)}), not of an "
                f"instruction body")
    if f.kind in DSL_KINDS and f.allowed - {BODY}:
        return (f"{f.name} is not allowed in a '{where}' block (there: "
                f"{', '.join(names_of(DSL_KINDS, where))})")
    return (f"{f.name} in a '{where}' block: specializer code runs outside the evaluation loop "
            f"(use {', '.join(names_of(DSL_KINDS, where))})")


@dataclass
class Expansion:
    """What an emitter supplies to write a DSL statement in its output; the table's
    expansions below say how each kind is written there."""

    family: str = ""
    reject_label: str = ""  # a `when` block: where REJECT_IF goes
    kind_text: object = None  # a failure-kind argument (tokens) -> its C macro
    error_exit: object = None  # (condition, label) -> the case's lines for ERROR_IF
    epilogue: object = None  # a completing statement -> the case's lines


def expand_case(kind: str, args: list[str], x: Expansion, stmt=None) -> list[str]:
    """A DSL statement of an instruction body, as the evaluation loop's case writes it."""
    if kind == GUARD:
        return [f"DEOPT_IF({args[0]}, {x.family});"]
    if kind == ERROR:
        return x.error_exit(args[0], args[1])
    if kind in (DISPATCH, DISPATCH_JUMPED):
        return x.epilogue(stmt)
    raise AssertionError(f"no case expansion for {kind}")


def expand_specializer(kind: str, args: list[str], arg_tokens: list, x: Expansion) -> list[str]:
    """A DSL statement of a specializer block, as its specialize function writes it."""
    if kind in (FAIL, KEEP_GENERIC):
        macro = "FAIL_WITH" if kind == FAIL else "KEEP_GENERIC_WITH"
        return [f"{macro}({x.kind_text(arg_tokens[0])});"]
    then = {REJECT: lambda: f"goto {x.reject_label};", ERROR: lambda: "return -1;",
            FAIL_IF: lambda: f"FAIL_WITH({x.kind_text(arg_tokens[1])});"}[kind]()
    return [f"if ({args[0]}) {{", f"    {then}", "}"]


def names_of(kinds, where: str = BODY) -> list[str]:
    """The table's names of a kind in `kinds` that may stand at `where`, in its order."""
    return [f.name for f in TABLE.values() if f.kind in kinds and where in f.allowed]


def spell_item(name: str, size: str | None, condition: str | None,
               ctype: str | None = None) -> str:
    """A stack item as written in the DSL: `x`, `args[oparg]`, `null if (oparg & 1)`, or a
    value handed between parts, `tp: PyTypeObject *`."""
    if ctype is not None:
        return f"{name}: {ctype}"
    if size is not None:
        return f"{name}[{size}]"
    if condition is not None:
        return f"{name} if ({condition})"
    return name


def spell_effect(inputs: list, outputs: list) -> str:
    """A stack effect as written in the DSL: `(a, b -- c)`."""
    ins = ", ".join(i.spelling() for i in inputs)
    outs = ", ".join(o.spelling() for o in outputs)
    return f"({ins}{' ' if ins else ''}--{' ' if outs else ''}{outs})"


class SpecializerParam(NamedTuple):
    """`PyObject *name = GETITEM(names, oparg>>1)`: a value the adaptive instruction computes
    in the evaluation loop and hands to the family's specializer."""

    ctype: str
    name: str
    expression: str
    location: Location
