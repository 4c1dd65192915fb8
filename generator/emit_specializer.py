"""The specialize functions of the families that declare `specialize` (specializer.py):
`int _PyQuicken_Specialize_<FAMILY>(instr, oparg, <the generic instruction's inputs>, <the
family's parameters>)` in specialize_families.c.h, which specialize.c includes at its end (so
that upstream's helpers there stay usable); each returns 0, or -1 with an exception set."""

from __future__ import annotations

from . import dsl, model, specializer
from .cwriter import BodyCopy
from .lexer import IDENT
from .specializer import failure_macro, function_name


def parameters(family: model.Family) -> list[str]:
    spec = family.specializer
    return (["_Py_CODEUNIT *instr", "int oparg"]
            + [f"PyObject {'**' if i.is_array else '*'}{i.name}" for i in spec.inputs]
            + [p.ctype + ("" if p.ctype.endswith("*") else " ") + p.name for p in spec.params])


def _kind(family: model.Family, tokens, body) -> str:
    """The failure kind expression with the family's kind names as their macros."""
    kinds = set(family.specializer.failures)
    text = body.source.text
    out = []
    for k, t in enumerate(tokens):
        if k:
            out.append(" " if text[tokens[k - 1].end:t.start].strip() == "" and
                       tokens[k - 1].end != t.start else "")
        out.append(failure_macro(family.name, t.text) if t.kind == IDENT and t.text in kinds
                   else t.text)
    return "".join(out)


def render_block(family: model.Family, block, reject: str | None) -> list[str]:
    """The C lines of a specializer block (a statements.Reading), its statements expanded as
    dsl.py says, dedented (the C writer, cwriter.py)."""
    body = block.source
    text = body.source.text
    expansion = dsl.Expansion(family=family.name, reject_label=reject or "",
                              kind_text=lambda tokens: _kind(family, tokens, body))
    copy = BodyCopy(body)
    for stmt in block.dsl_statements():
        start, end = block.span(stmt)
        tokens = [block.arg_tokens(stmt, k) for k in range(len(stmt.args))]
        lines = dsl.expand_specializer(stmt.kind, [specializer.token_text(body, t)
                                                   for t in tokens], tokens, expansion)
        # A comment after the statement goes before its expansion.
        line_end = text.find("\n", end)
        rest = text[end:line_end if line_end >= 0 else len(text)]
        if rest.strip().startswith("//") and len(lines) > 1:
            lines.insert(0, rest.strip())
            end += len(rest)
        copy.replace(start, end, lines)
    return copy.lines()


def _aliases(family: model.Family, member: model.Instruction) -> list[str]:
    """A member's own names for the generic inputs (`list` for `container`), when used."""
    mentioned = member.when.names | {t.text for fill in member.fills
                                     for t in fill.value_tokens if t.kind == IDENT}
    # A name the `when` declares itself (`PyObject *value = NULL;`) is its own, not an alias.
    declared = member.when.declared
    generic = {i.name for i in family.specializer.inputs}
    lines = []
    for mine, theirs in zip(member.effect.inputs, family.generic.effect.inputs):
        if mine.is_unused or theirs.is_unused or mine.name == theirs.name \
                or mine.name not in mentioned or mine.name in declared \
                or theirs.name not in generic:
            continue
        lines.append(f"PyObject {'**' if mine.is_array else '*'}{mine.name} = {theirs.name};")
    return lines


def _ends_in_failure(block) -> bool:
    """Whether a block's last statement is a FAIL or KEEP_GENERIC outside any braces."""
    return block is not None and bool(block.statements) and \
        block.statements[-1].kind in (dsl.FAIL, dsl.KEEP_GENERIC)


def emit_function(family: model.Family) -> list[str]:
    spec = family.specializer
    name = family.name
    lines = [f"// family {name}", "int"]
    params = parameters(family)
    head = f"{function_name(name)}("
    joined = head + ", ".join(params) + ")"
    if len(joined) > 96:  # one parameter a line, aligned after the parenthesis
        joined = head + (",\n" + " " * len(head)).join(params) + ")"
    lines += joined.split("\n") + ["{"]
    body = [f"{family.cache.name} *cache = ({family.cache.name} *)(instr + 1);",
            "#ifdef Py_STATS",
            f"int fail_kind = {failure_macro(name, 'OTHER')};",
            "#endif"]
    prologue = render_block(family, spec.prologue, None)
    if prologue:
        body += ["// specialize"] + prologue
    for member in spec.members:
        reject = f"reject_{member.name}"
        body += ["", f"// {member.name}", "{"]
        # What the member knows more (`values[2]` where the family has `values[oparg]`) is a
        # condition of its own.
        inner = _aliases(family, member)
        for general, constant in member.narrowed:
            inner += [f"if (({general}) != {constant}) {{", f"    goto {reject};", "}"]
        inner += [line for b in member.when.blocks for line in render_block(family, b, reject)]
        if member.fills:
            inner.append("// filled from its guards:")
            for fill in member.fills:
                inner.append(f"// DEOPT_IF({fill.guard_text})")
                inner += fill.statements(name)
        inner += [f"_Py_SET_OPCODE(*instr, {member.name});", "goto success;"]
        body += ["    " + line if line and not line.startswith("#") else line
                 for line in inner] + ["}"]
        if member.narrowed or any(s.kind == dsl.REJECT
                                  for s in member.when.dsl_statements()):
            body.append(f"{reject}: ;")
    body.append("")
    if spec.otherwise is not None:
        body += ["// otherwise"] + render_block(family, spec.otherwise, None)
    if not _ends_in_failure(spec.otherwise):
        body.append(f"FAIL_WITH({failure_macro(name, 'OTHER')});")
    lines += ["    " + line if line and not line.startswith("#") and not line.endswith(": ;")
              else line for line in body]
    blocks = [spec.prologue, spec.otherwise] + [b for m in spec.members for b in m.when.blocks]
    keeps_generic = any(s.kind == dsl.KEEP_GENERIC for b in blocks if b is not None
                        for s in b.dsl_statements())
    if keeps_generic:
        lines += [
            "#ifndef Py_STATS",
            "generic:",
            "    // No member can ever apply: the generic instruction stays, without a counter.",
            f"    _Py_SET_OPCODE(*instr, {name});",
            "    return 0;",
            "#endif",
        ]
    # Where the family's failures other than KEEP_GENERIC stand under #ifdef Py_STATS (its
    # `otherwise` counts why no member applies), other builds never reach `fail`.
    lines += [
        "fail: __attribute__((unused));" if keeps_generic else "fail:",
        f"    SPECIALIZATION_FAIL({name}, fail_kind);",
        f"    QUICKEN_SITE_FAILED(instr, {name}, fail_kind);  // Py_STATS: for explain",
        f"    STAT_INC({name}, failure);",
        "    assert(!PyErr_Occurred());",
        "    cache->counter = adaptive_counter_backoff(cache->counter);",
        "    return 0;",
        "success:",
        f"    STAT_INC({name}, success);",
        "    assert(!PyErr_Occurred());",
        "    cache->counter = miss_counter_start();",
        "    return 0;",
        "}",
    ]
    return lines


def emit_specializers(m: model.Model) -> dict:
    """The template's data: failure-kind macros and the functions."""
    families = [f for f in m.families if f.specializer is not None]
    return {
        "kinds": [[(failure_macro(f.name, k), n) for n, k in enumerate(f.specializer.failures)]
                  for f in families],
        "functions": ["\n".join(emit_function(f)) for f in families],
        "prototypes": [f"int {function_name(f.name)}({', '.join(parameters(f))});"
                       for f in families],
    }
