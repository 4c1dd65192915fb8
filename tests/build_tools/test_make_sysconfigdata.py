import runpy

from conftest import ROOT

from make_sysconfigdata import main, parse_config_h

CONFIG_H = """#ifndef Py_PYCONFIG_H
#define Py_PYCONFIG_H
/* Define if you have the 'accept4' function. */
#define HAVE_ACCEPT4 1
#define PY_SSL_DEFAULT_CIPHERS 1
#define SIZEOF_VOID_P 8
#define _GNU_SOURCE 1
#define PY_BUILTIN_HASHLIB_HASHES "md5,sha1,sha256,sha512,sha3,blake2"
/* #undef Py_DEBUG */
#define WITH_DOC_STRINGS
#endif
"""


def test_parse_config_h_like_sysconfig():
    facts = parse_config_h(CONFIG_H)
    assert facts["HAVE_ACCEPT4"] == 1
    assert facts["SIZEOF_VOID_P"] == 8
    assert facts["Py_DEBUG"] == 0
    assert facts["WITH_DOC_STRINGS"] == 1
    assert facts["PY_BUILTIN_HASHLIB_HASHES"] == '"md5,sha1,sha256,sha512,sha3,blake2"'
    assert "Py_PYCONFIG_H" in facts  # the include guard is a define too, as upstream reports it


def test_output_is_a_module_with_both_sources(tmp_path):
    config_h = tmp_path / "pyconfig.h"
    config_h.write_text(CONFIG_H)
    out = tmp_path / "_sysconfigdata__linux_x86_64-linux-gnu.py"
    assert main([str(config_h), str(out), "CC=gcc", "EXT_SUFFIX=.cpython-311-x86_64-linux-gnu.so",
                 "Py_ENABLE_SHARED=0", "SIZEOF_VOID_P=4"]) == 0
    facts = runpy.run_path(str(out))["build_time_vars"]
    assert facts["CC"] == "gcc"
    assert facts["EXT_SUFFIX"] == ".cpython-311-x86_64-linux-gnu.so"
    assert facts["Py_ENABLE_SHARED"] == 0
    assert facts["SIZEOF_VOID_P"] == 8  # pyconfig.h wins, as in upstream's generator
    assert list(facts) == sorted(facts)


def test_reproducible_across_processes_and_hash_seeds(tmp_path):
    import subprocess
    import sys
    config_h = tmp_path / "pyconfig.h"
    config_h.write_text(CONFIG_H)
    tool = ROOT / "runtime" / "tools" / "make_sysconfigdata.py"
    outputs = []
    for seed in ("0", "1", "12345"):
        out = tmp_path / f"out-{seed}.py"
        subprocess.run([sys.executable, str(tool), str(config_h), str(out), "B=2", "A=1", "Z=x y"],
                       check=True, env={"PYTHONHASHSEED": seed})
        outputs.append(out.read_bytes())
    assert outputs[0] == outputs[1] == outputs[2]


def test_makefile_mode_writes_make_syntax_sysconfig_can_read(tmp_path):
    import sysconfig
    out = tmp_path / "Makefile"
    assert main(["--makefile", str(out), "CC=gcc", "OPT=-DNDEBUG -g -O3", "SIZEOF_X=8"]) == 0
    text = out.read_text()
    assert "CC=\tgcc\n" in text
    parsed = sysconfig._parse_makefile(str(out))
    assert parsed["OPT"] == "-DNDEBUG -g -O3"
    assert parsed["SIZEOF_X"] == 8


def test_usage_errors(capsys):
    assert main([]) == 2
    assert main(["--makefile"]) == 2
    assert "usage:" in capsys.readouterr().err


def test_unreadable_pyconfig_writes_nothing(tmp_path):
    import pytest
    out = tmp_path / "_sysconfigdata.py"
    with pytest.raises(FileNotFoundError):
        main([str(tmp_path / "missing.h"), str(out), "CC=gcc"])
    assert list(tmp_path.iterdir()) == []
