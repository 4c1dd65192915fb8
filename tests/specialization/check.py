"""Each family's specializer decides as upstream's does: probe.py's situations, run on the built
interpreter and on upstream 3.11.2 (Debian's python3.11, the same source), leave every
instruction in the same form, except where a member this project added applies.

    check.py BUILT_PYTHON [REFERENCE_PYTHON]
    check.py --generic BUILT_PYTHON

--generic checks the generic baseline (-Dspecialize=false): after the same situations, every
instruction of every family is still its generic form.

ADDITIONS lists the project's members and the form upstream leaves at their sites; adding a
member adds a line here, not a test. A Py_STATS build (-Dstats=true) keeps the adaptive form
where upstream's release build installs the generic instruction for good (KEEP_GENERIC: a
BINARY_OP operator without members, a COMPARE_OP without a jump after it), as upstream's
stats build does, so that the attempts are counted; there, GENERIC_ADAPTIVE matches GENERIC.
"""

import difflib
import subprocess
import sys
from pathlib import Path

PROBE = Path(__file__).with_name("probe.py")
REFERENCE = "/usr/bin/python3.11"

# member added by this project -> what upstream 3.11.2 leaves where the member applies
ADDITIONS = {
    "BINARY_SUBSCR_STR_INT": "BINARY_SUBSCR_ADAPTIVE",
    "CONTAINS_OP_ADAPTIVE": "CONTAINS_OP",
    "CONTAINS_OP_DICT": "CONTAINS_OP",
    "CONTAINS_OP_SET": "CONTAINS_OP",
    "CONTAINS_OP_STR": "CONTAINS_OP",
    "FOR_ITER_ADAPTIVE": "FOR_ITER",
    "FOR_ITER_LIST": "FOR_ITER",
    "FOR_ITER_TUPLE": "FOR_ITER",
    "FOR_ITER_RANGE": "FOR_ITER",
    # superinstructions the advisor chose (docs/workbench.md): upstream installs the shorter
    # run that starts at the same instruction, or none
    "STORE_FAST__LOAD_FAST__LOAD_FAST": "STORE_FAST__LOAD_FAST",
    "STORE_FAST__LOAD_FAST__LOAD_CONST": "STORE_FAST__LOAD_FAST",
    "LOAD_CONST__RETURN_VALUE": "LOAD_CONST",
    "LOAD_FAST__POP_JUMP_FORWARD_IF_FALSE": "LOAD_FAST",
    "LOAD_FAST__LOAD_FAST__LOAD_CONST": "LOAD_FAST__LOAD_FAST",
    "LOAD_FAST__LOAD_FAST__LOAD_FAST": "LOAD_FAST__LOAD_FAST",
}


def forms(python):
    result = subprocess.run([python, "-I", "-S", "-B", str(PROBE)], capture_output=True,
                            text=True, timeout=300)
    if result.returncode:
        sys.exit("%s failed (exit %d):\n%s" % (python, result.returncode, result.stderr))
    return result.stdout.splitlines()


def is_stats_build(python):
    query = "import sysconfig; print(sysconfig.get_config_var('Py_STATS'))"
    result = subprocess.run([python, "-I", "-S", "-c", query], capture_output=True, text=True,
                            timeout=60)
    return result.stdout.strip() == "1"


def check_generic(built):
    got = forms(built)
    # the adaptive forms and members of the families that specialize (quick forms and
    # superinstructions are in opcode._specializations too, and have options of their own)
    query = ("import opcode; print(*[m for ms in opcode._specializations.values() "
             "if any(m.endswith('_ADAPTIVE') for m in ms) for m in ms])")
    forbidden = set(subprocess.run([built, "-I", "-S", "-c", query], capture_output=True,
                                   text=True, timeout=60, check=True).stdout.split())
    specialized = [line for line in got if line.split()[2] in forbidden]
    print("%d instructions in %d cases; %d adaptive and specialized forms, none of which may appear"
          % (len(got), len({line.split()[0] for line in got}), len(forbidden)))
    if not got or not forbidden:
        print("1 failed: the probe printed no family instruction")
        return 1
    if specialized:
        print("1 failed: a generic-baseline build specialized:\n  " + "\n  ".join(specialized[:20]))
        return 1
    print("every instruction of a specializing family stayed generic")
    return 0


def main():
    if sys.argv[1] == "--generic":
        return check_generic(sys.argv[2])
    built = sys.argv[1]
    reference = sys.argv[2] if len(sys.argv) > 2 else REFERENCE
    got = forms(built)
    expected = forms(reference)
    stats = is_stats_build(built)
    mapped = []
    for line, want in zip(got, expected + [""] * len(got)):
        case, position, name = line.split()
        name = ADDITIONS.get(name, name)
        if stats and name.endswith("_ADAPTIVE") and want.split()[2:] == [name[:-9]]:
            name = name[:-9]
        mapped.append(" ".join((case, position, name)))
    used = {line.split()[2] for line in got} & set(ADDITIONS)
    print("%d instructions in %d cases; project members seen: %s"
          % (len(got), len({line.split()[0] for line in got}), ", ".join(sorted(used)) or "-"))
    if mapped != expected:
        sys.stdout.writelines(difflib.unified_diff(
            [line + "\n" for line in expected], [line + "\n" for line in mapped],
            reference, built))
        print("1 failed: the built interpreter specializes differently")
        return 1
    unused = set(ADDITIONS) - used
    if unused:
        print("1 failed: project members no situation in probe.py reaches: %s"
              % ", ".join(sorted(unused)))
        return 1
    print("specializations agree with %s" % reference)
    members = set(subprocess.run(
        [built, "-I", "-S", "-c", "import opcode; print(*opcode._specialized_instructions)"],
        capture_output=True, text=True, timeout=60).stdout.split())
    seen = {line.split()[2] for line in got}
    unseen = sorted(m for m in members - seen if not m.endswith(("_ADAPTIVE", "_QUICK")))
    print("specialized instructions no situation reaches: %s" % (", ".join(unseen) or "-"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
