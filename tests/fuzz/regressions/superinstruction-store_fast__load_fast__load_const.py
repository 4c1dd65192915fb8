# member: STORE_FAST__LOAD_FAST__LOAD_CONST
# regression: a superinstruction quicken added (45d1b7d), removed (issue 22) and added again
# (issue 20). On the build that first had it, this program's output differed from Debian's
# python3.11: the parts after the first ran without their own frame->prev_instr (errors,
# f_lasti and traceback columns pointed at the first part) and, after a STORE_FAST part
# whose released value's __del__ turned tracing on, without the tracing check upstream
# makes at that instruction. Now a part that 3.11.2 runs as an instruction of its own gets
# both (docs/dsl.md 2.4). What the program does (it is the member's behaviour program, in
# tests/specialization/behaviour/ as a link to this file):
# `x = ...` followed by a local and a constant (`i = i + 1` then `i < 10`, `n = len(s)` then
# `n > 3`): STORE_FAST, LOAD_FAST, LOAD_CONST in one dispatch. The store releases the old
# value (whose __del__ runs in the middle and looks at the frame, or turns tracing on); the
# load finds unbound and deleted locals, and so does a load after the constant
# (UnboundLocalError: its message, line and instruction); locals and constants past 255
# (EXTENDED_ARG); generators.
import dis
import sys


def where(error):
    """An exception and where its innermost frame stopped: the line counted from the function's
    first line, the instruction there (its generic name) and its columns."""
    tb = error.__traceback__
    while tb.tb_next is not None:
        tb = tb.tb_next
    code = tb.tb_frame.f_code
    line, end_line, column, end_column = list(code.co_positions())[tb.tb_lasti // 2]
    return "%s: %s (line +%d, %s, columns %s-%s)" % (
        type(error).__name__, error, tb.tb_lineno - code.co_firstlineno,
        dis.opname[code.co_code[tb.tb_lasti]], column, end_column)


def attempt(function, *args):
    try:
        return function(*args)
    except Exception as error:
        return where(error)


def count(limit):
    i = 0
    steps = []
    while i < limit:
        i = i + 1
        steps.append(i * 2)
    return steps


def size(s):
    n = len(s)
    if n > 3:
        return "long", n
    return "short", n


def unbound(flag, a):
    if flag:
        b = a
    x = a
    return (b,
            1)


def after(flag, a):
    if flag:
        c = a
    x = a
    return (x,
            1,
            c)


def deleting(a, drop):
    if drop:
        del a
    x = 5
    return a + 1, x


def generator(items):
    for item in items:
        got = yield item
        value = got
        yield value * 2


# The fast path, long enough to quicken, with values of several types.
results = []
for i in range(60):
    results.append(count(i % 5))
    for value in ("abcde", [1], (), range(i)):
        results.append(size(value))
    results.append(unbound(True, i))
    results.append(after(True, i))
    results.append(deleting(i, False))
print(results[:8], results[-8:], len(results))

# Unbound and deleted locals, after quickening; errors from what follows.
for round in range(3):
    print(attempt(unbound, False, 1), attempt(after, False, 2), attempt(deleting, 3, True))
    print(attempt(size, 5), attempt(deleting, "s", False), attempt(count, "x"))

# The store releases the old value: its __del__ sees the frame with the new value stored.
log = []


class Noisy:
    def __init__(self, name):
        self.name = name

    def __del__(self):
        frame = sys._getframe(1)
        log.append((self.name, frame.f_code.co_name, repr(frame.f_locals.get("x")),
                    frame.f_lineno - frame.f_code.co_firstlineno))


def replace(old, new):
    x = old
    old = None
    x = new
    return x + 1


for i in range(20):
    replace(Noisy("old%d" % i), i)
del i
print(log[-3:], len(log))
log.clear()

# The __del__ of the released value turns tracing on for the running frame.
events = []


def tracer(frame, event, arg):
    if frame.f_code.co_name == "traced":
        events.append((event, frame.f_lineno - frame.f_code.co_firstlineno))
    return tracer


class Arm:
    armed = False

    def __del__(self):
        if Arm.armed:
            Arm.armed = False
            sys._getframe(1).f_trace = tracer
            sys.settrace(tracer)


def traced(a):
    x = Arm()
    x = 1
    y = (a,
         2)
    return y


try:
    for i in range(30):
        Arm.armed = i == 29
        traced(1)
        sys.settrace(None)
finally:
    sys.settrace(None)
print(events)

# Generators: resumed by send, closed halfway.
g = generator("abc")
out = [next(g)]
for value in (1, None, 2.5, "x"):
    out.append(attempt(g.send, value))
print(out)
for i in range(20):
    g = generator(range(3))
    next(g)
    g.send(i)
    g.close()

# Locals and constants past 255: EXTENDED_ARG before the store (a superinstruction), before
# the load or the constant (none).
source = "def big(a, flag):\n"
source += "".join("    v%d = a + %d\n" % (i, i) for i in range(300))
source += "    if flag:\n        del v298\n"
source += "    v299 = a\n    r = (a, 7)\n"
source += "    v1 = a\n    return r, v1, v299 + 1, (v298, 1), (a, 1000)\n"
namespace = {}
exec(source, namespace)
big = namespace["big"]
for i in range(30):
    big(i, False)
print(big(5, False), attempt(big, 7, True))
