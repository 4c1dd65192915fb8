"""`python3 -m generator lines DIR`: the cases and the specialize functions with #line
directives (emit_lines.py). Every line under a directive into instructions/ is that source
line (or the expansion of the DSL statement written there); every line under a directive into
the generated file has the number the directive gives it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from generator.__main__ import main
from genutil import ROOT

DIRECTIVE = re.compile(r'^#line (\d+) "([^"]+)"$')
EXPANSIONS = ("DEOPT_IF(", "if (", "STACK_SHRINK(", "STACK_GROW(", "goto ", "}", "{", "POKE(",
              "JUMPBY(", "DISPATCH();", "DISPATCH_NO_TRACE_CHECK();", "CHECK_EVAL_BREAKER();",
              "PREDICT(", "frame->prev_instr = ", "FAIL_WITH(", "KEEP_GENERIC_WITH(", "return -1;",
              "//")
# What a line of instructions/ holds (after its `case X:`, say) when the generated line under its directive differs:
# a DSL statement (docs/dsl.md section 4) or a raw `goto` to an error exit.
STATEMENTS = ("DEOPT_IF(", "ERROR_IF(", "DISPATCH", "REJECT_IF(", "FAIL_IF(", "FAIL(",
              "KEEP_GENERIC(", "goto ")


def check_directives(text: str, generated: Path) -> dict[str, int]:
    """Check every directive of `text`; return how many lines went to each kind of origin."""
    sources: dict[str, list[str]] = {}
    counts = {"source": 0, "expansion": 0, "generated": 0}
    lines = text.split("\n")
    origin = None
    for index, line in enumerate(lines):
        m = DIRECTIVE.match(line)
        if m:
            origin = (Path(m.group(2)), int(m.group(1)))
            continue
        if origin is None:
            continue  # before the first directive: the file's own numbering
        path, number = origin
        if path == generated:
            assert number == index + 1, (index, line)
            counts["generated"] += 1
        else:
            assert path.suffix == ".inst" and path.is_absolute()
            src = sources.setdefault(str(path), path.read_text().split("\n"))
            expected = src[number - 1].strip()
            if line.strip() == expected:
                counts["source"] += 1
            elif expected.endswith(");") and line.strip().startswith(expected[:-2] + ", "):
                counts["expansion"] += 1  # the last line of a DEOPT_IF written on several
            else:  # the expansion of the DSL statement written on that line
                assert any(s in expected for s in STATEMENTS), (line, expected)
                assert any(e in line for e in EXPANSIONS), (line, expected)
                counts["expansion"] += 1
        origin = (path, number + 1)
    return counts


def test_line_directives_of_the_real_instructions(tmp_path):
    assert main(["lines", str(tmp_path)]) == 0
    minimum = {"generated_cases.c.h": (2000, 200, 1000), "specialize_families.c.h": (200, 200, 400)}
    for name, (source, expansion, generated) in minimum.items():
        out = tmp_path / name
        text = out.read_text()
        counts = check_directives(text, out.resolve())
        assert counts["source"] > source and counts["expansion"] > expansion \
            and counts["generated"] > generated, (name, counts)
        # Without the directives it is the committed file, line for line.
        committed = (ROOT / "runtime/generated/Python" / name).read_text()
        assert [line for line in text.split("\n") if not DIRECTIVE.match(line)] == \
            committed.split("\n")


def test_a_deopt_if_an_error_if_and_a_when_point_at_their_lines(project, tmp_path):
    root = project("""
        cache C {
            counter: 1;
        }
        inst A = 100 (x -- r) {
            r = x;
        }
        inst A_M (x -- r)
        when {
            REJECT_IF(x == NULL);
            FAIL_IF(x == Py_None, NONE);
        }
        {
            DEOPT_IF(x == NULL);
            r = f(x);
            ERROR_IF(r == NULL, error);
        }
        family A {
            cache: C;
            adaptive: A_AD;
            members: A_M;
            failures: NONE;
            specialize { }
        }
    """)
    assert main(["lines", str(tmp_path), "--root", str(root)]) == 0
    inst = (root / "instructions" / "test.inst").resolve()
    cases = (tmp_path / "generated_cases.c.h").read_text()
    case = cases[cases.index("TARGET(A_M)"):]
    assert f'#line 13 "{inst}"\n            DEOPT_IF(x == NULL, A);\n' \
           f'            r = f(x);\n' in case
    assert f'            if (r == NULL) goto pop_1_error;\n#line' in case
    functions = (tmp_path / "specialize_families.c.h").read_text()
    when = functions[functions.index("// A_M"):]
    assert f'#line 9 "{inst}"\n        if (x == NULL) {{\n' in when
    # the next line of the source, after REJECT_IF's three lines under the directive above
    assert '        }\n        if (x == Py_None) {\n' in when
    for name in ("generated_cases.c.h", "specialize_families.c.h"):
        check_directives((tmp_path / name).read_text(), (tmp_path / name).resolve())


def test_lines_needs_its_output(capsys):
    with pytest.raises(SystemExit):
        main(["lines"])
    assert "lines needs the folder to write to" in capsys.readouterr().err
