"""importlib's _bootstrap_external.py with the magic number of the build's code layout.

    set_pyc_magic.py UPSTREAM_FILE CACHES_H OUT

CACHES_H is the generated pycore_code_caches.h, whose QUICKEN_PYC_MAGIC_NUMBER is the magic
number of the layout in instructions/ (generator/layout.py): upstream's own (3495) while the
layout is upstream 3.11.2's, and then OUT is upstream's file unchanged. Otherwise the one line
`MAGIC_NUMBER = (3495).to_bytes(2, 'little') + b'\\r\\n'` gets the other number, and the build
freezes that file, so that importlib.util.MAGIC_NUMBER, the .pyc files it writes and the ones it
accepts all follow the layout.
"""
import re
import sys

from atomic_write import write_text_atomically

LINE = re.compile(r"^MAGIC_NUMBER = \((\d+)\)\.to_bytes\(2, 'little'\) \+ b'\\r\\n'$", re.M)
DEFINE = re.compile(r"^#define QUICKEN_PYC_MAGIC_NUMBER (\d+)$", re.M)


def main(argv):
    if len(argv) != 3:
        print("usage: " + __doc__.strip().splitlines()[2].strip(), file=sys.stderr)
        return 2
    upstream, caches_h, out = argv
    with open(upstream, encoding="utf-8") as f:
        text = f.read()
    with open(caches_h, encoding="utf-8") as f:
        defines = DEFINE.findall(f.read())
    lines = LINE.findall(text)
    if len(defines) != 1:
        sys.exit("set_pyc_magic: %s defines QUICKEN_PYC_MAGIC_NUMBER %d times"
                 % (caches_h, len(defines)))
    if len(lines) != 1:
        sys.exit("set_pyc_magic: %s has %d MAGIC_NUMBER lines, expected 1" % (upstream, len(lines)))
    magic = int(defines[0])
    if magic != int(lines[0]):
        text = LINE.sub("# quicken: the magic number of this build's code layout "
                        "(generator/layout.py)\n"
                        "MAGIC_NUMBER = (%d).to_bytes(2, 'little') + b'\\\\r\\\\n'" % magic, text)
    write_text_atomically(out, text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
