#!/usr/bin/env python3
"""The built interpreter keeps CPython 3.11's ABI: extensions compiled elsewhere work in it, and
extensions compiled against it work elsewhere.

usage: check_abi.py BUILD_DIR --upstream-include DIR [--stock-build DIR] [--debian-python PATH]

1. Extension modules that Debian compiled for its python3.11 (python3-yaml's yaml._yaml,
   python3-markupsafe's markupsafe._speedups, python3-lxml's lxml.etree) are exercised by
   tests/abi/debian_extensions.py, first on Debian's python3.11 (if that fails, the machine is at
   fault, not the build), then on BUILD_DIR/python; the .so files must be the packages' own.
   Their pure-Python parts run from Debian's .pyc files, which have 3.11.2's magic number.
2. Debian's cython3, whose compiler is itself compiled Cython, translates tests/abi/abi_cy.pyx
   once run by Debian's python3.11 and once by BUILD_DIR/python: the C must be byte-identical.
3. tests/abi/abi_c.c and that C are compiled with gcc against each set of headers: upstream's
   Include/ with BUILD_DIR's pyconfig.h; BUILD_DIR's own (sysconfig of BUILD_DIR/python, for an
   uninstalled build the same two folders: compiled once); the stock build's (if --stock-build
   has a python); Debian's python3.11's (libpython3.11-dev: a stock 3.11.2 built by Debian).
   tests/abi/exercise.py then runs each pair in BUILD_DIR/python, Debian's python3.11 and the
   stock build's python.

What each pair must do follows CPython's design (Doc/whatsnew/3.8.rst, "Debug build uses the same
ABI as release build"): release and debug (Py_DEBUG) builds share one ABI in one direction. A
debug interpreter loads release extensions, which it finds through ALT_SOABI, the release suffix
(.cpython-311-x86_64-linux-gnu.so) that configure gives debug builds. An extension compiled with
Py_DEBUG has the suffix .cpython-311d-x86_64-linux-gnu.so, which a release interpreter does not
look for, and its inline Py_INCREF/Py_DECREF use _Py_RefTotal, which only debug interpreters
define: loaded by path into a release interpreter it must fail with that undefined symbol.
"""
import argparse
import concurrent.futures
import difflib
import json
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ABI_DIR = os.path.join(HERE, "abi")
DIST_PACKAGES = "/usr/lib/python3/dist-packages"
# What tests/abi/debian_extensions.py and the Cython translation import from dist-packages, and
# the Debian package that ships each (scripts/bootstrap installs them).
LINKED = {"yaml": "python3-yaml", "markupsafe": "python3-markupsafe", "lxml": "python3-lxml",
          "Cython": "cython3", "cython.py": "cython3"}
# Debian's python3.11 headers: a second stock build's, there when build-stock/ is not.
HEADER_PACKAGES = ["libpython3.11-dev"]
PYTHON_FLAGS = ["-I", "-S", "-B"]  # isolated, no site, and no .pyc written into dist-packages
CFLAGS = ["-shared", "-fPIC", "-O2", "-fwrapv", "-Wall"]


class Failure(Exception):
    pass


def run(*command, cwd=None):
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    result = subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True)
    # In a -Db_sanitize=undefined build, UBSan reports "FILE:LINE:COL: runtime error: ..." and
    # goes on; ASan stops the process itself.
    if result.returncode != 0 or ": runtime error: " in result.stderr:
        raise Failure(f"{' '.join(command)} failed ({result.returncode}):\n"
                      f"{result.stdout}\n{result.stderr}")
    return result.stdout


def say(message):
    print(f"check_abi: {message}", flush=True)


def interpreter_facts(python):
    """(abiflags, EXT_SUFFIX, the include folders of its sysconfig) of an interpreter."""
    out = run(python, *PYTHON_FLAGS, "-c",
              "import json, sys, sysconfig; paths = sysconfig.get_paths(); "
              "print(json.dumps([sys.abiflags, sysconfig.get_config_var('EXT_SUFFIX'), "
              "[paths['include'], paths['platinclude']]]))")
    return json.loads(out)


class Headers:
    """A set of include folders to compile against, and the ABI they give."""

    def __init__(self, label, include_dirs, ext_suffix):
        self.label = label
        self.include_dirs = list(dict.fromkeys(os.path.realpath(d) for d in include_dirs))
        self.ext_suffix = ext_suffix
        pyconfig = [os.path.join(d, "pyconfig.h") for d in self.include_dirs
                    if os.path.isfile(os.path.join(d, "pyconfig.h"))]
        if not pyconfig or not any(os.path.isfile(os.path.join(d, "Python.h"))
                                   for d in self.include_dirs):
            raise Failure(f"{label}: no Python.h and pyconfig.h in {self.include_dirs}")
        with open(pyconfig[0]) as f:
            self.debug = "#define Py_DEBUG 1" in f.read()


