"""Emitter: the instruction cases of the evaluation loop (one TARGET per instruction): load
the declared inputs, declare the outputs, copy the body with its DSL statements expanded, and
finish with the epilogue generated from the stack effect."""

from __future__ import annotations

import re
from itertools import takewhile

from . import dsl, model
from .cwriter import INDENT, BodyCopy, braced
from .model import Size, StackEffect, StackItem

# ERROR_IF(cond, error) popping up to this many items jumps to a shared `pop_N_error` label
# (emitted after the cases) instead of repeating the stack move at every error site.
MAX_POP_ERROR = 4


def _depth(size: Size) -> str:
    """A stack depth as the cases write it: a sum widened to Py_ssize_t (Size.render)."""
    return size.render(wide=True)


def _peek(size: Size) -> str:
    return f"PEEK({_depth(size)})"


def _offsets_from_top(items: list[StackItem]) -> list[Size]:
    """For each item (bottom to top): the PEEK index of its lowest slot."""
    result: list[Size] = [Size()] * len(items)
    above = Size()
    for index in range(len(items) - 1, -1, -1):
        result[index] = above + items[index].size
        above = above + items[index].size
    return result


def error_pops(effect: StackEffect) -> Size:
    """What ERROR_IF pops: the inputs above those that stay in place at the bottom of the
    effect (LIST_APPEND's list and the slots under it are not released by an error)."""
    keep = effect.pass_through()
    kept_names = {o.name for i, o in enumerate(effect.outputs) if i in keep}
    kept = takewhile(lambda item: item.name in kept_names, effect.inputs)
    return StackEffect.total(effect.inputs) - StackEffect.total(kept)


def prologue(effect: StackEffect, body: model.Body,
             extra_outputs: list[StackItem] = ()) -> list[str]:
    """Load the inputs and declare the outputs the body or the epilogue use."""
    lines = []
    inputs = effect.inputs
    used = set(body.reading.names)
    if body.completes:
        keep = effect.pass_through()
        used |= {o.name for i, o in enumerate(effect.outputs) if i not in keep}
    for item, offset in reversed(list(zip(inputs, _offsets_from_top(inputs)))):
        if item.is_unused or item.name not in used or item.is_value:
            continue  # (a value is a variable of the instruction's block: value_declarations)
        if item.is_array:
            lines.append(f"PyObject **{item.name} = &{_peek(offset)};")
        elif item.condition is not None:
            lines.append(f"PyObject *{item.name} = ({item.condition}) ? {_peek(offset)} : NULL;")
        else:
            lines.append(f"PyObject *{item.name} = {_peek(offset)};")
    declared = {i.name for i in inputs}
    total_in = StackEffect.total(inputs)
    for o, below in zip(list(effect.outputs) + list(extra_outputs),
                        StackEffect.offsets_from_bottom(effect.outputs) + [None] * len(extra_outputs)):
        if o.is_unused or o.name in declared or o.name not in used or o.is_value:
            continue
        declared.add(o.name)
        if o.is_array:
            if below is None:
                continue
            lines.append(f"PyObject **{o.name} = &{_peek(total_in - below)};")
        else:
            lines.append(f"PyObject *{o.name};")
    return lines


def _entry_relative(effect: StackEffect, index: int) -> Size:
    """POKE index of output `index`'s slot, relative to the stack pointer on entry."""
    below = StackEffect.offsets_from_bottom(effect.outputs)[index]
    return StackEffect.total(effect.inputs) - below


def stack_update(effect: StackEffect, already_stored: frozenset[str] = frozenset()) -> list[str]:
    """Move the stack pointer from the inputs to the outputs and store the outputs. A
    conditional output with an unconditional output stored above it is stored first, without
    a test, at the slot it has when present: when it is absent, the output above overwrites it
    (upstream LOAD_GLOBAL's `PEEK(0) = NULL` before `STACK_GROW(push_null)`)."""
    lines = []
    keep = effect.pass_through()
    outputs = effect.outputs
    stored = [i for i, o in enumerate(outputs) if i not in keep and not o.is_array
              and not o.is_value and o.name not in already_stored]
    early = set()
    for i in stored:
        o = outputs[i]
        if o.condition is not None and any(
                j > i and outputs[j].condition is None for j in stored):
            early.add(i)
            lines.append(f"POKE({_depth(_entry_relative(effect, i))}, {o.name});")
    delta = effect.delta
    shrink, grow = delta.negative_part(), delta.positive_part()
    if not shrink.is_zero:
        lines.append(f"STACK_SHRINK({_depth(shrink)});")
    if not grow.is_zero:
        lines.append(f"STACK_GROW({_depth(grow)});")
    offsets = _offsets_from_top(outputs)
    for index in stored:
        if index in early:
            continue
        o = outputs[index]
        store = f"POKE({_depth(offsets[index])}, {o.name});"
        lines.append(f"if ({o.condition}) {{ {store} }}" if o.condition is not None else store)
    return lines


