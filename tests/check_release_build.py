#!/usr/bin/env python3
"""scripts/release-build on a small training set: instrument, train, rebuild with the profile.

usage: check_release_build.py PROJECT_ROOT [MESON_SETUP_OPTION...]
       check_release_build.py --check BUILD_DIR   (only the checks, on a release build made by hand)

Runs the script into a scratch build folder with `--training test_grammar` and the given
options (the outer build's interpreter), then checks what a release build is:
- the training wrote profiles, among them the evaluation loop's (ceval.c's object);
- the final configuration compiles with -fprofile-use, -fprofile-correction, -flto and
  -ffat-lto-objects and links with -flto-partition=none (upstream's flags for gcc);
- libpython3.11.a holds fat LTO objects: LTO bytecode and machine code both, so a program
  linked without LTO links with it: one is compiled with -fno-lto, linked against the archive
  and run, embedding the interpreter;
- the optimized interpreter runs a program, and imports an extension module;
- the instruction cases the training ran were compiled as executed code: the dispatch table's
  entries for LOAD_FAST, LOAD_CONST, STORE_FAST and RETURN_VALUE lie in _PyEval_EvalFrameDefault
  itself, not in the part gcc puts aside as never executed (_PyEval_EvalFrameDefault.cold,
  optimized for size), where gcc put every case of the generated loop without
  -fprofile-partial-training (interpreter_loop_args in meson.build);
- wrong usage exits 2 with the usage line.
The full training (upstream's --pgo test list) runs only by hand; docs/build.md gives its time.
"""
import bisect
import glob
import json
import os
import subprocess
import sys
import tempfile

EMBED = r"""
#include <Python.h>
int main(void) {
    Py_Initialize();
    int rc = PyRun_SimpleString(
        "import sys, json\n"
        "print('embedded', json.dumps({'sum': sum(range(10))}), sys.version_info[:2])\n");
    if (Py_FinalizeEx() < 0) return 120;
    return rc == 0 ? 0 : 1;
}
"""


def fail(message):
    sys.exit("check_release_build: " + message)


def run(*command, cwd=None, env=None, check=True):
    result = subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True)
    if check and result.returncode != 0:
        fail(f"{' '.join(command)} failed ({result.returncode}):\n"
             f"{result.stdout[-4000:]}\n{result.stderr[-4000:]}")
    return result


def main(root, setup_options):
    script = os.path.join(root, "scripts", "release-build")
    usage = run(script, check=False)
    if usage.returncode != 2 or "usage: scripts/release-build" not in usage.stderr:
        fail(f"release-build without a folder: status {usage.returncode}, {usage.stderr!r}")

    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    with tempfile.TemporaryDirectory(prefix="release-build-") as scratch:
        build = os.path.join(scratch, "build")
        out = run(script, "--training", "test_grammar", build, *setup_options, cwd=root, env=env)
        log = out.stdout
        for line in ("release-build: instrument", "release-build: train",
                     "release-build: optimize", "release-build: done"):
            if line not in log:
                fail(f"no '{line}' in the script's output:\n{log[-3000:]}")
        print("\n".join(line for line in log.splitlines() if line.startswith("release-build:")))

        check(build, env, scratch)
    print("check_release_build: OK")


