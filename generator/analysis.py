"""Semantic analysis: declarations (ast.py) -> the checked model (model.py).

Every rule of docs/dsl.md section 5 is checked here; all errors are collected and raised
together, so the author sees the whole list in one run.
"""

from __future__ import annotations

import difflib
import re

from . import ast, dsl, model, specializer
from .baselines import BASELINES
from .diagnostics import DiagnosticSink, Location
from .lexer import IDENT, SourceFile, Span, Token
from .parser import parse_source
from .statements import C_KEYWORDS, Reading, changes_before, read_body

# Words no name may be: C's keywords, and C++'s, since opcode.h is included from C++ too.
RESERVED_WORDS = C_KEYWORDS | {
    "_Alignas", "_Alignof", "_Atomic", "_Generic", "_Noreturn", "_Static_assert",
    "_Thread_local", "alignas", "alignof", "bool", "catch", "class", "constexpr", "delete",
    "explicit", "false", "friend", "mutable", "namespace", "new", "noexcept", "nullptr",
    "operator", "private", "protected", "public", "template", "this", "throw", "true", "try",
    "typename", "using", "virtual",
}
# How many unknown names get a "did you mean" (_Analyzer.suggest).
SUGGESTIONS = 100
# The specialize function's own parameters and locals (emit_specializer.py).
FUNCTION_LOCALS = frozenset({"instr", "oparg", "cache", "fail_kind"})
# _PyOpcode_Caches is a uint8_t table of cache sizes in code units.
MAX_CACHE_SIZE = 255


def analyze(declarations: list[ast.Declaration]) -> model.Model:
    return _Analyzer(declarations).run().seal()


def _rejections(member: model.Instruction, when: specializer.Admission
                ) -> tuple[set[str], bool]:
    """The conditions under which a member's `when` surely rejects: its top-level
    `REJECT_IF(c)` whose names the block does not assign (so that `c` means the same in another
    member's block), and what the member knows more (`(oparg) != 1`), as text; and whether
    those are all the ways it can reject."""
    conditions = {f"({general}) != {constant}" for general, constant in member.narrowed}
    assigned = set().union(*(s.all_assigns for block in when.blocks
                             for s in block.statements)) | when.declared
    complete = True
    for block in when.blocks:
        top = {id(s) for s in block.statements}
        for stmt in block.dsl_statements():
            if stmt.kind != dsl.REJECT:
                continue
            tokens = block.arg_tokens(stmt, 0)
            if id(stmt) in top and not any(t.kind == IDENT and t.text in assigned
                                           for t in tokens):
                conditions.add(" ".join(t.text for t in tokens))
            else:
                complete = False
    return conditions, complete


def _repeated(items: list):
    """The items (declarations with a name) whose name an item before them has."""
    seen: set[str] = set()
    for item in items:
        if item.name in seen:
            yield item
        seen.add(item.name)


def _stack_move_problems(reading: Reading):
    """(the stack move, the statement after it, why) where a body moves the stack itself and
    then does not leave by an exit of its own: ERROR_IF, DISPATCH() and the end of the body
    move it from where it was on entry, so they would move it twice."""
    blocks = [reading.statements] + [b for s in reading.walk() for b in s.branches]
    for block in blocks:
        for k, stmt in enumerate(block):
            if stmt.kind != dsl.STACK_MOVE:
                continue
            for after in block[k + 1:]:
                epilogue = next((s for s in after.walk() if s.kind in (
                    dsl.ERROR, dsl.DISPATCH, dsl.DISPATCH_JUMPED)), None)
                if epilogue is not None:
                    yield stmt, epilogue, epilogue.form.name
                    break
                if after.exits:
                    break
            else:
                yield stmt, None, "the end of the block"


def _leaves_early(reading: Reading) -> tuple[Location, str] | None:
    """Where and how a body leaves its instruction other than by an error exit: an exit of
    the table (`return`, `goto LABEL` to a label that is no error exit, JUMP_TO_INSTRUCTION,
    DISPATCH_SAME_OPARG...), a jump (JUMPBY), or an assignment to next_instr."""
    for stmt in reading.walk():
        head = reading.tokens[stmt.first]
        if stmt.kind == dsl.EXIT:
            if model.error_goto_label(reading, stmt) is not None:
                continue
            if head.text == "goto" and stmt.last > stmt.first + 1:
                return head.location, f"goto {reading.tokens[stmt.first + 1].text}"
            return head.location, head.text
        if "next_instr" in stmt.assigns and stmt.kind != "compound":
            return head.location, "an assignment to next_instr"
    jump = next((reading.names[n] for n in dsl.names_of((dsl.JUMP,)) if n in reading.names), None)
    return (jump.location, jump.text) if jump is not None else None


