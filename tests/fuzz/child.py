"""Runs a batch of fuzz programs inside one interpreter under test (any Python 3.11, stdlib only).

usage: PYTHON -s -S -B -P child.py BATCH.json      (environment: see execute.child_environment)

BATCH.json is a list of {"name": ..., "source": ...}. Starting an interpreter costs more than
running a small program, so one process runs many programs, each compiled and executed in a
fresh module namespace (`__name__ == "__main__"`, as a script run directly). For each program
one JSON line goes to the real stdout, flushed at once, so that when the process dies or hangs
the parent knows which program was running: the first without a line. The line is
{"output": TEXT}, or {"output": TEXT, "uncompared": WHY} when the final state could not be
described in full (the parent counts that as a failure, never as agreement).

TEXT is, in order:
  - what the program printed (its sys.stdout and sys.stderr, in one stream);
  - "ending: ok", or the uncaught exception's type and str();
  - its final globals, one "name = DESCRIPTION" line each (see Describer);
  - "printed at teardown:" and what finalizers printed while its namespace was cleared and the
    garbage collected, if anything;
  - "stderr:" and what reached file descriptor 2 while it ran or was torn down (the C level:
    unraisable exceptions after sys.stderr was restored, fatal errors, os.write(2, ...)), if
    anything.
A TEXT longer than MAX_OUTPUT characters is cut there and ends with the length and the SHA-256
of the whole, so that two texts that differ anywhere still differ.

Nothing in TEXT depends on addresses, paths or the interpreter's build, and describing the
globals runs no code of the program (no repr, str, __eq__, __hash__ or __getattribute__ of its
classes): it reads the objects through the built-in types' own methods.

Programs rebind builtins and lower the recursion limit on purpose; both are put back after
each program, before this file runs any code of its own that could see them. Exceptions that
cannot be raised (in __del__, say) are written by this file's sys.unraisablehook, to sys.stderr
as usual but without the object's repr, which the default hook writes with its address.
"""

import builtins
import gc
import hashlib
import io
import json
import os
import sys
import tempfile
import types

PLAIN = (int, float, complex, str, bytes, bool, type(None), type(Ellipsis), type(NotImplemented))
MODULE = type(sys)
LARGE_INT_BITS = 4096       # ints wider than this are shown in hex (str() refuses > 4300 digits)
MAX_OUTPUT = 100_000
MAX_OBJECTS = 1_000_000     # beyond, the state is "uncompared" (tuples nested as a DAG, say)

BUILTINS = vars(builtins)
PRISTINE_BUILTINS = dict(BUILTINS)
RECURSION_LIMIT = sys.getrecursionlimit()
REAL_STDOUT = sys.stdout
REAL_STDERR = sys.stderr

# The built-in types' own accessors, so that describing never runs a program's code (issubclass
# on the type, never isinstance, which may ask the object for its __class__).
TYPE_DICT = type.__dict__["__dict__"].__get__          # a class's namespace (a mappingproxy)
TYPE_MRO = type.__dict__["__mro__"].__get__
TYPE_NAME = type.__dict__["__name__"].__get__
TYPE_FLAGS = type.__dict__["__flags__"].__get__
HEAP_TYPE = 1 << 9                                     # Py_TPFLAGS_HEAPTYPE: made by a class statement
OBJECT_GETATTRIBUTE = object.__getattribute__
EXCEPTION_ARGS = BaseException.__dict__["args"].__get__
# A subclass of one of these is shown with its value as that type, got by the type's own method.
BASE_VALUE = ((int, int.__int__), (float, float.__float__), (complex, complex.__complex__),
              (str, str.__str__), (bytes, lambda value: bytes(memoryview(value))),
              (bytearray, lambda value: bytes(memoryview(value))))
# Containers whose subclasses are shown with their items, iterated by the base type's method.
BASE_ITEMS = ((list, list.__iter__), (tuple, tuple.__iter__), (set, set.__iter__),
              (frozenset, frozenset.__iter__))


def unraisable(info, str=str, type=type, Exception=Exception):
    """sys.unraisablehook: an exception nobody can catch (raised by __del__, say), told without
    the object's repr (the default hook's has an address) and without a traceback. It may run
    while a program has deleted builtins: the ones it needs are bound as defaults."""
    what = info.object
    if type(what) is types.FunctionType:
        what = "function " + what.__qualname__
    elif what is not None:
        what = TYPE_NAME(type(what)) + " object"
    try:
        message = str(info.exc_value)
    except Exception as inner:
        message = "<str() raised %s>" % TYPE_NAME(type(inner))
    sys.stderr.write("%s: %s\n%s: %s\n" % (info.err_msg or "Exception ignored in", what,
                                            TYPE_NAME(info.exc_type), message))


