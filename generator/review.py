"""`python3 -m generator diff`: what regenerating changes, grouped by instruction."""

from __future__ import annotations

import difflib
import re
import subprocess
from pathlib import Path

from .emitters import OUTPUTS

# A case starts with its doc comment (`// NAME: ...`) or its TARGET line, both at the cases'
# indentation (8 spaces); comments inside bodies are indented further.
# A checked copy (TRACED_TARGET) is reviewed with its instruction.
_CASE_START = re.compile(
    r"^ {8}(?:// (?P<doc>[A-Z0-9_]+):.*|(?:TRACED_)?TARGET(?:_NO_PREV_INSTR)?\((?P<target>[A-Z0-9_]+)\) \{)$")
_DOC_SECTION = re.compile(r"^### (?P<name>[A-Z0-9_]+)$")


def _split_cases(text: str) -> dict[str, list[str]]:
    """generated_cases.c.h -> {instruction: its lines (doc comment included)}."""
    chunks: dict[str, list[str]] = {}
    current = "(file header)"
    lines = text.splitlines()
    # The TARGET that follows each line: a `// NAME: ...` line starts a case only if it is
    # the doc comment of TARGET(NAME) (a doc text line may look like `// NOTE: ...`).
    next_target: list[str | None] = [None] * len(lines)
    following = None
    for i in range(len(lines) - 1, -1, -1):
        m = _CASE_START.match(lines[i])
        if m and m.group("target"):
            following = m.group("target")
        next_target[i] = following
    for i, line in enumerate(lines):
        m = _CASE_START.match(line)
        if m:
            name = m.group("target") or m.group("doc")
            if m.group("target") or (name == next_target[i] and name != current):
                current = name
        chunks.setdefault(current, []).append(line)
    return chunks


def _split_docs(text: str) -> dict[str, list[str]]:
    chunks: dict[str, list[str]] = {}
    current = "(introduction)"
    for line in text.splitlines():
        m = _DOC_SECTION.match(line)
        if m:
            current = m.group("name")
        chunks.setdefault(current, []).append(line)
    return chunks


def _diff(old: list[str], new: list[str], label: str) -> list[str]:
    return list(difflib.unified_diff(old, new, f"a/{label}", f"b/{label}", lineterm="", n=2))


def old_text(root: Path, rel: str, git_rev: str | None) -> str:
    if git_rev is None:
        path = root / rel
        return path.read_text(encoding="utf-8") if path.exists() else ""
    result = subprocess.run(["git", "-C", str(root), "show", f"{git_rev}:{rel}"],
                            capture_output=True, text=True)
    return result.stdout if result.returncode == 0 else ""


def _opcodes(targets_h: str) -> dict[str, int]:
    """opcode_targets.h -> {instruction: opcode}: the first table lists the targets by
    opcode (the second, DO_TRACING's, the same opcodes)."""
    first = targets_h.split("opcode_targets_traced")[0]
    targets = re.findall(r"^ {4}(?:&&TARGET_(\w+)|&&_unknown_opcode),?$", first, re.M)
    return {name: number for number, name in enumerate(targets) if name}


def _opcode_changes(old_targets: str, new_targets: str,
                    derived: frozenset[str] = frozenset()) -> list[str]:
    """Lines naming the instructions added, removed or renumbered, by new (or old) opcode."""
    old, new = _opcodes(old_targets), _opcodes(new_targets)
    changes = []
    for name in sorted(set(old) | set(new), key=lambda n: (new.get(n, old.get(n)), n)):
        if name not in old:
            note = (f"  (derived: write '{name} = {new[name]}' in, so that a later addition "
                    f"cannot move it)" if name in derived else "")
            changes.append(f"added:      {name} = {new[name]}{note}")
        elif name not in new:
            changes.append(f"removed:    {name} (was {old[name]})")
        elif old[name] != new[name]:
            changes.append(f"renumbered: {name} {old[name]} -> {new[name]}")
    return changes


def _layout(caches_h: str, opcode_h: str) -> dict[str, str]:
    """What the `.pyc` files of a build depend on: its magic number and cache tag, and the
    inline cache entries after each base instruction (`_PyOpcode_Caches`)."""
    facts = dict(re.findall(r"^#define (QUICKEN_PYC_MAGIC_NUMBER|QUICKEN_CACHE_TAG) (.*)$",
                            caches_h, re.M))
    table = opcode_h[opcode_h.find("_PyOpcode_Caches[256] = {"):]
    for name, entries in re.findall(r"^ {4}\[(\w+)\] = (\d+),$", table[:table.find("};")], re.M):
        facts[f"cache entries after {name}"] = entries
    return facts


