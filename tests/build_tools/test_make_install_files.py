import os
import re

import pytest

from make_install_files import main, make_script, make_setup

UPSTREAM = os.path.join(os.path.dirname(__file__), "..", "..", "subprojects", "Python-3.11.2")


def test_setup_markers_follow_the_built_modules():
    text = make_setup("*@MODULE_BUILDTYPE@*\n@MODULE__JSON_TRUE@_json _json.c\n"
                      "@MODULE__SSL_TRUE@_ssl _ssl.c\n#@MODULE__DBM_TRUE@_dbm _dbmmodule.c\n",
                      ["_json", "array"])
    # a line upstream comments out stays so, with configure's second `#`
    assert text == "*shared*\n_json _json.c\n#_ssl _ssl.c\n##_dbm _dbmmodule.c\n"


def test_setup_unknown_substitution_is_an_error():
    with pytest.raises(SystemExit, match="@FOO@"):
        make_setup("@FOO@ x.c\n", [])


@pytest.mark.skipif(not os.path.isdir(UPSTREAM), reason="no upstream tree")
def test_upstream_setup_files_substitute_completely():
    for name in ["Setup.bootstrap.in", "Setup.stdlib.in"]:
        with open(os.path.join(UPSTREAM, "Modules", name)) as f:
            text = make_setup(f.read(), ["pwd", "math"])
        assert not re.search(r"@MODULE_[A-Z0-9_]+@", text)
    assert "\nmath mathmodule.c" in text


def test_script_gets_the_interpreter():
    assert make_script("#!/usr/bin/env python3\nimport pydoc\n", "/usr/local/bin/python3.11") \
        == "#!/usr/local/bin/python3.11\nimport pydoc\n"
    with pytest.raises(SystemExit, match="no python"):
        make_script("import pydoc\n", "/x")


def test_main_writes_setup_local(tmp_path):
    out = tmp_path / "Setup.local"
    assert main(["setup-local", str(out)]) == 0
    assert out.read_text() == "# Edit this file for local setup changes\n"
    assert main(["bogus"]) == 2
