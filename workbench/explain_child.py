"""Runs inside the interpreter being explained (`python3 -m workbench explain`).

usage: explain_child.py OUT.json FILE [--call EXPR] [--repeat N] [--function NAME]

Runs FILE (as __main__, or, with --call, as a module named __explain__ followed by EXPR evaluated
N times in its namespace), then writes to OUT.json what the interpreter made of the code objects
FILE defined: each instruction's current form (dis.get_instructions(adaptive=True)), its inline
cache as raw code units, and what the running interpreter can tell about the values in it
(the types whose version tag a cache holds, the objects a cached pointer is). The host side
(workbench/explain.py) decodes the cache with the layout of the build (its opcode._cache_format,
generated from instructions/) and renders the report. Standard library only: this runs on any
3.11 interpreter.
"""

import dis
import gc
import json
import opcode
import os
import runpy
import sys
import traceback
import types

FORMAT = 1


def parse(argv):
    out, path = argv[0], argv[1]
    options = {"call": None, "repeat": 1, "function": None}
    rest = argv[2:]
    while rest:
        flag, value, rest = rest[0], rest[1], rest[2:]
        options[flag.lstrip("-")] = int(value) if flag == "--repeat" else value
    return out, path, options


def code_objects(namespace, path):
    """The code objects defined in the file: functions and classes of its namespace (methods,
    static and class methods, properties), and the code nested in theirs; in definition order."""
    seen, found = set(), []

    def add_code(code, qualname):
        if id(code) in seen or code.co_filename != path:
            return
        seen.add(id(code))
        found.append((qualname, code))
        for const in code.co_consts:
            if isinstance(const, types.CodeType):
                add_code(const, qualname + "." + const.co_name if const.co_name != "<lambda>"
                         else qualname + ".<lambda>")

    def visit(value, depth=0):
        if isinstance(value, (staticmethod, classmethod)):
            value = value.__func__
        if isinstance(value, property):
            for accessor in (value.fget, value.fset, value.fdel):
                if accessor is not None:
                    visit(accessor, depth)
            return
        if isinstance(value, types.FunctionType):
            add_code(value.__code__, value.__qualname__)
        elif isinstance(value, type) and depth < 8 and id(value) not in seen:
            seen.add(id(value))
            for member in list(vars(value).values()):
                visit(member, depth + 1)

    for value in list(namespace.values()):
        visit(value)
    return found


def type_versions():
    """{version tag: type name} of every type with one (a walk of object's subclasses)."""
    try:
        from _testcapi import type_get_version
    except ImportError:
        return {}
    versions, stack, seen = {}, [object, type], set()
    while stack:
        cls = stack.pop()
        if id(cls) in seen:
            continue
        seen.add(id(cls))
        try:
            version = type_get_version(cls)
        except Exception:
            version = 0
        if version:
            versions[version] = "%s.%s" % (cls.__module__, cls.__qualname__) \
                if cls.__module__ not in ("builtins", None) else cls.__qualname__
        try:
            stack.extend(type.__subclasses__(cls))
        except TypeError:
            pass
    return versions


def field_values(codes, width):
    """The values of the WIDTH-unit cache fields of every instruction (opcode._cache_format)."""
    values = set()
    for record in codes:
        for entry in record["instructions"]:
            position = 0
            for size in opcode._cache_format.get(entry["base"], {}).values():
                if size == width:
                    value = 0
                    for k in range(size):
                        value |= entry["caches"][position + k] << (16 * k)
                    values.add(value)
                position += size
    return values


def object_names(pointers):
    """{address: name} of the attributes of types (functions, descriptors) among POINTERS."""
    names = {}
    if not pointers:
        return names
    for cls in gc.get_objects() + [int, float, str, list, tuple, dict, set, object, type]:
        if isinstance(cls, type):
            for name, value in list(vars(cls).items()):
                if id(value) in pointers:
                    names.setdefault(id(value), "%s.%s" % (cls.__qualname__, name))
    return names


def explain_code(qualname, code, failures):
    units = code._co_code_adaptive
    quickened = any(units[i] != code.co_code[i] for i in range(0, len(units), 2))
    entries, line = [], code.co_firstlineno
    for ins in dis.get_instructions(code, adaptive=True):
        if ins.starts_line is not None:
            line = ins.starts_line
        if ins.opname == "CACHE":
            continue
        base = dis.deoptmap.get(ins.opname, ins.opname) if hasattr(dis, "deoptmap") else ins.opname
        count = opcode._inline_cache_entries[opcode.opmap[base]] if base in opcode.opmap else 0
        start = ins.offset + 2
        caches = [int.from_bytes(units[start + 2 * k:start + 2 * k + 2], sys.byteorder)
                  for k in range(count)]
        entry = {"offset": ins.offset, "line": line, "opname": ins.opname, "base": base,
                 "arg": ins.arg, "argrepr": ins.argrepr, "caches": caches}
        if ins.offset in failures:
            entry["failure"] = failures[ins.offset]
        entries.append(entry)
    return {"qualname": qualname, "name": code.co_name, "filename": code.co_filename,
            "firstlineno": code.co_firstlineno, "quickened": quickened, "instructions": entries}


def run_program(path, options):
    """Run FILE as `python FILE` would (its folder first on sys.path, so that its own modules
    import), or as a module and then --call; the namespace it leaves."""
    sys.argv = [path]
    sys.path[0] = os.path.dirname(path)
    if options["call"] is None:
        return runpy.run_path(path, run_name="__main__")
    namespace = runpy.run_path(path, run_name="__explain__")
    expression = compile(options["call"], "<--call>", "eval")
    for _ in range(options["repeat"]):
        eval(expression, namespace)
    return namespace


def main():
    out, path, options = parse(sys.argv[1:])
    try:
        namespace = run_program(path, options)
    except SystemExit as exc:
        if exc.code not in (None, 0):
            raise
        sys.stderr.write("explain: %s exited before it could be explained\n" % path)
        sys.exit(2)
    except BaseException:
        # The program's own failure, apart from whatever else the process writes to stderr
        # (a statistics build's dump at exit): the host shows this.
        with open(out + ".error", "w", encoding="utf-8") as f:
            f.write(traceback.format_exc())
        sys.exit(1)
    found = code_objects(namespace, path)
    if options["function"]:
        wanted = options["function"]
        found = [(q, c) for q, c in found if q == wanted or q.startswith(wanted + ".")]
        if not found:
            sys.stderr.write("explain: %s defines no function %r\n" % (path, wanted))
            sys.exit(2)
    site_failures = getattr(sys, "_quicken_site_failures", None)
    codes = []
    for qualname, code in found:
        failures = {}
        if site_failures is not None:
            failures = {offset: [opcode.opname[family], kind]
                        for offset, (family, kind) in site_failures(code).items()}
        codes.append(explain_code(qualname, code, failures))
    versions = field_values(codes, 2)
    versions = {k: v for k, v in type_versions().items() if k in versions}
    names = object_names(field_values(codes, 4))
    result = {
        "format": FORMAT,
        "version": sys.version,
        "cache_tag": sys.implementation.cache_tag,
        "stats_build": hasattr(sys, "getdxp"),  # Py_STATS (upstream 3.11 defines it only there)
        "site_failures": site_failures is not None,
        "cache_format": opcode._cache_format,
        "failure_kinds": getattr(opcode, "_specialization_failure_kinds", {}),
        "specializations": opcode._specializations,
        "type_versions": {str(k): v for k, v in versions.items()},
        "object_names": {str(k): v for k, v in names.items()},
        "codes": codes,
    }
    with open(out, "w", encoding="utf-8") as f:
        json.dump(result, f)


main()