def _layout_changes(old: dict[str, str], new: dict[str, str]) -> list[str]:
    lines = [f"{key}: {old.get(key, '(none)')} -> {new.get(key, '(none)')}"
             for key in sorted(set(old) | set(new)) if old.get(key) != new.get(key)]
    if lines:
        lines.append("(.pyc files of the old layout are not read by the new build: its cache tag "
                     "names other files)")
    return lines


# The specialize functions: a family's function starts with `// family NAME`, each member's
# block inside it with `    // MEMBER`.
_FAMILY_START = re.compile(r"^// family (?P<name>[A-Z0-9_]+)$")
_MEMBER_START = re.compile(r"^ {4}// (?P<name>[A-Z0-9_]+)$")


def _split_specializers(text: str) -> dict[str, list[str]]:
    """specialize_families.c.h -> {instruction: its lines}: a member's block (up to its
    `reject_` label) under the member, the rest of a function under its family."""
    chunks: dict[str, list[str]] = {}
    current = "(file header)"
    family = None
    for line in text.splitlines():
        family_start = _FAMILY_START.match(line)
        member_start = _MEMBER_START.match(line)
        if family_start:
            family = current = family_start.group("name")
        elif member_start and family is not None:
            current = member_start.group("name")
        elif family is not None and current != family and (
                line.startswith("    // ") or (line and not line[0].isspace()
                                              and not line.startswith("reject_"))):
            current = family  # `// otherwise`, the labels and the end of the function
        chunks.setdefault(current, []).append(line)
    return chunks


class BadRevision(Exception):
    pass


def check_revision(root: Path, git_rev: str) -> None:
    """Raise BadRevision unless `git_rev` names a commit of the repository at `root` (a file
    missing at a good revision is a new file; at a bad one, every file would look new)."""
    result = subprocess.run(["git", "-C", str(root), "rev-parse", "--verify", "--quiet",
                             f"{git_rev}^{{commit}}"], capture_output=True, text=True)
    if result.returncode != 0:
        raise BadRevision(f"'{git_rev}' is not a commit of the repository at {root}")


def review_diff(new_files: dict[str, str], root: Path, git_rev: str | None,
                derived: frozenset[str] = frozenset()) -> list[str]:
    """Report lines: what changes the code layout (magic number, cache tag, cache entries),
    then the opcodes that change, then per instruction for the cases, the specialize functions
    and the docs, per file for the rest. `derived`: the specialized instructions whose number
    the generator derived (not written in instructions/)."""
    if git_rev is not None:
        check_revision(root, git_rev)
    out: list[str] = []
    caches_h, opcode_h = OUTPUTS["caches_h"], OUTPUTS["pycore_opcode_h"]
    old_caches = old_text(root, caches_h, git_rev)
    if old_caches:
        layout = _layout_changes(_layout(old_caches, old_text(root, opcode_h, git_rev)),
                                 _layout(new_files[caches_h], new_files[opcode_h]))
        if layout:
            out.append("=== layout (.pyc format) ===")
            out.extend(layout)
    targets = OUTPUTS["targets"]
    old_targets = old_text(root, targets, git_rev)
    changes = _opcode_changes(old_targets, new_files[targets], derived) if old_targets else []
    if changes:
        out.append("=== opcodes ===")
        out.extend(changes)
    by_instruction: dict[str, list[str]] = {}
    for key, splitter in (("cases", _split_cases), ("specializers", _split_specializers),
                          ("docs", _split_docs)):
        rel = OUTPUTS[key]
        old = splitter(old_text(root, rel, git_rev))
        new = splitter(new_files[rel])
        for name in sorted(set(old) | set(new)):
            if old.get(name) != new.get(name):
                by_instruction.setdefault(name, []).extend(
                    _diff(old.get(name, []), new.get(name, []), rel))
    for name in sorted(by_instruction):
        out.append(f"=== {name} ===")
        out.extend(by_instruction[name])
    for key, rel in sorted(OUTPUTS.items(), key=lambda kv: kv[1]):
        if key in ("cases", "docs", "specializers"):
            continue
        old = old_text(root, rel, git_rev).splitlines()
        new = new_files[rel].splitlines()
        if old != new:
            out.append(f"=== {rel} ===")
            out.extend(_diff(old, new, rel))
    return out
