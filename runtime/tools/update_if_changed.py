#!/usr/bin/env python3
"""Run a generator into a temporary file; replace OUTPUT only if the content changed.

usage: update_if_changed.py OUTPUT COMMAND... (COMMAND's arguments name the output @TMP@)

Ninja re-runs a generator whenever one of its inputs is newer, e.g. every frozen module header
when _freeze_module is relinked after any core C file changed. The headers come out the same,
and Meson's custom commands are `restat`: an output whose timestamp did not move stops the
rebuild there, so _bootstrap_python, deepfreeze.c and libpython are not rebuilt for nothing.
A failing command leaves OUTPUT as it was and no temporary file behind.
"""
import os
import subprocess
import sys


def main(argv: list[str]) -> int:
    if len(argv) < 2 or "@TMP@" not in argv[1:]:
        print(__doc__, file=sys.stderr)
        return 2
    output = argv[0]
    tmp = output + ".tmp"
    command = [tmp if arg == "@TMP@" else arg for arg in argv[1:]]
    try:
        status = subprocess.call(command)
        if status != 0:
            return status
        with open(tmp, "rb") as f:
            new = f.read()
        try:
            with open(output, "rb") as f:
                unchanged = f.read() == new
        except FileNotFoundError:
            unchanged = False
        if not unchanged:
            os.replace(tmp, output)
        return 0
    finally:
        if os.path.exists(tmp):
            os.remove(tmp)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