def check(build, env, scratch):
    # os.walk, not glob: Meson's object names start with a dot ('.._subprojects_...').
    profiles = [name for _, _, names in os.walk(build) for name in names if name.endswith(".gcda")]
    if not any(name.endswith("ceval.c.gcda") for name in profiles):
        fail(f"no profile of ceval.c among {len(profiles)} profiles")

    options = {o["name"]: o["value"] for o in json.loads(
        run("meson", "introspect", "--buildoptions", build).stdout)}
    if options["b_pgo"] != "use" or options["b_lto"] is not True:
        fail(f"final configuration b_pgo={options['b_pgo']} b_lto={options['b_lto']}")
    with open(os.path.join(build, "build.ninja")) as f:
        ninja = f.read()
    for flag in ("-fprofile-use", "-fprofile-correction", "-flto", "-ffat-lto-objects",
                 "-flto-partition=none"):
        if flag not in ninja:
            fail(f"{flag} is not in {build}/build.ninja")

    libpython = glob.glob(os.path.join(build, "runtime", "libpython3.11*.a"))
    if len(libpython) != 1:
        fail(f"libpython archive: {libpython}")
    members = run("ar", "t", libpython[0]).stdout.split()
    ceval = [m for m in members if m.endswith("ceval.c.o")]
    if not ceval:
        fail("no ceval.c.o in " + libpython[0])
    with tempfile.TemporaryDirectory() as extract:
        run("ar", "x", libpython[0], ceval[0], cwd=extract)
        sections = run("objdump", "-h", os.path.join(extract, ceval[0])).stdout
    if ".gnu.lto_" not in sections:
        fail("ceval.c.o has no LTO sections: not an LTO object")
    # Machine code: .text and, with a profile, .text.hot/.text.unlikely/.text.startup.
    code = sum(int(fields[2], 16) for fields in map(str.split, sections.splitlines())
               if len(fields) > 2 and fields[1].startswith(".text"))
    if code < 10000:
        fail(f"ceval.c.o has {code} bytes of machine code: not a fat LTO object")

    python = os.path.join(build, "python")
    out = run(python, "-c", "import _decimal, sys; print(sum(i * i for i in range(1000)), "
                            "sys.flags.optimize)", env=env).stdout.split()
    if out != ["332833500", "0"]:
        fail(f"the optimized interpreter printed {out}")

    check_hot_cases(python, env)

    # A program embedding Python, compiled and linked without LTO against the archive.
    cfg = json.loads(run(python, "-c", "import json, sysconfig; print(json.dumps({k: "
                         "sysconfig.get_config_var(k) for k in ('LIBS', 'SYSLIBS', "
                         "'LINKFORSHARED')}))", env=env).stdout)
    srcdir = run(python, "-c", "import sysconfig; print(sysconfig.get_config_var('srcdir'))",
                 env=env).stdout.strip()
    source = os.path.join(scratch, "embed.c")
    with open(source, "w") as f:
        f.write(EMBED)
    program = os.path.join(scratch, "embed")
    command = (["gcc", "-fno-lto", "-O1", "-I", build, "-I", os.path.join(srcdir, "Include"),
                source, "-o", program, libpython[0]]
               + cfg["LIBS"].split() + cfg["SYSLIBS"].split() + ["-lpthread", "-lutil"]
               + cfg["LINKFORSHARED"].split())
    run(*command)
    embedded = run(program, env=dict(env, PYTHONPATH=os.path.join(srcdir, "Lib"))).stdout
    if "embedded" not in embedded or '{"sum": 45}' not in embedded:
        fail(f"the embedding program printed {embedded!r}")


def check_hot_cases(python, env):
    """Fail if the dispatch table sends hot instructions into the never-executed code."""
    symbols = []  # (address, name) of every symbol with an address, sorted
    for line in run("nm", "-n", python).stdout.splitlines():
        fields = line.split()
        if len(fields) == 3:
            symbols.append((int(fields[0], 16), fields[2]))
    tables = [address for address, name in symbols if name.split(".")[0] == "opcode_targets"]
    if len(tables) != 1:
        fail(f"{python}: {len(tables)} symbols named opcode_targets, expected one")
    names = ("LOAD_FAST", "LOAD_CONST", "STORE_FAST", "RETURN_VALUE")
    opcodes = json.loads(run(python, "-c", "import json, opcode; print(json.dumps("
                             f"[opcode.opmap[n] for n in {names!r}]))", env=env).stdout)
    sections = run("readelf", "-S", "-W", python).stdout.replace("[ ", "[").splitlines()
    with open(python, "rb") as f:
        image = f.read()
    for line in sections:  # the table is in .data.rel.ro (PIE) or .data
        fields = line.split()
        if len(fields) > 6 and fields[0].strip("[]").isdigit() and fields[2] != "NOBITS":
            start, offset, size = (int(fields[i], 16) for i in (3, 4, 5))
            if start <= tables[0] < start + size:
                base = offset + tables[0] - start
                break
    else:
        fail(f"{python}: opcode_targets is in no section with contents")
    addresses = [int.from_bytes(image[base + 8 * op: base + 8 * op + 8], "little") for op in opcodes]
    starts = [address for address, _ in symbols]
    for name, address in zip(names, addresses):
        owner = symbols[bisect.bisect_right(starts, address) - 1][1]
        if owner != "_PyEval_EvalFrameDefault":
            fail(f"{python}: the case of {name} is in {owner}, not in _PyEval_EvalFrameDefault: "
                 "gcc compiled it as never executed")


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__.splitlines()[2])
    if sys.argv[1] == "--check" and len(sys.argv) == 3:
        with tempfile.TemporaryDirectory() as scratch:
            check(os.path.abspath(sys.argv[2]),
                  {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}, scratch)
        print("check_release_build: OK")
    else:
        main(os.path.abspath(sys.argv[1]), sys.argv[2:])
