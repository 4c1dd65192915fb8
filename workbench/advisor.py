"""The superinstruction advisor: from the pair counts of a statistics report (stats.json of
`python3 -m workbench stats`), candidate superinstructions ranked by the dispatches they would
save, printed as DSL declarations ready for instructions/.

A Py_STATS build counts, for each dispatched opcode, which opcode was dispatched next. A pair
(X, Y) of dispatches becomes one dispatch when a superinstruction covers the instructions of X
followed by those of Y: X's parts (one instruction, or a superinstruction's parts) then Y's.
So the candidate for the pair is parts(X) + parts(Y), and the dispatches it saves are at most
the pair's count (an upper bound: where runs overlap, quickening installs the longest, and a
jump into the middle of a run dispatches the rest on its own).

What quickening can fuse (runtime/patches/specialize.c.patch, docs/dsl.md 2.4): instructions
that quickening leaves as they are, that is base instructions without an adaptive or quick
form, and as the last part a member of a family (the superinstruction runs it while the site
holds it). Quickening installs one superinstruction over given instructions, so the members
that follow the same parts make one candidate whose last part is their alternatives (`A + (M1
| M2)`, by pairs, each with at least a tenth of the group's: a site holding a later one pays
a compare per earlier one). A pair involving an adaptive or quick form, or a member followed
by anything, has no candidate. Every
candidate printed has passed the generator's own analysis: the declarations appended to a copy
of instructions/ load without a diagnostic (part with an inline cache, a part that jumps...).
"""

import re
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path

from workbench import specstats

ROOT = Path(__file__).resolve().parent.parent
MAX_PARTS = 4


MIN_ALTERNATIVE = 0.1  # of its group's pairs, for a member to be an alternative


@dataclass
class Candidate:
    parts: tuple         # names; the last may be a tuple of alternatives (members)
    pairs: int           # dispatch pairs it would fuse (upper bound of dispatches saved)
    share: float         # of all dispatches
    rejected: str = ""   # the generator's diagnostic, if its analysis refuses the declaration
    generic: str = ""    # the alternatives' family, which names the candidate

    @property
    def name(self):
        return "__".join(p if isinstance(p, str) else self.generic for p in self.parts)

    @property
    def text(self):
        return " + ".join(p if isinstance(p, str) else "(%s)" % " | ".join(p)
                          for p in self.parts)

    def declaration(self, total_pairs_text=""):
        doc = " then ".join(p if isinstance(p, str) else " or ".join(p)
                            for p in self.parts) + ", in one dispatch."
        return "/// %s\nsuper %s : %s;" % (doc, self.name, self.text)


def load_instructions(root):
    """{name: Instruction} of the DSL model at root."""
    from generator.driver import find_sources, load_model
    model = load_model(find_sources(root), root)
    return {inst.name: inst for inst in model.instructions}


def fusable_parts(instructions):
    """{dispatched opcode name: its instructions as a superinstruction part list}, for what
    quickening can fuse: base instructions without adaptive or quick forms, and the existing
    superinstructions (their parts)."""
    parts = {}
    for name, inst in instructions.items():
        if inst.kind == "super":
            if not inst.member_parts:  # a member part must stay the last
                parts[name] = tuple(part.name for part in inst.parts)
        elif not inst.is_specialized:
            family = inst.family
            if family is not None and (family.adaptive is not None or family.quick is not None):
                continue
            parts[name] = (name,)
    return parts


def rank(data, instructions, limit=None):
    """Candidates from a statistics file's pairs, most dispatches saved first."""
    names = specstats.Names(data["tables"])
    counts = specstats.total(data["workloads"])
    dispatches = sum(n for _, n in specstats.instruction_mix(counts, names))
    parts = fusable_parts(instructions)
    supers = [inst for inst in instructions.values() if inst.kind == "super"]
    existing = {tuple(p.name for p in inst.parts) for inst in supers}
    taken = {inst.installed_over for inst in supers if inst.member_parts}
    members = {name: inst.family.generic.name for name, inst in instructions.items()
               if inst.role == "member" and inst.kind != "super"}
    pairs = {}
    for first, second, count in specstats.pairs(counts, names):
        if first not in parts or (second not in parts and second not in members):
            continue
        candidate = parts[first] + parts.get(second, (second,))
        if len(candidate) > MAX_PARTS or candidate in existing:
            continue
        pairs[candidate] = pairs.get(candidate, 0) + count
    # the members after the same parts: one candidate, their alternatives (quickening
    # installs one superinstruction there)
    groups = {}
    for candidate, n in sorted(pairs.items(), key=lambda item: (-item[1], item[0])):
        if candidate[-1] in members:
            del pairs[candidate]
            installed = candidate[:-1] + (members[candidate[-1]],)
            if installed not in taken:
                groups.setdefault(installed, []).append((candidate[-1], n))
    generic = {}
    for installed, group in groups.items():
        total = sum(n for _, n in group)
        alternatives = tuple(m for m, n in group if n >= MIN_ALTERNATIVE * total)
        last = alternatives if len(alternatives) > 1 else alternatives[0]
        candidate = installed[:-1] + (last,)
        pairs[candidate] = sum(n for m, n in group if m in alternatives)
        generic[candidate] = installed[-1]
    ranked = sorted(pairs.items(), key=lambda item: (-item[1], str(item[0])))
    result = [Candidate(c, n, n / dispatches if dispatches else 0.0,
                        generic=generic.get(c, "")) for c, n in ranked]
    return result[:limit] if limit else result


