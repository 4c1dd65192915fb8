import pytest

from make_config_c import main, make_config_c

TEMPLATE = """#include "Python.h"
/* -- ADDMODULE MARKER 1 -- */
extern PyObject* PyInit_gc(void);
struct _inittab _PyImport_Inittab[] = {
/* -- ADDMODULE MARKER 2 -- */
    {"gc", PyInit_gc},
    {0, 0}
};
"""


def test_declarations_and_entries_in_given_order():
    text = make_config_c(TEMPLATE, ["posix", "_io"])
    assert "extern PyObject* PyInit_posix(void);\nextern PyObject* PyInit__io(void);\n" \
           "/* -- ADDMODULE MARKER 1 -- */" in text
    assert '    {"posix", PyInit_posix},\n    {"_io", PyInit__io},\n' \
           "/* -- ADDMODULE MARKER 2 -- */" in text
    # upstream's own entries stay after the markers
    assert text.index('{"_io", PyInit__io}') < text.index('{"gc", PyInit_gc}')


def test_template_without_marker_is_an_error():
    with pytest.raises(SystemExit, match="ADDMODULE MARKER 2"):
        make_config_c(TEMPLATE.replace("/* -- ADDMODULE MARKER 2 -- */", ""), ["posix"])


def test_failure_leaves_no_output(tmp_path):
    template = tmp_path / "config.c.in"
    template.write_text("no markers here\n")
    out = tmp_path / "config.c"
    with pytest.raises(SystemExit):
        main([str(template), str(out), "posix"])
    assert not out.exists()
    assert not (tmp_path / "config.c.tmp").exists()
