#!/usr/bin/env python3
"""Write the files `meson install` adds to what the build made, as upstream's Makefile does.

usage: make_install_files.py setup IN OUT MODULE...    Modules/Setup.{bootstrap,stdlib} from
                                                       their .in: what configure's config.status
                                                       does, for this build's modules
       make_install_files.py setup-local OUT           Modules/Setup.local (Makefile.pre.in)
       make_install_files.py script IN OUT INTERPRETER a script of Tools/scripts/ with its #!
                                                       line naming INTERPRETER (setup.py's
                                                       build_scripts: pydoc3.11, idle3.11, ...)

In Setup.*.in, configure replaces @MODULE_<NAME>_TRUE@ by nothing where module <name> is built
and by `#` where it is not, and @MODULE_BUILDTYPE@ by `shared` (the extension modules are shared
libraries; the bootstrap ones are built in, under their own *static* line).
"""
import re
import sys

from atomic_write import write_text_atomically

MARKER = re.compile(r"@MODULE_([A-Z0-9_]+)_TRUE@")


def make_setup(template: str, modules: list[str]) -> str:
    built = {name.upper() for name in modules}
    text = template.replace("@MODULE_BUILDTYPE@", "shared")
    text = MARKER.sub(lambda m: "" if m.group(1) in built else "#", text)
    leftover = re.search(r"@[A-Za-z_]+@", text)
    if leftover:
        raise SystemExit(f"make_install_files.py: unknown substitution {leftover.group(0)}")
    return text


def make_script(text: str, interpreter: str) -> str:
    first, newline, rest = text.partition("\n")
    if not first.startswith("#!") or "python" not in first:
        raise SystemExit(f"make_install_files.py: no python #! line: {first!r}")
    return f"#!{interpreter}{newline}{rest}"


def main(argv: list[str]) -> int:
    if len(argv) >= 3 and argv[0] == "setup":
        with open(argv[1], encoding="utf-8") as f:
            write_text_atomically(argv[2], make_setup(f.read(), argv[3:]))
    elif len(argv) == 2 and argv[0] == "setup-local":
        write_text_atomically(argv[1], "# Edit this file for local setup changes\n")
    elif len(argv) == 4 and argv[0] == "script":
        with open(argv[1], encoding="utf-8") as f:
            write_text_atomically(argv[2], make_script(f.read(), argv[3]))
    else:
        print(__doc__, file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
