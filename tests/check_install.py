#!/usr/bin/env python3
"""`meson install` installs what upstream's `make install` does (docs/build.md#installed).

usage: check_install.py BUILD_DIR SOURCE_ROOT UPSTREAM_ROOT [--skip-regrtest | --full-regrtest]
                        [--in-prefix]

--in-prefix installs into the build's configured prefix itself, not a staging --destdir: the
prefix must be a folder that does not exist yet or is empty (configure a scratch build with
`-Dprefix=/tmp/some-new-folder`), and it stays there afterwards. --full-regrtest runs the whole
regression suite from the install location in step 7 instead of the slice.

1. Puts a file into the upstream tree's Lib/__pycache__/ (where an uninstalled interpreter
   writes its .pyc files) and installs BUILD_DIR into a scratch --destdir: that file must not
   be installed.
2. The files of bin/, the man page, lib/pkgconfig/, LIBPL (config-3.11-*/) and lib/ are there,
   executable where they must be; the unversioned names are there exactly when the build's
   unversioned_names option says so; scripts' #! lines name the final interpreter.
3. python3.11-config's --cflags and --embed --ldflags, and pkg-config's python-3.11-embed,
   compile and link a C program embedding Python; it runs and imports an extension module.
4. Every standard library .py (but upstream's compileall exclusions) has a .pyc at optimization
   levels 0, 1 and 2 with the installed interpreter's magic number, the source's mtime and size,
   and the final (not the staging) path as co_filename; no other file is in a __pycache__.
5. ensurepip installed pip; `python3.11 -m venv` makes a venv with pip offline, where pip builds
   and installs a local package with a C extension, which imports and works; `-m ensurepip
   --root` installs offline.
6. The other unversioned_names value, configured in a scratch build folder (nothing built):
   its install plan has the unversioned names exactly when it should, and ensurepip's
   --altinstall when it should not.
7. A slice of the regression suite runs from the install location (unless --skip-regrtest).
"""
import glob
import json
import os
import re
import shutil
import stat
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
VERSION = "3.11"
REGRTEST_SLICE = ["test_grammar", "test_opcodes", "test_dis", "test_sysconfig", "test_venv",
                  "test_site", "test_compileall", "test_py_compile", "test_ensurepip",
                  "test_lib2to3", "test_pydoc", "test_import", "test_distutils"]
UNVERSIONED_BIN = ["python3", "python3-config", "pydoc3", "idle3", "2to3"]
UNVERSIONED_PC = ["python3.pc", "python3-embed.pc"]

EMBED_C = r"""
#define PY_SSIZE_T_CLEAN
#include <Python.h>
int main(void) {
    Py_Initialize();
    int status = PyRun_SimpleString(
        "import sys, json, math\n"
        "print(json.dumps({'version': list(sys.version_info[:2]), 'sqrt': math.sqrt(1764.0),\n"
        "                  'math': math.__file__, 'prefix': sys.prefix}))\n");
    if (Py_FinalizeEx() < 0 || status != 0) return 1;
    return 0;
}
"""

LOCALPKG_SETUP = """
from setuptools import setup, Extension
setup(name="localpkg", version="1.0", py_modules=["localpkg_py"],
      ext_modules=[Extension("localpkg_c", ["localpkg_c.c"])])
"""
LOCALPKG_C = r"""
#define PY_SSIZE_T_CLEAN
#include <Python.h>
static PyObject *triple(PyObject *self, PyObject *arg) {
    long v = PyLong_AsLong(arg);
    if (v == -1 && PyErr_Occurred()) return NULL;
    return PyLong_FromLong(3 * v);
}
static PyMethodDef methods[] = {{"triple", triple, METH_O, NULL}, {NULL, NULL, 0, NULL}};
static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "localpkg_c", NULL, -1, methods};
PyMODINIT_FUNC PyInit_localpkg_c(void) { return PyModule_Create(&module); }
"""

