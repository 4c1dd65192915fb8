"""Runs a batch of fuzz programs inside one interpreter under test (any Python 3.11, stdlib only).

usage: PYTHON -I -S -B child.py BATCH.json

BATCH.json is a list of {"name": ..., "source": ...}. Starting an interpreter costs more than
running a small program, so one process runs many programs, each compiled and executed in a
fresh module namespace (`__name__ == "__main__"`, as a script run directly). For each program
one JSON line {"output": TEXT} goes to the real stdout, flushed at once, so that when the
process dies or hangs the parent knows which program was running: the first without a line.

TEXT is what the program printed, then how it ended ("ending: ok" or the uncaught exception's
type and message), then its final globals: built-in values by value, anything else by type
(and an object's own attributes, a class's attribute names), so that state a program changed
without printing it is compared too. Imported modules are described by name only. Nothing in
TEXT depends on addresses, paths or the interpreter's build.

Programs rebind builtins and lower the recursion limit on purpose; both are put back after
each program, before this file runs any code of its own that could see them.
"""

import builtins
import io
import json
import sys

PLAIN = (int, float, complex, str, bytes, bool, type(None))
MODULE = type(sys)
MAX_ITEMS = 16
MAX_DEPTH = 3
MAX_OUTPUT = 100_000

BUILTINS = vars(builtins)
PRISTINE_BUILTINS = dict(BUILTINS)
RECURSION_LIMIT = sys.getrecursionlimit()
REAL_STDOUT = sys.stdout
REAL_STDERR = sys.stderr


def restore_process():
    """Undo what a program may have changed in the process. Uses no builtins by name: a
    program may have deleted or replaced any of them."""
    BUILTINS.clear()
    BUILTINS.update(PRISTINE_BUILTINS)
    sys.setrecursionlimit(RECURSION_LIMIT)
    sys.stdout = REAL_STDOUT
    sys.stderr = REAL_STDERR


def describe(value, depth=0):
    """A deterministic text for a value left in a program's globals."""
    kind = type(value)
    if kind is int and value.bit_length() > 4096:
        return "int(%d bits)" % value.bit_length()
    if kind in PLAIN:
        return repr(value)
    if kind is dict and depth < MAX_DEPTH:
        shown = ["%s: %s" % (describe(key, depth + 1), describe(item, depth + 1))
                 for key, item in list(value.items())[:MAX_ITEMS]]
        return "{%s%s}" % (", ".join(shown), more(value))
    if kind in (list, tuple) and depth < MAX_DEPTH:
        shown = [describe(item, depth + 1) for item in value[:MAX_ITEMS]]
        return "%s[%s%s]" % (kind.__name__, ", ".join(shown), more(value))
    if isinstance(value, type):
        names = sorted(name for name in vars(value) if not name.startswith("__"))
        return "class %s(%s)" % (value.__name__, ", ".join(names))
    if kind is MODULE and value.__spec__ is not None:
        return "module " + value.__name__   # imported: its contents are the interpreter's
    try:
        attributes = object.__getattribute__(value, "__dict__")
    except Exception:
        return kind.__name__
    if type(attributes) is not dict or depth >= MAX_DEPTH:
        return kind.__name__
    return "%s%s" % (kind.__name__, describe(attributes, depth + 1))


def more(container):
    hidden = len(container) - MAX_ITEMS
    return ", ...%d more" % hidden if hidden > 0 else ""


def run_program(name, source):
    """Execute one program; return its result text."""
    captured = io.StringIO()
    namespace = {"__name__": "__main__", "__builtins__": builtins}
    sys.stdout = sys.stderr = captured
    try:
        try:
            exec(compile(source, name, "exec"), namespace)
        finally:
            restore_process()
        ending = "ok"
    except BaseException as error:  # the program's own exception, whatever it is
        ending = "%s: %s" % (type(error).__name__, safe_str(error))
    state = ["%s = %s" % (key, safe_describe(value)) for key, value in namespace.items()
             if not key.startswith("__")]
    text = "%s\nending: %s\n%s" % (captured.getvalue(), ending, "".join(line + "\n" for line in state))
    if len(text) > MAX_OUTPUT:
        text = text[:MAX_OUTPUT] + "\n...%d more characters\n" % (len(text) - MAX_OUTPUT)
    return text


def safe_str(error):
    try:
        return str(error)
    except Exception as inner:
        return "<str() raised %s>" % type(inner).__name__
    finally:
        restore_process()


def safe_describe(value):
    try:
        return describe(value)
    except Exception as error:
        return "<describe() raised %s>" % type(error).__name__
    finally:
        restore_process()


def main(batch_path):
    with open(batch_path, encoding="utf-8") as stream:
        programs = json.load(stream)
    for program in programs:
        text = run_program(program["name"], program["source"])
        REAL_STDOUT.write(json.dumps({"output": text}) + "\n")
        REAL_STDOUT.flush()


if __name__ == "__main__":
    main(sys.argv[1])
