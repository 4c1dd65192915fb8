"""Each family's specializer decides as upstream's does, and the project's additions are
installed exactly where they apply: probe.py's situations, run on the built interpreter and on
upstream 3.11.2 (Debian's python3.11, the same source), leave every instruction in the same
form, except at the positions expected-differences.txt lists, where the built interpreter must
leave exactly the form listed there.

    check.py BUILT_PYTHON [REFERENCE_PYTHON]
    check.py --generic BUILT_PYTHON

What `compare` checks (and so the `specializations` test):

- both interpreters print the same instructions (`case position`);
- at a position expected-differences.txt lists (`case position UPSTREAM_FORM BUILT_FORM`), the
  reference has UPSTREAM_FORM and the built interpreter exactly BUILT_FORM; at any other
  position both have the same form. So every listed line must occur, and a difference not
  listed, or another member than the listed one (CONTAINS_OP_SET at a dict site, a shorter
  superinstruction), fails;
- the project's additions are the built interpreter's opcode._specialized_instructions minus
  the reference's, found independently of the table; every BUILT_FORM must be one of them
  (or, on a line marked `widened`, must not be: upstream's own member where upstream fails;
  or, on a line marked `fused`, must not be and the instruction before it must be one: an
  instruction an addition performs and skips, such as the CALL after PRECALL_PY_EXACT_ARGS,
  left in the form it had when the addition was installed),
  each of them must appear in the built interpreter's output (a situation reaches it), and
  each must be declared by a behaviour program, whose header names the one addition it
  covers in a `# member: NAME` line (one line per program; the `members` test replays them).

A Py_STATS build (-Dstats=true) keeps the adaptive form where upstream's release build installs
the generic instruction for good (KEEP_GENERIC: a BINARY_OP operator without members, a
COMPARE_OP without a jump after it), as upstream's stats build does, so that the attempts are
counted; there, FORM_ADAPTIVE matches an expected FORM.

--generic checks the generic baseline (-Dspecialize=false) instead: after the same situations,
every instruction of every family is still its generic form.
"""

import re
import subprocess
import sys
from pathlib import Path
from typing import NamedTuple

HERE = Path(__file__).resolve().parent
PROBE = HERE / "probe.py"
EXPECTED = HERE / "expected-differences.txt"
BEHAVIOUR = HERE / "behaviour"
REFERENCE = "/usr/bin/python3.11"
MEMBER_LINE = re.compile(r"#\s*member:\s*(\S+)\s*$")


def parse_forms(lines):
    """Probe output (`case position OPNAME` lines) as {(case, position): OPNAME}, in order."""
    forms = {}
    for line in lines:
        fields = line.split()
        if len(fields) != 3 or not fields[1].isdigit():
            raise ValueError("not a probe line: %r" % line)
        key = (fields[0], int(fields[1]))
        if key in forms:
            raise ValueError("%s %d printed twice" % key)
        forms[key] = fields[2]
    return forms


class Expected(NamedTuple):
    """One line of expected-differences.txt: the form upstream leaves, the one the built
    interpreter must leave, and whether that is upstream's own member installed where
    upstream's specializer fails (`widened`) or an instruction that the addition before it
    performs and skips (`fused`) rather than one of the project's additions."""
    upstream: str
    built: str
    widened: bool = False
    fused: bool = False


def parse_table(text):
    """expected-differences.txt as {(case, position): Expected}."""
    table = {}
    for number, line in enumerate(text.splitlines(), 1):
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        fields = line.split()
        mark = fields[4] if len(fields) == 5 else None
        if len(fields) != 4 + (mark in ("widened", "fused")) or not fields[1].isdigit():
            raise ValueError("line %d: want `case position UPSTREAM_FORM BUILT_FORM "
                             "[widened|fused]`: %r" % (number, line))
        key = (fields[0], int(fields[1]))
        if key in table:
            raise ValueError("line %d: %s %d listed twice" % ((number,) + key))
        if fields[2] == fields[3]:
            raise ValueError("line %d: %s %d lists no difference (%s both)"
                             % (number, key[0], key[1], fields[2]))
        table[key] = Expected(fields[2], fields[3], mark == "widened", mark == "fused")
    return table


def declared_members(directory):
    """{program file name: [NAME of each `# member: NAME` line of its leading comments]}."""
    programs = {}
    for path in sorted(Path(directory).glob("*.py")):
        members = []
        for line in path.read_text(encoding="utf-8").splitlines():
            if not line.startswith("#"):
                break
            match = MEMBER_LINE.match(line)
            if match:
                members.append(match.group(1))
        programs[path.name] = members
    return programs