# Run by the installed interpreter: the byte-compiled standard library (step 4).
PYC_CHECK = r"""
import importlib.util, marshal, os, re, sys
staged, final = sys.argv[1], sys.argv[2]
exclude = re.compile(r"bad_coding|badsyntax|site-packages|lib2to3/tests/data")
magic, tag = importlib.util.MAGIC_NUMBER, sys.implementation.cache_tag
checked = 0
problems = []
expected = set()
for root, dirs, files in os.walk(staged):
    dirs[:] = [d for d in dirs if d != "__pycache__"]
    for name in files:
        if not name.endswith(".py"):
            continue
        source = os.path.join(root, name)
        if exclude.search(source):
            continue
        st = os.stat(source)
        for opt in ("", 1, 2):
            pyc = importlib.util.cache_from_source(source, optimization=opt)
            expected.add(pyc)
            try:
                with open(pyc, "rb") as f:
                    data = f.read()
            except FileNotFoundError:
                problems.append("missing " + pyc)
                continue
            flags = int.from_bytes(data[4:8], "little")
            mtime = int.from_bytes(data[8:12], "little")
            size = int.from_bytes(data[12:16], "little")
            if data[:4] != magic or flags != 0 or mtime != int(st.st_mtime) & 0xFFFFFFFF \
                    or size != st.st_size & 0xFFFFFFFF:
                problems.append("stale or foreign " + pyc)
                continue
            code = marshal.loads(data[16:])
            want = final + source[len(staged):]
            if code.co_filename != want:
                problems.append(f"{pyc}: co_filename {code.co_filename} != {want}")
            checked += 1
strays = []
for root, dirs, files in os.walk(staged):
    if os.path.basename(root) != "__pycache__" or "site-packages" in root:
        continue
    for name in files:
        if os.path.join(root, name) not in expected:
            strays.append(os.path.join(root, name))
print(checked, tag)
for line in problems[:20] + ["stray " + s for s in strays[:20]]:
    print(line)
sys.exit(1 if problems or strays else 0)
"""


def fail(message):
    sys.exit(f"check_install: FAIL: {message}")


def run(*command, cwd=None, env=None, check=True):
    base = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    base.update(env or {})
    result = subprocess.run(command, cwd=cwd, env=base, capture_output=True, text=True)
    if check and result.returncode != 0:
        fail(f"{' '.join(command)} failed ({result.returncode}):\n"
             f"{result.stdout[-4000:]}\n{result.stderr[-4000:]}")
    return result


def build_option(build_dir, name):
    options = json.loads(run("meson", "introspect", "--buildoptions", build_dir).stdout)
    for option in options:
        if option["name"] == name:
            return option["value"]
    fail(f"no option {name} in {build_dir}")


def install_plan(build_dir):
    """The symbolic links and install scripts of BUILD_DIR's install data (Meson's own loader)."""
    code = ("import sys; sys.path.insert(0, '/usr/lib/python3/dist-packages')\n"
            "from mesonbuild.minstall import load_install_data\n"
            "d = load_install_data(sys.argv[1])\n"
            "import json; print(json.dumps({'symlinks': [s.name for s in d.symlinks],\n"
            "  'scripts': [s.cmd_args for s in d.install_scripts]}))")
    out = run("/usr/bin/python3", "-c", code,
              os.path.join(build_dir, "meson-private", "install.dat")).stdout
    return json.loads(out)


def check_executable(path):
    if not os.path.isfile(path) or not os.access(path, os.X_OK):
        fail(f"{path} is not an executable file")


def shebang(path):
    with open(path, "rb") as f:
        return f.readline().decode().strip()