def eager_stores(part: model.Operation) -> dict[str, tuple[int, str]]:
    """{output: (offset just after a statement, the store)}: outputs stored as soon as they
    are final, as upstream's SET_TOP() does (kept in a register across the calls that release
    the inputs, a result costs the compiler registers in the whole loop). An output is stored
    after the last top-level statement that assigns it in any way (Statement.all_assigns) or
    that may leave the instruction with the entry stack (DEOPT_IF, goto, a stack move, ...) or
    read the stack through an array or `stack_pointer`. What follows either completes (and
    need not store the output again) or is an ERROR_IF, which pops the slot."""
    effect = part.effect
    if part.body.reading.has_preprocessor:
        return {}  # a store could land in one branch of an #if: leave it to the epilogue
    statements = part.body.statements
    keep = effect.pass_through()
    # Outputs above a conditional one are left to the epilogue, which stores the conditional
    # one first (see stack_update).
    first_conditional = next((i for i, o in enumerate(effect.outputs)
                              if o.condition is not None), len(effect.outputs))
    candidates = {o.name: i for i, o in enumerate(effect.outputs)
                  if i not in keep and not o.is_array and not o.is_unused and not o.is_value
                  and o.condition is None and i < first_conditional}
    if not candidates or not statements:
        return {}
    arrays = {i.name for i in effect.inputs + effect.outputs if i.is_array}
    blocking = set(dsl.names_of((dsl.EXIT, dsl.GUARD, dsl.DISPATCH_JUMPED, dsl.STACK_MOVE))) \
        | {"stack_pointer"} | arrays
    barrier = max((k for k, top in enumerate(statements)
                   if any(s.mentions & blocking for s in top.walk())), default=-1)
    result = {}
    for name, index in candidates.items():
        assigning = [k for k, top in enumerate(statements) if name in top.all_assigns]
        if not assigning:
            continue
        last = max(assigning[-1], barrier)
        if last == len(statements) - 1:
            continue  # the epilogue stores it anyway
        result[name] = (statements[last].end,
                        f"POKE({_depth(_entry_relative(effect, index))}, {name});")
    return result


def skip_after(inst: model.Instruction, member: model.Instruction | None = None) -> list[str]:
    """The code units a completing instruction skips: its inline cache, then each instruction
    it fuses (`fuses CALL + POP_TOP`: the instruction itself and its cache), in order; after a
    superinstruction's member part (`member`), that member's."""
    owners = (inst,) if member is None else (inst, member)
    skip = [f"INLINE_CACHE_ENTRIES_{o.family.name}" for o in owners if o.cache is not None]
    for fused in (f for owner in owners for f in owner.fuses):
        skip.append("1")
        if fused.cache is not None:
            skip.append(f"INLINE_CACHE_ENTRIES_{fused.family.name}")
    return skip


def dispatch_macro(inst: model.Instruction, untraced: bool, completion: int = -1) -> str:
    """How a completion (Instruction.completion_code) dispatches: DISPATCH_NO_TRACE_CHECK where
    the instruction dispatches untraced (Model.untraced_dispatch, not its checked copy) and no
    code may run on the way there, else DISPATCH (a trace function may have been set)."""
    if untraced:
        codes = inst.completion_code()
        if codes.get(completion, codes.get(-1, inst)) is None:
            return "DISPATCH_NO_TRACE_CHECK"
    return "DISPATCH"


def finish(inst: model.Instruction, effect: StackEffect | None, trailing: tuple[str, ...],
           already_stored: frozenset[str] = frozenset(),
           dispatch: str = "DISPATCH", member: model.Instruction | None = None) -> list[str]:
    """The end of a completion: the stack update of `effect` (None: the stack is written),
    the skip over the inline caches, the trailing statements and the dispatch."""
    lines = stack_update(effect, already_stored) if effect is not None else []
    skip = skip_after(inst, member)
    if skip:
        lines.append(f"JUMPBY({' + '.join(skip)});")
    lines.extend(trailing)
    if "eval_breaker" in inst.flags and not any("CHECK_EVAL_BREAKER" in t for t in trailing):
        lines.append("CHECK_EVAL_BREAKER();")
    lines.append(f"{dispatch}();")
    return lines