class Interpreter:
    def __init__(self, label, path):
        self.label = label
        self.path = path
        self.abiflags, self.ext_suffix, self.include_dirs = interpreter_facts(path)
        self.debug = "d" in self.abiflags


def check_debian_packages():
    packages = sorted(set(LINKED.values())) + HEADER_PACKAGES
    missing = [p for p in packages if subprocess.run(
        ["dpkg-query", "-W", "-f=${Status}", p], capture_output=True, text=True
    ).stdout != "install ok installed"]
    if missing:
        raise Failure(f"Debian packages not installed: {' '.join(missing)} "
                      "(scripts/bootstrap installs them)")


def make_site(scratch):
    """A folder with links to just the packages the tests use from dist-packages."""
    site = os.path.join(scratch, "site")
    os.mkdir(site)
    for name in LINKED:
        os.symlink(os.path.join(DIST_PACKAGES, name), os.path.join(site, name))
    return site


def check_debian_extensions(interpreters, site):
    script = os.path.join(ABI_DIR, "debian_extensions.py")
    used = set()
    for interpreter in interpreters:
        try:
            out = run(interpreter.path, *PYTHON_FLAGS, script, site)
        except Failure as e:
            blame = (" (Debian's own interpreter: the machine's packages are at fault, "
                     "not the build)" if interpreter is interpreters[0] else "")
            raise Failure(f"Debian's compiled extensions fail in {interpreter.label}{blame}: {e}")
        summary, paths = out.strip().splitlines()[-2:]
        used.update(json.loads(paths))
        say(f"{interpreter.label}: Debian's compiled yaml, markupsafe, lxml work ({summary})")
    owners = run("dpkg", "-S", *sorted(used))  # lines "package[:arch]: path"
    found = {(line.partition(": ")[0].partition(":")[0], line.partition(": ")[2])
             for line in owners.splitlines()}
    expected = {(LINKED[os.path.relpath(path, DIST_PACKAGES).split(os.sep)[0]], path)
                for path in used}
    if found != expected:
        raise Failure(f"the compiled modules are not those Debian's packages ship:\n{owners}")


def translate_cython(interpreters, site, scratch):
    """abi_cy.pyx -> abi_cy.c by Debian's Cython, run by each interpreter: the same C."""
    source = os.path.join(scratch, "src")
    os.mkdir(source)
    shutil.copy(os.path.join(ABI_DIR, "abi_cy.pyx"), source)
    translate = (f"import sys; sys.path.insert(0, {site!r}); "
                 "from Cython.Compiler.Main import main; main(command_line=1)")
    outputs = []
    for interpreter in interpreters:
        output = f"abi_cy.{interpreter.label.replace('/', '-')}.c"
        run(interpreter.path, *PYTHON_FLAGS, "-c", translate, "-o", output, "abi_cy.pyx",
            cwd=source)
        with open(os.path.join(source, output), "rb") as f:
            outputs.append(f.read())
    for interpreter, output in zip(interpreters[1:], outputs[1:]):
        if output != outputs[0]:
            diff = difflib.unified_diff(outputs[0].decode().splitlines(),
                                        output.decode().splitlines(), interpreters[0].label,
                                        interpreter.label, lineterm="", n=1)
            raise Failure(f"Cython wrote different C under {interpreters[0].label} and "
                          f"{interpreter.label}:\n" + "\n".join(list(diff)[:40]))
    c_file = os.path.join(source, "abi_cy.c")
    with open(c_file, "wb") as f:
        f.write(outputs[0])
    labels = ", ".join(i.label for i in interpreters)
    say(f"Debian's Cython compiler gives the same C under {labels}")
    return c_file


def compile_extensions(number, headers, c_sources, scratch):
    folder = os.path.join(scratch, f"ext{number}")
    os.mkdir(folder)
    includes = [f"-I{d}" for d in headers.include_dirs]
    for name, source, extra in c_sources:
        run("gcc", *CFLAGS, *extra, *includes, "-o",
            os.path.join(folder, name + headers.ext_suffix), source)
    return folder


