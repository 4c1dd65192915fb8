#!/usr/bin/env python3
"""A C extension builds against quicken, uninstalled and installed.

usage: check_extension_build.py BUILD_DIR MODULE...

1. With BUILD_DIR/python (the uninstalled build: sysconfig points at the source tree's Include/
   and BUILD_DIR/pyconfig.h), build tests/extension/spam.c with distutils and call it.
2. `meson install --destdir` into a scratch folder; the installed python3.11 must start from
   there, import every MODULE (the build's extension modules) from its lib-dynload, and build
   and call the same extension against the installed headers and _sysconfigdata.
"""
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))


def run(*command, cwd=None, env=None):
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")} | (env or {})
    result = subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True)
    if result.returncode != 0:
        sys.exit(f"check_extension_build: {' '.join(command)} failed ({result.returncode}):\n"
                 f"{result.stdout}\n{result.stderr}")
    return result.stdout


def build_and_call(python, scratch):
    work = os.path.join(scratch, "ext-" + os.path.basename(os.path.dirname(python)))
    shutil.copytree(os.path.join(HERE, "extension"), work)
    run(python, "-W", "ignore", "setup.py", "-q", "build_ext", "--inplace", cwd=work)
    out = run(python, "-c", "import spam; print(spam.add(40, 2), spam.__file__)", cwd=work)
    value, path = out.split()
    if not (value == "42" and path.startswith(work)):
        sys.exit(f"check_extension_build: spam.add(40, 2) from {work} expected, got: {out}")
    print(f"check_extension_build: {python}: extension built and called")


def main(build_dir, modules):
    build_dir = os.path.abspath(build_dir)
    with tempfile.TemporaryDirectory() as scratch:
        build_and_call(os.path.join(build_dir, "python"), scratch)

        destdir = os.path.join(scratch, "destdir")
        # the extension needs no .pyc files nor pip: the install test checks those
        run("meson", "install", "-C", build_dir, "--no-rebuild", "--quiet", "--destdir", destdir,
            env={"QUICKEN_INSTALL_NO_COMPILE": "1"})
        prefix = run(os.path.join(build_dir, "python"), "-c",
                     "import sysconfig; print(sysconfig.get_config_var('prefix'))").strip()
        installed = destdir + os.path.join(prefix, "bin", "python3.11")
        facts = run(installed, "-c", "import sys, sysconfig; print(sys.prefix); "
                                     "print(sysconfig.is_python_build())").split()
        if facts != [destdir + prefix, "False"]:
            sys.exit(f"check_extension_build: installed sys.prefix, is_python_build: {facts}")
        # The static libpython and the Makefile are where sysconfig says (embedders link them).
        libpl, ldlibrary = run(installed, "-c", "import sysconfig as s; "
                               "print(s.get_config_var('LIBPL'), s.get_config_var('LDLIBRARY'))").split()
        for name in (ldlibrary, "Makefile"):
            if not os.path.isfile(destdir + os.path.join(libpl, name)):
                sys.exit(f"check_extension_build: no {name} in the installed LIBPL {libpl}")
        lib_dynload = destdir + os.path.join(prefix, "lib", "python3.11", "lib-dynload")
        check = ("import importlib, sys\n"
                 "for name in sys.argv[1:]:\n"
                 "    m = importlib.import_module(name)\n"
                 f"    if not m.__file__.startswith({lib_dynload!r}): sys.exit(m.__file__)\n")
        run(installed, "-c", check, *modules)
        print(f"check_extension_build: installed python3.11 imports {len(modules)} modules")
        build_and_call(installed, scratch)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2:])