def _block(opening: str, lines: list[str]) -> list[str]:
    """`opening`, the lines indented one level, and the closing brace."""
    return [opening] + [INDENT + line if line else "" for line in lines] + ["}"]


def _conditional(cond: str | None, lines: list[str]) -> list[str]:
    if cond is None:
        return lines
    if len(lines) == 1:
        return [f"if ({cond}) {lines[0]}"]
    return _block(f"if ({cond}) {{", lines)


def expand_body(inst: model.Instruction, part: model.Operation, *, untraced: bool,
                position: str | None = None, symbolic: "_Symbolic | None" = None,
                index: int = 0, trailing_out: list[str] | None = None) -> list[str]:
    """The body's text with the DSL statements expanded, dedented, as lines. In a composition
    with a symbolic stack, `symbolic` writes its error exits and its end. `position`: the
    store of the instruction's position that its error exits make, if its entry does not
    (Instruction.stores_position). `index`: the part's (its guards miss to its family)."""
    source = part.body.source.source.text
    end = part.body.source.end
    copy = BodyCopy(part.body.source)
    owner = inst.part_owner(index, part.name).family
    family = owner.name if owner else None
    n_inputs = error_pops(part.effect)
    eager = eager_stores(part) if symbolic is None else symbolic.eager_stores(part)
    for name, (offset, store) in eager.items():
        copy.insert_after(offset, [store])

    def stored_before(site_start: int) -> frozenset[str]:
        return frozenset(n for n, (offset, _) in eager.items() if offset <= site_start)

    reading = part.body.reading

    def epilogue(stmt) -> list[str]:
        trailing = [source[slice(*reading.span(t))] for t in stmt.trailing]
        dispatch = dispatch_macro(inst, untraced, stmt.first)
        if stmt.kind == dsl.DISPATCH:
            return finish(inst, part.effect, tuple(trailing),
                          stored_before(reading.span(stmt)[0]), dispatch)
        return finish(inst, part.jump_effect, tuple(trailing), dispatch=dispatch)

    stored = [position] if position else []

    def error_exit(cond: str, label: str) -> list[str]:
        if symbolic is not None:
            return symbolic.error_exit(cond, label, popped=True)
        if n_inputs.is_zero:
            return _conditional(cond, stored + [f"goto {label};"])
        if label == "error" and not n_inputs.terms and n_inputs.const <= MAX_POP_ERROR:
            return _conditional(cond, stored + [f"goto pop_{n_inputs.const}_error;"])
        return _conditional(cond, stored + [f"STACK_SHRINK({_depth(n_inputs)});",
                                            f"goto {label};"])

    expansion = dsl.Expansion(family=family, error_exit=error_exit, epilogue=epilogue)
    for stmt in reading.dsl_statements():
        for t in stmt.trailing:
            copy.remove(*reading.span(t))
        site_start, site_end = reading.span(stmt)
        args = [reading.arg_text(source, stmt, k) for k in range(len(stmt.args))]
        lines = dsl.expand_case(stmt.kind, args, expansion, stmt)
        if stmt.kind == dsl.GUARD:
            copy.replace(site_start, site_end, lines, inline=True)
        else:
            copy.replace(site_start, site_end, braced(source, site_start, lines))
    for stmt in reading.walk():  # a raw `goto error`: the part's inputs are still on the stack
        label = model.error_goto_label(reading, stmt)
        if stmt.kind == dsl.EXIT and label is not None and (symbolic or position):
            site_start, site_end = reading.span(stmt)
            lines = symbolic.error_exit(None, label, popped=False) if symbolic else \
                stored + [source[site_start:site_end]]
            copy.replace(site_start, site_end, braced(source, site_start, lines))
    if reading.falls_through:
        for t in reading.end_trailing:
            copy.remove(*reading.span(t))
        trailing = tuple(source[slice(*reading.span(t))] for t in reading.end_trailing)
        stored = stored_before(end)
        if symbolic is not None:
            lines = symbolic.copy_out
            symbolic.trailing = trailing  # after the stack is written and the caches skipped
        elif inst.kind == "inst":  # else a part of a composition
            lines = finish(inst, part.effect, trailing, stored, dispatch_macro(inst, untraced))
        else:
            # (the last part's trailing statements, CHECK_EVAL_BREAKER and PREDICT, run after
            # the instruction's end, the skip over its caches, as the handler dispatches from
            # there: emit_instruction's finish; an earlier part has none, analysis.py)
            lines = stack_update(part.effect, stored)
            trailing_out.extend(trailing)
        copy.append(lines)
    return copy.lines()