def exercise(interpreter, headers, folder):
    try:
        return exercise_in(interpreter, headers, folder)
    except Failure as e:
        raise Failure(f"{interpreter.label} with extensions built against {headers.label}: {e}")


def exercise_in(interpreter, headers, folder):
    script = os.path.join(ABI_DIR, "exercise.py")
    if headers.debug and not interpreter.debug:
        out = run(interpreter.path, *PYTHON_FLAGS, script, "--unloadable", folder,
                  headers.ext_suffix)
        symbols = sorted({line.rpartition("undefined symbol: ")[2] for line in out.splitlines()})
        return (f"{interpreter.label}: extensions built against {headers.label} (Py_DEBUG) do not "
                f"load, by CPython's design: undefined symbol {', '.join(symbols)}")
    out = run(interpreter.path, *PYTHON_FLAGS, script, folder, headers.ext_suffix)
    how = " (through ALT_SOABI)" if interpreter.debug and not headers.debug else ""
    return (f"{interpreter.label}: C and Cython extensions built against {headers.label} "
            f"work{how}: {out.strip().splitlines()[-1].removeprefix('exercise: ')}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("build_dir")
    parser.add_argument("--upstream-include", required=True,
                        help="upstream's Include/ (subprojects/Python-3.11.2/Include)")
    parser.add_argument("--stock-build", help="a build of upstream's interpreter loop, if any")
    parser.add_argument("--debian-python", default="/usr/bin/python3.11")
    args = parser.parse_args()

    check_debian_packages()
    build_dir = os.path.abspath(args.build_dir)
    built = Interpreter(os.path.basename(build_dir), os.path.join(build_dir, "python"))
    debian = Interpreter("debian-python3.11", args.debian_python)
    if debian.debug:
        raise Failure(f"{args.debian_python} is a debug interpreter; Debian's is not")
    stock = None
    if args.stock_build and os.path.isfile(os.path.join(args.stock_build, "python")):
        if os.path.realpath(args.stock_build) != os.path.realpath(build_dir):
            stock = Interpreter(os.path.basename(os.path.abspath(args.stock_build)),
                                os.path.join(args.stock_build, "python"))
    else:
        # visible in scripts/test's summary, not only in this test's log
        print(f"partly skipped: abi: no stock build at {args.stock_build}: its headers and "
              f"interpreter are not used (Debian's python3.11, a stock 3.11.2, still is)",
              flush=True)

    header_sets = [Headers(f"upstream Include + {built.label}/pyconfig.h",
                           [args.upstream_include, build_dir], built.ext_suffix),
                   Headers(f"{built.label}'s sysconfig", built.include_dirs, built.ext_suffix)]
    if stock is not None:
        header_sets.append(Headers(f"{stock.label}'s sysconfig", stock.include_dirs,
                                   stock.ext_suffix))
    header_sets.append(Headers(f"{debian.label}'s sysconfig", debian.include_dirs,
                               debian.ext_suffix))
    unique = {}
    for headers in header_sets:
        key = (tuple(headers.include_dirs), headers.ext_suffix)
        if key in unique:
            say(f"{headers.label} = {unique[key].label} ({' '.join(headers.include_dirs)}): "
                "compiled once")
        else:
            unique[key] = headers
    header_sets = list(unique.values())
    interpreters = [i for i in (built, debian, stock) if i is not None]

    with tempfile.TemporaryDirectory(prefix="check_abi-") as scratch:
        site = make_site(scratch)
        check_debian_extensions([debian, built], site)
        cy_source = translate_cython([debian, built], site, scratch)
        c_sources = [("abi_c", os.path.join(ABI_DIR, "abi_c.c"), ["-Werror"]),
                     ("abi_cy", cy_source, [])]
        jobs = os.cpu_count() or 2
        with concurrent.futures.ThreadPoolExecutor(jobs) as pool:
            folders = list(pool.map(lambda n: compile_extensions(n, header_sets[n], c_sources,
                                                                 scratch),
                                    range(len(header_sets))))
            for headers in header_sets:
                abi = "debug ABI, Py_DEBUG" if headers.debug else "release ABI"
                say(f"compiled abi_c and abi_cy against {headers.label} ({abi}, "
                    f"{' '.join(headers.include_dirs)})")
            runs = [pool.submit(exercise, interpreter, headers, folder)
                    for headers, folder in zip(header_sets, folders)
                    for interpreter in interpreters]
            for result in runs:
                say(result.result())


if __name__ == "__main__":
    try:
        main()
    except Failure as e:
        sys.exit(f"check_abi: {e}")