def restore_process():
    """Undo what a program may have changed in the process. Uses no builtins by name: a
    program may have deleted or replaced any of them."""
    BUILTINS.clear()
    BUILTINS.update(PRISTINE_BUILTINS)
    sys.setrecursionlimit(RECURSION_LIMIT)
    sys.stdout = REAL_STDOUT
    sys.stderr = REAL_STDERR
    sys.unraisablehook = unraisable


class Uncompared(Exception):
    """The final state cannot be described in full: the program's result must not count as an
    agreement (the parent reports it as a failure)."""


class Describer:
    """Deterministic texts for the values left in one program's globals, in full.

    - exact int, float, complex, str, bytes, bool, None, Ellipsis, NotImplemented: repr(); an
      int over LARGE_INT_BITS bits: its bit length and its full value in hex;
    - dict: every item in order; list, tuple: every item; set, frozenset: every item, sorted
      by description (so hash order does not matter); bytearray: its bytes; range, slice: their
      three values;
    - a class made by the program: its name and every attribute of its own namespace but the
      dunder ones, by value; a built-in class: its name;
    - a function: its qualified name, its code's if another, defaults and keyword defaults if
      any, its own attributes if any; a bound method: its function and object; staticmethod,
      classmethod: the function; property: its three functions;
    - a module that was imported: its name only (its contents are the interpreter's); a module
      made by the program: its namespace;
    - an exception: its type, args and own attributes;
    - any other object: its type's name, then if its type derives from one of the built-in
      types above its value as that type, then every slot of every class of its MRO (a slot
      never set shows as <unset>, one whose descriptor the class no longer holds as
      <shadowed>), then its own __dict__. Objects with none of these (generators, iterators,
      ...) are shown by type name only.

    Every object with contents but tuples and frozensets (whose identity is no state: the
    compiler shares equal constants, for one) is described once: a later reference to it is
    written "<same as PATH>", PATH being where it was described (`name[1]['key'].attr`), so
    that cycles end and shared mutable structures are described in linear time, the sharing
    compared too. The items of a set are described each on its own (what they share with each
    other is written out again), since which of them comes first depends on hash order. More
    than MAX_OBJECTS descriptions in one program (tuples nested as a DAG) make its state
    "uncompared", as does anything else that cannot be described (Uncompared).
    """

    def __init__(self):
        self.layers = [{}]      # id -> path of the first description of an object with contents
        self.alive = []         # keeps those objects alive, so that their ids stay theirs
        self.budget = MAX_OBJECTS

    def describe(self, value, path):
        kind = type(value)
        if kind in PLAIN:
            if kind is int and value.bit_length() > LARGE_INT_BITS:
                return "int(%d bits, %s)" % (value.bit_length(), hex(value))
            return repr(value)
        if kind is range:
            return "range(%s, %s, %s)" % tuple(self.describe(part, path)
                                                for part in (value.start, value.stop, value.step))
        if issubclass(kind, type) and not TYPE_FLAGS(value) & HEAP_TYPE:
            return "class %s" % TYPE_NAME(value)        # a built-in class: the interpreter's
        if kind is MODULE:
            namespace = OBJECT_GETATTRIBUTE(value, "__dict__")
            if namespace.get("__spec__") is not None:   # imported: its contents are the interpreter's
                return "module %s" % namespace.get("__name__")
        self.budget -= 1
        if self.budget < 0:
            raise Uncompared("more than %d objects to describe" % MAX_OBJECTS)
        if kind is not tuple and kind is not frozenset:   # immutable: their identity is not state
            for layer in self.layers:
                seen = layer.get(id(value))
                if seen is not None:
                    return "<same as %s>" % seen
            self.layers[-1][id(value)] = path
            self.alive.append(value)
        if issubclass(kind, type):
            return self.describe_class(value, path)
        if kind is dict:
            return self.describe_dict(value, path)
        if kind is list or kind is tuple:
            return "%s[%s]" % (kind.__name__, self.describe_items(value, path))
        if kind is set or kind is frozenset:
            return "%s{%s}" % (kind.__name__, self.describe_set(value, path))
        if kind is bytearray:
            return "bytearray(%r)" % bytes(memoryview(value))
        if kind is slice:
            return "slice(%s)" % self.describe_fields(value, path, ("start", "stop", "step"))
        if kind is types.FunctionType:
            return self.describe_function(value, path)
        if kind is types.MethodType:
            return "method(%s)" % self.describe_fields(value, path, ("__func__", "__self__"))
        if kind is staticmethod or kind is classmethod:
            return "%s(%s)" % (kind.__name__, self.describe_fields(value, path, ("__func__",)))
        if kind is property:
            return "property(%s)" % self.describe_fields(value, path, ("fget", "fset", "fdel"))
        return self.describe_object(value, kind, path)

    def describe_fields(self, value, path, names):
        return ", ".join(self.describe(OBJECT_GETATTRIBUTE(value, name), "%s.%s" % (path, name))
                         for name in names)

    def describe_items(self, items, path):
        return ", ".join(self.describe(item, "%s[%d]" % (path, index))
                         for index, item in enumerate(items))

    def describe_dict(self, mapping, path):
        shown = []
        for key, item in dict.items(mapping):
            key_text = self.describe(key, path + ".key")
            shown.append("%s: %s" % (key_text, self.describe(item, "%s[%s]" % (path, key_text))))
        return "{%s}" % ", ".join(shown)

    def describe_set(self, items, path):
        iterate = set.__iter__ if issubclass(type(items), set) else frozenset.__iter__
        shown = []
        for item in iterate(items):
            self.layers.append({})
            try:
                shown.append(self.describe(item, path + ".item"))
            finally:
                self.layers.pop()
        return ", ".join(sorted(shown))

    def describe_class(self, cls, path):
        shown = ["%s=%s" % (name, self.describe(item, "%s.%s" % (path, name)))
                 for name, item in TYPE_DICT(cls).items()
                 if not (name.startswith("__") and name.endswith("__"))]
        return "class %s(%s)" % (TYPE_NAME(cls), ", ".join(shown))

    def describe_function(self, function, path):
        parts = ["function %s" % function.__qualname__]
        code_name = function.__code__.co_qualname
        if code_name != function.__qualname__:
            parts.append("code %s" % code_name)
        if function.__defaults__ is not None:
            parts.append("defaults " + self.describe(function.__defaults__, path + ".__defaults__"))
        if function.__kwdefaults__ is not None:
            parts.append("kwdefaults " + self.describe(function.__kwdefaults__, path + ".__kwdefaults__"))
        attributes = OBJECT_GETATTRIBUTE(function, "__dict__")
        if attributes:
            parts.append(self.describe(attributes, path + ".__dict__"))
        return "(%s)" % ", ".join(parts)

    def describe_object(self, value, kind, path):
        text = TYPE_NAME(kind)
        if issubclass(kind, BaseException):
            text += "(args=%s)" % self.describe(EXCEPTION_ARGS(value), path + ".args")
        text += self.describe_base_value(value, kind, path)
        slots = self.describe_slots(value, kind, path)
        if slots:
            text += "<%s>" % slots
        try:
            attributes = OBJECT_GETATTRIBUTE(value, "__dict__")
        except AttributeError:
            return text
        if type(attributes) is not dict:
            raise Uncompared("the __dict__ of %s is a %s" % (path, type(attributes).__name__))
        return text + self.describe_dict(attributes, path)

    def describe_base_value(self, value, kind, path):
        """An instance of a subclass of a built-in type: its value as that type."""
        for base, convert in BASE_VALUE:
            if issubclass(kind, base):
                return "(%s)" % self.describe(convert(value), path)
        if issubclass(kind, dict):
            return "(%s)" % self.describe_dict(value, path)
        for base, iterate in BASE_ITEMS:
            if issubclass(kind, base):
                if base in (set, frozenset):
                    return "(%s{%s})" % (base.__name__, self.describe_set(value, path))
                return "(%s[%s])" % (base.__name__, self.describe_items(iterate(value), path))
        return ""

    def describe_slots(self, value, kind, path):
        """Every slot declared by a class of the object's MRO, most derived class first."""
        shown = []
        for cls in TYPE_MRO(kind):
            namespace = TYPE_DICT(cls)
            declared = namespace.get("__slots__", ())
            if type(declared) is str:
                declared = (declared,)
            elif type(declared) is dict:
                declared = tuple(declared)
            elif type(declared) not in (tuple, list):
                raise Uncompared("the __slots__ of %s is a %s" % (TYPE_NAME(cls), type(declared).__name__))
            for name in declared:
                if type(name) is not str or name in ("__dict__", "__weakref__"):
                    continue
                stored = name
                if name.startswith("__") and not name.endswith("__"):
                    stored = "_%s%s" % (TYPE_NAME(cls).lstrip("_"), name)
                descriptor = namespace.get(stored)
                if type(descriptor) is not types.MemberDescriptorType or descriptor.__objclass__ is not cls:
                    shown.append("%s=<shadowed>" % stored)
                    continue
                try:
                    item = descriptor.__get__(value, kind)
                except AttributeError:
                    shown.append("%s=<unset>" % stored)
                    continue
                shown.append("%s=%s" % (stored, self.describe(item, "%s.%s" % (path, stored))))
        return ", ".join(shown)