def value_declarations(inst: model.Instruction) -> list[str]:
    """The variables of the values a composition's parts hand to each other (`PyTypeObject
    *tp`), declared in the instruction's block, where every part sees them."""
    seen: dict[str, str] = {}
    for part in inst.parts:
        for o in part.effect.outputs:
            if o.is_value and o.name not in seen:
                star = o.ctype.endswith("*")
                seen[o.name] = f"{o.ctype}{'' if star else ' '}{o.name};"
    return list(seen.values())


class _Symbolic:
    """A composition whose parts hand values to each other in C variables: a symbolic stack
    of what the real one would hold (bottom first): ("mem", i), the instruction's input i still
    in its slot; ("var", name), a value in a C variable; ("any",), an `unused` output. The real
    stack is written once, at the end, and before an error exit (as the parts one by one would
    have left it); so no part changes it before a later part's guard. The exception: an output
    of the last part is stored as soon as it is final (eager_stores), as in a single body."""

    def __init__(self, inst: model.Instruction, untraced: bool, position: str | None):
        self.inst = inst
        self.untraced = untraced
        self.position = position  # the store of the position an error exit makes, if any
        self.entry = len(inst.effect.inputs)
        self.stack: list[tuple] = [("mem", i) for i in range(self.entry)]
        self.declared: set[str] = set()  # the C variables of the instruction's own block
        self.below: list[tuple] = []  # during a part: the stack under its inputs
        self.inputs: list[tuple] = []  # during a part: its inputs
        self.copy_out: list[str] = []  # during a part: outputs renamed at its end
        self.trailing: tuple[str, ...] = ()  # the last part's CHECK_EVAL_BREAKER, PREDICT
        self.pushed: list[tuple] = []  # during a part: its outputs, as they will stand
        self.last = False  # during a part: it is the last one
        self.early: set[str] = set()  # outputs of the last part stored by eager_stores
        self.loaded: dict[str, int] = {}  # variables read from an input's slot: the slot

    def eager_stores(self, part: model.Operation) -> dict[str, tuple[int, str]]:
        """The last part's eager stores (module eager_stores), at the slots its outputs have in
        the final stack, relative to the stack pointer on entry, which has not moved. What
        follows in the part completes or pops the slot (ERROR_IF pops the part's inputs, and
        the outputs stand above what is under them); the end does not store them again."""
        if not self.last:
            return {}
        result = {}
        for name, (offset, _) in eager_stores(part).items():
            if ("var", name) not in self.pushed:
                continue  # renamed at the part's end (copy_out)
            depth = self.entry - len(self.below) - self.pushed.index(("var", name))
            if depth < 1:
                continue  # above the entry stack pointer: left to the end
            result[name] = (offset, f"POKE({depth}, {name});")
        self.early = set(result)
        return result

    def value(self, entry: tuple) -> str:
        return entry[1] if entry[0] == "var" else _peek(Size(self.entry - entry[1]))

    def flush(self, stack: list[tuple]) -> list[str]:
        """Write `stack` to the real stack (the stack pointer where it was on entry): move the
        pointer, then store the values in variables (what is still in its slot stays)."""
        lines = []
        delta = len(stack) - self.entry
        if delta < 0:
            lines.append(f"STACK_SHRINK({-delta});")
        elif delta > 0:
            lines.append(f"STACK_GROW({delta});")
        # A variable read from its slot and standing there still holds it (an input is never
        # assigned here: Instruction.symbolic_stack), unless the last part stored over it.
        kept = {} if self.last and self.early else self.loaded
        return lines + [f"POKE({len(stack) - i}, {e[1]});"
                        for i, e in enumerate(stack) if e[0] == "var" and e[1] not in self.early
                        and kept.get(e[1]) != i]

    def error_exit(self, cond: str | None, label: str, popped: bool) -> list[str]:
        """ERROR_IF (the part's inputs popped) or a raw `goto` (still on the stack)."""
        stack = self.below if popped else self.below + self.inputs
        lines = self.flush(stack)
        pops = self.entry - len(stack)
        if lines == [f"STACK_SHRINK({pops});"] and label == "error" and pops <= MAX_POP_ERROR:
            lines = [f"goto pop_{pops}_error;"]
        else:
            lines.append(f"goto {label};")
        return _conditional(cond, ([self.position] if self.position else []) + lines)

    def emit(self) -> list[str]:
        inst = self.inst
        outer: list[str] = value_declarations(inst)
        blocks: list[str] = []

        def declare(name: str, value: str | None = None, slot: int | None = None) -> tuple:
            """A variable of the outer block (`slot`: the input whose slot it was read from)."""
            outer.append(f"PyObject *{name}" + (f" = {value};" if value else ";"))
            self.declared.add(name)
            if slot is not None:
                self.loaded[name] = slot
            return ("var", name)

        for index, part in enumerate(inst.parts):
            effect = part.effect.without_values()
            n_in = len(effect.inputs)
            self.below = self.stack[:len(self.stack) - n_in]
            self.inputs = self.stack[len(self.stack) - n_in:]
            binds: dict[str, tuple] = {}
            block = []
            for item, entry in zip(effect.inputs, self.inputs):
                if item.is_unused:
                    continue
                binds[item.name] = entry
                if item.name not in part.body.reading.names or entry == ("var", item.name):
                    continue
                if entry[0] == "mem" and item.name not in self.declared:
                    binds[item.name] = declare(item.name, self.value(entry), entry[1])
                    self.inputs = [("var", item.name) if e == entry else e for e in self.inputs]
                    self.stack = [("var", item.name) if e == entry else e for e in self.stack]
                else:
                    block.append(f"PyObject *{item.name} = {self.value(entry)};")
            pushed: list[tuple] = []
            self.copy_out = []
            for o in effect.outputs:
                if o.is_unused:  # the slot keeps what it holds (nothing, if it is a new one)
                    k = len(pushed)
                    pushed.append(self.inputs[k] if k < len(self.inputs) else ("any",))
                elif o.name in binds:  # an input handed on
                    entry = binds[o.name]
                    if entry[0] == "mem" and entry[1] != len(self.below) + len(pushed):
                        # moved while still in its slot: read it before anything is written
                        name = o.name if o.name not in self.declared else f"{o.name}_{index + 1}"
                        entry = declare(name, self.value(entry))
                    pushed.append(entry)
                elif o.name not in self.declared:
                    pushed.append(declare(o.name))
                else:  # the name holds another value: the output gets a name of its own
                    pushed.append(declare(f"{o.name}_{index + 1}"))
                    block.append(f"PyObject *{o.name};")
                    self.copy_out.append(f"{o.name}_{index + 1} = {o.name};")
            if part.body.uses_cache:
                block.append(f"{inst.cache.name} *cache = ({inst.cache.name} *)next_instr;")
            self.pushed, self.last = pushed, index == len(inst.parts) - 1
            block.extend(expand_body(inst, part, untraced=self.untraced, symbolic=self))
            blocks += _block(f"{{  // {part.name}", block)
            self.stack = self.below + pushed
        final = [e if e[0] != "any" else ("mem", i) for i, e in enumerate(self.stack)]
        return outer + blocks + self.flush(final) + finish(
            inst, None, self.trailing, dispatch=dispatch_macro(inst, self.untraced))


