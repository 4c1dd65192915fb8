# member: STORE_FAST__LOAD_FAST__LOAD_FAST
# regression: a superinstruction quicken added (45d1b7d), removed (issue 22) and added again
# (issue 20). On the build that first had it, this program's output differed from Debian's
# python3.11: the parts after the first ran without their own frame->prev_instr (errors,
# f_lasti and traceback columns pointed at the first part) and, after a STORE_FAST part
# whose released value's __del__ turned tracing on, without the tracing check upstream
# makes at that instruction. Now a part that 3.11.2 runs as an instruction of its own gets
# both (docs/dsl.md 2.4). What the program does (it is the member's behaviour program, in
# tests/specialization/behaviour/ as a link to this file):
# `x = ...` followed by an expression that starts with two locals: STORE_FAST, LOAD_FAST,
# LOAD_FAST in one dispatch. The store releases the old value (whose __del__ runs in the middle
# and looks at the frame, or turns tracing on); the loads find unbound and deleted locals
# (UnboundLocalError: its message, line and instruction); the stored local is loaded again;
# a jump lands on the second part; locals past 255 need EXTENDED_ARG; generators.
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


def mix(a, b):
    t = a * 2
    return t + b


def same(a):
    a = a + a
    return a * a


def third_unbound(flag, a):
    if flag:
        b = a
    x = a
    return (x,
            b)


def second_unbound(flag, a):
    if flag:
        b = a
    x = a
    return (b,
            x)


def deleting(a, b, drop):
    if drop:
        del b
    x = a
    return x, b


def jump_into(flag, a, b):
    x = a if flag else b        # the jump lands on the load of x
    y = x
    return y, x


def generator(items):
    for item in items:
        seen = item
        got = yield seen, item
        total = got
        yield total, seen


# The fast path, long enough to quicken, with values of several types.
results = []
for i in range(60):
    for value in (i, -i, 2.5, "s", (i,), [i]):
        results.append(mix(value, value))
    results.append(same(i))
    results.append(third_unbound(True, i))
    results.append(second_unbound(True, i))
    results.append(deleting(i, -i, False))
    results.append(jump_into(i % 2, i, -i))
print(results[:12], results[-12:], len(results))

# Unbound and deleted locals in the second and third parts, after quickening.
for round in range(3):
    print(attempt(third_unbound, False, 1), attempt(second_unbound, False, 2),
          attempt(deleting, 3, 4, True), attempt(mix, "a", 1), attempt(mix, [1], (2,)))

# The store releases the old value: its __del__ sees the frame with the new value stored.
log = []


class Noisy:
    def __init__(self, name):
        self.name = name

    def __del__(self):
        frame = sys._getframe(1)
        log.append((self.name, frame.f_code.co_name, repr(frame.f_locals.get("x")),
                    frame.f_lineno - frame.f_code.co_firstlineno))


def replace(old, new, other):
    x = old
    old = None
    x = new
    return x, other


for i in range(20):
    replace(Noisy("old%d" % i), i, "o")
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


def traced(a, b):
    x = Arm()
    x = 1
    y = (a,
         b)
    z = (y,
         a,
         b)
    return z


try:
    for i in range(30):
        Arm.armed = i == 29
        traced(1, 2)
        sys.settrace(None)
finally:
    sys.settrace(None)
print(events)

# Generators: the pattern between yields, resumed by send and closed halfway.
g = generator([1, "two", 3.0])
out = [next(g)]
for value in range(5):
    out.append(g.send(value))
print(out, attempt(g.send, 9))
for i in range(20):
    g = generator(range(3))
    next(g)
    g.send(i)
    g.close()

# Locals past 255: EXTENDED_ARG before the store, and before a load (no superinstruction).
names = ["v%d" % i for i in range(300)]
source = "def big(a, b, flag):\n"
source += "".join("    %s = a\n" % name for name in names)
source += "    if flag:\n        del v3\n"
source += "    v299 = b\n    r = (a, b, v3)\n"
source += "    v1 = a\n    return r, v1, v299, v298, v3\n"
namespace = {}
exec(source, namespace)
big = namespace["big"]
for i in range(30):
    big(i, -i, False)
print(big(5, 6, False), attempt(big, 7, 8, True))
