"""The code layout and the `.pyc` identity that follows from it.

The compiler writes base instructions (by opcode) and, after each, as many inline cache entries
as its family's cache has; marshal stores that code in `.pyc` files. Two interpreters can share
`.pyc` files only if they agree on that layout: every base instruction's opcode and cache size.
CPython says which layout a `.pyc` file has by its magic number (importlib's MAGIC_NUMBER) and
keeps the files of different interpreters apart by `sys.implementation.cache_tag`
(`__pycache__/mod.<tag>.pyc`).

So: while instructions/ keep the baseline's layout, the build uses the baseline's magic number
and cache tag (3495 and `cpython-311` for CPython 3.11.2) and shares `.pyc` files with it. Once
the layout differs (a family gives an instruction a cache, or resizes one), both are derived from
a fingerprint of the layout, deterministically:

    fingerprint  sha256 of the lines `NAME OPCODE CACHE_ENTRIES`, one per base instruction by
                 opcode (hex)
    magic        10000 + int(fingerprint[:8], 16) % 10000: never a number CPython 3 uses
                 (3000-3999) nor one of Python 1 and 2 (20121 and up)
    cache tag    quicken-311-<fingerprint[:8]> (no dot: importlib splits names at dots)

and such a build never reads or writes the baseline's `.pyc` files. runtime/ takes the values
from the generated pycore_code_caches.h: sysmodule.c's cache tag, importlib's MAGIC_NUMBER
(runtime/tools/set_pyc_magic.py) and the frozen importlib made from it.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from .baselines import Baseline
from .model import Model

MAGIC_BASE = 10000
MAGIC_SPAN = 10000


@dataclass(frozen=True)
class PycIdentity:
    fingerprint: str
    magic: int
    cache_tag: str
    baseline: Baseline | None  # the baseline whose .pyc files these are, or None


def layout(m: Model) -> list[tuple[str, int, int]]:
    """(name, opcode, cache entries) of every base instruction, by opcode."""
    return [(i.name, i.number, i.cache.size if i.cache else 0) for i in m.base_instructions()]


def baseline_layout(b: Baseline) -> list[tuple[str, int, int]]:
    return sorted(((name, number, b.caches.get(name, 0))
                   for name, number in b.base_opcodes.items()), key=lambda t: t[1])


def fingerprint(rows: list[tuple[str, int, int]]) -> str:
    text = "".join(f"{name} {number} {cache}\n" for name, number, cache in rows)
    return hashlib.sha256(text.encode()).hexdigest()


def pyc_identity(m: Model) -> PycIdentity:
    rows = layout(m)
    digest = fingerprint(rows)
    if m.baseline is not None and rows == baseline_layout(m.baseline):
        return PycIdentity(digest, m.baseline.magic, m.baseline.cache_tag, m.baseline)
    version = m.baseline.cache_tag.rsplit("-", 1)[-1] if m.baseline else "x"
    return PycIdentity(digest, MAGIC_BASE + int(digest[:8], 16) % MAGIC_SPAN,
                       f"quicken-{version}-{digest[:8]}", None)