def describe_globals(namespace):
    """The "name = DESCRIPTION" lines of a program's final globals, and why they are not
    complete (None when they are)."""
    describer = Describer()
    lines = []
    for key, value in list(namespace.items()):
        if key.startswith("__"):
            continue
        try:
            lines.append("%s = %s" % (key, describer.describe(value, key)))
        except Uncompared as why:
            return lines, str(why)
        except RecursionError:
            return lines, "%s is nested too deeply to describe" % key
        except Exception as error:   # an oracle bug: never taken for an agreement
            return lines, "describing %s raised %s: %s" % (key, type(error).__name__, error)
    return lines, None


def run_program(name, source, stderr_capture):
    """Execute one program: (its result text, why its state is uncompared or None)."""
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
        ending = "%s: %s" % (TYPE_NAME(type(error)), safe_str(error, captured))
        error = None
    state, uncompared = describe_globals(namespace)
    restore_process()
    late = io.StringIO()
    sys.stdout = sys.stderr = late
    try:
        namespace.clear()
        namespace = None
        gc.collect()
    finally:
        restore_process()
    text = "%s\nending: %s\n%s" % (captured.getvalue(), ending, "".join(line + "\n" for line in state))
    if late.getvalue():
        text += "printed at teardown:\n" + ending_newline(late.getvalue())
    written = stderr_capture.read()
    if written:
        text += "stderr:\n" + ending_newline(written)
    return cap(text), uncompared


