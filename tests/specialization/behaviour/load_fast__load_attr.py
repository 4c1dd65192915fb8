# member: LOAD_FAST__LOAD_ATTR
# `self.x`: LOAD_FAST then the attribute site in one dispatch while the site is
# LOAD_ATTR_INSTANCE_VALUE or LOAD_ATTR_SLOT. Then at the same sites: the other of the two
# and other members (modules, dicts),
# a class changed (its version), an attribute deleted, an instance whose dict was
# materialized, __getattr__ looking at the frame (position and f_lasti of the attribute
# site), unbound locals (UnboundLocalError at the LOAD_FAST), a jump straight to the attribute
# site, locals and names past 255 (EXTENDED_ARG), tracing with opcode events switched on and
# off in the middle of a loop, and every site back to the member.
import dis
import sys


def show(value):
    return "!" + type(value).__name__ + ": " + str(value) if isinstance(value, BaseException) \
        else repr(value)


def where(error):
    """An exception and where its innermost frame stopped: the line counted from the function's
    first line, the instruction there (its generic name) and its columns."""
    tb = error.__traceback__
    while tb.tb_next is not None:
        tb = tb.tb_next
    code = tb.tb_frame.f_code
    line, end_line, column, end_column = list(code.co_positions())[tb.tb_lasti // 2]
    return "%s (line +%d, %s, columns %s-%s)" % (
        show(error), tb.tb_lineno - code.co_firstlineno,
        dis.opname[code.co_code[tb.tb_lasti]], column, end_column)


def attempt(function, *args):
    try:
        return function(*args)
    except Exception as error:
        return where(error)


class Point:
    def __init__(self, x, y):
        self.x = x
        self.y = y


class Slotted:
    __slots__ = ("x", "y")

    def __init__(self, x, y):
        self.x = x
        self.y = y


class Looking:
    """Answers any attribute with where its caller's frame stands."""

    def __getattr__(self, name):
        frame = sys._getframe(1)
        code = frame.f_code
        return (name, frame.f_lineno - code.co_firstlineno,
                dis.opname[code.co_code[frame.f_lasti]])


def get_x(p):
    return p.x


def get_both(p):
    return p.x + p.y


def pick(flag, a, b):
    return (a if flag else b).x  # a jump lands on the attribute site


def deleted(p):
    value = p.x
    del p
    return value + p.x  # UnboundLocalError at the LOAD_FAST


def warm(function, *args):
    for _ in range(60):
        function(*args)


points = [Point(i, -i) for i in range(5)]
warm(get_x, points[0])
warm(get_both, points[1])
print([get_x(p) for p in points], [get_both(p) for p in points])

# Other owners at the same sites, then instances again.
owners = [Slotted(7, 8), sys, Looking(), Point("a", "b"), type("T", (), {"x": 1, "y": 2})()]
for _ in range(3):
    print([attempt(get_x, o) for o in owners], [attempt(get_both, o) for o in owners])
    warm(get_x, points[2])
    print(attempt(get_x, points[2]), attempt(get_x, Looking()), attempt(get_x, points[3]))
print([attempt(get_x, o) for o in (1, None, "s", [], Point)])

# The class changes (its version) and the attribute goes away.
warm(get_x, points[0])
Point.extra = 5
print(get_x(points[0]), get_both(points[0]))
del points[1].x
print(attempt(get_x, points[1]), attempt(get_both, points[1]), attempt(get_x, points[0]))
points[1].x = 11
print(get_x(points[1]))

# An instance whose dict was materialized, then one whose dict was replaced.
p = Point(1, 2)
warm(get_x, p)
p.__dict__["x"] = 100
print(get_x(p), get_both(p))
q = Point(3, 4)
q.__dict__ = {"x": 30, "y": 40}
print(get_x(q), get_both(q), get_x(Point(5, 6)))

# A jump straight to the attribute site, both ways.
warm(pick, True, points[0], points[2])
print([pick(f, points[0], points[2]) for f in (True, False, 1, 0)],
      attempt(pick, False, points[0], Looking()), attempt(pick, True, Looking(), None))

# Unbound locals.
warm(get_x, points[0])
print(attempt(deleted, points[3]), attempt(deleted, Slotted(1, 2)))

# Locals and names past 255: EXTENDED_ARG before the LOAD_FAST, before the LOAD_ATTR.
many_locals = "\n".join("    v%d = %d" % (k, k) for k in range(300))
many_names = " + ".join("o.n%d" % k for k in range(260))
source = ("def far(o):\n" + many_locals + "\n    v299 = o\n    return v299.x + v299.y\n"
          "def names(o):\n    return (%s) + o.x\n" % many_names)
space = {}
exec(source, space)
far, names = space["far"], space["names"]


class Many:
    def __init__(self):
        for k in range(260):
            setattr(self, "n%d" % k, k)
        self.x = -1
        self.y = 1


warm(far, points[4])
warm(names, Many())
print(far(points[4]), names(Many()), attempt(far, Looking()), attempt(names, Point(0, 0)))

# Tracing with opcode events, switched on in the middle of a loop and off again.
events = []


def tracer(frame, event, arg):
    if frame.f_code is loop.__code__:
        frame.f_trace_opcodes = True
        if event in ("line", "opcode"):
            events.append((event, frame.f_lineno - loop.__code__.co_firstlineno,
                           dis.opname[loop.__code__.co_code[frame.f_lasti]]))
    return tracer


def loop(items, start, stop):
    total = 0
    for k, item in enumerate(items):
        if k == start:
            sys.settrace(tracer)
            sys._getframe().f_trace = tracer
        if k == stop:
            sys.settrace(None)
            sys._getframe().f_trace = None
        value = item.x
        total += value
    return total


warm(loop, points, -1, -1)
print(loop(points * 3, 4, 9), len(events))
print(events)
sys.settrace(None)

# Every site back to the member.
for function in (get_x, get_both):
    warm(function, points[0])
print(get_x(points[0]), get_both(points[0]), pick(False, None, points[4]))