def main(argv):
    build_dir, source_root, upstream = (os.path.abspath(a) for a in argv[:3])
    skip_regrtest = "--skip-regrtest" in argv
    full_regrtest = "--full-regrtest" in argv
    in_prefix = "--in-prefix" in argv
    built = os.path.join(build_dir, "python")
    facts = json.loads(run(built, "-c", "import json, sys, sysconfig as s; print(json.dumps("
                                        "{'prefix': s.get_config_var('prefix'), "
                                        "'ldversion': s.get_config_var('LDVERSION'), "
                                        "'libpl': s.get_config_var('LIBPL'), "
                                        "'ext_suffix': s.get_config_var('EXT_SUFFIX'), "
                                        "'ensurepip': s.get_config_var('ENSUREPIP'), "
                                        "'builtins': sys.builtin_module_names}))").stdout)
    prefix, ldversion = facts["prefix"], facts["ldversion"]
    unversioned = build_option(build_dir, "unversioned_names")
    ensurepip = build_option(build_dir, "ensurepip")
    if facts["ensurepip"] != ensurepip:
        fail(f"sysconfig ENSUREPIP {facts['ensurepip']!r}, option ensurepip {ensurepip!r}")
    if not build_option(build_dir, "compileall"):
        fail("this test checks the byte-compiled library: configure with -Dcompileall=true")
    if in_prefix and os.path.exists(prefix) and os.listdir(prefix):
        fail(f"--in-prefix needs a fresh prefix, and {prefix} is not empty")

    with tempfile.TemporaryDirectory(prefix="quicken-install-") as scratch:
        # 1. a stray file in the tree's Lib/__pycache__, then the install
        sentinel_dir = os.path.join(upstream, "Lib", "__pycache__")
        os.makedirs(sentinel_dir, exist_ok=True)
        sentinel = os.path.join(sentinel_dir, "quicken_install_test_stray.cpython-311.pyc")
        with open(sentinel, "wb") as f:
            f.write(b"not a pyc")
        destdir = "" if in_prefix else os.path.join(scratch, "destdir")
        started = time.monotonic()
        try:
            run("meson", "install", "-C", build_dir, "--no-rebuild", "--quiet",
                *([] if in_prefix else ["--destdir", destdir]))
        finally:
            os.remove(sentinel)
        print(f"check_install: meson install into {destdir + prefix} took "
              f"{time.monotonic() - started:.0f} s")
        root = destdir + prefix
        libdest = os.path.join(root, "lib", "python" + VERSION)
        libpl = destdir + facts["libpl"]
        bindir = os.path.join(root, "bin")
        if os.path.exists(os.path.join(libdest, "__pycache__", os.path.basename(sentinel))):
            fail("a file of the source tree's Lib/__pycache__ was installed")

        # 2. the files
        installed = os.path.join(bindir, "python" + ldversion)
        for name in ["python" + ldversion, f"python{ldversion}-config", f"pydoc{VERSION}",
                     f"idle{VERSION}", f"2to3-{VERSION}"]:
            check_executable(os.path.join(bindir, name))
        for name in [f"pydoc{VERSION}", f"idle{VERSION}", f"2to3-{VERSION}"]:
            if shebang(os.path.join(bindir, name)) != f"#!{prefix}/bin/python{VERSION}":
                fail(f"{name}: #! line {shebang(os.path.join(bindir, name))}")
        if "JSON (JavaScript Object Notation)" not in run(
                installed, os.path.join(bindir, f"pydoc{VERSION}"), "json").stdout:
            fail(f"pydoc{VERSION} json")
        if "Usage: 2to3" not in run(installed, os.path.join(bindir, f"2to3-{VERSION}"), "--help").stdout:
            fail(f"2to3-{VERSION} --help")
        man = os.path.join(root, "share", "man", "man1")
        pc_dir = os.path.join(root, "lib", "pkgconfig")
        for path in [os.path.join(man, f"python{VERSION}.1"),
                     os.path.join(pc_dir, f"python-{VERSION}.pc"),
                     os.path.join(pc_dir, f"python-{VERSION}-embed.pc"),
                     os.path.join(root, "lib", f"libpython{ldversion}.a"),
                     os.path.join(libdest, "LICENSE.txt"),
                     os.path.join(libdest, "distutils", "tests", "xxmodule.c")]:
            if not os.path.isfile(path):
                fail(f"{path} is not installed")
        with open(os.path.join(man, f"python{VERSION}.1")) as f:
            if ".TH PYTHON" not in f.read():
                fail("the man page is not python.man")
        for name in ["libpython%s.a" % ldversion, "Makefile", "config.c", "config.c.in",
                     "python.o", "Setup", "Setup.bootstrap", "Setup.stdlib", "Setup.local"]:
            if not os.path.isfile(os.path.join(libpl, name)):
                fail(f"LIBPL/{name} is not installed")
        for name in ["makesetup", "install-sh", "python-config.py"]:
            check_executable(os.path.join(libpl, name))
        if shebang(os.path.join(libpl, "python-config.py")) != f"#!{prefix}/bin/python{ldversion}":
            fail("python-config.py's #! line: " + shebang(os.path.join(libpl, "python-config.py")))
        with open(os.path.join(libpl, "config.c")) as f:
            config_c = f.read()
        for module in facts["builtins"]:
            if f'"{module}"' not in config_c:
                fail(f"LIBPL/config.c lacks the built-in module {module}")
        for name in ["Setup.bootstrap", "Setup.stdlib"]:
            with open(os.path.join(libpl, name)) as f:
                text = f.read()
            if "@" in text.replace("@MODULE", "") and re.search(r"@[A-Z_]+@", text):
                fail(f"LIBPL/{name} has unsubstituted markers")
        with open(os.path.join(libpl, "Setup.stdlib")) as f:
            setup_lines = f.read().splitlines()
        for module in ["_json", "math", "_ssl", "_sqlite3", "array"]:
            if not any(line.split()[:1] == [module] for line in setup_lines):
                fail(f"Setup.stdlib: no active line for the built module {module}")
        nm = run("nm", os.path.join(libpl, "python.o")).stdout
        if not re.search(r"^[0-9a-f]* T main$", nm, re.M):
            fail("LIBPL/python.o does not define main")
        bundled = glob.glob(os.path.join(libdest, "ensurepip", "_bundled", "*.whl"))
        if len(bundled) != 2:
            fail(f"ensurepip's bundled wheels: {bundled}")
        for grammar in ["Grammar", "PatternGrammar"]:
            if not glob.glob(os.path.join(libdest, "lib2to3", grammar + "3.11*.pickle")):
                fail(f"lib2to3's {grammar} pickle is not there")
        links = [os.path.join(bindir, n) for n in UNVERSIONED_BIN] + [
            os.path.join(pc_dir, n) for n in UNVERSIONED_PC] + [os.path.join(man, "python3.1")]
        if ensurepip != "no":
            links.append(os.path.join(bindir, "pip3"))
            pip_versioned = os.path.join(bindir, f"pip{VERSION}")
            check_executable(pip_versioned)
            if shebang(pip_versioned) != f"#!{prefix}/bin/python{VERSION}":
                fail(f"pip{VERSION}'s #! line: {shebang(pip_versioned)}")
            pip = run(installed, "-m", "pip", "--version").stdout
            if not pip.startswith("pip ") or libdest not in pip:
                fail(f"pip is not installed in {libdest}: {pip}")
        for link in links:
            present = os.path.lexists(link)
            if present != unversioned:
                fail(f"{link}: {'installed' if present else 'missing'} with "
                     f"unversioned_names={unversioned}")
            if present and not os.path.exists(link):
                fail(f"{link} is a dangling link")
        if unversioned:
            same = run(os.path.join(bindir, "python3-config"), "--cflags").stdout
            if same != run(os.path.join(bindir, f"python{VERSION}-config"), "--cflags").stdout:
                fail("python3-config is not python3.11-config")
        print(f"check_install: files of bin/, man, pkgconfig, LIBPL there "
              f"(unversioned names: {unversioned})")

        # 3. embedding, with python3.11-config and with pkg-config
        config = os.path.join(bindir, f"python{ldversion}-config")
        if run(config, "--prefix").stdout.strip() != os.path.realpath(root):
            fail(f"python-config --prefix: {run(config, '--prefix').stdout}")
        if run(config, "--extension-suffix").stdout.strip() != facts["ext_suffix"]:
            fail("python-config --extension-suffix")
        py_config = run(installed, os.path.join(libpl, "python-config.py"), "--extension-suffix")
        if py_config.stdout.strip() != facts["ext_suffix"]:
            fail("python-config.py --extension-suffix: " + py_config.stdout)
        embed_c = os.path.join(scratch, "embed.c")
        with open(embed_c, "w") as f:
            f.write(EMBED_C)
        export = ["-Xlinker", "-export-dynamic"]  # LINKFORSHARED: extension modules load
        pc_env = {"PKG_CONFIG_PATH": pc_dir}
        flag_sets = {
            "python-config": (run(config, "--cflags").stdout.split(),
                              run(config, "--embed", "--ldflags").stdout.split()),
            "pkg-config": (run("pkg-config", "--define-prefix", "--cflags",
                               f"python-{VERSION}-embed", env=pc_env).stdout.split(),
                           run("pkg-config", "--define-prefix", "--static", "--libs",
                               f"python-{VERSION}-embed", env=pc_env).stdout.split()),
        }
        for how, (cflags, ldflags) in flag_sets.items():
            if f"-I{os.path.realpath(root)}/include/python{ldversion}" not in \
                    [f"-I{os.path.realpath(f[2:])}" if f.startswith("-I") else f for f in cflags]:
                fail(f"{how} cflags do not name the installed headers: {cflags}")
            program = os.path.join(scratch, "embed-" + how)
            run("gcc", *cflags, embed_c, "-o", program, *ldflags, *export)
            out = run(program, env={"PYTHONHOME": root}).stdout
            result = json.loads(out)
            if (result["version"] != [3, 11] or result["sqrt"] != 42.0
                    or not result["math"].startswith(os.path.join(libdest, "lib-dynload"))):
                fail(f"the program embedding Python ({how}) said {out}")
            print(f"check_install: a program embedding Python links with {how}'s flags and runs")

        # 4. the byte-compiled standard library
        out = run(installed, "-c", PYC_CHECK, libdest, os.path.join(prefix, "lib", "python" + VERSION),
                  check=False)
        if out.returncode != 0:
            fail(f"the byte-compiled library:\n{out.stdout[-4000:]}{out.stderr[-2000:]}")
        count, tag = out.stdout.split()[:2]
        if int(count) < 3 * 1500:
            fail(f"only {count} .pyc files checked")
        print(f"check_install: {count} .pyc files ({tag}) up to date at levels 0, 1, 2, no strays")

        # 5. venv, pip and a C extension, ensurepip --root
        venv = os.path.join(scratch, "venv")
        run(installed, "-m", "venv", venv)
        pkg = os.path.join(scratch, "localpkg")
        os.makedirs(pkg)
        for name, text in [("setup.py", LOCALPKG_SETUP), ("localpkg_c.c", LOCALPKG_C),
                           ("localpkg_py.py", "def name():\n    return 'localpkg'\n")]:
            with open(os.path.join(pkg, name), "w") as f:
                f.write(text)
        # setuptools takes the headers' folder from sysconfig's INCLUDEPY, the final
        # prefix/include/python3.11: staged under a --destdir, they are found through CFLAGS.
        run(os.path.join(venv, "bin", "python"), "-m", "pip", "install", "--no-index",
            "--no-build-isolation", pkg, env={"PIP_NO_CACHE_DIR": "1",
                                              "PIP_DISABLE_PIP_VERSION_CHECK": "1",
                                              "CFLAGS": f"-I{root}/include/python{ldversion}"})
        out = run(os.path.join(venv, "bin", "python"), "-c",
                  "import localpkg_c, localpkg_py, sys; "
                  "print(localpkg_c.triple(14), localpkg_py.name(), localpkg_c.__file__)").stdout
        value, name, path = out.split()
        if value != "42" or name != "localpkg" or not path.startswith(venv):
            fail(f"the local package in the venv: {out}")
        print("check_install: venv with pip; a local package with a C extension installs and works")
        run(installed, "-m", "ensurepip", "--help")
        bare = os.path.join(scratch, "bare-venv")
        run(installed, "-m", "venv", "--without-pip", bare)
        pip_root = os.path.join(scratch, "pip-root")
        run(os.path.join(bare, "bin", "python"), "-m", "ensurepip", "--root", pip_root)
        if not glob.glob(pip_root + bare + "/lib/python3.11/site-packages/pip/__init__.py"):
            fail("ensurepip --root installed no pip under the root")
        print("check_install: ensurepip --help, --root work offline")

        # 6. the other unversioned_names value, configured only
        other = os.path.join(scratch, "other-config")
        run("meson", "setup", other, source_root,
            f"-Dunversioned_names={'false' if unversioned else 'true'}", f"-Densurepip={ensurepip}")
        for folder, value in [(build_dir, unversioned), (other, not unversioned)]:
            plan = install_plan(folder)
            names = set(os.path.basename(s) for s in plan["symlinks"])
            wanted = set(UNVERSIONED_BIN + UNVERSIONED_PC + ["python3.1"])
            if value and not wanted <= names:
                fail(f"{folder}: unversioned names missing from the install plan: {wanted - names}")
            if not value and names & wanted:
                fail(f"{folder}: unversioned names in an altinstall plan: {names & wanted}")
            scripts = plan["scripts"]
            if len(scripts) != 1 or ("--altinstall" in scripts[0]) == value:
                fail(f"{folder}: install script {scripts}")
            files = json.loads(run("meson", "introspect", "--installed", folder).stdout).values()
            listed = set(os.path.basename(f) for f in files) & wanted
            if listed != (wanted if value else set()):
                fail(f"{folder}: meson introspect --installed lists {listed} of the unversioned "
                     f"names with unversioned_names={value}")
        print("check_install: the install plans of unversioned_names=true and false")

        # 7. a slice of the regression suite from the install location
        if not skip_regrtest:
            started = time.monotonic()
            out = run("/usr/bin/python3", os.path.join(HERE, "run_regrtest.py"),
                      "--python", installed, "--jobs", "2", "--timeout", "600",
                      "--skips", os.path.join(HERE, "regrtest-skips.txt"),
                      *([] if full_regrtest else ["--", *REGRTEST_SLICE]), check=False)
            print(out.stdout[-3000:])
            if out.returncode != 0:
                fail(f"the regression {'suite' if full_regrtest else 'slice'} from the install "
                     f"location:\n{out.stderr[-3000:]}")
            print(f"check_install: regression {'suite' if full_regrtest else 'slice'} "
                  f"from the install location passed "
                  f"({time.monotonic() - started:.0f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