def ending_newline(text):
    return text if text.endswith("\n") else text + "\n(no newline at the end)\n"


def cap(text):
    """text, or its first MAX_OUTPUT characters, its length and the digest of the whole."""
    if len(text) <= MAX_OUTPUT:
        return text
    digest = hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()
    return text[:MAX_OUTPUT] + "\n...cut at %d of %d characters; sha256 of the whole: %s\n" % (
        MAX_OUTPUT, len(text), digest)


def safe_str(error, captured):
    """str(error), which may run the program's code: with its output captured."""
    sys.stdout = sys.stderr = captured
    try:
        return str(error)
    except Exception as inner:
        return "<str() raised %s>" % TYPE_NAME(type(inner))
    finally:
        restore_process()


class StderrCapture:
    """File descriptor 2 pointed at a temporary file, read program by program."""

    def __init__(self):
        self.file = tempfile.TemporaryFile(dir=".")     # the run's scratch folder
        self.offset = 0
        REAL_STDERR.flush()
        self.saved = os.dup(2)
        os.dup2(self.file.fileno(), 2)

    def read(self):
        """What reached descriptor 2 since the last read."""
        REAL_STDERR.flush()
        size = os.fstat(self.file.fileno()).st_size
        data = os.pread(self.file.fileno(), size - self.offset, self.offset)
        self.offset = size
        return data.decode("utf-8", "backslashreplace")

    def close(self):
        """Point descriptor 2 back at the parent's: what the process writes at exit is the
        parent's to compare."""
        REAL_STDERR.flush()
        os.dup2(self.saved, 2)
        os.close(self.saved)
        self.file.close()


def main(batch_path):
    with open(batch_path, encoding="utf-8") as stream:
        programs = json.load(stream)
    stderr_capture = StderrCapture()
    restore_process()
    try:
        for program in programs:
            text, uncompared = run_program(program["name"], program["source"], stderr_capture)
            result = {"output": text}
            if uncompared is not None:
                result["uncompared"] = uncompared
            REAL_STDOUT.write(json.dumps(result) + "\n")
            REAL_STDOUT.flush()
    finally:
        stderr_capture.close()


if __name__ == "__main__":
    main(sys.argv[1])