class _Analyzer:
    def __init__(self, declarations: list[ast.Declaration]):
        self.declarations = declarations
        self.sink = DiagnosticSink()
        self._seen: set[tuple[Location, str]] = set()
        # PREDICT(X) / JUMP_TO_INSTRUCTION(X) in bodies: X must be an instruction
        self.references: list[Token] = []
        # Names an unknown name was probably meant to be (the suggestions made): no follow-on
        # error about them ("not used", "needs a number") hides the one that matters.
        self.suspects: set[str] = set()
        self.oparg_decls: dict[str, ast.OpargDecl] = {}
        # Families whose cache name is unknown (reported once): their members' uses of
        # `cache` are not reported again.
        self.unknown_cache_families: set[str] = set()
        self.suggestions_left = SUGGESTIONS

    def suggest(self, name: str, known) -> str:
        """`; did you mean 'X'?` with the closest known name (remembered as a suspect); only for
        the first SUGGESTIONS unknown names, so that thousands of them stay linear."""
        if self.suggestions_left <= 0:
            return ""
        self.suggestions_left -= 1
        close = difflib.get_close_matches(name, list(known), n=1)
        if not close:
            return ""
        self.suspects.add(close[0])
        return f"; did you mean '{close[0]}'?"

    def error(self, location: Location, message: str,
              notes: tuple[tuple[Location, str], ...] = ()) -> None:
        # An operation used by several instructions would report the same problem once per
        # user: keep one of each.
        if (location, message) not in self._seen:
            self._seen.add((location, message))
            self.sink.error(location, message, notes)

    # ------------------------------------------------------------------------------------

    def run(self) -> model.Model:
        # A generated adaptive form comes right after its generic instruction and its family
        # (whichever is later), where a written one would be.
        decls = []
        adaptive = self.adaptive_forms(self.declarations)
        pending = {name: 2 for name in adaptive}
        for d in self.declarations:
            decls.append(d)
            if isinstance(d, (ast.FamilyDecl, ast.InstDecl)) and d.name in pending \
                    and (isinstance(d, ast.FamilyDecl) or d.kind == "inst"):
                pending[d.name] -= 1
                if pending[d.name] == 0:
                    decls.append(adaptive[d.name])
        names: dict[str, ast.Declaration] = {}
        caches: dict[str, ast.CacheDecl] = {}
        families: dict[str, ast.FamilyDecl] = {}
        baselines: list[ast.BaselineDecl] = []
        tables = {ast.OpargDecl: (self.oparg_decls, "oparg declaration for"),
                  ast.CacheDecl: (caches, "cache"), ast.FamilyDecl: (families, "family")}
        for d in decls:
            if isinstance(d, ast.BaselineDecl):
                if baselines:
                    self.error(d.location, f"a second baseline (the first is declared at "
                                           f"{baselines[0].location})")
                else:
                    baselines.append(d)
                continue
            table, what = tables.get(type(d), (names, "definition"))
            if d.name in table:
                first = table[d.name].location
                self.error(d.location, f"duplicate {what} '{d.name}' (first defined at {first})",
                           notes=((first, "first defined here"),))
                continue
            table[d.name] = d

        self.check_names(decls)
        self.caches = {name: self.build_cache(c) for name, c in caches.items()}
        baseline = BASELINES.get(baselines[0].name) if baselines else None
        self.upstream_supers = model.upstream_supers(baseline)  # (model.super_starts)
        # Every body (of an `op` or of an `inst`) becomes an operation.
        self.operations: dict[str, model.Operation] = {
            d.name: self.build_operation(d) for d in decls
            if isinstance(d, ast.InstDecl) and names.get(d.name) is d}
        built = [self.build_composition(d, names) if isinstance(d, ast.CompositionDecl)
                 else self.build_plain(d) for d in decls
                 if names.get(getattr(d, "name", None)) is d and d.kind != "op"]
        instructions = [inst for inst in built if inst is not None]  # None: cannot be built
        by_name = {inst.name: inst for inst in instructions}
        for d in decls:
            if isinstance(d, (ast.InstDecl, ast.CompositionDecl)) and d.name in by_name:
                for ref in d.fuses:
                    fused = by_name.get(ref.name)
                    if fused is None:
                        self.error(ref.location, f"unknown instruction '{ref.name}'"
                                                 f"{self.suggest(ref.name, by_name)}")
                    else:
                        by_name[d.name].fuses.append(fused)
        family_list = [self.build_family(f, by_name) for f in families.values()]
        family_list = sorted((f for f in family_list if f), key=lambda f: f.name)
        self.link_member_parts(instructions, by_name)
        self.assign_specialized_numbers(instructions, family_list, baseline)
        self.check_numbers(instructions)
        if baselines:
            self.check_baseline(baselines[0], instructions)

        self.check_bodies(instructions)
        self.check_specializers(decls, families, family_list)
        self.check_unreachable(decls, family_list, names)
        opargs = {}
        for name, d in self.oparg_decls.items():
            if name not in by_name:
                self.error(d.location, f"oparg values for unknown instruction '{name}'"
                                       f"{self.suggest(name, by_name)}")
            elif not by_name[name].has_arg:
                self.error(d.location, f"{name} takes no argument")
            elif name not in model.NAMED_OPARGS:
                self.error(d.location, f"oparg values of {name} would go nowhere: the generated "
                                       f"tables name the oparg values of "
                                       f"{', '.join(model.NAMED_OPARGS)} only")
            for v in _repeated(d.values):
                self.error(v.location, f"duplicate oparg value '{v.name}'")
            opargs[name] = [(v.name, v.text) for v in d.values]
        self.sink.raise_if_any()
        return model.Model(instructions, family_list, list(self.caches.values()), opargs,
                           baseline)

    # -- the specializer (specializer.py) -----------------------------------------------

    def adaptive_forms(self, decls: list[ast.Declaration]) -> dict[str, ast.InstDecl]:
        """The generated adaptive instruction of every family that declares `specialize`."""
        generics = {d.name: d for d in decls if isinstance(d, ast.InstDecl) and d.kind == "inst"}
        defined = {d.name: d for d in decls if isinstance(d, (ast.InstDecl, ast.CompositionDecl))}
        result: dict[str, ast.InstDecl] = {}
        for family in decls:
            if not isinstance(family, ast.FamilyDecl):
                continue
            if family.specialize is None:
                if family.adaptive_number is not None:
                    self.error(family.adaptive_number_location,
                               f"family {family.name} declares no 'specialize', so its adaptive "
                               f"form is written: its number goes on its definition")
                continue
            lacks = ("no 'adaptive:' name for the instruction it generates"
                     if family.adaptive is None else
                     "has no cache (the adaptive counter lives in it)" if family.cache is None
                     else None)
            if lacks is not None:
                self.error(family.specialize.location,
                           f"family {family.name} declares 'specialize' but {lacks}")
                continue
            generic = generics.get(family.name)
            if generic is None:
                continue  # reported with the family
            hand = defined.get(family.adaptive.name)
            if hand is not None:
                self.error(hand.location,
                           f"{family.adaptive.name} is generated from family {family.name}'s "
                           f"'specialize'; remove this definition",
                           notes=((family.specialize.location, "the specializer is declared "
                                                               "here"),))
                continue
            has_arg = generic.number is None or generic.number >= model.HAVE_ARGUMENT
            text = specializer.adaptive_source(family, generic, has_arg)
            sink = DiagnosticSink()
            parsed = parse_source(SourceFile(f"<adaptive form of family {family.name}>", text),
                                  sink)
            if sink.diagnostics or len(parsed) != 1:  # a mistake of the generator's
                raise AssertionError(f"generated adaptive form does not parse:\n{text}\n"
                                     + "\n".join(d.format() for d in sink.diagnostics))
            decl = parsed[0]
            decl.location = family.adaptive.location
            decl.number_location = family.adaptive_number_location
            result[family.name] = decl
        return result

    def check_specializers(self, decls: list[ast.Declaration],
                           family_decls: dict[str, ast.FamilyDecl],
                           families: list[model.Family]) -> None:
        """Members' `when` blocks and their order, their fills, and the failure kinds."""
        inst_decls = {d.name: d for d in decls if isinstance(d, ast.CompositionDecl) or
                      (isinstance(d, ast.InstDecl) and d.kind == "inst")}
        op_whens = {d.name: d.when for d in decls
                    if isinstance(d, ast.InstDecl) and d.kind == "op" and d.when is not None}
        admitted: set[tuple[str, int]] = set()  # (instruction, part) whose op's `when` is read
        read_whens: dict[tuple[str, str], Reading] = {}  # (family, op): read once per family
        for f in families:
            decl = family_decls[f.name]
            spec = decl.specialize
            if spec is None:
                for m in f.members:
                    d = inst_decls[m.name]
                    if d.when is not None:
                        self.error(d.when.location,
                                   f"{m.name} has a 'when' block, but family {f.name} declares "
                                   f"no 'specialize' that would try it")
                for what, given in (("otherwise", decl.otherwise), ("failures", decl.failures)):
                    if given:
                        where = given.location if what == "otherwise" else given[0].location
                        self.error(where, f"'{what}' without 'specialize' in family {f.name}")
                continue
            failures = list(specializer.BUILTIN_FAILURES)
            for ref in decl.failures:
                if ref.name in failures:
                    self.error(ref.location, f"duplicate failure kind '{ref.name}'"
                               + (" (every family has it)" if ref.name in
                                  specializer.BUILTIN_FAILURES else ""))
                else:
                    failures.append(ref.name)
            if len(failures) > specializer.MAX_FAILURE_KINDS:
                self.error(decl.failures[0].location,
                           f"family {f.name} has {len(failures)} failure kinds; Py_STATS counts "
                           f"at most {specializer.MAX_FAILURE_KINDS} "
                           f"(SPECIALIZATION_FAILURE_KINDS)")
            inputs = [i for i in f.generic.effect.inputs if not i.is_unused]
            otherwise = self.check_block(f, decl.otherwise, "otherwise", failures) \
                if decl.otherwise is not None else None
            f.specializer = specializer.Specializer(
                spec.params, inputs, self.check_block(f, spec.body, "specialize", failures),
                otherwise, failures)
            seen_params: dict[str, Location] = {}
            for p in spec.params:
                shadowed = ("an input of the generic instruction" if p.name in
                            {i.name for i in inputs} else "a parameter of the specialize "
                            "function" if p.name in FUNCTION_LOCALS else
                            f"the parameter at {seen_params[p.name]}" if p.name in seen_params
                            else None)
                if shadowed is not None:
                    self.error(p.location, f"the specialize parameter '{p.name}' of family "
                                           f"{f.name} has the name of {shadowed}")
                seen_params.setdefault(p.name, p.location)
            # One order decides: `members:` gives the order the specializer tries them in
            # (and the order of _specializations); where they are defined changes nothing.
            tried = [m for m in f.members if m.kind != "super"]
            always: model.Instruction | None = None
            tried_rejects: list = []
            for m in tried:
                d = inst_decls[m.name]
                shared = op_whens.get(m.parts[0].name) if m.kind == "composed" else None
                if shared is not None:
                    admitted.add((m.name, 0))
                    key = (f.name, m.parts[0].name)
                    if key not in read_whens:
                        read_whens[key] = self.check_block(f, shared, "when", failures)
                if d.when is None and shared is None:
                    self.error(d.location, f"{m.name} is a member of family {f.name}, whose "
                                           f"specializer would never install it: give it a "
                                           f"'when' block")
                    continue
                where = (d.when or shared).location
                never_tried = always is not None
                if never_tried:
                    self.error(where,
                               f"{m.name} is never tried: {always.name} before it never rejects "
                               f"(its 'when' has no REJECT_IF)",
                               notes=((always.when.location, f"{always.name}'s 'when'"),))
                blocks = [read_whens[(f.name, m.parts[0].name)]] if shared is not None else []
                if d.when is not None:
                    blocks.append(self.check_block(f, d.when, "when", failures))
                when = specializer.Admission(blocks)
                if not m.narrowed and not any(s.kind == dsl.REJECT
                                              for s in when.dsl_statements()):
                    always = m
                rejects = _rejections(m, when)
                for earlier, (their, complete) in tried_rejects:
                    if not never_tried and complete and their and their <= rejects[0]:
                        self.error(where,
                                   f"{m.name} is never installed: whenever {earlier.name} (tried "
                                   f"before it) rejects, {m.name}'s 'when' rejects too "
                                   f"({'; '.join(sorted(their)) or 'no condition'})",
                                   notes=((earlier.when.location, f"{earlier.name}'s 'when'"),))
                        break
                tried_rejects.append((m, rejects))
                m.when = when
                m.fills = self.member_fills(f, m, where)
                f.specializer.members.append(m)
                seen: set[str] = set()  # a block also sees what the blocks before it declare
                for block in blocks:
                    self.check_block_names(f, block, f"{m.name}'s 'when'",
                                           {i.name for i in m.effect.inputs} | seen)
                    seen |= block.declared
            for what, block in (("specialize", f.specializer.prologue),
                                ("otherwise", f.specializer.otherwise)):
                if block is not None:
                    self.check_block_names(f, block, f"family {f.name}'s '{what}'")
        # An op's `when` is read only as the admission of a family member it begins.
        for d in (d for d in decls if isinstance(d, ast.CompositionDecl)):
            for index, ref in enumerate(d.parts + d.alternatives):
                if ref.name in op_whens and (d.name, index) not in admitted:
                    self.error(op_whens[ref.name].location,
                               f"the 'when' of {ref.name} would be ignored in {d.name}: an "
                               f"op's 'when' is read only where the op is the first part "
                               f"of a member of a family that declares 'specialize'",
                               notes=((ref.location, f"{ref.name} in {d.name}"),))

    def check_block(self, f: model.Family, body: Span, block: str,
                    failures: list[str]) -> Reading:
        """A specializer block, read: the block's own statements (dsl.py), with a failure
        kind the family declares; nothing of the evaluation loop; a `when` block's cache
        accesses."""
        reading = read_body(body.tokens, block, body)
        for location, message, notes in reading.problems:
            self.error(location, message, notes)
        if block == "when" and f.cache is not None:
            self.check_cache_accesses(f.cache, reading)
        kinds = set(failures)
        for stmt in reading.dsl_statements():
            params = stmt.form.params[block]
            if "kind" not in params:
                continue
            kind = reading.arg_tokens(stmt, params.index("kind"))
            if len(kind) == 1 and kind[0].kind == IDENT and kind[0].text not in kinds:
                self.error(kind[0].location,
                           f"unknown failure kind '{kind[0].text}' of family {f.name}"
                           f"{self.suggest(kind[0].text, kinds)} (declare it in "
                           f"'failures:')")
        return reading

    def check_block_names(self, f: model.Family, block: Reading, what: str,
                          own_inputs: set[str] = frozenset()) -> None:
        """Every variable a specializer block uses is one it can see in the specialize function
        (its own locals, the `specialize` block's, the family's parameters, the generic
        instruction's inputs and a member's names for them, FUNCTION_LOCALS): another
        lower-case name (a typo, another family's local) would be a C error. Names of the C
        API, macros and types (`_Py...`, upper case, `..._t`) are left to the C compiler."""
        spec = f.specializer
        visible = block.declared | spec.prologue.declared | {p.name for p in spec.params} \
            | {i.name for i in spec.inputs} | set(own_inputs) | FUNCTION_LOCALS | C_KEYWORDS \
            | {"true", "false"}
        tokens = block.tokens
        for k, t in enumerate(tokens):
            if t.kind != IDENT or not t.text[0].islower() or t.text.endswith("_t") \
                    or t.text in visible:
                continue
            prev = tokens[k - 1] if k else None
            nxt = tokens[k + 1] if k + 1 < len(tokens) else None
            if prev is not None and (prev.is_punct("->") or prev.is_punct(".")
                                     or prev.text in ("struct", "union", "enum", "goto")):
                continue
            if nxt is not None and (nxt.is_punct("(") or nxt.is_punct(":")):
                continue  # a function, a label
            opener = block.brackets.enclosing[k]
            if opener > 0 and tokens[opener - 1].text in ("offsetof", "sizeof"):
                continue  # a type's member or a type
            self.error(t.location, f"unknown name '{t.text}' in {what}"
                                   f"{self.suggest(t.text, visible - C_KEYWORDS)}: a specializer "
                                   f"block sees its own locals, the family's 'specialize' locals "
                                   f"and parameters, and the instruction's inputs")
            visible = visible | {t.text}  # once per name

    def check_cache_accesses(self, cache: model.Cache, reading: Reading) -> None:
        """Every `cache->entry` names an entry of the layout and reads or writes it with its
        width (a 32-bit read of a 16-bit entry reads the next entry too)."""
        sizes = dict(cache.entries)
        for access in reading.cache_accesses:
            token = access.entry
            if token.text not in sizes:
                self.error(token.location, f"cache {cache.name} has no entry '{token.text}' "
                                           f"(it has: {', '.join(e for e, _ in cache.entries)})")
                continue
            problem = dsl.cache_width_problem(token.text, sizes[token.text], access.accessor,
                                              access.write)
            if problem is not None:
                self.error(token.location, f"{problem} (cache {cache.name})")

    def member_fills(self, f: model.Family, m: model.Instruction, where: Location):
        """The fills derived from the member's guards, checked with what it reads and writes."""
        cache_entries = {name for name, _ in f.cache.entries} if f.cache else set()
        written = {a.entry.text for a in m.when.cache_accesses if a.write}
        fills = [fill for part in m.parts for fill in specializer.derive_fills(part.body)
                 if fill.entry not in written and fill.entry in cache_entries]
        unique = {}
        for fill in fills:
            unique.setdefault(fill.entry, fill)
        filled = written | set(unique)
        partly = written - m.when.writes_on_every_path()
        for token in [a.entry for part in m.parts for a in part.body.reading.cache_accesses]:
            entry = token.text
            if entry in partly and entry not in unique:
                self.error(token.location,
                           f"{m.name} reads cache->{entry}, which its 'when' does not write on "
                           f"every path that installs the member: it can be installed with the "
                           f"entry unset",
                           notes=((where, f"{m.name}'s 'when'"),))
                partly.discard(entry)
            elif entry != "counter" and entry not in filled and entry in cache_entries:
                self.error(token.location,
                           f"{m.name} reads cache->{entry}, which its 'when' neither writes nor "
                           f"fills from a guard (DEOPT_IF(x != cache->{entry}))",
                           notes=((where, f"{m.name}'s 'when'"),))
                filled.add(entry)
        # A derived fill is evaluated in the specializer: its names must be defined there.
        spec = f.specializer
        known = m.when.names | set(spec.prologue.names) | {p.name for p in spec.params} \
            | {i.name for i in m.effect.inputs} | {i.name for i in spec.inputs}
        for fill in unique.values():
            toks = fill.value_tokens
            for k, t in enumerate(toks):
                if t.kind != IDENT or t.text in known or t.text.isupper() \
                        or (k > 0 and toks[k - 1].text in ("->", ".")) \
                        or (k + 1 < len(toks) and toks[k + 1].is_punct("(")):
                    continue  # known, a macro, a member, a function
                self.error(fill.location,
                           f"the fill of cache->{fill.entry} derived from this guard uses "
                           f"'{t.text}', which {m.name}'s 'when' does not define",
                           notes=((where, f"{m.name}'s 'when'"),))
                break
        return list(unique.values())

    # -- what is copied into C and Python ------------------------------------------------

    def check_names(self, decls: list[ast.Declaration]) -> None:
        """Names become C identifiers and macros (opcode.h is included from C++ too), and
        oparg spellings Python string literals: reject what would not compile or would mean
        something else there."""
        def check(name: str, location: Location, what: str = "the name", runtime: bool = False,
                  prefixes: bool = True) -> None:
            if name in RESERVED_WORDS:
                self.error(location, f"{what} '{name}' is a C or C++ keyword")
            if runtime and dsl.runtime_name(name, prefixes):  # a global name
                self.error(location, f"the name '{name}' is one the runtime's C already uses "
                                     f"(a macro or identifier of C, ceval.c, the C API or the "
                                     f"generated tables): the generated code would redefine it")

        for d in decls:  # (not families: a family is named by its instruction)
            if isinstance(d, ast.InstDecl):
                check(d.name, d.location, runtime=d.kind == "inst")
                for effect in filter(None, [d.effect, d.jump_effect, d.compiler_effect]):
                    for item in effect.inputs + effect.outputs:
                        check(item.name, item.location, "the stack item")
            elif isinstance(d, (ast.CompositionDecl, ast.CacheDecl)):
                check(d.name, d.location, runtime=True, prefixes=not isinstance(d, ast.CacheDecl))
                for entry in getattr(d, "entries", []):
                    check(entry.name, entry.location, "the cache entry")
            elif isinstance(d, ast.OpargDecl):
                for value in d.values:
                    check(value.name, value.location, "the oparg value")
                    if "\\" in value.text or '"' in value.text:
                        self.error(value.location, f"the spelling of {value.name} has an escape "
                                                   f"or a quote; it is copied into opcode.py as "
                                                   f"it is written")

    # -- caches --------------------------------------------------------------------------

    def build_cache(self, decl: ast.CacheDecl) -> model.Cache:
        for entry in _repeated(decl.entries):
            self.error(entry.location, f"duplicate cache entry '{entry.name}' in {decl.name}")
        if decl.entries and (decl.entries[0].name != "counter" or decl.entries[0].size != 1):
            self.error(decl.entries[0].location,
                       f"the first entry of cache {decl.name} must be 'counter: 1' "
                       "(the miss path decrements it)")
        cache = model.Cache(decl.name, decl.location, decl.doc,
                            [(e.name, e.size) for e in decl.entries])
        if cache.size > MAX_CACHE_SIZE:
            self.error(decl.location, f"cache {decl.name} is {cache.size} code units; "
                                      f"_PyOpcode_Caches (uint8_t) holds at most "
                                      f"{MAX_CACHE_SIZE}")
        return cache

    # -- operations and their bodies -----------------------------------------------------

    def build_effect(self, effect: ast.StackEffect) -> model.StackEffect:
        def items(items: list[ast.StackItem], kind: str) -> list[model.StackItem]:
            for item in _repeated(items):
                if item.name != "unused":
                    self.error(item.location, f"duplicate stack {kind} '{item.name}'")
            return [model.StackItem(i.name, i.location, i.size, i.condition, i.ctype)
                    for i in items]

        inputs = items(effect.inputs, "input")
        outputs = items(effect.outputs, "output")
        result = model.StackEffect(inputs, outputs, effect.location)
        in_pos = dict(zip([i.name for i in inputs], result.offsets_from_bottom(inputs)))
        out_pos = dict(zip([o.name for o in outputs], result.offsets_from_bottom(outputs)))
        for o in outputs:
            for i in inputs:
                if o.name != i.name or o.name == "unused":
                    continue
                if o.shape() != i.shape():
                    self.error(o.location, f"output '{o.name}' has a different shape than the "
                                           f"input of the same name")
                elif o.is_array and in_pos[i.name] != out_pos[o.name]:
                    self.error(o.location, f"array '{o.name}' must stay where it is as an input "
                                           f"(arrays are not moved); give the output another "
                                           f"name and fill it in the body")
        return result

    def build_operation(self, decl: ast.InstDecl) -> model.Operation:
        effect = self.build_effect(decl.effect)
        if decl.kind != "op":
            for item in effect.inputs + effect.outputs:
                if item.is_value:
                    self.error(item.location,
                               f"the value {item.spelling()} in the stack effect of {decl.name}: "
                               f"only an op, a part of a composition, takes or gives values")
        jump_effect = self.build_effect(decl.jump_effect) if decl.jump_effect else None
        if jump_effect is not None and [(i.name, i.shape()) for i in jump_effect.inputs] != \
                [(i.name, i.shape()) for i in effect.inputs]:
            self.error(jump_effect.location,
                       f"the jump effect of {decl.name} must have the same inputs as its "
                       f"stack effect {effect.spelling()}")
        body = self.analyze_body(decl, effect, jump_effect)
        declared = {name.text for st in body.reading.walk() for name, _, _ in st.declares}
        for item in effect.inputs + effect.outputs:
            if item.is_value and item.name in declared:
                # the case declares it before the parts: a declaration in the body would
                # shadow it, and the parts after would read the outer variable, unassigned
                self.error(item.location,
                           f"the body of {decl.name} declares '{item.name}', which shadows "
                           f"its value {item.spelling()}: assign it without a type")
        return model.Operation(decl.name, effect, jump_effect, body)

    def analyze_body(self, decl: ast.InstDecl, effect: model.StackEffect,
                     jump_effect: model.StackEffect | None) -> model.Body:
        reading = read_body(decl.body.tokens, dsl.BODY, decl.body)
        for location, message, notes in reading.problems:
            self.error(location, message, notes)
        for stmt in reading.walk():
            if stmt.kind == dsl.DISPATCH_JUMPED and jump_effect is None:
                self.error(stmt.location, f"DISPATCH_JUMPED() in {decl.name}, which declares no "
                                          "jump effect")
        self.references += reading.references
        balanced = reading.brackets.problem is None

        # What the statements assign, however they do it (`x = `, `x += `, `&x`,
        # `Py_SETREF(x, ...)`).
        assigned = set().union(*(s.all_assigns for s in reading.statements))

        # Outputs of an effect must be assigned (scalars) or used (arrays) if the body can
        # complete with that effect.
        input_names = {i.name for i in effect.inputs}
        completes = {s.kind for s in reading.dsl_statements()}
        checked = effect.outputs if reading.falls_through or dsl.DISPATCH in completes else []
        if jump_effect is not None and dsl.DISPATCH_JUMPED in completes:
            checked = checked + jump_effect.outputs
        for effect_ in filter(None, [effect, jump_effect]):
            for index in effect_.pass_through():
                o = effect_.outputs[index]
                if not o.is_unused and not o.is_value and o.name in assigned:
                    self.error(o.location,
                               f"output '{o.name}' of {decl.name} is the input of the same name "
                               f"left in place, so it is never stored, but the body assigns it; "
                               f"give the output another name")
        for o in checked if balanced else []:  # else the statements are no guide
            if o.is_unused or o.name in input_names:
                continue
            if o.is_array:
                if o.name not in reading.names:
                    self.error(o.location, f"output array '{o.name}' of {decl.name} is never filled")
            elif o.name not in assigned:
                self.error(o.location, f"output '{o.name}' of {decl.name} is never assigned")
        return model.Body(decl.body, reading)

    # -- instructions --------------------------------------------------------------------

    def check_flags(self, decl: ast.InstDecl | ast.CompositionDecl) -> set[str]:
        """The flags as a set; `arg` added from a written number (a specialized instruction
        without one takes its generic instruction's argument)."""
        name, number, flags = decl.name, decl.number, decl.flags
        for f in _repeated(flags):
            self.error(f.location, f"flag '{f.name}' is given twice")
        result = {f.name for f in flags}
        arg_flags = {"arg", "const", "name", "local", "free", "compare", "jump_forward",
                     "jump_backward"}
        if number is not None and number < model.HAVE_ARGUMENT:
            for f in flags:
                if f.name in arg_flags:
                    self.error(f.location, f"flag '{f.name}' needs an argument, but {name} = "
                                           f"{number} is below HAVE_ARGUMENT ({model.HAVE_ARGUMENT})")
        if "jump_forward" in result and "jump_backward" in result:
            self.error(decl.number_location or decl.location,
                       f"{name} cannot jump both forward and backward")
        if number is not None and number >= model.HAVE_ARGUMENT:
            result.add("arg")
        return result

    def build_plain(self, decl: ast.InstDecl) -> model.Instruction:
        op = self.operations[decl.name]
        flags = self.check_flags(decl)
        inst = model.Instruction(decl.name, decl.number, decl.location, decl.doc, flags, "inst",
                                 [op], op.effect, op.jump_effect,
                                 number_location=decl.number_location)
        if decl.compiler_effect is not None:
            inst.compiler_effect = self.build_effect(decl.compiler_effect)
            if inst.jump_effect is not None:
                self.error(decl.compiler_effect.location,
                           f"{decl.name} cannot have both a jump effect and a compiler effect")
        return inst

    def build_composition(self, decl: ast.CompositionDecl,
                          names: dict[str, ast.Declaration]) -> model.Instruction | None:
        parts: list[model.Operation] = []
        ok = True
        for ref in decl.parts + decl.alternatives:
            target = names.get(ref.name)
            if target is None:
                self.error(ref.location, f"unknown instruction or operation '{ref.name}'"
                                         f"{self.suggest(ref.name, names)}")
                ok = False
            elif isinstance(target, ast.CompositionDecl):
                self.error(ref.location, f"'{ref.name}' is itself a composition; compose its "
                                         "parts instead")
                ok = False
            elif ref.name in self.operations:
                part = self.operations[ref.name]
                # DISPATCH() completes the instruction: only in the last part of a composition
                # (inst NAME : A + B), where it is that part's end (COMPARE_OP_*_JUMP's backward
                # jump); never in a superinstruction's parts, never with a jump effect.
                finishes = (dsl.DISPATCH_JUMPED,) if decl.kind != "super" and \
                    ref is decl.parts[-1] else (dsl.DISPATCH, dsl.DISPATCH_JUMPED)
                if part.jump_effect is not None or any(
                        s.kind in finishes for s in part.body.reading.dsl_statements()):
                    self.error(ref.location, f"'{ref.name}' finishes early (DISPATCH) and cannot "
                                             "be part of a composition")
                    ok = False
                elif ref in decl.parts[:-1]:
                    leaves = _leaves_early(part.body.reading)
                    if leaves is not None:
                        self.error(ref.location,
                                   f"'{ref.name}' can leave the instruction ({leaves[1]}) before "
                                   f"the parts after it run: only the last part of {decl.name} "
                                   f"may jump, return or go to another instruction",
                                   notes=((leaves[0], "here"),))
                        ok = False
                parts.append(part)
        flags = self.check_flags(decl)
        if not ok:
            return None
        parts, alternatives = parts[:len(decl.parts)], parts[len(decl.parts):]
        for ref, other in zip(decl.alternatives, alternatives):
            if other.effect.shape() != parts[-1].effect.shape():
                self.error(ref.location,
                           f"alternative {ref.name} of {decl.name}'s last part has the stack "
                           f"effect {other.effect.spelling()}, {parts[-1].name} has "
                           f"{parts[-1].effect.spelling()}: the alternatives must agree")
        effect = self.compose_effects([p.effect for p in parts], decl.location,
                                      [r.name for r in decl.parts],
                                      [r.location for r in decl.parts])
        kind = "super" if decl.kind == "super" else "composed"
        starts = model.super_starts([r.name for r in decl.parts], self.upstream_supers) \
            if kind == "super" else ()
        return model.Instruction(decl.name, decl.number, decl.location, decl.doc, flags, kind,
                                 parts, effect, number_location=decl.number_location,
                                 starts=starts, alternatives=alternatives)

    def compose_effects(self, effects: list[model.StackEffect], location: Location,
                        names: list[str], locations: list[Location] | None = None
                        ) -> model.StackEffect:
        """The effect of running `effects` one after the other."""
        stack: list[model.StackItem] = []
        inputs: list[model.StackItem] = []
        given: dict[str, tuple[model.StackItem, int]] = {}  # values, by name: (item, part)
        for index, effect in enumerate(effects):
            where = locations[index] if locations else location
            # Values are handed by name, beside the stack (model.StackItem.is_value).
            for item in effect.inputs:
                if not item.is_value:
                    continue
                if item.name not in given:
                    self.error(where, f"'{names[index]}' takes the value {item.spelling()}, "
                                      f"which no part before it gives")
                elif given[item.name][0].ctype != item.ctype:
                    self.error(where, f"'{names[index]}' takes the value {item.spelling()}, "
                                      f"but {names[given[item.name][1]]} gives "
                                      f"{given[item.name][0].spelling()}")
            for item in effect.outputs:
                if item.is_value:
                    if item.name in given and given[item.name][0].ctype != item.ctype:
                        self.error(where, f"'{names[index]}' gives the value "
                                          f"{item.spelling()}, but "
                                          f"{names[given[item.name][1]]} gives "
                                          f"{given[item.name][0].spelling()} (the case "
                                          f"declares one variable of each name)")
                    given[item.name] = (item, index)
            effect = effect.without_values()
            taken_items: list[model.StackItem] = []  # what each input is, bottom to top
            for item in reversed(effect.inputs):
                if stack:
                    top = stack.pop()
                    if top.shape() != item.shape():
                        self.error(where, f"'{names[index]}' takes {item.spelling()} but "
                                          f"the previous part leaves {top.spelling()}")
                    taken_items.insert(0, top)
                else:
                    inputs.insert(0, item)
                    taken_items.insert(0, item)
            # An item a part passes through (same name, or `unused`, in the same place) is
            # still the item it was given: LOAD_ATTR_MODULE = _LOAD_MODULE_ATTR (owner -- res)
            # + _LOAD_ATTR_HIT (unused -- unused) is (owner -- res).
            for out, k in zip(effect.outputs, effect.kept_inputs()):
                stack.append(taken_items[k] if k is not None else out)
        return model.StackEffect(inputs, stack, location)

    def check_numbers(self, instructions: list[model.Instruction]) -> None:
        seen: dict[int, model.Instruction] = {}
        for inst in instructions:
            if inst.number is None:
                continue  # reported already: a base instruction without a number
            where = inst.number_location or inst.location
            if not 0 <= inst.number < model.DO_TRACING:
                self.error(where, f"opcode {inst.number} of {inst.name} is out of range "
                                  f"(0-254; 255 is DO_TRACING)")
            elif inst.number in seen:
                self.error(where, f"opcode {inst.number} of {inst.name} is already used by "
                                  f"{seen[inst.number].name} ({seen[inst.number].location})",
                           notes=((seen[inst.number].number_location or seen[inst.number].location,
                                   f"{seen[inst.number].name} = {inst.number} here"),))
            else:
                seen[inst.number] = inst

    # -- families ------------------------------------------------------------------------

    def build_family(self, decl: ast.FamilyDecl,
                     by_name: dict[str, model.Instruction]) -> model.Family | None:
        generic = by_name.get(decl.name)
        if generic is None:
            self.error(decl.location, f"family '{decl.name}' is not named after an instruction")
            return None
        cache = None
        if decl.cache is not None:
            cache = self.caches.get(decl.cache.name)
            if cache is None:
                self.unknown_cache_families.add(decl.name)
                self.error(decl.cache.location, f"unknown cache '{decl.cache.name}'"
                                                f"{self.suggest(decl.cache.name, self.caches)}")
        if generic.family is not None:
            self.error(decl.location, f"'{decl.name}' already belongs to family {generic.family.name}")
            return None
        checked: list[tuple[model.Instruction, ast.Ref]] = []

        def take(ref: ast.Ref | None, role: str) -> model.Instruction | None:
            if ref is None:
                return None
            inst = by_name.get(ref.name)
            if inst is None:
                self.error(ref.location, f"unknown instruction '{ref.name}' in family {decl.name}"
                                         f"{self.suggest(ref.name, by_name)}")
                return None
            if inst is generic:
                self.error(ref.location, f"'{ref.name}' is the generic instruction of its family")
                return None
            if inst.family is not None:
                self.error(ref.location,
                           f"'{ref.name}' already belongs to family {inst.family.name}")
                return None
            inst.role = role
            checked.append((inst, ref))
            return inst

        family = model.Family(decl.name, generic, cache, take(decl.adaptive, "adaptive"),
                              take(decl.quick, "quick"))
        generic.family, generic.role = family, "generic"
        family.members.extend(filter(None, (take(ref, "member") for ref in decl.members)))
        for inst in family.specializations:
            inst.family = family
        for inst, ref in checked:
            self.check_member(family, inst, ref)
        if cache is not None and decl.adaptive is None:
            self.error(decl.location, f"family {decl.name} has a cache but no adaptive instruction")
        return family

    def link_member_parts(self, instructions: list[model.Instruction],
                          by_name: dict[str, model.Instruction]) -> None:
        """A superinstruction's last part may be a specialized member of a family, or one of
        several members of one family (model.Instruction.member_parts); no other part may be
        specialized, and no two superinstructions may be installed over the same instructions
        (quickening could install only one of them)."""
        installed: dict[tuple[str, ...], model.Instruction] = {}
        self.bad_member_parts: set[str] = set()  # reported here; not again with the guards
        for inst in instructions:
            if inst.kind != "super":
                continue
            last = len(inst.parts) - 1
            ok = True
            members = []
            for index, part in enumerate(inst.bodies):
                owner = by_name.get(part.name)
                at = min(index, last)
                if owner is None or not owner.is_specialized or owner.family is None:
                    if index > last:
                        self.error(inst.location,
                                   f"superinstruction {inst.name}: alternative {part.name} of "
                                   f"its last part is not a member of a family (alternatives "
                                   f"are the members the site may hold)")
                        ok = False
                    continue
                if at == last and at > 0 and owner.role == "member":
                    members.append(owner)
                    continue
                where = "its last part" if at == last else f"part {index + 1}"
                self.error(inst.location,
                           f"superinstruction {inst.name}: {where}, {part.name}, is a "
                           f"specialized instruction ({owner.role} of family "
                           f"{owner.family.name}); only the last part may be one, and only a "
                           f"member (quickening installs a superinstruction over generic "
                           f"instructions)")
                ok = False
            families = {m.family.name for m in members}
            if ok and inst.alternatives and (len(members) != len(inst.bodies) - last
                                            or len(families) != 1):
                self.error(inst.location,
                           f"superinstruction {inst.name}: the alternatives of its last part "
                           f"must be members of one family (here: "
                           f"{', '.join(sorted(families)) or 'none'})")
                ok = False
            if ok and len({m.name for m in members}) != len(members):
                self.error(inst.location, f"superinstruction {inst.name}: an alternative of "
                                          f"its last part is listed twice")
                ok = False
            if not ok:
                self.bad_member_parts.add(inst.name)
                continue
            inst.member_parts = tuple(members)
            key = inst.installed_over
            other = installed.setdefault(key, inst)
            if other is not inst:
                self.error(inst.location,
                           f"superinstruction {inst.name} is installed over the same "
                           f"instructions as {other.name} ({' + '.join(key)}): quickening "
                           f"would install only one of them",
                           notes=((other.location, f"{other.name} is defined here"),))

    def check_member(self, family: model.Family, inst: model.Instruction, ref: ast.Ref) -> None:
        generic = family.generic
        if inst.kind == "super":
            first = inst.parts[0]
            if first.name != generic.name:
                self.error(ref.location, f"superinstruction {inst.name} in family {family.name} "
                                         f"must start with {generic.name}, not {first.name}")
            return
        if inst.fuses:
            # A member that also executes the instructions after it (COMPARE_OP_INT_JUMP runs
            # the POP_JUMP after it) has the effect of the generic and those together.
            chain = [generic] + inst.fuses
            together = self.compose_effects([i.effect for i in chain], ref.location,
                                            [i.name for i in chain])
            fused = " + ".join(i.name for i in inst.fuses)
            if not self.narrows(inst, together):
                self.error(ref.location,
                           f"{inst.name} {inst.effect.spelling()} fuses {fused}, but "
                           f"{generic.name} then {fused} is {together.spelling()}")
        elif not self.narrows(inst, generic.effect):
            self.error(ref.location,
                       f"{inst.name} {inst.effect.spelling()} and {generic.name} "
                       f"{generic.effect.spelling()} disagree on the stack effect (a member "
                       f"that also executes the instruction after it says so with "
                       f"'fuses NAME' after its stack effect)")
        if inst.jump_effect is not None and generic.jump_effect is not None and \
                inst.jump_effect.shape() != generic.jump_effect.shape():
            self.error(ref.location, f"{inst.name} and {generic.name} disagree on the jump effect")
        if inst.jump_effect is not None and generic.jump_effect is None:
            self.error(ref.location, f"{inst.name} declares a jump effect but its generic "
                                     f"instruction {generic.name} does not")

    @staticmethod
    def narrows(inst: model.Instruction, general: model.StackEffect) -> bool:
        """Whether inst's effect is `general`, item for item, except that an array may have a
        constant size where `general` has an expression (PRECALL_NO_KW_STR_1 is
        `(method, callable, args[1] -- res)` in a family whose effect has `args[oparg]`):
        a specialization may know more. The generated case asserts the sizes agree."""
        mine, theirs = inst.effect, general
        if len(mine.inputs) != len(theirs.inputs) or len(mine.outputs) != len(theirs.outputs):
            return False
        narrowed: list[tuple[str, str]] = []
        for a, b in zip(mine.inputs + mine.outputs, theirs.inputs + theirs.outputs):
            if a.shape() == b.shape():
                continue
            if a.is_array and b.is_array and a.array_size.strip().isdigit() \
                    and not b.array_size.strip().isdigit():
                narrowed.append((b.array_size, a.array_size))
                continue
            return False
        inst.narrowed = sorted(set(narrowed))
        return True

    def assign_specialized_numbers(self, instructions: list[model.Instruction],
                                   families: list[model.Family], baseline) -> None:
        """Specialized instructions never reach a `.pyc` file, but dis and the stats tools
        number them by the opcodes the base instructions leave free, from 1 up, in the order of
        `_specialized_instructions`: they must fill those without a gap. The baseline's own
        keep its numbers; any other may be written with its number (`inst X = 183`,
        `adaptive: X_ADAPTIVE = 182;`); one written without takes the lowest opcode left, in
        the order families by name, then adaptive, quick and members as listed, so that a new
        member renumbers nothing as long as the others are written (`generator diff` says
        which numbers were derived)."""
        for inst in instructions:
            if inst.number is None and not inst.is_specialized and inst.name not in self.suspects:
                self.error(inst.location,
                           f"base instruction {inst.name} needs an opcode number ('{inst.name} = "
                           f"N'): base opcodes are stored in .pyc files; only the numbers of "
                           f"family members (adaptive, quick, specialized, superinstructions) "
                           f"are derived")
        base = {i.number for i in instructions if not i.is_specialized and i.number is not None}
        free = [n for n in range(1, model.DO_TRACING) if n not in base]
        specialized = [i for f in families for i in f.specializations]
        kept = baseline.specialized if baseline is not None and baseline.specialized else {}
        owner: dict[int, model.Instruction] = {}
        for inst in specialized:
            number = kept.get(inst.name)
            if number is not None and inst.number is not None and inst.number != number:
                self.error(inst.number_location,
                           f"{inst.name} is {baseline.title}'s, whose opcode is {number}, not "
                           f"{inst.number}; drop the number or write {number}")
            elif number is None and inst.number is not None:
                number = inst.number
                if number in base:
                    continue  # check_numbers reports the clash
                if not 0 < number < model.DO_TRACING:
                    self.error(inst.number_location, f"{inst.name} is written as opcode {number}, "
                                                     f"outside 1-{model.DO_TRACING - 1}")
                    continue
                if number in kept.values():
                    self.error(inst.number_location,
                               f"{inst.name} is written as opcode {number}, which is "
                               f"{baseline.title}'s "
                               f"{next(n for n, v in kept.items() if v == number)}")
                    continue
            if number is None or number in owner:
                continue  # in owner: check_numbers reports the clash
            owner[number] = inst
            inst.number = number
            inst.number_derived = inst.number_location is None
        # 3.11.2's own that are gone leave their opcodes to the others.
        left = iter(n for n in free if n not in owner)
        for inst in specialized:
            if inst.name in kept or inst.number_location is not None:
                continue
            derived = next(left, None)
            if derived is None:
                self.error(inst.location,
                           f"no opcode left for {inst.name}: {len(specialized)} specialized "
                           f"instructions need {len(specialized)} of the {len(free)} opcodes "
                           f"1-{model.DO_TRACING - 1} that base instructions leave free")
                return
            inst.number = derived
            inst.number_derived = True
            owner[derived] = inst
        # No gap: dis and summarize_stats number the specialized instructions by the free
        # opcodes in order.
        used = sorted(owner)
        if used and used != free[:len(used)]:
            gap = next(n for n in free if n not in owner)
            after = next(owner[n] for n in used if n > gap)
            self.error(after.number_location or after.location,
                       f"{after.name} is opcode {after.number}, but opcode {gap} is free: the "
                       f"specialized instructions fill the opcodes the base instructions leave "
                       f"free from 1 up, without a gap (dis numbers them so); write {gap}")

    def check_baseline(self, decl: ast.BaselineDecl,
                       instructions: list[model.Instruction]) -> None:
        """Base instructions are exactly the baseline's, by name and opcode."""
        baseline = BASELINES.get(decl.name)
        if baseline is None:
            self.error(decl.location, f"unknown baseline '{decl.name}'"
                                      f"{self.suggest(decl.name, BASELINES)} (known: "
                                      f"{', '.join(sorted(BASELINES))})")
            return
        upstream = baseline.base_opcodes
        upstream_names = {number: name for name, number in upstream.items()}
        defined: set[str] = set()
        for inst in instructions:
            if inst.is_specialized or inst.number is None:
                continue
            defined.add(inst.name)
            where = inst.number_location or inst.location
            if inst.name in upstream:
                if inst.number != upstream[inst.name]:
                    self.error(where, f"{inst.name} is opcode {upstream[inst.name]} in "
                                      f"{baseline.title}, not {inst.number} (base opcodes are "
                                      f"stored in .pyc files)")
            elif inst.number in upstream_names:
                self.error(inst.location,
                           f"base instruction {inst.name} is not in {baseline.title}, whose "
                           f"opcode {inst.number} is {upstream_names[inst.number]}"
                           f"{self.suggest(inst.name, upstream)}")
            else:
                self.error(inst.location,
                           f"base instruction {inst.name} is not in {baseline.title}"
                           f"{self.suggest(inst.name, upstream)}: a new instruction must be a "
                           f"member of a family (base opcodes are the .pyc format)")
        for name, number in sorted(upstream.items(), key=lambda kv: kv[1]):
            if name not in defined and name not in self.suspects:
                self.error(decl.location, f"{baseline.title}'s base instruction {name} "
                                          f"(opcode {number}) is not defined")

    # -- bodies in context ---------------------------------------------------------------

    def check_bodies(self, instructions: list[model.Instruction]) -> None:
        users: dict[str, list[tuple[model.Instruction, int]]] = {}
        for inst in instructions:
            for index, part in enumerate(inst.bodies):  # alternatives: at the last part
                users.setdefault(part.name, []).append((inst, min(index, len(inst.parts) - 1)))
        self._users = users  # which instructions use each op, and in which position
        by_name = {i.name: i for i in instructions}
        for name, op in self.operations.items():
            contexts = users.get(name, [])
            for site in op.body.reading.walk():
                if site.form is not None and site.form.name == "DISPATCH_GOTO":
                    base = next((i for i, _ in contexts if not i.is_specialized), None)
                    if base is not None:
                        self.error(site.location,
                                   f"DISPATCH_GOTO() in {base.name}, a base instruction, which "
                                   f"runs while tracing: it would go to an instruction that "
                                   f"dispatches without the tracing check (docs/dsl.md 4.7); "
                                   f"use DISPATCH_GOTO_TRACED()")
                if site.kind != dsl.GUARD:
                    continue
                for inst, index in contexts:
                    if inst.name in self.bad_member_parts:
                        continue
                    if not inst.is_specialized:
                        self.error(site.location, f"DEOPT_IF in {inst.name}, which is not a "
                                                  "specialized member of a family")
                        break
                    if index > 0 and not inst.symbolic_stack and \
                            not inst.unwritten_before(index) and \
                            inst.member_at(index, name) is None:
                        self.error(site.location,
                                   f"DEOPT_IF in part {index + 1} of {inst.name} would run after "
                                   f"earlier parts wrote the stack: only a composition of scalar "
                                   f"items whose parts neither move the stack nor leave "
                                   f"(model.Instruction.symbolic_stack), or whose parts before "
                                   f"the guard pass every item through (unwritten_before), keeps "
                                   f"it unwritten there")
                        break
                    owner = inst.part_owner(index, name)
                    family = owner.family
                    if owner.cache is None:
                        if family.name not in self.unknown_cache_families:
                            self.error(site.location,
                                       f"DEOPT_IF in {inst.name}, whose family {family.name} "
                                       f"has no inline cache: the miss path counts down the "
                                       f"counter in the first cache entry, which would be the "
                                       f"next instruction")
                        break  # (an unknown cache is reported with the family)
            handed = None  # the inputs an earlier part named, in every use of the op
            for inst, index in contexts:
                named = _named_before(inst, index) if inst.kind == "composed" else set()
                handed = named if handed is None else handed & named
            self.check_releases(name, op, handed or set())
            ends = op.body.reading.end_trailing
            for inst, index in contexts if ends and op.body.reading.falls_through else []:
                if inst.kind != "inst" and (index < len(inst.parts) - 1 or
                                            inst.member_at(index, name) is not None):
                    self.error(op.body.reading.tokens[ends[0].first].location,
                               f"{op.body.reading.tokens[ends[0].first].text}() ends {name}, "
                               f"part {index + 1} of {inst.name}: it runs after the "
                               f"instruction's end (past its inline cache, where the eval "
                               f"breaker's handler dispatches from), so only the last part of "
                               f"a composition may end with it")
                    break
            for move, after, what in _stack_move_problems(op.body.reading):
                head = op.body.reading.tokens[move.first]
                self.error(head.location,
                           f"{head.text} in the middle of {name}: after moving the stack itself a "
                           f"body must leave by an exit of its own (goto, return, "
                           f"JUMP_TO_INSTRUCTION...), but {what} follows, which moves the stack "
                           f"from where it was on entry",
                           notes=((after.location, "here"),) if after is not None else ())
            if contexts and any(s.kind == dsl.GUARD for s in op.body.reading.dsl_statements()):
                self.check_guards_come_first([op])
            for inst, index in contexts:
                cache = inst.part_owner(index, name).cache
                if op.body.uses_cache and cache is None:
                    if inst.family is not None and \
                            inst.family.name in self.unknown_cache_families:
                        continue  # reported with the family
                    self.error(op.body.reading.names["cache"].location,
                               f"the body of {name} uses 'cache' but {inst.name} has no inline "
                               "cache (its family declares none)")
                elif cache is not None:
                    self.check_cache_accesses(cache, op.body.reading)
                if inst.kind == "super" and inst.cache is not None:
                    self.error(inst.location, f"superinstruction {inst.name} cannot have an inline cache")
                owner = by_name.get(name)
                if inst.kind == "super" and index > 0 and owner is not None and owner.cache \
                        and not owner.is_specialized and inst.name not in self.bad_member_parts:
                    self.error(inst.location,
                               f"part {index + 1} of superinstruction {inst.name}, {name}, has "
                               f"an inline cache: after each part a superinstruction decodes "
                               f"the next code unit, which would be {name}'s cache")
                if "oparg" in op.body.reading.names and not inst.has_arg:
                    self.error(op.body.reading.names["oparg"].location,
                               f"{inst.name} uses oparg but takes no argument "
                               f"(opcode {inst.number} < HAVE_ARGUMENT {model.HAVE_ARGUMENT})")
                if not inst.has_arg:
                    for item in op.effect.inputs + op.effect.outputs:
                        text = (item.array_size or "") + " " + (item.condition or "")
                        if re.search(r"\boparg\b", text):
                            self.error(item.location,
                                       f"stack item '{item.spelling()}' of {inst.name} uses oparg "
                                       f"but the instruction takes no argument (opcode "
                                       f"{inst.number} < HAVE_ARGUMENT {model.HAVE_ARGUMENT})")
        for inst in instructions:
            if inst.kind == "composed" and len(inst.parts) > 1:
                self.check_guards_come_first(inst.parts, inst)
        for token in self.references:
            if token.text not in by_name:
                self.error(token.location, f"unknown instruction '{token.text}'"
                                           f"{self.suggest(token.text, by_name)}")

    def check_releases(self, name: str, op: model.Operation, handed: set[int]) -> None:
        """An input the instruction pops must be used (released, stored, handed on: by this
        body, or, in a composition, by an earlier part that named it, such as one that gave a
        value from it: `handed`, the input indexes), and a raw
        `goto error` or `goto exception_unwind` must not follow the release of an input without
        a stack move between them: the unwinder releases what is still on the stack, so the
        input would be released twice (ERROR_IF pops the inputs first)."""
        reading = op.body.reading
        # handed on to an output
        kept = {o.name for e in filter(None, [op.effect, op.jump_effect]) for o in e.outputs}
        pops = reading.brackets.problem is None and (  # else the reading is no guide
            op.body.completes or any(s.kind == dsl.ERROR for s in reading.dsl_statements()))
        for k, item in enumerate(op.effect.inputs if pops else []):
            if not item.is_unused and item.name not in reading.names and item.name not in kept \
                    and not item.is_array and not item.is_value and k not in handed:
                self.error(item.location,
                           f"input '{item.name}' of {name} is popped, but the body never uses "
                           f"it: its reference would leak (release it with Py_DECREF, or name "
                           f"it 'unused' if the slot holds no reference)")
        inputs = {i.name for i in op.effect.inputs if not i.is_unused}

        def raw_error_exit(stmt) -> bool:  # (pop_N_error pops first)
            label = model.error_goto_label(reading, stmt) if stmt.kind == dsl.EXIT else None
            return label is not None and not label.startswith("pop_")

        for change, goto in changes_before(reading.statements, raw_error_exit,
                                           stops=lambda c: c.kind == "stack"):
            if change.released in inputs:
                label = reading.tokens[goto.first + 1].text
                self.error(goto.location,
                           f"goto {label} after {name} released its input '{change.released}': "
                           f"the unwinder releases it again from the stack; pop it first "
                           f"(ERROR_IF(cond, {label}) pops the inputs, or STACK_SHRINK)",
                           notes=((change.token.location, "released here"),))

    def check_guards_come_first(self, parts: list[model.Operation],
                                inst: model.Instruction | None = None) -> None:
        """Nothing may change before a DEOPT_IF (statements.changes_before): its miss path runs
        the generic instruction again from the state on entry. Of a composition (`inst`): a
        guard in a later part, after what an earlier part changes (each part's own statements
        are checked with its operation)."""
        part_of: dict[int, int] = {}  # the part of every statement and change, by id
        for index, part in enumerate(parts):
            for s in part.body.reading.walk():
                part_of[id(s)] = index
                part_of.update((id(c), index) for c in s.changes)
        statements = [top for part in parts for top in part.body.statements]
        own = [_own_names(part) for part in parts]
        for change, guard in changes_before(statements, lambda s: s.kind == dsl.GUARD):
            first, later = part_of[id(change)], part_of[id(guard)]
            if change.kind == "name" and change.token.text in own[first]:
                continue  # a local of that part
            if inst is not None and first >= later:
                continue  # within a part: checked with its operation
            where = (f"in {parts[first].name}, part {first + 1} of {inst.name}, before a DEOPT_IF "
                     f"of part {later + 1}" if inst else f"before a DEOPT_IF in {parts[0].name}")
            self.error(change.token.location,
                       f"{change.describe()} {where}: a guard must come before anything that "
                       f"changes state (on a miss, the generic instruction runs again from the "
                       f"state on entry)",
                       notes=((guard.location, "the DEOPT_IF it precedes"),))

    def check_unreachable(self, decls: list[ast.Declaration], families: list[model.Family],
                          names: dict[str, ast.Declaration]) -> None:
        used_caches = {f.cache.name for f in families if f.cache}
        for cache in self.caches.values():
            if cache.name not in used_caches and cache.name not in self.suspects:
                self.error(cache.location, f"cache {cache.name} is not used by any family")
        for d in decls:
            if isinstance(d, ast.InstDecl) and d.kind == "op" and names.get(d.name) is d \
                    and d.name not in self._users and d.name not in self.suspects:
                self.error(d.location, f"operation {d.name} is not used by any instruction")


