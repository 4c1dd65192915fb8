"""`python3 -m generator lines OUT`: the cases with #line directives (emit_lines.py). Every
line under a directive into instructions/ is that source line (or the expansion of the DSL
statement written there); every line under a directive into the generated file has the number
the directive gives it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from generator.__main__ import main
from genutil import ROOT

DIRECTIVE = re.compile(r'^#line (\d+) "([^"]+)"$')
EXPANSIONS = ("DEOPT_IF(", "if (", "STACK_SHRINK(", "STACK_GROW(", "goto ", "}", "{", "POKE(",
              "JUMPBY(", "DISPATCH();", "DISPATCH_NO_TRACE_CHECK();", "CHECK_EVAL_BREAKER();",
              "PREDICT(", "if (", "frame->prev_instr = ")


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
            else:  # the expansion of the DSL statement written on that line
                assert expected.startswith(("DEOPT_IF(", "ERROR_IF(", "DISPATCH")), (line, expected)
                assert line.strip().startswith(EXPANSIONS), (line, expected)
                counts["expansion"] += 1
        origin = (path, number + 1)
    return counts


def test_line_directives_of_the_real_instructions(tmp_path):
    out = tmp_path / "generated_cases.c.h"
    assert main(["lines", str(out)]) == 0
    text = out.read_text()
    counts = check_directives(text, out.resolve())
    assert counts["source"] > 2000 and counts["expansion"] > 200 and counts["generated"] > 1000
    # Without the directives it is the committed file, line for line.
    committed = (ROOT / "runtime/generated/Python/generated_cases.c.h").read_text()
    assert [line for line in text.split("\n") if not DIRECTIVE.match(line)] == \
        committed.split("\n")


def test_a_deopt_if_and_an_error_if_point_at_their_lines(project, tmp_path):
    root = project("""
        cache C {
            counter: 1;
        }
        inst A = 100 (x -- r) {
            r = x;
        }
        inst A_AD (x -- unused) {
            DISPATCH_SAME_OPARG();
        }
        inst A_M (x -- r) {
            DEOPT_IF(x == NULL);
            r = f(x);
            ERROR_IF(r == NULL, error);
        }
        family A {
            cache: C;
            adaptive: A_AD;
            members: A_M;
        }
    """)
    out = tmp_path / "cases.h"
    assert main(["lines", str(out), "--root", str(root)]) == 0
    text = out.read_text()
    inst = (root / "instructions" / "test.inst").resolve()
    case = text[text.index("TARGET(A_M)"):]
    assert f'#line 11 "{inst}"\n            DEOPT_IF(x == NULL, A);\n' \
           f'            r = f(x);\n' in case
    assert f'            if (r == NULL) goto pop_1_error;\n#line' in case
    check_directives(text, out.resolve())


def test_lines_needs_its_output(capsys):
    with pytest.raises(SystemExit):
        main(["lines"])
    assert "lines needs the file to write" in capsys.readouterr().err
