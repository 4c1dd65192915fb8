"""The machine code of each instruction case, read from a built interpreter.

`python3 -m workbench cases --python gen=build/python --python stock=build-stock/python`
finds, in each interpreter's executable, the evaluation loop's dispatch table (`opcode_targets`,
read from the symbol table and, in a position-independent executable, its relocations) and
the loop's machine code (`_PyEval_EvalFrameDefault` and its `.cold` part, disassembled with
binutils' objdump), and measures every case from the label its opcode dispatches to:

- `path`: the machine instructions on the case's hot path: from the label, every direct `jmp`
  followed, up to the next indirect jump (the dispatch to the next instruction) or a return;
  at a conditional branch the side a workload took more often. With a workload (`--bench`,
  `--script`) each interpreter runs it under callgrind (`--dump-instr=yes`), which counts the
  executions of every machine instruction; the case's executions are its label's. Without
  one, the fall-through side is taken: a reading of the layout only, which is wrong wherever
  gcc laid a guard's miss out as the fall-through (it does, in stock's LOAD_GLOBAL_MODULE);
- `calls` and `branches`: the calls and conditional branches on that path;
- `bytes`: the code from the label to the next label in address order (the case's own block,
  without what it shares with others or moved to the cold part).

Cases are matched by opcode name (each interpreter's own `dis._all_opname`), so a
specialized instruction of the generated interpreter sits beside stock's of the same name and
cases only one interpreter has are shown with a dash for the other. With a workload, each
case also gets its executions in each interpreter, and the table is sorted by the first
interpreter's executions x path: where the machine instructions of the dispatch paths go.

Needs an executable with its symbol table (the builds of this project keep it; Debian's
/usr/bin/python3.11 is stripped) for x86-64 ELF.
"""

from __future__ import annotations

import json
import os
import re
import struct
import subprocess
import tempfile
from dataclasses import dataclass, field

TABLE_SYMBOL = re.compile(r"^opcode_targets(\.[\w.]+)?$")
LOOP_SYMBOL = re.compile(r"^_PyEval_EvalFrameDefault(\.[\w.]+)?$")
PREFIXES = {"notrack", "bnd", "rep", "repz", "repe", "repnz", "repne", "lock", "cs", "ds",
            "data16", "addr32"}
PATH_LIMIT = 2000


class CasesError(Exception):
    pass


# --- the executable: sections, symbols, the dispatch table ------------------------------------

@dataclass
class Section:
    name: str
    kind: int
    address: int
    offset: int
    size: int
    link: int