FAMILY = re.compile(r"^family\s+(\w+)\s*\{", re.MULTILINE)
MEMBERS = re.compile(r"members\s*:\s*([^;]*);")


def add_to_sources(folder, candidates):
    """Edits the .inst files in `folder` as an author would: each candidate declared at the end,
    and listed in the `members:` of its first part's family (the family is created if the
    instruction has none). Returns {candidate name: how its family changed}."""
    texts = {path: path.read_text(encoding="utf-8") for path in sorted(folder.glob("*.inst"))}
    extra = []
    changes = {}
    for candidate in candidates:
        first = candidate.parts[0]
        for path, text in texts.items():
            match = next((m for m in FAMILY.finditer(text) if m.group(1) == first), None)
            if match is None:
                continue
            end = text.index("\n}", match.end())
            block = text[match.end():end]
            members = MEMBERS.search(block)
            if members:
                listed = [name.strip() for name in members.group(1).split(",") if name.strip()]
                block = block[:members.start()] + "members: %s;" % ", ".join(listed + [candidate.name]) \
                    + block[members.end():]
            else:
                block = "\n    members: %s;" % candidate.name + block
            texts[path] = text[:match.end()] + block + text[end:]
            changes[candidate.name] = "added to the members of family %s (%s)" % (first, path.name)
            break
        else:
            extra.append("family %s {\n    members: %s;\n}" % (first, candidate.name))
            changes[candidate.name] = "in a new family %s" % first
        extra.append(candidate.declaration())
    for path, text in texts.items():
        path.write_text(text, encoding="utf-8")
    (folder / "zz_advisor.inst").write_text("\n\n".join(extra) + "\n", encoding="utf-8")
    return changes


def analyse(root, candidates):
    """The generator's first diagnostic for instructions/ at root with the candidates added,
    or "" when it accepts them."""
    from generator.diagnostics import GeneratorError
    from generator.driver import find_sources, load_model
    with tempfile.TemporaryDirectory(prefix="quicken-advisor-") as scratch:
        scratch = Path(scratch)
        shutil.copytree(root / "instructions", scratch / "instructions")
        add_to_sources(scratch / "instructions", candidates)
        try:
            load_model(find_sources(scratch), scratch)
        except GeneratorError as error:
            messages = [d.format().splitlines()[0] for d in error.diagnostics]
            # a refused declaration also makes its family's member list name an unknown
            # instruction: report the cause
            follow_ons = ["unknown instruction '%s'" % c.name for c in candidates]
            causes = [m for m in messages if not any(f in m for f in follow_ons)]
            return (causes or messages)[0]
    return ""


def check_with_generator(candidates, root=ROOT):
    """Marks each candidate the generator's analysis refuses, with its diagnostic: each checked
    alone, added to a copy of instructions/ as an author would add it."""
    for candidate in candidates:
        candidate.rejected = analyse(root, [candidate])
    return candidates


def render(candidates, top, root=ROOT):
    """The ranked table and the declarations of the `top` accepted candidates (checked together
    too: the set must also be accepted as a whole)."""
    lines = ["| rank | candidate | dispatch pairs fused | share of dispatches | generator |",
             "|---:|---|---:|---:|---|"]
    for rank_number, candidate in enumerate(candidates, 1):
        verdict = "ok" if not candidate.rejected else "refused: " + candidate.rejected.split(": ", 2)[-1]
        lines.append("| %d | `%s` | %s | %.2f%% | %s |" % (
            rank_number, candidate.text.replace("|", "\\|"), "{:,}".format(candidate.pairs),
            100 * candidate.share, verdict.replace("|", "\\|")))
    accepted = [c for c in candidates if not c.rejected][:top]
    together = analyse(root, accepted) if accepted else ""
    with tempfile.TemporaryDirectory(prefix="quicken-advisor-") as scratch:
        shutil.copytree(root / "instructions", Path(scratch) / "instructions")
        changes = add_to_sources(Path(scratch) / "instructions", accepted)
    lines += ["", "Declarations for instructions/ (the best %d the generator accepts%s):" % (
        len(accepted), "; together it refuses them: " + together if together else ", alone and together"),
        "", "```"]
    for candidate in accepted:
        lines.append("// %s" % changes[candidate.name])
        lines.append(candidate.declaration())
        lines.append("")
    if accepted:
        lines.pop()
    lines.append("```")
    return "\n".join(lines)