def _named_before(inst: model.Instruction, index: int) -> set[int]:
    """The inputs of part `index` of a composition (indexes in its effect) that a part before
    it names: the stack items matched from part to part as compose_effects matches them."""
    stack: list[bool] = []  # per item: named by a part so far
    for k, part in enumerate(inst.parts[:index + 1]):
        plain = part.effect.without_values()
        inputs = plain.inputs
        taken = stack[len(stack) - len(inputs):] if len(inputs) <= len(stack) else \
            [False] * (len(inputs) - len(stack)) + stack
        if k == index:
            real = [j for j, i in enumerate(part.effect.inputs) if not i.is_value]
            return {real[j] for j, named in enumerate(taken) if named}
        del stack[max(0, len(stack) - len(inputs)):]
        names = part.body.reading.names
        taken = [named or (not i.is_unused and i.name in names)
                 for named, i in zip(taken, inputs)]
        stack += [taken[at] if at is not None else False for at in plain.kept_inputs()]
    return set()


def _own_names(op: model.Operation) -> set[str]:
    """The names an operation's body may assign without changing state: its declarations and
    its stack items (the generated code declares those)."""
    return op.body.reading.declared | {item.name for e in filter(None, [op.effect, op.jump_effect])
                                       for item in e.inputs + e.outputs}