def emit_instruction(inst: model.Instruction, predicted: set[str], untraced: bool = False,
                     traced_copy: bool = False, untraced_entry: bool = False) -> list[str]:
    """The case of an instruction; `untraced`: it dispatches without the tracing check where
    it can (dispatch_macro); `traced_copy`: its checked copy, which DO_TRACING runs;
    `untraced_entry`: it never starts while tracing is on (a specialized instruction that no
    base instruction jumps into: Model.jumped_into)."""
    lines: list[str] = []
    if inst.doc and not traced_copy:
        first = inst.doc.split("\n")
        lines.append(f"// {inst.name}: " + first[0])
        lines.extend(f"// {line}" if line else "//" for line in first[1:])
    # An instruction whose entry does not store its position stores it on its error exits: in
    # a superinstruction's later part (next_instr is past the parts before it), that of the
    # last part that starts an instruction of its own (Instruction.starts; the first part
    # does), as upstream reports it.
    unstored = not traced_copy and not inst.stores_position

    def position(index: int) -> str | None:
        if not unstored:
            return None
        start = max([0] + [k for k in inst.starts if k <= index]) if inst.kind == "super" \
            else index
        return f"frame->prev_instr = next_instr - {1 + index - start};"

    trailing: list[str] = []  # the last part's CHECK_EVAL_BREAKER, PREDICT (expand_body)

    def part_block(index: int, part: model.Operation, extra_outputs=()) -> list[str]:
        """A part's code (a plain instruction's whole body): its inputs, its cache, its body."""
        block = prologue(part.effect, part.body, extra_outputs)
        if part.body.uses_cache:
            cache = inst.part_owner(index, part.name).cache
            block.append(f"{cache.name} *cache = ({cache.name} *)next_instr;")
        return block + expand_body(inst, part, untraced=untraced, position=position(index),
                                   index=index, trailing_out=trailing)

    header = "TRACED_TARGET" if traced_copy else "TARGET_NO_PREV_INSTR" if unstored else "TARGET"
    body: list[str] = []
    if inst.name in predicted:
        body.append(f"PREDICTED({inst.name});")
    for general, constant in inst.narrowed:
        body.append(f"assert(({general}) == {constant});")
    if inst.kind == "inst":
        part = inst.parts[0]
        body.extend(part_block(0, part, part.jump_effect.outputs if part.jump_effect else []))
    elif inst.symbolic_stack:
        body.extend(_Symbolic(inst, untraced, position(0)).emit())
    else:
        body.extend(value_declarations(inst))
        last = len(inst.parts) - 1
        for index, part in enumerate(inst.parts):
            if index in inst.starts and inst.start_checks(index):
                # The parts before may have run code that turned tracing on: then the rest
                # runs instruction by instruction from here, traced, as upstream's would.
                body.extend(["if (cframe.use_tracing) {", f"{INDENT}DISPATCH();", "}"])
            # A part that starts an instruction of its own has its position, as upstream
            advance = "frame->prev_instr = next_instr++;" \
                if index in inst.starts and not unstored else "next_instr++;"
            if index and inst.kind == "super":
                body.append("NEXTOPARG();")
                if index == last and inst.member_parts:
                    break
                body.append(advance)
            body += _block(f"{{  // {part.name}", part_block(index, part))
        if not inst.member_parts:
            if inst.parts[-1].body.reading.falls_through:  # (else its last part leaves)
                body.extend(finish(inst, None, tuple(trailing),
                                   dispatch=dispatch_macro(inst, untraced)))
        else:
            # The last part runs as the member the site holds, if it is one of them: else
            # the superinstruction ends here, and the site runs as what it holds now (the
            # adaptive form, another member). Tracing is off there: no code ran since the
            # last start, or it was checked.
            for member, part in zip(inst.member_parts, [inst.parts[-1], *inst.alternatives]):
                end = finish(inst, None, (), dispatch=dispatch_macro(inst, untraced), member=member)
                block = _block(f"{{  // {part.name}", part_block(last, part))
                body += _block(f"if (opcode == {member.name}) {{", [advance] + block + end)
            body.append("DISPATCH_NO_TRACE_CHECK();"
                        if untraced_entry and last in inst.starts else "DISPATCH();")
    return lines + _block(f"{header}({inst.name}) {{", body)