class Elf:
    """The parts of an x86-64 ELF executable the reading needs."""

    def __init__(self, path: str):
        self.path = path
        with open(path, "rb") as f:
            self.data = f.read()
        if self.data[:4] != b"\x7fELF" or self.data[4] != 2 or self.data[5] != 1:
            raise CasesError(f"{path}: not a 64-bit little-endian ELF file")
        shoff, = struct.unpack_from("<Q", self.data, 0x28)
        shentsize, shnum, shstrndx = struct.unpack_from("<HHH", self.data, 0x3A)
        raw = []
        for k in range(shnum):
            raw.append(struct.unpack_from("<IIQQQQII", self.data, shoff + k * shentsize))
        names = raw[shstrndx]
        self.sections = [Section(self._string(names[4], r[0]), r[1], r[3], r[4], r[5], r[6])
                         for r in raw]

    def _string(self, table_offset: int, index: int) -> str:
        end = self.data.index(b"\0", table_offset + index)
        return self.data[table_offset + index:end].decode("utf-8", "replace")

    def symbols(self) -> list[tuple[str, int, int]]:
        """(name, address, size) of every defined symbol of the symbol table."""
        table = next((s for s in self.sections if s.kind == 2), None)  # SHT_SYMTAB
        if table is None:
            raise CasesError(f"{self.path}: no symbol table (a stripped executable)")
        strings = self.sections[table.link]
        result = []
        for k in range(table.size // 24):
            name, info, other, shndx, value, size = struct.unpack_from(
                "<IBBHQQ", self.data, table.offset + k * 24)
            if shndx != 0 and value:
                result.append((self._string(strings.offset, name), value, size))
        return result

    def pointers(self, address: int, count: int) -> list[int]:
        """`count` pointers stored at `address`, as the loader leaves them: a relative
        relocation's addend where one applies (a position-independent executable)."""
        relocated = {}
        for s in self.sections:
            if s.kind != 4:  # SHT_RELA
                continue
            for k in range(s.size // 24):
                where, info, addend = struct.unpack_from("<QQq", self.data, s.offset + k * 24)
                if address <= where < address + 8 * count and info & 0xFFFFFFFF == 8:
                    relocated[where] = addend  # R_X86_64_RELATIVE
        home = next((s for s in self.sections if s.kind != 8 and s.address
                     and s.address <= address < s.address + s.size), None)
        if home is None:
            raise CasesError(f"{self.path}: no section holds address {address:#x}")
        values = []
        for k in range(count):
            where = address + 8 * k
            stored, = struct.unpack_from("<Q", self.data, home.offset + where - home.address)
            values.append(relocated.get(where, stored))
        return values


# --- the loop's machine code ------------------------------------------------------------------

@dataclass
class Insn:
    address: int
    mnemonic: str
    operands: str
    text: str

    @property
    def target(self) -> int | None:
        """A direct branch's or call's target address."""
        m = re.match(r"([0-9a-f]+)\b", self.operands)
        return int(m.group(1), 16) if m and not self.operands.startswith("*") else None


LINE = re.compile(r"^\s*([0-9a-f]+):\s+(.*?)\s*$")


def parse_listing(text: str) -> list[Insn]:
    """objdump -d --no-show-raw-insn output -> instructions in address order."""
    insns = []
    for line in text.splitlines():
        m = LINE.match(line)
        if not m:
            continue
        words = m.group(2).split(None, 1)
        if not words or words[0].startswith("("):
            continue
        mnemonic, rest = words[0], words[1] if len(words) > 1 else ""
        while mnemonic in PREFIXES and rest:  # `notrack jmp *%rax`, `rep stos ...`
            more = rest.split(None, 1)
            if more[0] in PREFIXES or mnemonic in ("notrack", "bnd"):
                mnemonic, rest = more[0], more[1] if len(more) > 1 else ""
            else:
                break
        insns.append(Insn(int(m.group(1), 16), mnemonic, rest.split("#")[0].strip(),
                          m.group(2)))
    return insns


def disassemble(path: str, ranges: list[tuple[int, int]]) -> list[Insn]:
    insns = []
    for start, stop in ranges:
        try:
            out = subprocess.run(["objdump", "-d", "--no-show-raw-insn", "-w",
                                  f"--start-address={start:#x}", f"--stop-address={stop:#x}", path],
                                 capture_output=True, text=True, check=True).stdout
        except FileNotFoundError:
            raise CasesError("objdump is not installed (Debian package binutils)") from None
        except subprocess.CalledProcessError as error:
            raise CasesError(f"objdump failed on {path}: {error.stderr.strip()}") from None
        insns.extend(parse_listing(out))
    return sorted(insns, key=lambda i: i.address)


@dataclass
class CasePath:
    insns: list[Insn] = field(default_factory=list)
    end: str = ""  # dispatch | return | leaves | loop | limit | trap

    @property
    def calls(self) -> int:
        return sum(1 for i in self.insns if i.mnemonic.startswith("call"))

    @property
    def branches(self) -> int:
        return sum(1 for i in self.insns if i.mnemonic.startswith("j") and i.mnemonic != "jmp")


def hot_path(code: dict[int, int], insns: list[Insn], start: int,
             counts: dict[int, int] | None = None) -> CasePath:
    """The instructions from `start` to the first indirect jump or return, direct jumps
    followed; at a conditional branch the successor executed more often (`counts`: executions
    by address), the fall-through one on a tie or without counts. `code` maps an address to
    its index in `insns`."""
    counts = counts or {}
    path = CasePath()
    seen = set()
    k = code.get(start)
    while True:
        if k is None or k >= len(insns):
            path.end = "leaves"
            return path
        insn = insns[k]
        if insn.address in seen:
            path.end = "loop"
            return path
        if len(path.insns) >= PATH_LIMIT:
            path.end = "limit"
            return path
        seen.add(insn.address)
        path.insns.append(insn)
        if insn.mnemonic == "jmp":
            if insn.target is None:
                path.end = "dispatch"
                return path
            k = code.get(insn.target)
            continue
        if insn.mnemonic.startswith("ret"):
            path.end = "return"
            return path
        if insn.mnemonic in ("ud2", "hlt"):
            path.end = "trap"
            return path
        if insn.mnemonic.startswith("j") and insn.target is not None and k + 1 < len(insns):
            if counts.get(insn.target, 0) > counts.get(insns[k + 1].address, 0):
                k = code.get(insn.target)
                continue
        k += 1


# --- one interpreter's cases ------------------------------------------------------------------

@dataclass
class Case:
    name: str
    opcode: int
    address: int
    path: CasePath
    size: int
    shared: bool  # another opcode dispatches to the same label
    executions: int | None = None  # with a workload: how often its label ran


CALLGRIND = ("valgrind", "--tool=callgrind", "--dump-instr=yes", "--dump-line=no",
             "--compress-pos=no", "--compress-strings=no")


def profile(python: str, command: list[str], loop: int) -> dict[int, int]:
    """Executions of each machine instruction of the evaluation loop while `python` runs
    `command` (argv after the interpreter), by the address in the executable."""
    from benchmarks import measure
    with tempfile.TemporaryDirectory(prefix="workbench-cases-") as scratch:
        out = os.path.join(scratch, "callgrind.out")
        run = subprocess.run([*CALLGRIND, "--callgrind-out-file=" + out,
                              "--log-file=" + os.path.join(scratch, "log"), python, *command],
                             env=measure.child_environment(), capture_output=True, text=True)
        if run.returncode != 0 or not os.path.exists(out):
            raise CasesError(f"{python} {' '.join(command)} failed under callgrind "
                             f"(exit {run.returncode}): {run.stderr.strip()[-500:]}")
        with open(out, encoding="utf-8", errors="replace") as f:
            return loop_costs(f, loop)


def _level(name: str) -> str:
    """A function's name without callgrind's recursion level (`f'2`: f called inside f)."""
    return re.sub(r"'\d+$", "", name.strip())


def loop_costs(lines, loop: int) -> dict[int, int]:
    """The self cost (Ir) by address of `_PyEval_EvalFrameDefault*` in a callgrind profile
    written with --dump-instr=yes --compress-pos=no --compress-strings=no, the addresses moved
    to the executable's (`loop`: the function's address there; callgrind's are where the
    executable was loaded, which the calls into the function show)."""
    costs: dict[int, int] = {}
    inside = skip_next = False
    callee = None
    entry = None
    for line in lines:
        if line.startswith("fn="):
            inside = LOOP_SYMBOL.match(_level(line[3:])) is not None
        elif line.startswith("cfn="):
            callee = _level(line[4:])
        elif line.startswith("calls="):
            skip_next = True  # the next cost line is the call's inclusive cost
            if callee == "_PyEval_EvalFrameDefault" and entry is None:
                entry = int(line.split()[1], 16)
        elif line[:2] == "0x":
            if skip_next:
                skip_next = False
            elif inside:
                address, ir = line.split()[:2]
                costs[int(address, 16)] = costs.get(int(address, 16), 0) + int(ir)
    if entry is None:
        raise CasesError("the profile shows no call of _PyEval_EvalFrameDefault")
    return {address - entry + loop: n for address, n in costs.items()}


def opcode_names(python: str) -> list[str]:
    try:
        out = subprocess.run([python, "-I", "-S", "-c",
                              "import dis, json; print(json.dumps(dis._all_opname))"],
                             capture_output=True, text=True, timeout=60)
    except OSError as error:
        raise CasesError(f"{python}: {error.strerror}") from None
    if out.returncode != 0:
        raise CasesError(f"{python} could not name its opcodes: {out.stderr.strip()[-300:]}")
    return json.loads(out.stdout)


def read_cases(python: str, workloads: list[list[str]] = ()) -> dict[str, Case]:
    """Every named opcode's case in the interpreter `python`, by name; with workloads (each the
    arguments `python` runs, under callgrind), the hot paths they took and the executions."""
    elf = Elf(python)
    symbols = elf.symbols()
    tables = [s for s in symbols if TABLE_SYMBOL.match(s[0])]
    if len(tables) != 1:
        raise CasesError(f"{python}: expected one dispatch table symbol opcode_targets, found "
                         f"{[s[0] for s in tables] or 'none'} (an interpreter built without "
                         f"computed gotos has none)")
    targets = elf.pointers(tables[0][1], 256)
    addresses = sorted({a for _, a, _ in symbols})
    ranges = []
    for name, address, size in symbols:
        if LOOP_SYMBOL.match(name):
            if not size:  # gcc's .cold parts may carry no size: to the next symbol
                size = next((a for a in addresses if a > address), address) - address
            ranges.append((address, address + size))
    if not ranges:
        raise CasesError(f"{python}: no _PyEval_EvalFrameDefault in the symbol table")
    insns = disassemble(python, sorted(ranges))
    code = {insn.address: k for k, insn in enumerate(insns)}
    labels = sorted(set(targets))
    names = opcode_names(python)
    loop = next(a for n, a, _ in symbols if n == "_PyEval_EvalFrameDefault")
    counts: dict[int, int] = {}
    for command in workloads:
        for address, n in profile(python, command, loop).items():
            counts[address] = counts.get(address, 0) + n
    cases = {}
    for opcode, target in enumerate(targets):
        name = names[opcode] if opcode < len(names) else f"<{opcode}>"
        if name.startswith("<") or target not in code:
            continue
        later = [a for a in labels if a > target]
        end = next((hi for lo, hi in ranges if lo <= target < hi), target)
        size = min(later[0], end) - target if later else end - target
        cases[name] = Case(name, opcode, target, hot_path(code, insns, target, counts), size,
                           targets.count(target) > 1,
                           counts.get(target, 0) if workloads else None)
    return cases


# --- the report -------------------------------------------------------------------------------

def render(interpreters: list[tuple[str, dict[str, Case]]], only: list[str] | None = None,
           ) -> str:
    first_name, first = interpreters[0]
    names = list(first)
    for _, cases in interpreters[1:]:
        names += [n for n in cases if n not in first]
    if only:
        names = [n for n in names if n in only]

    profiled = any(c.executions is not None for c in first.values())

    def weight(name):
        case = first.get(name)
        return case.executions * len(case.path.insns) if case and case.executions else 0

    if profiled:
        names.sort(key=lambda n: (-weight(n), n))
    else:
        names.sort(key=lambda n: (first[n].opcode if n in first else 256, n))
    head = ["opcode"] + ([f"{first_name}: executions x path"] if profiled else [])
    for label, _ in interpreters:
        head += [f"{label}: path", "calls", "branches", "bytes"]
        head += ["executions"] if profiled else []
    for label, _ in interpreters[1:]:
        head.append(f"path {first_name} - {label}")
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for name in names:
        row = [name + (" (shared)" if name in first and first[name].shared else "")]
        if profiled:
            row.append(f"{weight(name):,}")
        for _, cases in interpreters:
            case = cases.get(name)
            row += ([f"{len(case.path.insns)}" + ("" if case.path.end == "dispatch"
                                                  else f" ({case.path.end})"),
                     str(case.path.calls), str(case.path.branches), str(case.size)]
                    if case else ["-"] * 4)
            if profiled:
                row.append(f"{case.executions:,}" if case and case.executions is not None
                           else "-")
        for _, cases in interpreters[1:]:
            a, b = first.get(name), cases.get(name)
            row.append(f"{len(a.path.insns) - len(b.path.insns):+d}" if a and b else "-")
        lines.append("| " + " | ".join(row) + " |")
    how = ("the side the workload took more often at each branch" if profiled
           else "the fall-through side at each branch (no workload: a reading of the layout)")
    out = [f"Instruction cases: machine instructions on each case's path to its dispatch, "
           f"{how} (docs/workbench.md).", ""] + lines
    for label, cases in interpreters[1:]:
        common = [n for n in names if n in first and n in cases]
        if profiled:
            common = [n for n in common if first[n].executions or cases[n].executions]
        longer = [n for n in common if len(first[n].path.insns) > len(cases[n].path.insns)]
        shorter = [n for n in common if len(first[n].path.insns) < len(cases[n].path.insns)]
        out += ["", f"{first_name} against {label}: {len(common)} cases in both"
                    f"{' that the workload ran' if profiled else ''}, {len(longer)} longer in "
                    f"{first_name}, {len(shorter)} shorter, "
                    f"{len(common) - len(longer) - len(shorter)} the same length."]
    if profiled:
        out.append("")
        for label, cases in interpreters:
            ran = [c for c in cases.values() if c.executions]
            out.append(f"{label}: {len(ran)} cases ran, {sum(c.executions for c in ran):,} "
                       f"dispatches, {sum(c.executions * len(c.path.insns) for c in ran):,} "
                       f"instructions on their paths (executions x path).")
    return "\n".join(out) + "\n"


def render_paths(interpreters: list[tuple[str, dict[str, Case]]], name: str) -> str:
    """The fall-through path of case `name` in each interpreter, instruction by instruction."""
    out = []
    for label, cases in interpreters:
        case = cases.get(name)
        if case is None:
            out += [f"{label}: no case {name}", ""]
            continue
        out.append(f"{label}: {name} (opcode {case.opcode}) at {case.address:#x}: "
                   f"{len(case.path.insns)} instructions, ends: {case.path.end}")
        out += [f"    {i.address:x}:  {i.mnemonic} {i.operands}".rstrip() for i in case.path.insns]
        out.append("")
    return "\n".join(out)
