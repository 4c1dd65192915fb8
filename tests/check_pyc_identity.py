"""The .pyc identity of the build follows its code layout (generator/layout.py).

    check_pyc_identity.py BUILT_PYTHON CACHES_H REFERENCE_PYTHON

CACHES_H is the generated pycore_code_caches.h: QUICKEN_PYC_MAGIC_NUMBER and QUICKEN_CACHE_TAG
are what instructions/ make of the layout. The built interpreter must use exactly those
(importlib.util.MAGIC_NUMBER, sys.implementation.cache_tag, the header of the .pyc files it
writes). Then, against REFERENCE_PYTHON (Debian's python3.11, upstream 3.11.2's layout):

- same layout (upstream's magic number): both use one magic number and one cache tag, and a
  .pyc file the reference wrote is used by the build as it is;
- another layout: magic number and cache tag differ from the reference's, and importing a
  module the reference compiled neither reads nor touches its .pyc file: the build writes its
  own, under its own tag.

Prints one line per check; the last line is `N passed, N failed`; exit status 1 on a failure.
"""
import os
import re
import subprocess
import sys
import tempfile

IDENTITY = ("import importlib.util, sys; "
            "print(importlib.util.MAGIC_NUMBER.hex(), sys.implementation.cache_tag)")


def identity(python):
    out = subprocess.run([python, "-I", "-S", "-c", IDENTITY], capture_output=True, text=True,
                         check=True, timeout=60).stdout.split()
    return bytes.fromhex(out[0]), out[1]


def header_values(caches_h):
    with open(caches_h, encoding="utf-8") as f:
        text = f.read()
    magic = int(re.search(r"^#define QUICKEN_PYC_MAGIC_NUMBER (\d+)$", text, re.M).group(1))
    tag = re.search(r'^#define QUICKEN_CACHE_TAG "([^"]+)"$', text, re.M).group(1)
    return magic.to_bytes(2, "little") + b"\r\n", tag


def main(built, caches_h, reference):
    results = []

    def check(ok, what):
        results.append(ok)
        print("%s: %s" % ("ok" if ok else "FAILED", what))

    magic, tag = header_values(caches_h)
    built_magic, built_tag = identity(built)
    ref_magic, ref_tag = identity(reference)
    check(built_magic == magic, "importlib.util.MAGIC_NUMBER %s is the layout's %s"
          % (built_magic, magic))
    check(built_tag == tag, "sys.implementation.cache_tag %r is the layout's %r" % (built_tag, tag))
    same_layout = magic == ref_magic
    with tempfile.TemporaryDirectory() as tmp:
        with open(os.path.join(tmp, "probe_module.py"), "w") as f:
            f.write("def f(xs):\n    return [x for x in xs if x in (1, 2)]\nVALUE = f(range(5))\n")
        run = lambda python: subprocess.run(  # noqa: E731
            [python, "-I", "-S", "-c", "import sys; sys.path.insert(0, %r); import probe_module; "
             "print(probe_module.VALUE)" % tmp], capture_output=True, text=True, timeout=60)
        first = run(reference)
        cache = os.path.join(tmp, "__pycache__")
        ref_pyc = os.path.join(cache, "probe_module.%s.pyc" % ref_tag)
        check(first.stdout.strip() == "[1, 2]" and os.path.exists(ref_pyc),
              "the reference compiled the probe module into %s" % os.path.basename(ref_pyc))
        before = os.stat(ref_pyc)
        with open(ref_pyc, "rb") as f:
            ref_bytes = f.read()
        second = run(built)
        check(second.stdout.strip() == "[1, 2]", "the build imports the probe module")
        after = os.stat(ref_pyc)
        with open(ref_pyc, "rb") as f:
            untouched = f.read() == ref_bytes and after.st_mtime_ns == before.st_mtime_ns
        own = sorted(n for n in os.listdir(cache) if n != os.path.basename(ref_pyc))
        if same_layout:
            check(built_magic == ref_magic and built_tag == ref_tag,
                  "same layout as the reference: same magic number and cache tag")
            check(untouched and not own, "the build used the reference's .pyc file as it is")
        else:
            check(built_magic != ref_magic and built_tag != ref_tag,
                  "another layout than the reference's: another magic number and cache tag")
            check(untouched, "the reference's .pyc file was neither rewritten nor replaced")
            mine = os.path.join(cache, "probe_module.%s.pyc" % built_tag)
            ok = own == [os.path.basename(mine)]
            if ok:
                with open(mine, "rb") as f:
                    ok = f.read(4) == built_magic
            check(ok, "the build wrote its own %s with its magic number"
                  % os.path.basename(mine))
    failed = results.count(False)
    print("%d passed, %d failed" % (len(results) - failed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    if len(sys.argv) != 4:
        print(__doc__.strip().splitlines()[2].strip(), file=sys.stderr)
        sys.exit(2)
    sys.exit(main(*sys.argv[1:]))
