"""Comparing one program's outcomes across interpreters, and saying how they differ.

A program passes when every interpreter ran it to the end and all of them produced the same
text (output, ending and final globals). Anything else is a Mismatch: different texts, or a
crash, exit or hang on any interpreter, even on all of them alike, since a generated program
must never take an interpreter down.
"""

import difflib
from dataclasses import dataclass

DIFF_LINES = 40


@dataclass(frozen=True)
class Mismatch:
    program: object         # Program
    outcomes: dict          # interpreter name -> Outcome, in command-line order
    before: tuple = ()      # the programs run before it in its batch

    @property
    def kind(self):
        """"output" when every interpreter finished, else the first failure's status."""
        failures = [outcome.status for outcome in self.outcomes.values() if outcome.failed]
        return failures[0] if failures else "output"

    def signature(self):
        """What must stay true while the program is minimized: each interpreter's status
        (and for a failure, how it failed), and which interpreters agree with which."""
        groups = {}
        partition = tuple(groups.setdefault(o.result, len(groups)) for o in self.outcomes.values())
        statuses = tuple((o.status, o.text if o.failed else None) for o in self.outcomes.values())
        return statuses, partition

    def report(self):
        lines = ["mismatch (%s) in %s:" % (self.kind, self.program.name)]
        for name, outcome in self.outcomes.items():
            lines.append("  %s: %s" % (name, outcome.status if not outcome.failed else
                                       "%s: %s" % (outcome.status, outcome.text)))
            lines += ["      " + line for line in outcome.detail.strip().splitlines()]
        (reference, first), *others = self.outcomes.items()
        for name, outcome in others:
            if outcome.failed or first.failed or outcome.text == first.text:
                continue
            diff = list(difflib.unified_diff(first.text.splitlines(), outcome.text.splitlines(),
                                             reference, name, n=1, lineterm=""))
            lines.append("  output, %s vs %s:" % (reference, name))
            lines += ["    " + line[:300] for line in diff[:DIFF_LINES]]
            if len(diff) > DIFF_LINES:
                lines.append("    ... %d more diff lines" % (len(diff) - DIFF_LINES))
        return "\n".join(lines)


def compare(program, outcomes, before=()):
    """A Mismatch, or None when the program passed on every interpreter."""
    first = next(iter(outcomes.values()))
    if all(not o.failed and o.text == first.text for o in outcomes.values()):
        return None
    return Mismatch(program, dict(outcomes), tuple(before))
