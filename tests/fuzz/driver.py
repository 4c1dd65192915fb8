"""The loop every scenario is written as: phases of operands, one-shot events, one site.

A scenario's interesting code (the *site*: an addition, an attribute load, a call...) runs once
per iteration of a loop in a function, so CPython 3.11 quickens the function after 8 back-edges
and the site's adaptive instruction specializes on what the first *phase* gave it. Later phases
give it other operands (another type, value range, shape); *events* change the world once (a
class gains a property, a builtin is rebound). A specialized instruction whose guards keep failing
deoptimizes after ~53 misses and backs off before specializing again, so phase lengths straddle
those numbers.

Rendered, a driver looks like this (the site optionally in a function of its own, so that it is
warmed up by calls rather than back-edges and the call specializes too):

    def run_c0():
        <setup>
        seen = []
        last = None
        for i in range(N):
            if i < 40:            # phases: statements run on every iteration of the phase
                a = i
            else:
                a = i * 0.5
            if i == 0:            # entering a phase, and events: statements run once
                ...
            try:
                r = a + b         # the site
            except Exception as e:
                r = e
            s = show(r)
            if s != last:         # what the site produced, recorded where it changes
                seen.append((i, s))
                last = s
        <finish: expressions appended to seen, then statements>
        return seen
    print('c0', run_c0())
"""

from dataclasses import dataclass, field


@dataclass
class Phase:
    first: int                                        # first iteration of the phase
    every: list = field(default_factory=list)         # statements run on each of its iterations
    entry: list = field(default_factory=list)         # statements run when it starts


@dataclass
class Driver:
    tag: str
    iterations: int
    phases: list                                      # of Phase, by first iteration, from 0
    site: list                                        # statements that set `r`
    events: list = field(default_factory=list)        # (iteration, statement)
    setup: list = field(default_factory=list)         # statements before the loop
    finish: list = field(default_factory=list)        # expressions recorded after the loop
    restore: list = field(default_factory=list)       # statements that undo shared changes
    declare: list = field(default_factory=list)       # names declared global in the driver
    site_parameters: tuple = None                     # if set: the site goes into a function
    definitions: str = ""                             # module-level code before the driver

    def render(self):
        """The chunk's source: definitions, the site's function if any, the driver, its call."""
        lines = []
        site = self.site
        if self.site_parameters is not None:
            call = "site_%s(%s)" % (self.tag, ", ".join(self.site_parameters))
            lines += ["def %s:" % call] + indent(self.site + ["return r"], 1) + ["", ""]
            site = ["r = " + call]
        body = ["global " + ", ".join(self.declare)] if self.declare else []
        body += self.setup + ["seen = []", "last = None", "for i in range(%d):" % self.iterations]
        loop = self.phase_chain() + self.one_shots()
        loop += ["try:"] + indent(site, 1) + ["except Exception as e:", "    r = e"]
        loop += ["s = show(r)", "if s != last:", "    seen.append((i, s))", "    last = s"]
        body += indent(loop, 1)
        for expression in self.finish:
            body += guarded(["seen.append(('end', show(%s)))" % expression], "seen.append(('end', show(e)))")
        body += self.restore + ["return seen"]
        lines += ["def run_%s():" % self.tag] + indent(body, 1)
        lines += ["", "", "print(%r, run_%s())" % (self.tag, self.tag)]
        prefix = self.definitions.rstrip("\n") + "\n\n\n" if self.definitions else ""
        return prefix + "\n".join(lines) + "\n"

    def phase_chain(self):
        """The phases' every-iteration statements, picked by the loop counter."""
        chain = [phase for phase in self.phases if phase.every]
        if len(chain) == 1:
            return chain[0].every
        lines = []
        for position, phase in enumerate(chain):
            if position + 1 < len(chain):
                test = "%s i < %d:" % ("elif" if position else "if", chain[position + 1].first)
            else:
                test = "else:"
            lines += [test] + indent(phase.every, 1)
        return lines

    def one_shots(self):
        """Phase entries and events, each at its iteration, their exceptions recorded."""
        once = [(phase.first, phase.entry) for phase in self.phases if phase.entry]
        once += [(iteration, [statement]) for iteration, statement in self.events]
        lines = []
        for iteration, statements in sorted(once, key=lambda item: item[0]):
            lines += ["if i == %d:" % iteration]
            lines += indent(guarded(statements, "seen.append((i, 'event', show(e)))"), 1)
        return lines


def guarded(statements, handler):
    """statements in a try whose except clause runs `handler` with the exception as `e`."""
    return ["try:"] + indent(statements, 1) + ["except Exception as e:"] + indent([handler], 1)


def indent(statements, levels):
    """Indent statements, each possibly several lines, by four spaces per level."""
    pad = "    " * levels
    return [pad + line if line else line for statement in statements for line in statement.split("\n")]