def compare(built, reference, table, additions, programs, stats=False):
    """The failures (texts; none when the build is right) of the built interpreter's probe
    output `built` against the reference's `reference` (lists of `case position OPNAME`
    lines), given the expected differences `table` (parse_table), the project's `additions`
    (a set of names: the built interpreter's specialized instructions minus the reference's),
    the behaviour `programs` ({name: [declared members]}) and whether the build is a Py_STATS
    one."""
    failures = []
    try:
        got = parse_forms(built)
        want = parse_forms(reference)
    except ValueError as error:
        return ["the probe output cannot be read: %s" % error]

    def matches(form, expected):
        return form == expected or (stats and form == expected + "_ADAPTIVE")

    for key, upstream in want.items():
        if key not in got:
            failures.append("%s %d: upstream has %s; the built interpreter printed no "
                            "instruction there" % (key + (upstream,)))
            continue
        form = got[key]
        if key in table:
            listed_upstream, listed_built, _, _ = table[key]
            if upstream != listed_upstream:
                failures.append("%s %d: expected-differences.txt says upstream has %s, it has %s"
                                % (key + (listed_upstream, upstream)))
            if not matches(form, listed_built):
                failures.append("%s %d: the built interpreter has %s, expected-differences.txt "
                                "wants %s (upstream: %s)" % (key + (form, listed_built, upstream)))
        elif not matches(form, upstream):
            failures.append("%s %d: the built interpreter has %s where upstream has %s, and "
                            "expected-differences.txt lists no difference there"
                            % (key + (form, upstream)))
    for key, form in got.items():
        if key not in want:
            failures.append("%s %d: the built interpreter has %s; upstream printed no "
                            "instruction there" % (key + (form,)))
    for key, (upstream, wanted, widened, fused) in table.items():
        if key not in got or key not in want:
            failures.append("%s %d: expected-differences.txt lists %s -> %s, an instruction the "
                            "probe did not print" % (key + (upstream, wanted)))
        if (widened or fused) and wanted in additions:
            failures.append("%s %d: expected-differences.txt marks %s `%s`, but it is one "
                            "of the project's additions"
                            % (key + (wanted, "widened" if widened else "fused")))
        elif fused and got.get((key[0], key[1] - 1)) not in additions:
            failures.append("%s %d: expected-differences.txt marks %s `fused`, but the "
                            "instruction before it is no addition of the project's (%s)"
                            % (key + (wanted, got.get((key[0], key[1] - 1)))))
        elif not (widened or fused) and wanted not in additions:
            failures.append("%s %d: expected-differences.txt wants %s, which is not one of the "
                            "project's additions (an upstream member installed where upstream "
                            "fails is marked `widened`)" % (key + (wanted,)))

    reached = set(got.values())
    for addition in sorted(additions - reached):
        failures.append("%s: no situation in probe.py reaches this addition" % addition)
    declared = set()
    for program, members in sorted(programs.items()):
        if len(members) != 1:
            failures.append("behaviour/%s: declares %d members; one `# member: NAME` line each"
                            % (program, len(members)))
        for member in members:
            if member not in additions:
                failures.append("behaviour/%s: declares %s, which is not one of the project's "
                                "additions" % (program, member))
            declared.add(member)
    for addition in sorted(additions - declared):
        failures.append("%s: no behaviour program declares it (`# member: %s`)"
                        % (addition, addition))
    return failures


def forms(python, *options):
    result = subprocess.run([python, "-I", "-S", "-B", str(PROBE), *options], capture_output=True,
                            text=True, timeout=300)
    if result.returncode:
        sys.exit("%s failed (exit %d):\n%s" % (python, result.returncode, result.stderr))
    return result.stdout.splitlines()


def specialized_instructions(python):
    query = "import opcode; print(*opcode._specialized_instructions)"
    return set(subprocess.run([python, "-I", "-S", "-c", query], capture_output=True, text=True,
                              timeout=60, check=True).stdout.split())


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
    members = specialized_instructions(built)
    additions = members - specialized_instructions(reference)
    try:
        table = parse_table(EXPECTED.read_text(encoding="utf-8"))
    except ValueError as error:
        print("1 failed: %s: %s" % (EXPECTED.name, error))
        return 1
    programs = declared_members(BEHAVIOUR)
    print("%d instructions in %d cases%s; %d listed differences from upstream; %d project "
          "additions (built minus reference): %s"
          % (len(got), len({line.split()[0] for line in got}), " (a Py_STATS build)" * stats,
             len(table), len(additions), ", ".join(sorted(additions)) or "-"))
    failures = compare(got, expected, table, additions, programs, stats)
    if failures:
        print("\n".join("  " + failure for failure in failures[:60]))
        if len(failures) > 60:
            print("  ... %d more" % (len(failures) - 60))
        print("%d failed: the built interpreter specializes differently from what %s and "
              "expected-differences.txt say" % (len(failures), reference))
        return 1
    print("specializations agree with %s: the %d differences are exactly those listed, each "
          "addition is reached by a situation and declared by one of %d behaviour programs"
          % (reference, len(table), len(programs)))
    # dis's jump targets in the quickened code (`>>`, Instruction.is_jump_target) are the
    # reference's at every position: a specialized jump is found as its base instruction is.
    targets, reference_targets = forms(built, "--jump-targets"), forms(reference, "--jump-targets")
    if targets != reference_targets:
        print("  built marks: %s\n  reference marks: %s"
              % (sorted(set(targets) - set(reference_targets)) or "-",
                 sorted(set(reference_targets) - set(targets)) or "-"))
        print("1 failed: dis finds other jump targets in quickened code than %s does" % reference)
        return 1
    print("dis marks the same %d jump targets in the quickened code" % len(targets))
    seen = set(parse_forms(got).values())
    unseen = sorted(m for m in members - seen if not m.endswith(("_ADAPTIVE", "_QUICK")))
    print("specialized instructions no situation reaches: %s" % (", ".join(unseen) or "-"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
