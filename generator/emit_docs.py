"""Emitter: docs/instructions.md, the generated instruction reference."""

from __future__ import annotations

import os

from .model import Model


class _DocInst:
    def __init__(self, inst, root: str):
        self.name = inst.name
        self.number = inst.number
        self.effect = inst.effect.spelling()
        self.jump_effect = inst.jump_effect.spelling() if inst.jump_effect else None
        self.compiler_effect = inst.compiler_effect.spelling() if inst.compiler_effect else None
        self.fuses = " + ".join(i.name for i in inst.fuses) if inst.fuses else None
        self.flags = ", ".join(sorted(f for f in inst.flags if f != "arg"))
        self.family = inst.family.name if inst.family else None
        self.role = inst.role
        self.cache = (", ".join(f"{name}: {size}" for name, size in inst.cache.entries)
                      if inst.cache else None)
        self.parts = (" + ".join(p.name for p in inst.parts) if inst.kind != "inst" else None)
        if self.parts and inst.kind == "super":
            self.parts += " (superinstruction)"
        self.doc = inst.doc
        self.file = os.path.relpath(inst.location.file, root) if os.path.isabs(
            inst.location.file) else inst.location.file


class _DocFamily:
    def __init__(self, family):
        self.name = family.name
        self.cache = family.cache
        self.adaptive = family.adaptive
        others = ([family.quick] if family.quick else []) + list(family.members)
        self.others = ", ".join(f"`{i.name}`" for i in others)


def emit_docs(m: Model) -> dict:
    """The data of the reference's template (instructions.md.j2)."""
    root = os.getcwd()
    instructions = [_DocInst(i, root) for i in sorted(m.instructions, key=lambda i: i.name)]
    return dict(
        instructions=instructions,
        families=[_DocFamily(f) for f in m.families],
        base_count=len(m.base_instructions()),
        specialized_count=len(m.specialized_instructions()),
        family_count=len(m.families),
    )
