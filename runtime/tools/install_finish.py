#!/usr/bin/env python3
"""`meson install`'s last step (meson.add_install_script): what upstream's `make install` runs
after copying the files (Makefile.pre.in's libinstall and install/altinstall targets).

usage: install_finish.py --installed BIN/PYTHON --built PYTHON --libdest LIBDEST
                         [--compileall] [--ensurepip upgrade|install|no] [--altinstall]

  --installed   the installed interpreter, relative to the prefix (bin/python3.11)
  --built       the uninstalled interpreter of the build directory (upstream's PYTHON_FOR_BUILD)
  --libdest     the standard library's final folder (prefix/lib/python3.11), as .pyc files name it
  --compileall  byte-compile the installed standard library at optimization levels 0, 1 and 2
                (-d LIBDEST, so that tracebacks name the final path, not the staging one), then
                its site-packages; upstream's three compileall runs per folder, in one
  --ensurepip   upgrade/install: `python -m ensurepip [--upgrade] --root DESTDIR/` with the
                built interpreter and the wheels bundled in Lib/ensurepip/_bundled/ (offline);
                pip writes its scripts with a #! line to prefix/bin/python3.11, since the built
                interpreter is a build tree's (distlib's is_python_build() rule)
  --altinstall  ensurepip --altinstall: no pip3/pip, only pip3.11

Every run also writes lib2to3's grammar pickles (Grammar*.pickle, PatternGrammar*.pickle), as
libinstall does. Meson sets MESON_INSTALL_DESTDIR_PREFIX (DESTDIR + prefix) and
MESON_INSTALL_PREFIX; DESTDIR is the difference. The variable QUICKEN_INSTALL_NO_COMPILE=1 skips
compileall and ensurepip for a quick install (the extension-build test uses it; the install test
checks the complete one).
"""
import argparse
import base64
import csv
import glob
import hashlib
import os
import subprocess
import sys

# upstream's -x of libinstall's compileall: files that must not compile (tests of bad syntax),
# and site-packages, compiled on its own
EXCLUDE = "bad_coding|badsyntax|site-packages|lib2to3/tests/data"


def say(message: str) -> None:
    if not os.environ.get("MESON_INSTALL_QUIET"):
        print(f"install_finish: {message}", flush=True)


def run(command: list[str]) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    say(" ".join(command))
    result = subprocess.run(command, env=env)
    if result.returncode != 0:
        sys.exit(f"install_finish: failed ({result.returncode}): {' '.join(command)}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--installed", required=True)
    parser.add_argument("--built", required=True)
    parser.add_argument("--libdest", required=True)
    parser.add_argument("--compileall", action="store_true")
    parser.add_argument("--ensurepip", choices=["upgrade", "install", "no"], default="no")
    parser.add_argument("--altinstall", action="store_true")
    args = parser.parse_args()

    prefix = os.environ["MESON_INSTALL_PREFIX"]
    destdir_prefix = os.environ["MESON_INSTALL_DESTDIR_PREFIX"]
    if not destdir_prefix.endswith(prefix):
        sys.exit(f"install_finish: {destdir_prefix} does not end with the prefix {prefix}")
    destdir = destdir_prefix[: len(destdir_prefix) - len(prefix)]
    installed = os.path.join(destdir_prefix, args.installed)
    staged_libdest = destdir + args.libdest
    quick = os.environ.get("QUICKEN_INSTALL_NO_COMPILE") == "1"

    if args.compileall and not quick:
        for folder, exclude in ((args.libdest, EXCLUDE),
                                (args.libdest + "/site-packages", "badsyntax")):
            run([installed, "-E", "-Wi", "-m", "compileall", "-q", "-j0",
                 "-o", "0", "-o", "1", "-o", "2", "-d", folder, "-f", "-x", exclude,
                 destdir + folder])
    for grammar in ("Grammar.txt", "PatternGrammar.txt"):
        run([installed, "-E", "-m", "lib2to3.pgen2.driver",
             os.path.join(staged_libdest, "lib2to3", grammar)])
    if args.ensurepip != "no" and not quick:
        options = (["--altinstall"] if args.altinstall else []) + (
            ["--upgrade"] if args.ensurepip == "upgrade" else [])
        run([args.built, "-E", "-m", "ensurepip"] + options + ["--root", (destdir or "") + "/"])
        fix_pip_shebangs(destdir_prefix, prefix, os.path.basename(args.libdest))
    return 0


def fix_pip_shebangs(destdir_prefix: str, prefix: str, python_version: str) -> None:
    """pip's scripts name prefix/bin/python3.11 when it exists at install time (distlib's rule
    for a build tree's interpreter), else prefix/bin/python, which `make install` does not
    install: under a DESTDIR, upstream's pip3 then names a missing interpreter. Name the
    installed one, and keep pip's RECORD (hash and size of each file) true."""
    bindir = os.path.join(destdir_prefix, "bin")
    wrong = f"#!{prefix}/bin/python\n".encode()
    right = f"#!{prefix}/bin/{python_version}\n".encode()
    fixed = {}
    for name in os.listdir(bindir):
        path = os.path.join(bindir, name)
        if not name.startswith("pip") or os.path.islink(path) or not os.path.isfile(path):
            continue
        with open(path, "rb") as f:
            data = f.read()
        if data.startswith(wrong):
            data = right + data[len(wrong):]
            with open(path, "wb") as f:
                f.write(data)
            fixed[path] = data
    if not fixed:
        return
    site = os.path.join(destdir_prefix, "lib", python_version, "site-packages")
    for record in glob.glob(os.path.join(site, "pip-*.dist-info", "RECORD")):
        lines = []
        with open(record, newline="") as f:
            for row in csv.reader(f):
                path = os.path.normpath(os.path.join(site, row[0]))
                if path in fixed:
                    digest = hashlib.sha256(fixed[path]).digest()
                    row[1] = "sha256=" + base64.urlsafe_b64encode(digest).rstrip(b"=").decode()
                    row[2] = str(len(fixed[path]))
                lines.append(row)
        with open(record, "w", newline="") as f:
            csv.writer(f, lineterminator="\n").writerows(lines)
    say(f"pip's scripts name {prefix}/bin/{python_version}: " + ", ".join(sorted(
        os.path.basename(p) for p in fixed)))


if __name__ == "__main__":
    sys.exit(main())
