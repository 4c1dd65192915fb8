#!/usr/bin/env python3
"""Write Modules/config.c, the table of built-in modules (upstream's makesetup step).

usage: make_config_c.py CONFIG_C_IN OUTPUT MODULE...

Inserts one `extern PyObject* PyInit_<module>(void);` declaration at ADDMODULE MARKER 1 and one
`{"<module>", PyInit_<module>},` entry at ADDMODULE MARKER 2 of upstream's Modules/config.c.in,
in the order given. The output is written to a temporary file and renamed, so a failure never
leaves a partial config.c behind.
"""
import sys

from atomic_write import write_text_atomically

MARKER_DECLARATIONS = "/* -- ADDMODULE MARKER 1 -- */"
MARKER_ENTRIES = "/* -- ADDMODULE MARKER 2 -- */"


def make_config_c(template: str, modules: list[str]) -> str:
    for marker in (MARKER_DECLARATIONS, MARKER_ENTRIES):
        if template.count(marker) != 1:
            raise SystemExit(f"make_config_c.py: expected exactly one {marker!r} in the template")
    declarations = "".join(f"extern PyObject* PyInit_{m}(void);\n" for m in modules)
    entries = "".join(f'    {{"{m}", PyInit_{m}}},\n' for m in modules)
    text = template.replace(MARKER_DECLARATIONS, declarations + MARKER_DECLARATIONS)
    return text.replace(MARKER_ENTRIES, entries + MARKER_ENTRIES)


def main(argv: list[str]) -> int:
    if len(argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    template_path, output_path, modules = argv[0], argv[1], argv[2:]
    with open(template_path, encoding="utf-8") as f:
        text = make_config_c(f.read(), modules)
    write_text_atomically(output_path, text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
