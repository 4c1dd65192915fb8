"""The statement model of a body: its C statements as a tree, each classified by what it does.

Built once per body by the analysis and read by the checks (nothing may change before a
guard, outputs must be assigned) and by the emitter of the cases (where an output can be stored
early). Only a small part of C matters here: statements are split at `;` and braces, compound
statements (`if`/`else`, loops, `switch`, blocks) keep their parts, and each statement records
what it *is* for the instruction (a kind of dsl.py's table: a guard, an error exit, a
completion, another exit, a stack move; or plain code), what it *changes* outside its own
locals (reference counts, the stack, memory through a pointer, statistics, or a call not in
PURE_CALLS, which may do anything), and which names it assigns, however it does it (`x = `,
`x += `, `x++`, `&x` handed to a call, `Py_SETREF(x, ...)`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from . import dsl
from .diagnostics import Location
from .lexer import IDENT, PREPROC, PUNCT, Brackets, Token, match_brackets

# Calls that release a reference held by their first argument, and all that change reference
# counts.
RELEASING_CALLS = frozenset({"Py_DECREF", "Py_XDECREF", "Py_CLEAR", "Py_SETREF", "Py_XSETREF",
                             "_Py_DECREF_SPECIALIZED", "_Py_DECREF_NO_DEALLOC",
                             "_Py_DECREF_SKIP_IMMORTAL"})
REFCOUNT_CALLS = RELEASING_CALLS | {"Py_INCREF", "Py_XINCREF", "Py_NewRef", "Py_XNewRef"}
# Calls that also assign their first argument (and change reference counts).
SETREF_CALLS = frozenset({"Py_SETREF", "Py_XSETREF", "Py_CLEAR"})

# Calls that read and compute but change nothing: what a body may call before a guard and in
# a guard's condition. Type checks, field and cache reads, dictionary-key lookups of the
# specializer's layouts, and the interpreter's own accessors (GETLOCAL, GLOBALS, ...). A call
# not listed here counts as a side effect; add a name only if it has none.
PURE_CALLS = frozenset({
    # C and assertions
    "sizeof", "assert", "Py_UNUSED", "_Py_CAST",
    # object layout and type checks
    "Py_TYPE", "Py_SIZE", "Py_IS_TYPE", "PyType_HasFeature",
    "_PyType_HasFeature", "PyCFunction_GET_FLAGS", "PyCFunction_GET_FUNCTION",
    "PyCFunction_GET_SELF", "PyTuple_GET_SIZE", "PyTuple_GET_ITEM", "PyList_GET_SIZE",
    "PyList_GET_ITEM", "PyFloat_AS_DOUBLE", "PyUnicode_GET_LENGTH", "PyUnicode_READ_CHAR",
    "PyUnicode_KIND", "PyUnicode_DATA", "PyUnicode_IS_COMPACT_ASCII",
    "_PyLong_IsPositiveSingleDigit", "Py_ABS", "_PyObject_InlineValues", "Py_REFCNT",
    "isnan", "_PyQuicken_AsDouble", "_PyQuicken_PropertyFunction",
    "_PyQuicken_MethodMemoFind",
    # dictionaries and keys, by the layouts the specializer caches
    "DK_IS_UNICODE", "DK_UNICODE_ENTRIES", "DK_ENTRIES", "_PyObject_ValuesPointer",
    "_PyObject_ManagedDictPointer", "_PyDictOrValues_IsValues",
    "_PyDictOrValues_GetValues", "_PyDictOrValues_GetDict",
    # Not here, though they look like reads: _PyObject_GetDictPtr (materializes the dict of
    # an object with inline values), _PyDictValues_AddToInsertionOrder (writes the order),
    # _PyFunction_GetVersionForCurrentState (assigns the function a version).
    # inline cache reads
    "read_u16", "read_u32", "read_u64", "read_obj",
    # the interpreter's state
    "GETLOCAL", "GETITEM", "GLOBALS", "BUILTINS", "LOCALS", "KWNAMES_LEN",
    "_PyInterpreterState_GET", "_Py_OPCODE", "_Py_OPARG", "_Py_atomic_load_relaxed_int32",
    "_PyFrame_GetCode", "_PyFrame_GetStackPointer", "_Py_ID",
    # the attribute a type's MRO gives a name: its only write is the method cache's entry (no
    # code runs: the type dicts are exact dicts, the keys strs)
    "_PyType_Lookup",
})
# Calls that allocate: tracemalloc, when it traces, records the frame's position. Of
# runtime/quicken/quicken_numbers.h: they release exact floats and ints (whose deallocators
# only free) and make a number (not the multiplications, _PyQuicken_IntMultiply and
# _PyQuicken_IntMultiplyStored: _PyLong_Multiply).
ALLOCATING_CALLS = frozenset({"_PyLong_Add", "_PyLong_Subtract", "PyLong_FromLong",
                              "PyLong_FromSsize_t", "PyFloat_FromDouble",
                              "_PyQuicken_FloatResult", "_PyQuicken_FloatIntResult",
                              "_PyQuicken_IntAdd", "_PyQuicken_IntSubtract",
                              "_PyQuicken_RangeValue", "_PyQuicken_FloatStored",
                              "_PyQuicken_IntAddStored", "_PyQuicken_IntSubtractStored"})
# Calls that change something but cannot run Python code: they release no reference (or only
# one that cannot be the last), allocate no object the garbage collector tracks, check no
# signals (`_PyLong_Multiply` and the divisions do, on large ints) and call no slot. After a
# path that runs only these and PURE_CALLS, the tracing state is the one the instruction
# started with (Reading.completion_code). Add a name only if that holds for every
# argument it may get; on an error it may do anything, as the error exit checks again.
NO_CODE_CALLS = ALLOCATING_CALLS | {"Py_INCREF", "Py_XINCREF", "Py_NewRef", "Py_XNewRef",
                                    "_Py_DECREF_NO_DEALLOC", "JUMPBY", "JUMPTO", "PREDICT"}
# Deallocators that run no code: `_Py_DECREF_SPECIALIZED(x, D)` with one of these frees an
# int, a float or a str and nothing else.
NO_CODE_DEALLOCS = frozenset({"PyObject_Free", "_PyFloat_ExactDealloc",
                              "_PyQuicken_LongExactDealloc", "_PyUnicode_ExactDealloc"})
# The evaluation loop's own state: assigning one of these changes what the miss path (or
# the next instruction) starts from, though the name looks like a local of the body.
LOOP_STATE = frozenset({"oparg", "opcode", "next_instr", "frame", "cframe", "tstate", "names",
                        "consts", "first_instr", "throwflag"})
# The C API's type checks, by its naming convention (`PySet_Check`, `PyDict_CheckExact`,
# `PyIter_Check`, `PySequence_Check`, ...): they read the object's type and its slots, nothing
# else.
TYPE_CHECK = re.compile(r"_?Py[A-Z][A-Za-z]*_Check(Exact)?")


C_KEYWORDS = frozenset({
    "auto", "break", "case", "char", "const", "continue", "default", "do", "double", "else",
    "enum", "extern", "float", "for", "goto", "if", "inline", "int", "long", "register",
    "restrict", "return", "short", "signed", "sizeof", "static", "struct", "switch",
    "typedef", "union", "unsigned", "void", "volatile", "while", "_Bool", "_Complex",
})
ASSIGNMENT_OPERATORS = frozenset({"=", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<<=",
                                  ">>="})


@dataclass
class Change:
    """Something a statement changes outside its own locals."""

    kind: str  # refcount | stack | write | state | name | stat | call | indirect
    token: Token  # where: the call, the operator, the macro
    released: str | None = None  # a reference-count change that releases this name
    dealloc: str | None = None  # _Py_DECREF_SPECIALIZED's deallocator

    @property
    def runs_code(self) -> bool:
        """Whether it may run Python code: a finalizer, a signal handler, the garbage
        collector, a slot, a trace function (NO_CODE_CALLS says which calls cannot)."""
        name = self.token.text
        if self.kind == "refcount":
            return name in RELEASING_CALLS and name != "_Py_DECREF_NO_DEALLOC" and not (
                name == "_Py_DECREF_SPECIALIZED" and self.dealloc in NO_CODE_DEALLOCS)
        if self.kind == "call":
            return name not in NO_CODE_CALLS
        return self.kind == "indirect"

    @property
    def observes_position(self) -> bool:
        """Whether it may read the frame's position (`frame->prev_instr`): code it runs may
        (a traceback, `f_lineno`), and so does tracemalloc on an allocation."""
        return self.runs_code or (self.kind == "call" and self.token.text in ALLOCATING_CALLS)

    def describe(self) -> str:
        text = self.token.text
        return {
            "refcount": f"a reference-count change ({text})",
            "stack": f"a stack change ({text})",
            "write": "a write to memory through a pointer or an array",
            "state": f"an assignment to the evaluation loop's '{text}'",
            "name": f"an assignment to '{text}', which the body does not declare (a global or "
                    f"static variable outlives the instruction)",
            "indirect": (f"a call through a type slot or a function pointer ({text})"
                         if text != "(" else "a call through a function pointer")
                        + ", which may run any code",
            "stat": f"a statistics update ({text})",
            "call": f"a call to {text}(), which may have side effects (not in the generator's "
                    f"PURE_CALLS nor a Py*_Check type check)",
        }[self.kind]


@dataclass
class Statement:
    kind: str  # a kind of dsl.py's table (guard, error, dispatch, ...), code, or compound
    first: int  # index of its first token in the body's token list
    last: int  # index of its last token (`;` or `}`)
    location: Location
    # Compound statements: their branches, each a list of statements (`if`: then [, else];
    # loops and blocks: one). Conditions and loop headers belong to the statement itself.
    branches: list[list["Statement"]] = field(default_factory=list)
    changes: list[Change] = field(default_factory=list)  # of the statement's own tokens
    assigns: set[str] = field(default_factory=set)  # names it assigns (own tokens)
    mentions: set[str] = field(default_factory=set)  # identifiers in its own tokens
    loop: bool = False
    is_block: bool = False  # `{ ... }` on its own
    end: int = 0  # offset in the file just after its last token

    exits: bool = False  # every path through it leaves the instruction (set by read_body)
    # A statement of the table (dsl.py) written `NAME(args);`: its entry, and the token
    # ranges [lo, hi) of its arguments.
    form: dsl.Form | None = None
    args: list[tuple[int, int]] = field(default_factory=list)
    # A completing statement (DISPATCH...): the trailing statements just before it in its block
    # (PREDICT, CHECK_EVAL_BREAKER), which move after the generated stack update.
    trailing: list["Statement"] = field(default_factory=list)
    unconditional: bool = False  # its condition is always true: ERROR_IF(true, error)
    # Local declarations `TYPE name = init;`: (the name, the initializer's token range).
    declares: list[tuple[Token, int, int]] = field(default_factory=list)

    def walk(self):
        """This statement and every statement inside it, in source order (iteratively: a
        body may nest deeper than Python's recursion limit)."""
        stack = [self]
        while stack:
            s = stack.pop()
            yield s
            for branch in reversed(s.branches):
                stack.extend(reversed(branch))

    @property
    def all_assigns(self) -> set[str]:
        return set().union(*(s.assigns for s in self.walk()))


def _ends_in_exit(block: list[Statement]) -> bool:
    return any(s.exits for s in block)


def _set_exits(every: list[Statement]) -> None:
    """Statement.exits for every statement (in source order), children before parents."""
    for s in reversed(every):
        if s.kind in dsl.EXITING_KINDS or s.unconditional:
            s.exits = True
        elif s.kind != "compound" or s.loop:
            s.exits = False
        elif len(s.branches) == 1:  # a block, or an `if` without `else`
            s.exits = s.is_block and _ends_in_exit(s.branches[0])
        else:
            s.exits = all(_ends_in_exit(b) for b in s.branches)


@dataclass(eq=False)
class _Block:
    """An open `{`: collects statements until its `}` (the body itself has none)."""

    statement: Statement | None
    statements: list[Statement] = field(default_factory=list)


@dataclass(eq=False)
class _Branches:
    """An `if`, loop or `do` whose branches are still being read."""

    statement: Statement
    keyword: str


class _Parser:
    """Reads statements with an explicit stack of open constructs instead of recursion, so
    that any depth of nesting parses."""

    def __init__(self, tokens: list[Token], brackets: Brackets, where: str,
                 problems: list):
        self.tokens = tokens
        self.brackets = brackets
        self.where = where
        self.problems = problems
        self.heads: set[int] = set()  # token indexes of the table's statements
        self.pos = 0

    def at(self, k: int, text: str) -> bool:
        """Whether there is a token at k and it is `text`, a punctuator or a keyword."""
        t = self.tokens[k] if 0 <= k < len(self.tokens) else None
        return t is not None and (t.is_punct(text) or t.is_ident(text))

    def parse(self) -> list[Statement]:
        body = _Block(None)
        stack: list = [body]
        tokens = self.tokens
        while True:
            top = stack[-1]
            if self.pos >= len(tokens):
                if top is body:
                    return body.statements
                # unclosed constructs at the end: close them as they are
                stack.pop()
                self.deliver(stack, self.close(top))
                continue
            t = tokens[self.pos]
            start = self.pos
            if isinstance(top, _Block) and t.is_punct("}"):
                self.pos += 1
                if top is body:
                    continue  # a stray brace: the parser of declarations reported it
                stack.pop()
                top.statement.last = start
                top.statement.branches.append(top.statements)
                self.deliver(stack, top.statement)
            elif t.is_punct(";"):
                self.pos += 1
                self.deliver(stack, None)
            elif t.is_punct("}"):
                self.deliver(stack, None)  # `if (x) }`: an empty branch; the block closes next
            elif t.is_punct("{"):
                self.pos += 1
                stack.append(_Block(Statement("compound", start, start, t.location,
                                              is_block=True)))
            elif t.kind == IDENT and t.text in ("if", "while", "for", "switch"):
                close = self.brackets.close(self.pos + 1) if self.at(self.pos + 1, "(") else start
                close = close if close >= 0 else len(tokens) - 1  # unclosed: to the end
                stmt = Statement("compound", start, close, t.location, loop=t.text != "if")
                _classify(stmt, tokens, start + 1, close + 1, self.brackets)
                self.pos = close + 1
                stack.append(_Branches(stmt, t.text))
            elif t.is_ident("do"):
                self.pos += 1
                stack.append(_Branches(Statement("compound", start, start, t.location,
                                                 loop=True), "do"))
            elif t.is_ident("case") or t.is_ident("default") or (
                    t.kind == IDENT and self.at(self.pos + 1, ":") and t.text not in C_KEYWORDS):
                # a label: `case X:`, `default:`, `name:`; not a statement of its own
                j = self.pos
                while j < len(tokens) and not tokens[j].is_punct(":"):
                    j += 1
                self.pos = j + 1
            else:
                stmt = self.table_statement(t) if t.kind == IDENT else None
                if stmt is None:
                    end = self.simple_end(self.pos)
                    # no `;` before the block's end (a stray closer is the bracket check's)
                    after = tokens[end + 1] if end + 1 < len(tokens) else None
                    stray = (end == start and t.kind == PUNCT and t.text in ")]}") or (
                        after is not None and after.kind == PUNCT and after.text in ")]")
                    if not tokens[end].is_punct(";") and not stray:
                        self.problems.append((tokens[end].location,
                                              "expected ';' after this statement"))
                    kind = "code"
                    f = dsl.form(t.text) if t.kind == IDENT else None
                    if f is not None and not f.call and self.where in f.allowed:
                        kind = f.kind  # `goto`, `return`
                    stmt = Statement(kind, start, end, t.location)
                _classify(stmt, tokens, start, stmt.last + 1, self.brackets)
                self.pos = stmt.last + 1
                self.deliver(stack, stmt)

    def table_statement(self, t: Token) -> Statement | None:
        """`NAME(args);` for a name of the table allowed here, or None."""
        f = dsl.form(t.text)
        k = self.pos
        if f is None or not f.call or self.where not in f.allowed or not self.at(k + 1, "("):
            return None
        tokens = self.tokens
        close = self.brackets.close(k + 1)
        if close < 0:
            return None  # unbalanced: the bracket check reports it
        args = self.split_args(k + 1, close)
        last = close
        if close + 1 < len(tokens) and tokens[close + 1].is_punct(";"):
            last = close + 1
        elif f.kind in dsl.DSL_KINDS:
            self.problems.append((tokens[min(close + 1, len(tokens) - 1)].location,
                                  f"expected ';' after {t.text}(...)"))
        else:
            return None  # a macro used in an expression: plain code
        kind = f.kind if f.kind in dsl.DSL_KINDS or f.kind in (dsl.EXIT, dsl.STACK_MOVE) \
            else "code"
        stmt = Statement(kind, k, last, t.location, form=f, args=args)
        if f.kind in dsl.DSL_KINDS:
            self.heads.add(k)
            params = f.params[self.where]
            if len(args) != len(params) or any(
                    p == "label" and not (hi - lo == 1 and tokens[lo].kind == IDENT)
                    for p, (lo, hi) in zip(params, args)):
                self.problems.append((t.location, f.arity_message(self.where)))
                stmt.kind = "code"  # not rewritten: the error stands for it
                stmt.form = None
            elif "condition" in params:
                lo, hi = args[params.index("condition")]
                value = constant_value(tokens[lo:hi])
                stmt.unconditional = value is True
                if value is not None and value != f.constant_ok:
                    self.problems.append((tokens[lo].location, (
                        f"the condition of {f.name} is always {'true' if value else 'false'}: "
                        f"it {'always' if value else 'never'} {f.does}")))
        return stmt

    def split_args(self, open_index: int, close_index: int) -> list[tuple[int, int]]:
        """Token ranges of the top-level comma-separated arguments of a call."""
        args: list[tuple[int, int]] = []
        start = j = open_index + 1
        while j < close_index:
            if self.tokens[j].is_punct(","):
                args.append((start, j))
                start = j + 1
            j = self.brackets.after(j)
        if start < close_index or args:
            args.append((start, close_index))
        return args

    def close(self, construct) -> Statement:
        """The statement of a construct the body ends inside."""
        stmt = construct.statement
        if isinstance(construct, _Block):
            stmt.branches.append(construct.statements)
        stmt.last = len(self.tokens) - 1
        return stmt

    def deliver(self, stack: list, stmt: Statement | None) -> None:
        """Give a finished statement to the construct that waits for it; a construct it
        completes is delivered in turn."""
        tokens = self.tokens
        while True:
            top = stack[-1]
            if isinstance(top, _Block):
                if stmt is not None:
                    top.statements.append(stmt)
                return
            construct = top.statement
            if stmt is None:
                branch = []
            elif stmt.is_block:
                branch = stmt.branches[0] if stmt.branches else []
            else:
                branch = [stmt]
            construct.branches.append(branch)
            if top.keyword == "if" and len(construct.branches) == 1 and self.at(self.pos, "else"):
                self.pos += 1
                return  # the else branch comes next
            if top.keyword == "do" and self.at(self.pos, "while"):
                end = self.simple_end(self.pos)
                _classify(construct, tokens, self.pos, end + 1, self.brackets)
                self.pos = end + 1
            construct.last = self.pos - 1
            stack.pop()
            stmt = construct

    def simple_end(self, k: int) -> int:
        """Index of the `;` ending the simple statement starting at k."""
        tokens = self.tokens
        j = k
        while j < len(tokens):
            t = tokens[j]
            if t.kind == PUNCT and t.text in ")]}":
                # a closer left of the statement's own brackets: the statement ends without
                # `;` before the block's end (a stray closer alone is a statement of one token)
                return max(j - 1, k)
            if t.is_punct(";"):
                return j
            if t.kind == PUNCT and t.text in "([{" and self.brackets.close(j) < 0:
                return len(tokens) - 1
            j = self.brackets.after(j)
        return len(tokens) - 1


def _classify(stmt: Statement, tokens: list[Token], lo: int, hi: int,
              brackets: Brackets) -> None:
    """Fill stmt.changes, .assigns, .declares and .mentions from tokens[lo:hi]."""
    in_assert_until = -1  # an assert's argument changes nothing in a release build, and must
    for k in range(lo, hi):  # not in a debug one: its names count, its calls do not
        t = tokens[k]
        prev = tokens[k - 1] if k > lo else None
        nxt = tokens[k + 1] if k + 1 < hi else None
        if k <= in_assert_until:
            if t.kind == IDENT and not (prev is not None and prev.kind == PUNCT
                                        and prev.text in (".", "->")):
                stmt.mentions.add(t.text)
            continue
        if t.is_ident("assert") and nxt is not None and nxt.is_punct("("):
            close = brackets.close(k + 1)
            in_assert_until = close if close >= 0 else hi
            stmt.mentions.add(t.text)
            continue
        if t.kind == PUNCT:
            if t.text == "(" and prev is not None and _calls_through(tokens, lo, k, brackets):
                stmt.changes.append(Change("indirect", prev if prev.kind == IDENT else t))
            elif t.text in ASSIGNMENT_OPERATORS or t.text in ("++", "--"):
                _assignment(stmt, tokens, lo, k, hi, brackets)
            elif t.text == "&" and nxt is not None and nxt.kind == IDENT and (
                    prev is None or prev.kind == PUNCT and prev.text in "(,=!&|?:"):
                stmt.assigns.add(nxt.text)  # handed out by address: assume it is set
                if nxt.text in LOOP_STATE:
                    stmt.changes.append(Change("state", nxt))
            continue
        if t.kind != IDENT:
            continue
        if prev is not None and prev.kind == PUNCT and prev.text in (".", "->"):
            continue  # a member
        stmt.mentions.add(t.text)
        if t.text == "stack_pointer" or nxt is None or not nxt.is_punct("("):
            continue  # not a call (writes to stack_pointer are found as assignments)
        f = dsl.form(t.text)
        if t.text in REFCOUNT_CALLS:
            arg = tokens[k + 2] if k + 3 < hi else None
            released = arg.text if t.text in RELEASING_CALLS and arg is not None and (
                arg.kind == IDENT and tokens[k + 3].text in (")", ",")) else None
            close = brackets.close(k + 1)
            dealloc = tokens[close - 1].text if t.text == "_Py_DECREF_SPECIALIZED" and \
                close > k + 2 and tokens[close - 1].kind == IDENT else None
            stmt.changes.append(Change("refcount", t, released, dealloc))
            if t.text in SETREF_CALLS and k + 2 < hi and tokens[k + 2].kind == IDENT:
                stmt.assigns.add(tokens[k + 2].text)
        elif f is not None and f.kind == dsl.STACK_MOVE:
            stmt.changes.append(Change("stack", t))
        elif f is not None and f.kind == dsl.STAT:
            stmt.changes.append(Change("stat", t))
        elif f is not None and f.kind in dsl.DSL_KINDS | {dsl.EXIT} or \
                t.text in C_KEYWORDS or t.text in PURE_CALLS or TYPE_CHECK.fullmatch(t.text):
            continue
        elif prev is not None and prev.is_punct("(") and k >= 2 \
                and tokens[k - 2].is_ident("sizeof"):
            continue
        else:
            stmt.changes.append(Change("call", t))


def _assignment(stmt: Statement, tokens: list[Token], lo: int, op_index: int, hi: int,
                brackets: Brackets) -> None:
    """An assignment operator (or ++/--) at op_index: record what it assigns, or the write."""
    op = tokens[op_index]
    if op.text in ("++", "--"):
        # x++ / p->n++ / a[i]++ / (*p)++, or the same after ++: the operand beside it
        k = _back_over(tokens, lo, op_index - 1, brackets,
                       lambda t: t.kind == IDENT or t.is_punct("->") or t.is_punct("."))
        target = tokens[k + 1:op_index]
        if not target:  # prefix: the operand after it
            j = op_index + 1
            while j < hi and (tokens[j].kind == IDENT or tokens[j].kind == PUNCT
                              and tokens[j].text in ("->", ".", "*", "[", "(")):
                j = brackets.after(j)
            target = tokens[op_index + 1:j]
            if target and target[0].is_punct("*"):
                target = [op] + target  # `++*p`: through the pointer
        _assign_target(stmt, target, op)
        return
    # The target: back to the start of the statement or a top-level `,` / `(`, over the
    # bracketed groups on the way (`a[i] = `, `f(x)->y = `).
    k = _back_over(tokens, lo, op_index - 1, brackets, lambda t: not (
        t.kind == PUNCT and t.text in ("(", "[", ",", ";", "{", "}", "?", ":")))
    target = tokens[k + 1:op_index]
    _assign_target(stmt, target, op)
    if op.text == "=" and k + 1 == lo and len(target) > 1 and stmt.kind == "code":
        # `TYPE name = init;` opening a statement: a declaration, with its initializer
        end = op_index + 1
        while end < hi and not tokens[end].is_punct(";"):
            end += 1
        stmt.declares.append((target[-1], op_index + 1, end))


def _back_over(tokens: list[Token], lo: int, k: int, brackets: Brackets, within) -> int:
    """The index before the tokens that end at k and are bracketed groups or tokens `within`
    holds for (not before lo - 1)."""
    while k >= lo:
        if tokens[k].kind == PUNCT and tokens[k].text in ")]" and lo <= brackets.pairs[k] < k:
            k = brackets.pairs[k] - 1
        elif within(tokens[k]):
            k -= 1
        else:
            break
    return k


def _assign_target(stmt: Statement, target: list[Token], op: Token) -> None:
    if not target:
        return
    last = target[-1]
    if len(target) == 1 or (last.kind == IDENT and all(
            t.kind == IDENT or t.is_punct("*") for t in target)):
        # `x = `, or a declaration `PyObject *x = `: a local (or an output) is assigned
        if last.kind == IDENT:
            stmt.assigns.add(last.text)
            if last.text == "stack_pointer":
                stmt.changes.append(Change("stack", last))
            elif last.text in LOOP_STATE and len(target) == 1:
                stmt.changes.append(Change("state", last))
            elif len(target) == 1:
                # `x = ` or `x++`: a local's, unless the body does not declare x (the checks
                # that care drop the body's own names: Reading.declared)
                stmt.changes.append(Change("name", last))
        return
    # `p->f = `, `a[i] = `, `*p = `: memory that outlives the statement (the stack, for
    # `stack_pointer[-1] = `)
    stmt.changes.append(Change("stack" if target[0].is_ident("stack_pointer") else "write", op))


def _calls_through(tokens: list[Token], lo: int, k: int, brackets: Brackets) -> bool:
    """Whether the `(` at k calls something other than a named function or macro: a member
    (`tp->tp_getattro(...)`, `obj.fn(...)`), an element (`table[i](...)`) or a dereference
    (`(*fn)(...)`). A cast before a parenthesized expression (`(PyObject *)(x)`) is none."""
    prev = tokens[k - 1]
    if prev.kind == IDENT:
        return k - 2 >= lo and (tokens[k - 2].is_punct("->") or tokens[k - 2].is_punct("."))
    if prev.is_punct("]"):
        return True
    if prev.is_punct(")"):
        opener = brackets.pairs[k - 1]
        return lo <= opener < k - 2 and tokens[opener + 1].is_punct("*")
    return False


_CONSTANT_OPERATORS = {"(": "(", ")": ")", "!": " not ", "&&": " and ", "||": " or ",
                       "==": "==", "!=": "!=", "<": "<", ">": ">", "<=": "<=", ">=": ">=",
                       "+": "+", "-": "-", "*": "*"}


def constant_value(tokens: list[Token]) -> bool | None:
    """The truth of a condition made of literals alone (`0`, `1`, `!0`, `(1 && 2)`), or None
    when it names anything."""
    parts = []
    for t in tokens:
        if t.kind == "NUMBER" and re.fullmatch(r"(0[xX][0-9a-fA-F]+|\d+)[uUlL]*", t.text):
            digits = t.text.rstrip("uUlL")
            parts.append(str(int(digits, 8) if re.fullmatch(r"0[0-7]+", digits) else
                             int(digits, 0)))
        elif t.kind == IDENT and t.text in ("true", "false"):
            parts.append("1" if t.text == "true" else "0")
        elif t.kind == PUNCT and t.text in _CONSTANT_OPERATORS:
            parts.append(_CONSTANT_OPERATORS[t.text])
        else:
            return None
    if not parts:
        return None
    try:
        return bool(eval("".join(parts), {"__builtins__": {}}, {}))  # literals and operators
    except (SyntaxError, ArithmeticError, TypeError, ValueError):
        return None


@dataclass
class CacheAccess:
    """`cache->entry` in a body or block."""

    entry: Token
    write: bool  # `cache->e = ...`, `write_u32(cache->e, ...)`
    accessor: str | None  # the read_*/write_* call it is the first argument of, if any
    index: int = 0  # of the entry's token


@dataclass
class Reading:
    """A body or block as the reader (read_body) understands it: what every later stage uses
    instead of scanning the text again."""

    tokens: list[Token]  # without preprocessor lines
    brackets: Brackets
    statements: list[Statement]
    problems: list[tuple[Location, str, tuple]]  # misused statements, unbalanced brackets
    names: dict[str, Token]  # each identifier (not a member name): its first use
    cache_accesses: list[CacheAccess]
    has_preprocessor: bool
    # The end of the body is reached by some path (it completes with the epilogue there),
    # and the trailing statements that end it.
    falls_through: bool = False
    end_trailing: list[Statement] = field(default_factory=list)
    source: object = None  # the body read (lexer.Span)

    @property
    def location(self) -> Location:
        return self.source.location

    def walk(self):
        for top in self.statements:
            yield from top.walk()

    def dsl_statements(self) -> list[Statement]:
        """The DSL's statements (dsl.DSL_KINDS), in source order."""
        return [s for s in self.walk() if s.kind in dsl.DSL_KINDS]

    def arg_text(self, source_text: str, stmt: Statement, index: int) -> str:
        lo, hi = stmt.args[index]
        return source_text[self.tokens[lo].start:self.tokens[hi - 1].end] if hi > lo else ""

    def arg_tokens(self, stmt: Statement, index: int) -> list[Token]:
        lo, hi = stmt.args[index]
        return self.tokens[lo:hi]

    def span(self, stmt: Statement) -> tuple[int, int]:
        """Offsets in the file of a statement's first and last token."""
        return self.tokens[stmt.first].start, self.tokens[stmt.last].end

    @property
    def references(self) -> list[Token]:
        """The instructions named by PREDICT(X) and JUMP_TO_INSTRUCTION(X)."""
        return [self.tokens[s.args[0][0]] for s in self.walk()
                if s.form is not None and s.form.name in dsl.NAMES_INSTRUCTION
                and len(s.args) == 1 and s.args[0][1] - s.args[0][0] == 1
                and self.tokens[s.args[0][0]].kind == IDENT]

    def completion_code(self) -> dict[int, Statement | None]:
        """Each completion of the body (a DISPATCH() or DISPATCH_JUMPED() by its first token's
        index, -1 for the end when a path reaches it) -> a statement that may run Python code
        (Change.runs_code) on a path to it, or None: then the tracing state is still the one the
        instruction found. Paths that leave otherwise do not count; a loop counts whole."""
        done = object()  # a path that left
        result: dict[int, Statement | None] = {}

        def own(stmt: Statement) -> Statement | None:
            return stmt if any(c.runs_code for c in stmt.changes) else None

        def block(stmts: list[Statement], ran: Statement | None):
            """What ran on a path to the end of the block, or `done`."""
            for stmt in stmts:
                if stmt.kind in (dsl.DISPATCH, dsl.DISPATCH_JUMPED):
                    result[stmt.first] = ran
                    return done
                ran = ran or own(stmt)
                if stmt.kind == "compound":
                    if stmt.loop:  # any round may follow any other: all of it ran
                        ran = ran or next((s for s in stmt.walk() if own(s)), None)
                    ends = [end for end in (block(b, ran) for b in stmt.branches)
                            if end is not done]
                    if stmt.loop or (len(stmt.branches) == 1 and not stmt.is_block):
                        ends.append(ran)  # no round, or the `if` not taken
                    if not ends:
                        return done
                    ran = next((e for e in ends if e is not None), None)
                elif stmt.exits:
                    return done
            return ran

        end = block(self.statements, None)
        if end is not done:
            result[-1] = end
        return result

    def writes_on_every_path(self) -> set[str]:
        """The cache entries written on every path that reaches the end of the block (where a
        `when` installs its member): a path that leaves (FAIL, KEEP_GENERIC, an exit) does not
        count; an `if` adds what both of its branches write, a loop nothing."""
        own: dict[int, set[str]] = {}
        for access in self.cache_accesses:
            if access.write:
                own.setdefault(access.index, set()).add(access.entry.text)

        def simple(stmt: Statement) -> set[str]:
            return set().union(*(own.get(k, set()) for k in range(stmt.first, stmt.last + 1)))

        def block(stmts: list[Statement], depth: int) -> tuple[set[str], bool]:
            written: set[str] = set()
            for stmt in stmts:
                if stmt.kind in (dsl.FAIL, dsl.KEEP_GENERIC) or stmt.exits:
                    return written, False
                if stmt.kind != "compound":
                    written |= simple(stmt)
                elif depth > 100 or stmt.loop:
                    continue  # a loop may run no round (and absurd nesting: nothing known)
                elif stmt.is_block:
                    inner, falls = block(stmt.branches[0] if stmt.branches else [], depth + 1)
                    written |= inner
                    if not falls:
                        return written, False
                elif len(stmt.branches) == 2:
                    ends = [block(b, depth + 1) for b in stmt.branches]
                    falling = [w for w, falls in ends if falls]
                    if not falling:
                        return written, False
                    written |= set.intersection(*falling)
            return written, True

        return block(self.statements, 0)[0]

    @property
    def declared(self) -> set[str]:
        """The names the block declares: `TYPE name = ...`, `TYPE *name;`, `TYPE a, *b;`, in
        any scope (a name after a type-like word or `*`, or after a `,` of such a declaration,
        and before `=`, `;`, `,`, `[` or `)`)."""
        tokens = self.tokens
        names = {name.text for s in self.walk() for name, _, _ in s.declares}
        in_declaration = False  # since the last declarator, no `;`, `{` or `}`
        for k in range(1, len(tokens) - 1):
            t, before, after = tokens[k], tokens[k - 1], tokens[k + 1]
            if t.kind == PUNCT and t.text in ";{}":
                in_declaration = False
            if t.kind != IDENT or not (after.kind == PUNCT and after.text in ("=", ";", ",", "[", ")")):
                continue
            j = k - 1
            while j > 0 and tokens[j].is_punct("*"):
                j -= 1
            if (before.kind == IDENT and before.text not in _NOT_TYPES) or before.is_punct("*") \
                    or (in_declaration and tokens[j].is_punct(",")):
                names.add(t.text)
                in_declaration = True
        return names


# Words that can stand before a name without declaring it.
_NOT_TYPES = frozenset({"return", "goto", "else", "case", "sizeof", "do"})


def _trailing(block: list[Statement], index: int) -> list[Statement]:
    """The trailing statements (PREDICT...) just before block[index] (or the block's end)."""
    k = index
    while k > 0 and block[k - 1].form is not None and block[k - 1].form.kind == dsl.TRAILING:
        k -= 1
    return block[k:index]


def read_body(tokens: list[Token], where: str = dsl.BODY, source=None) -> Reading:
    """Read a body (where = dsl.BODY) or a specializer block's tokens: its statements, and
    everything the later stages ask of it."""
    has_preprocessor = any(t.kind == PREPROC for t in tokens)
    tokens = [t for t in tokens if t.kind != PREPROC]
    brackets = match_brackets(tokens)
    problems: list = []
    if brackets.problem is not None:
        token, message, other, _ = brackets.problem
        problems.append((token.location, message,
                         ((other.location, "here"),) if other is not None else ()))
    raw: list = []
    parser = _Parser(tokens, brackets, where, raw)
    statements = parser.parse()
    every = [s for top in statements for s in top.walk()]
    for s in every:
        s.end = tokens[s.last].end
    _set_exits(every)
    # Trailing statements of each completing statement, in its own block.
    for block in [statements] + [b for s in every for b in s.branches]:
        for k, s in enumerate(block):
            if s.kind in (dsl.DISPATCH, dsl.DISPATCH_JUMPED):
                s.trailing = _trailing(block, k)
    # One pass over the identifiers: first uses, cache accesses, names out of place.
    names: dict[str, Token] = {}
    accesses: list[CacheAccess] = []
    for k, t in enumerate(tokens):
        if t.kind != IDENT:
            continue
        prev = tokens[k - 1] if k > 0 else None
        if prev is not None and (prev.is_punct(".") or prev.is_punct("->")):
            continue
        names.setdefault(t.text, t)
        nxt = tokens[k + 1] if k + 1 < len(tokens) else None
        called = nxt is not None and nxt.is_punct("(")
        if t.text == "cache" and nxt is not None and nxt.is_punct("->") \
                and k + 2 < len(tokens) and tokens[k + 2].kind == IDENT:
            after = tokens[k + 3] if k + 3 < len(tokens) else None
            accessor = tokens[k - 2].text if k >= 2 and prev.is_punct("(") and \
                tokens[k - 2].text in dsl.CACHE_READERS.keys() | dsl.CACHE_WRITERS else None
            write = accessor in dsl.CACHE_WRITERS or (
                after is not None and after.kind == PUNCT and after.text.endswith("=")
                and after.text not in ("==", "!=", "<=", ">="))
            accesses.append(CacheAccess(tokens[k + 2], write, accessor, k + 2))
        f = dsl.form(t.text)
        if f is None:
            continue
        message = dsl.misplaced(f, where, called)
        if message is not None:
            raw.append((t.location, message))
        elif f.kind in dsl.DSL_KINDS and called and k not in parser.heads \
                and brackets.close(k + 1) >= 0 and not any(loc == t.location for loc, _ in raw):
            raw.append((t.location, f"{t.text}(...) must be a statement of its own: "
                                    f"{f.usage(where)};"))
    problems += [(loc, message, ()) for loc, message in raw]
    falls_through = not any(s.exits for s in statements)
    return Reading(tokens, brackets, statements, problems, names, accesses,
                   has_preprocessor, falls_through,
                   _trailing(statements, len(statements)) if falls_through else [], source)


class _Point:
    """A point of the body's control flow: the changes made on the way to it are found by
    walking its predecessors back. A change node carries one change; a join has several
    predecessors (after an if/else; at a loop's head, the end of its body too)."""

    __slots__ = ("change", "preds")

    def __init__(self, change: Change | None, preds: list):
        self.change = change
        self.preds = preds


def changes_before(block: list[Statement], is_target,
                   stops=lambda change: False) -> list[tuple[Change, Statement]]:
    """(change, the first target it precedes) for every change that some path runs before a
    target statement (a `DEOPT_IF`, for the guard check): in its block or an enclosing one (the
    conditions of enclosing `if`s and its own included), not in a branch that always exits nor
    in the other branch of an `if`; in a loop, what its body does precedes its targets on the
    next round. A change for which `stops` holds ends the walk back along its path. The body
    becomes a graph of points, built with an explicit stack (bodies may nest deeper than
    Python's recursion limit); each target walks it back, and a point walked once is never
    walked again, so the check is linear in the body's size."""
    guards: list[tuple[Statement, _Point | None]] = []

    def advance(point, changes):
        for change in changes:
            point = _Point(change, [point])
        return point

    # Work items: ("block", statements, index, point) runs a block from statement `index`;
    # ("join", compound, branch index, entry point, exits so far) continues a compound after
    # one of its branches ran. Results travel on `returned`: the point a block ends at.
    work: list = [("block", block, 0, None)]
    returned: list = []
    while work:
        item = work.pop()
        if item[0] == "block":
            _, stmts, index, point = item
            while index < len(stmts):
                s = stmts[index]
                index += 1
                point = advance(point, s.changes)
                if is_target(s):
                    guards.append((s, point))
                elif s.kind == "compound":
                    head = _Point(None, [point]) if s.loop else point
                    work.append(("block", stmts, index, None))  # the rest, after the join
                    work.append(("join", s, 0, head, []))
                    break
            else:
                returned.append(point)
        else:
            _, s, branch_index, head, ends = item
            if branch_index > 0:
                end = returned.pop()
                if not _ends_in_exit(s.branches[branch_index - 1]):
                    ends.append(end)
            if branch_index < len(s.branches):
                work.append(("join", s, branch_index + 1, head, ends))
                work.append(("block", s.branches[branch_index], 0, head))
                continue
            if len(s.branches) < 2 and not s.is_block:
                ends.append(head)  # an `if` without else, or a loop, may run no branch
            if s.loop:
                head.preds.extend(ends)  # the next round starts where a round ends
            after = _Point(None, ends)
            rest = work.pop()  # the ("block", stmts, index, None) pushed with this join
            work.append(("block", rest[1], rest[2], after))

    found: dict[int, tuple[Change, Statement]] = {}
    seen: set[int] = set()
    for guard, point in guards:
        stack = [point]
        while stack:
            p = stack.pop()
            if p is None or id(p) in seen:
                continue
            seen.add(id(p))
            if p.change is not None:
                if stops(p.change):
                    continue
                found.setdefault(id(p.change), (p.change, guard))
            stack.extend(p.preds)
    return sorted(found.values(), key=lambda cg: cg[0].token.start)
