"""Command line: python3 -m generator [generate|check|stale|diff] [options].

    generate   (default) regenerate runtime/generated/ and docs/instructions.md
    check      lex, parse and analyse only; print diagnostics
    stale      exit 1 and name the files if the committed generated files are out of date
    lines DIR  write the instruction cases and the specialize functions with #line directives
               into instructions/ to DIR (what a build with -Dline_directives=true compiles)
    diff       show what `generate` would change: opcodes added, removed or renumbered, then
               the changes grouped by instruction; exit 1 if there are any, like
               `git diff --exit-code` (--git REV: compare with the files at a git revision)
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from .diagnostics import GeneratorError
from .driver import find_sources, load_model, write_files
from .emitters import generate, generate_with_lines
from .review import BadRevision, old_text, review_diff


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python3 -m generator", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("command", nargs="?", default="generate",
                        choices=["generate", "check", "stale", "diff", "lines"])
    parser.add_argument("output", nargs="?", type=Path, default=None,
                        help="lines: the folder to write to")
    parser.add_argument("--root", type=Path, default=Path(__file__).resolve().parent.parent,
                        help="project root (default: the checkout holding generator/)")
    parser.add_argument("--output-root", type=Path, default=None,
                        help="write generated files under this folder instead of --root")
    parser.add_argument("--max-errors", metavar="N", type=int, default=50,
                        help="show at most N diagnostics, in source order (default: 50)")
    parser.add_argument("--git", metavar="REV", default=None,
                        help="diff: compare with the generated files at this git revision")
    args = parser.parse_args(argv)
    if args.output is not None and args.command != "lines":
        parser.error(f"{args.command} takes no file argument '{args.output}'"
                     + (" (to compare with a git revision: diff --git REV)"
                        if args.command == "diff" else ""))
    if args.git is not None and args.command != "diff":
        parser.error("--git is an option of diff")
    if args.command == "lines" and args.output is None:
        parser.error("lines needs the folder to write to")
    root = args.root
    sources = find_sources(root)
    try:
        model = load_model(sources, root)
        if args.command == "check":
            print(f"{len(model.instructions)} instructions, {len(model.families)} families, "
                  f"{len(model.caches)} caches: no errors")
            return 0
        if args.command == "lines":
            write_files(generate_with_lines(model, root, args.output), args.output)
            return 0
        files = generate(model)
        derived = frozenset(i.name for i in model.specialized_instructions() if i.number_derived)
    except OSError as err:  # writing `lines` (nothing is half-written: write_files)
        print(f"error: cannot write {err.filename or args.output}: {err.strerror}; nothing was "
              f"written", file=sys.stderr)
        return 1
    except GeneratorError as err:
        shown = err.diagnostics[:max(args.max_errors, 1)]
        for d in shown:
            print(d.format(), file=sys.stderr)
        if err.total > len(shown):
            print(f"... and {err.total - len(shown)} more (--max-errors)", file=sys.stderr)
        print(f"{err.total} error(s); nothing was written", file=sys.stderr)
        return 2 if args.command == "diff" else 1  # diff: 1 means "there are changes"
    if args.command == "generate":
        try:
            changed = write_files(files, args.output_root or root)
        except OSError as err:
            print(f"error: cannot write {err.filename}: {err.strerror}; the files written before "
                  f"it were restored, nothing was changed", file=sys.stderr)
            return 1
        for rel in changed:
            print(f"wrote {rel}")
        if not changed:
            print("generated files are up to date")
        return 0
    if args.command == "stale":
        stale = [rel for rel, text in sorted(files.items()) if old_text(root, rel, None) != text]
        for rel in stale:
            print(f"stale: {rel} (run: meson compile -C build regen)")
        # The do-not-edit folder holds what the generator writes and nothing else.
        generated_dir = root / "runtime" / "generated"
        foreign = sorted(rel for rel in (path.relative_to(root).as_posix()
                                         for path in generated_dir.rglob("*") if path.is_file())
                         if rel not in files and "__pycache__" not in rel)
        for rel in foreign:
            print(f"stale: {rel} is not written by the generator "
                  f"(runtime/generated/ holds generated files only)")
        return 1 if stale or foreign else 0
    try:
        lines = review_diff(files, root, args.git, derived)
    except BadRevision as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    try:
        print("\n".join(lines) if lines else "no changes", flush=True)
    except BrokenPipeError:
        # `generator diff | head`: the reader has what it wanted. Keep the interpreter's
        # final flush from complaining about the closed pipe.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    return 1 if lines else 0  # like `git diff --exit-code`


if __name__ == "__main__":
    sys.exit(main())
