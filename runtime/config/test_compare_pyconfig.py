"""Tests of scripts/compare-pyconfig: what counts as a difference between two pyconfig.h files.

Run: /usr/bin/python3 -m pytest runtime/config/test_compare_pyconfig.py
"""

import importlib.machinery
import importlib.util
import pathlib
import sys

import pytest

SCRIPT = pathlib.Path(__file__).resolve().parents[2] / "scripts" / "compare-pyconfig"
_loader = importlib.machinery.SourceFileLoader("compare_pyconfig", str(SCRIPT))
_spec = importlib.util.spec_from_loader("compare_pyconfig", _loader)
compare_pyconfig = importlib.util.module_from_spec(_spec)
_dont_write_bytecode, sys.dont_write_bytecode = sys.dont_write_bytecode, True   # no scripts/__pycache__
_loader.exec_module(compare_pyconfig)
sys.dont_write_bytecode = _dont_write_bytecode

# Upstream's layout: autoheader comments, an include guard, #ifndef-wrapped system extensions,
# a macro inside a conditional for another system.
UPSTREAM = """\
/* pyconfig.h.  Generated from pyconfig.h.in by configure.  */
#ifndef Py_PYCONFIG_H
#define Py_PYCONFIG_H

/* The size of `long', as computed by sizeof. */
#define SIZEOF_LONG 8

/* Define to 1 if you have the <zlib.h> header file. */
/* #undef HAVE_ZLIB_H */

/* Enable GNU extensions on systems that have them.  */
#ifndef _GNU_SOURCE
# define _GNU_SOURCE 1
#endif

#define PY_BUILTIN_HASHLIB_HASHES "md5,sha1"

#if defined(__USLC__) && defined(__SCO_VERSION__)
#define STRICT_SYSV_CURSES /* Don't use ncurses extensions */
#endif
#endif /*Py_PYCONFIG_H*/
"""


def run(tmp_path, reference: str, generated: str, capsys):
    (tmp_path / "reference.h").write_text(reference)
    (tmp_path / "generated.h").write_text(generated)
    status = compare_pyconfig.main([str(tmp_path / "reference.h"), str(tmp_path / "generated.h")])
    return status, capsys.readouterr().out


def test_layout_order_and_comments_do_not_matter(tmp_path, capsys):
    generated = """\
#define Py_PYCONFIG_H
#define PY_BUILTIN_HASHLIB_HASHES   "md5,sha1"
#define _GNU_SOURCE 1
#define SIZEOF_LONG \\
    8
"""
    status, out = run(tmp_path, UPSTREAM, generated, capsys)
    assert status == 0, out


def test_each_kind_of_difference_is_reported(tmp_path, capsys):
    generated = """\
#define Py_PYCONFIG_H
#define SIZEOF_LONG 4
#define HAVE_ZLIB_H 1
#define PY_BUILTIN_HASHLIB_HASHES "md5,sha1"
"""
    status, out = run(tmp_path, UPSTREAM, generated, capsys)
    assert status == 1
    assert "different  SIZEOF_LONG: reference 8, generated 4" in out
    assert "extra      HAVE_ZLIB_H = 1" in out
    assert "missing    _GNU_SOURCE (reference: 1)" in out


def test_whitespace_inside_string_literals_is_significant(tmp_path, capsys):
    status, out = run(tmp_path, '#define S "a  b"\n', '#define S "a b"\n', capsys)
    assert status == 1 and "different  S" in out


@pytest.mark.parametrize("condition, defined", [
    ("defined X && !defined(Y)", True),
    ("X == 2 || 0", True),
    ("X > 2", False),
    ("defined(Y)", False),
])
def test_conditions_follow_the_macros_defined_above(tmp_path, condition, defined):
    header = tmp_path / "conditions.h"
    header.write_text(f"#define X 2\n#if {condition}\n#define R 1\n#else\n#define R 0\n#endif\n")
    assert compare_pyconfig.macros_of(str(header))["R"] == ("1" if defined else "0")


def test_unbalanced_conditionals_are_an_error(tmp_path, capsys):
    status, _ = run(tmp_path, "#if 1\n#define A 1\n", "#define A 1\n", capsys)
    assert status == 2

