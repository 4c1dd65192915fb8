"""Run by the built, uninstalled interpreter: is its standard library the one this build means?

    python check_stdlib.py UPSTREAM_LIB EXPECTED_OPCODE_PY [LIB_PATH=FILE ...]

Every module comes from upstream's Lib (UPSTREAM_LIB) except `opcode`, which must be
EXPECTED_OPCODE_PY: upstream's own for `-Dinterpreter=stock`, runtime/generated/Lib/opcode.py
for `generated` (through the build folder's view of the tree, runtime/tools/make_source_view.py),
and the files the build makes from upstream's for `generated` (LIB_PATH=FILE: Lib/dis.py,
Lib/importlib/_bootstrap_external.py, runtime/meson.build's lib_overrides).
Exit status 1 with one line per problem, else 0.
"""
import os
import sys


def main(upstream_lib, expected_opcode, *overrides):
    import dis
    import importlib.util
    import json
    import opcode
    problems = []
    made = dict(o.split("=", 1) for o in overrides)

    def same_file(module, expected):
        if os.path.realpath(module.__file__) != os.path.realpath(expected):
            problems.append("%s comes from %s (resolves to %s), expected %s" % (
                module.__name__, module.__file__, os.path.realpath(module.__file__), expected))

    same_file(opcode, expected_opcode)
    # upstream's dis (or the build's copy of it), reading that opcode
    same_file(dis, made.get("Lib/dis.py", os.path.join(upstream_lib, "dis.py")))
    source = made.get("Lib/importlib/_bootstrap_external.py",
                      os.path.join(upstream_lib, "importlib", "_bootstrap_external.py"))
    namespace = {}
    with open(source, encoding="utf-8") as f:
        for line in f:
            if line.startswith("MAGIC_NUMBER = "):
                exec(line, namespace)
    if namespace.get("MAGIC_NUMBER") != importlib.util.MAGIC_NUMBER:
        problems.append("importlib.util.MAGIC_NUMBER is %r, %s says %r" % (
            importlib.util.MAGIC_NUMBER, source, namespace.get("MAGIC_NUMBER")))
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
    if len(sys.argv) < 3 or any("=" not in a for a in sys.argv[3:]):
        print(__doc__.strip().splitlines()[2].strip(), file=sys.stderr)
        sys.exit(2)
    sys.exit(main(*sys.argv[1:]))
