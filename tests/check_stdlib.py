"""Run by the built, uninstalled interpreter: is its standard library the one this build means?

    python check_stdlib.py UPSTREAM_LIB EXPECTED_OPCODE_PY

Every module comes from upstream's Lib (UPSTREAM_LIB) except `opcode`, which must be
EXPECTED_OPCODE_PY: upstream's own for `-Dinterpreter=stock`, runtime/generated/Lib/opcode.py
for `generated` (through the build folder's view of the tree, runtime/tools/make_source_view.py).
Exit status 1 with one line per problem, else 0.
"""
import os
import sys


def main(upstream_lib, expected_opcode):
    import dis
    import json
    import opcode
    problems = []

    def same_file(module, expected):
        if os.path.realpath(module.__file__) != os.path.realpath(expected):
            problems.append("%s comes from %s (resolves to %s), expected %s" % (
                module.__name__, module.__file__, os.path.realpath(module.__file__), expected))

    same_file(opcode, expected_opcode)
    same_file(dis, os.path.join(upstream_lib, "dis.py"))  # upstream's dis, reading that opcode
    same_file(os, os.path.join(upstream_lib, "os.py"))
    same_file(json, os.path.join(upstream_lib, "json", "__init__.py"))
    seen = set(os.listdir(sys._stdlib_dir)) - {"__pycache__"}
    upstream = set(os.listdir(upstream_lib)) - {"__pycache__"}
    if seen != upstream:
        problems.append("the standard library folder %s differs from upstream's: missing %s, extra %s"
                        % (sys._stdlib_dir, sorted(upstream - seen), sorted(seen - upstream)))
    for problem in problems:
        print("check_stdlib: " + problem, file=sys.stderr)
    if not problems:
        print("ok: opcode from %s, %d entries in %s" % (opcode.__file__, len(seen), sys._stdlib_dir))
    return 1 if problems else 0


if __name__ == "__main__":
    if len(sys.argv) != 3:
        print(__doc__.strip().splitlines()[2].strip(), file=sys.stderr)
        sys.exit(2)
    sys.exit(main(*sys.argv[1:]))
