"""The interpreters under test: `NAME=PATH` specifications, validation and identification."""

import hashlib
import json
import os
import re
import shutil
import subprocess
from dataclasses import dataclass

from benchmarks.measure import child_environment

NAME_PATTERN = re.compile(r"^[A-Za-z0-9_.+-]+$")

# Printed by every interpreter before any benchmark runs: a cheap smoke test that also
# records what we are measuring.
IDENTIFY = """\
import json, sys
try:
    import sysconfig
    config_args = sysconfig.get_config_var("CONFIG_ARGS") or ""
except Exception:
    config_args = ""
# Standard modules the runner imports whose bytecode cache is missing: the runner (-B) then
# compiles them at every start, which leaves the heap a workload starts with different.
# Frozen modules (os in 3.11) never read a cache.
import importlib.util, os, traceback
uncached = [m.__name__ for m in (os, traceback, json)
            if m.__spec__.origin != "frozen"
            and not os.path.exists(importlib.util.cache_from_source(m.__file__))]
print(json.dumps({"version": sys.version, "executable": sys.executable,
                  "hexversion": sys.hexversion, "config_args": config_args,
                  "uncached_modules": uncached}))
"""


class InterpreterError(Exception):
    """An interpreter is missing, not executable, or cannot even start."""


@dataclass(frozen=True)
class Interpreter:
    name: str
    path: str           # as given on the command line
    resolved: str       # absolute path of the file that is executed

    @classmethod
    def parse(cls, specification):
        """Parse `NAME=PATH`; a bare PATH is looked up on PATH and named after its file."""
        name, separator, path = specification.partition("=")
        if not separator:
            name, path = os.path.basename(specification), specification
        if not name or not NAME_PATTERN.match(name):
            raise InterpreterError(
                "bad interpreter name %r in %r: use letters, digits and . _ + -" % (name, specification))
        if not path:
            raise InterpreterError("no path given for interpreter %r" % name)
        return cls(name=name, path=path, resolved=resolve(path))


def resolve(path):
    if os.sep not in path:
        found = shutil.which(path)
        if found is None:
            raise InterpreterError("interpreter %r not found on PATH" % path)
        path = found
    absolute = os.path.abspath(path)
    if not os.path.exists(absolute):
        raise InterpreterError("interpreter %s does not exist" % absolute)
    if os.path.isdir(absolute) or not os.access(absolute, os.X_OK):
        raise InterpreterError("interpreter %s is not an executable file" % absolute)
    return absolute


def check_unique(interpreters):
    seen = set()
    for interpreter in interpreters:
        if interpreter.name in seen:
            raise InterpreterError("interpreter name %r is used twice" % interpreter.name)
        seen.add(interpreter.name)


def describe(interpreter, timeout=60):
    """Start the interpreter once and return what it says about itself, plus file facts."""
    try:
        completed = subprocess.run(
            [interpreter.resolved, "-S", "-B", "-c", IDENTIFY],
            env=child_environment(), cwd="/", capture_output=True, text=True, timeout=timeout)
    except (OSError, subprocess.TimeoutExpired) as error:
        raise InterpreterError("interpreter %r (%s) could not be started: %s"
                               % (interpreter.name, interpreter.resolved, error)) from None
    if completed.returncode != 0:
        raise InterpreterError(
            "interpreter %r (%s) failed to start: exit status %d\n%s"
            % (interpreter.name, interpreter.resolved, completed.returncode,
               tail(completed.stderr or completed.stdout)))
    try:
        facts = json.loads(completed.stdout.strip().splitlines()[-1])
    except (ValueError, IndexError):
        raise InterpreterError("interpreter %r (%s) printed something unexpected: %r"
                               % (interpreter.name, interpreter.resolved, completed.stdout[-500:])) from None
    if not 0x030B0000 <= facts["hexversion"] < 0x030C0000:
        raise InterpreterError("interpreter %r (%s) is not Python 3.11: %s"
                               % (interpreter.name, interpreter.resolved, facts["version"]))
    return {
        "name": interpreter.name,
        "path": interpreter.path,
        "resolved": interpreter.resolved,
        "realpath": os.path.realpath(interpreter.resolved),
        "sha256": file_digest(os.path.realpath(interpreter.resolved)),
        "version": facts["version"],
        "config_args": facts["config_args"],
        "uncached_modules": facts.get("uncached_modules", []),
    }


def cache_warning(description):
    """A warning when an interpreter's standard library has no bytecode cache, else None."""
    missing = description.get("uncached_modules")
    if not missing:
        return None
    return ("interpreter %r has no bytecode cache for %s: every run (python -B) compiles them "
            "first, which changes the heap its workload starts with and can move its "
            "instruction counts by a few percent; run it once without -B to write the cache "
            "(e.g. %s -c 'import %s')"
            % (description["name"], ", ".join(missing), description["resolved"], ", ".join(missing)))


def file_digest(path):
    digest = hashlib.sha256()
    with open(path, "rb") as stream:
        for block in iter(lambda: stream.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def tail(text, lines=15):
    return "\n".join(text.strip().splitlines()[-lines:])
