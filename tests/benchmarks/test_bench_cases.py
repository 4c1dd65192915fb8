"""`python3 -m workbench cases`: the disassembly reader, the path walk and the callgrind
profile reader on listings written here (tests/check_cases.py runs it on a real build)."""

import io

import pytest

from conftest import run_workbench
from workbench import cases

LISTING = """
/tmp/python:     file format elf64-x86-64

Disassembly of section .text:

0000000000001000 <_PyEval_EvalFrameDefault>:
    1000:\tmov    -0x8(%rbp),%rax
    1004:\tcmp    %rdx,0x8(%rax)
    1008:\tjne    1030 <_PyEval_EvalFrameDefault+0x30>
    100a:\tadd    $0x1,(%rax)
    100e:\tjmp    1020 <_PyEval_EvalFrameDefault+0x20>
    1010:\tud2
    1020:\tmovzbl (%rbx),%eax
    1023:\tnotrack jmp *%rax
    1030:\tcall   2000 <PyObject_GetAttr>
    1035:\tjmp    1000 <_PyEval_EvalFrameDefault>
    1037:\tret
"""


def listing():
    insns = cases.parse_listing(LISTING)
    return insns, {i.address: k for k, i in enumerate(insns)}


def test_the_listing_is_read_with_prefixes_and_targets():
    insns, _ = listing()
    assert [i.address for i in insns] == [0x1000, 0x1004, 0x1008, 0x100a, 0x100e, 0x1010, 0x1020,
                                          0x1023, 0x1030, 0x1035, 0x1037]
    dispatch = insns[7]
    assert (dispatch.mnemonic, dispatch.operands, dispatch.target) == ("jmp", "*%rax", None)
    assert insns[2].mnemonic == "jne" and insns[2].target == 0x1030
    assert insns[8].target == 0x2000


def test_without_counts_the_path_falls_through_and_follows_jumps():
    insns, code = listing()
    path = cases.hot_path(code, insns, 0x1000)
    assert [i.address for i in path.insns] == [0x1000, 0x1004, 0x1008, 0x100a, 0x100e, 0x1020,
                                               0x1023]
    assert path.end == "dispatch" and path.branches == 1 and path.calls == 0


def test_with_counts_the_path_takes_the_side_run_more_often():
    insns, code = listing()
    counts = {0x1000: 10, 0x1004: 10, 0x1008: 10, 0x100a: 3, 0x1030: 7, 0x1035: 7}
    path = cases.hot_path(code, insns, 0x1000, counts)
    # the taken side (7) beats the fall-through (3); its jump back closes a loop
    assert [i.address for i in path.insns] == [0x1000, 0x1004, 0x1008, 0x1030, 0x1035]
    assert path.end == "loop" and path.calls == 1
    counts[0x100a] = 7  # a tie: the fall-through
    assert cases.hot_path(code, insns, 0x1000, counts).end == "dispatch"


def test_a_path_ends_at_a_return_a_trap_or_where_the_code_ends():
    insns, code = listing()
    assert cases.hot_path(code, insns, 0x1037).end == "return"
    assert cases.hot_path(code, insns, 0x1010).end == "trap"
    assert cases.hot_path(code, insns, 0x9999).end == "leaves"


PROFILE = """# callgrind format
version: 1
creator: callgrind-3.19.0
positions: instr
events: Ir
ob=/tmp/python
fl=Python/ceval.c
fn=main
0x400010 5
cob=/tmp/python
cfl=Python/ceval.c
cfn=_PyEval_EvalFrameDefault
calls=2 0x508000
0x400014 1000
fn=_PyEval_EvalFrameDefault
0x508000 2
0x508004 2
cfn=PyObject_GetAttr
calls=1 0x600000
0x508008 400
0x508008 1
fn=_PyEval_EvalFrameDefault.cold
0x509000 3
fn=_PyEval_EvalFrameDefault'2
0x508004 5
fn=PyObject_GetAttr
0x600000 1
"""


def test_the_profile_counts_the_loops_own_instructions_at_their_addresses():
    costs = cases.loop_costs(io.StringIO(PROFILE), 0x1000)
    # moved by the call's target (0x508000 -> 0x1000); a recursive call's level (f'2) counted
    # with the rest; call costs and other functions left out
    assert costs == {0x1000: 2, 0x1004: 7, 0x1008: 1, 0x2000: 3}


def test_a_profile_without_a_call_of_the_loop_is_an_error():
    with pytest.raises(cases.CasesError, match="no call of _PyEval_EvalFrameDefault"):
        cases.loop_costs(io.StringIO("fn=_PyEval_EvalFrameDefault\n0x10 1\n"), 0x1000)


def test_the_table_puts_cases_side_by_side_and_sorts_by_executed_work():
    insns, code = listing()

    def case(name, opcode, address, runs, counts=None):
        return cases.Case(name, opcode, address, cases.hot_path(code, insns, address, counts),
                          16, False, runs)

    first = {"A": case("A", 1, 0x1000, 10), "B": case("B", 2, 0x1020, 100), "C": case("C", 3, 0x1037, 0)}
    other = {"A": case("A", 1, 0x1020, 10), "D": case("D", 4, 0x1000, 1)}
    text = cases.render([("gen", first), ("stock", other)])
    rows = [line for line in text.splitlines() if line.startswith("| ") and "opcode" not in line]
    assert [r.split(" | ")[0] for r in rows] == ["| B", "| A", "| C", "| D"]  # 200, 70, 0, -
    a = rows[1].split(" | ")
    assert a[1:3] == ["70", "7"] and a[-1] == "+5 |"
    assert "gen: 2 cases ran, 110 dispatches, 270 instructions on their paths" in text
    assert "1 longer in gen, 0 shorter" in text


def test_the_command_rejects_what_it_cannot_read(tmp_path):
    not_elf = tmp_path / "python"
    not_elf.write_text("#!/bin/sh\n")
    not_elf.chmod(0o755)
    result = run_workbench("cases", "--python", "x=%s" % not_elf)
    assert result.returncode == 2 and "not a 64-bit little-endian ELF file" in result.stderr
    result = run_workbench("cases", "--python", str(not_elf))
    assert result.returncode == 2 and "NAME=PATH" in result.stderr