def emit_cases(m: model.Model) -> list[str]:
    """All cases, in declaration order, each followed by a blank line, then the shared
    error exits that pop the inputs of a failed instruction."""
    predicted = m.predicted
    untraced = m.untraced_dispatch
    jumped = m.jumped_into
    lines: list[str] = []
    for inst in m.instructions:
        case = emit_instruction(inst, predicted, inst.name in untraced,
                                untraced_entry=inst.is_specialized and inst.name not in jumped)
        lines += case + [""]
    copies = [inst for inst in m.instructions if inst.name in untraced and not inst.is_specialized]
    if copies:
        lines += ["#if USE_COMPUTED_GOTOS",
                  "// Checked copies of the base instructions above that dispatch without the "
                  "tracing",
                  "// check: DO_TRACING runs these (opcode_targets_traced), so that the "
                  "instruction",
                  "// after one is traced too."]
        for inst in copies:
            lines += emit_instruction(inst, set(), traced_copy=True) + [""]
        lines += ["#endif", ""]
    used = [int(n) for line in lines for n in re.findall(r"goto pop_(\d+)_error;", line)]
    if not used:
        return lines
    lines.append("// ERROR_IF(cond, error) in an instruction with N inputs: pop them, then unwind.")
    for n in range(max(used), 0, -1):
        lines += [f"pop_{n}_error:", f"{INDENT}STACK_SHRINK(1);"]
    return lines + [f"{INDENT}goto error;", ""]
