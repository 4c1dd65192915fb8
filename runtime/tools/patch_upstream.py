#!/usr/bin/env python3
"""Make the build's patched copies of upstream files (the upstream tree is never edited).

    patch_upstream.py file SRC OUT [--patch P]... [--instruction-cases NAME]
    patch_upstream.py tree SRCDIR OUTDIR --stamp STAMP [--patch FILE=P]... [--replace FILE=NEW]... FILE...

`file`: OUT = SRC with the unified diffs P applied (with `patch`); --instruction-cases replaces
ceval.c's hand-written instruction cases (from `TARGET(NOP)` up to the tracing case) by
`#include "NAME"`, after checking that nothing but TARGET cases and comments is removed.
`tree`: copies the FILEs of SRCDIR into OUTDIR, patching or replacing the named ones, so that a
header included from its own directory (`#include "pycore_code.h"` in pycore_interp.h) finds
the patched copy too. Outputs are rewritten only when their content changes (Meson's custom
commands are restat), so an unchanged header does not recompile its includers.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile

CASES_START = "        TARGET(NOP) {\n"
CASES_END = "#if USE_COMPUTED_GOTOS\n        TARGET_DO_TRACING:\n"


def fail(message: str) -> None:
    print(f"patch_upstream.py: error: {message}", file=sys.stderr)
    sys.exit(1)


def apply_patch(text: str, patch: str, name: str) -> str:
    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(tmp, "src")
        out = os.path.join(tmp, "out")
        with open(src, "w", encoding="utf-8") as f:
            f.write(text)
        result = subprocess.run(
            ["patch", "--silent", "--force", "--no-backup-if-mismatch", "-F0", "-o", out, src,
             patch], capture_output=True, text=True)
        if result.returncode != 0:
            fail(f"{patch} does not apply to {name}:\n{result.stdout}{result.stderr}")
        with open(out, encoding="utf-8") as f:
            return f.read()


def replace_instruction_cases(text: str, include: str, name: str) -> str:
    start = text.find(CASES_START)
    end = text.find(CASES_END)
    if start < 0 or end < start or text.count(CASES_START) != 1:
        fail(f"cannot find the instruction cases in {name}")
    region = text[start:end]
    # Remove each TARGET(...) { ... } block; what remains must be comments and blank lines.
    rest = []
    pos = 0
    for m in re.finditer(r"^        TARGET\((\w+)\) \{\n", region, re.M):
        rest.append(region[pos:m.start()])
        depth, i = 1, m.end()
        while depth and i < len(region):
            depth += {"{": 1, "}": -1}.get(region[i], 0)
            i += 1
        pos = i
    rest.append(region[pos:])
    leftover = re.sub(r"/\*.*?\*/|//[^\n]*", "", "".join(rest), flags=re.S).strip()
    if leftover:
        fail(f"{name}: non-instruction code between the cases would be lost: {leftover[:200]!r}")
    return text[:start] + f'#include "{include}"  // quicken: generated from instructions/\n\n' \
        + text[end:]


def write_if_changed(path: str, text: str) -> None:
    if os.path.exists(path):
        with open(path, encoding="utf-8") as f:
            if f.read() == text:
                return
    os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(text)
    os.replace(tmp, path)


def main() -> None:
    parser = argparse.ArgumentParser()
    sub = parser.add_subparsers(dest="mode", required=True)
    f = sub.add_parser("file")
    f.add_argument("src")
    f.add_argument("out")
    f.add_argument("--patch", action="append", default=[])
    f.add_argument("--instruction-cases")
    t = sub.add_parser("tree")
    t.add_argument("srcdir")
    t.add_argument("outdir")
    t.add_argument("--stamp", required=True)
    t.add_argument("--patch", action="append", default=[])
    t.add_argument("--replace", action="append", default=[])
    t.add_argument("files", nargs="+")
    args = parser.parse_args()
    if args.mode == "file":
        with open(args.src, encoding="utf-8") as fh:
            text = fh.read()
        for p in args.patch:
            text = apply_patch(text, p, args.src)
        if args.instruction_cases:
            text = replace_instruction_cases(text, args.instruction_cases, args.src)
        write_if_changed(args.out, text)
        return
    patches = dict(item.split("=", 1) for item in args.patch)
    replaces = dict(item.split("=", 1) for item in args.replace)
    for name in list(patches) + list(replaces):
        if name not in [os.path.basename(x) for x in args.files]:
            fail(f"{name} is not one of the files copied from {args.srcdir}")
    for path in args.files:
        name = os.path.basename(path)
        src = replaces.get(name, os.path.join(args.srcdir, name))
        with open(src, encoding="utf-8") as fh:
            text = fh.read()
        if name in patches:
            text = apply_patch(text, patches[name], name)
        write_if_changed(os.path.join(args.outdir, name), text)
    with open(args.stamp, "w", encoding="utf-8") as fh:
        fh.write("\n".join(sorted(os.path.basename(x) for x in args.files)) + "\n")


if __name__ == "__main__":
    main()
