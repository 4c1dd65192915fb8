# member: LOAD_FAST__POP_JUMP_FORWARD_IF_FALSE
# regression: a superinstruction quicken added (45d1b7d), removed (issue 22) and added again
# (issue 20). On the build that first had it, this program's output differed from Debian's
# python3.11: the parts after the first ran without their own frame->prev_instr (errors,
# f_lasti and traceback columns pointed at the first part) and, after a STORE_FAST part
# whose released value's __del__ turned tracing on, without the tracing check upstream
# makes at that instruction. Now a part that 3.11.2 runs as an instruction of its own gets
# both (docs/dsl.md 2.4). What the program does (it is the member's behaviour program, in
# tests/specialization/behaviour/ as a link to this file):
# `if x:` and `while x:` on a local: LOAD_FAST then POP_JUMP_FORWARD_IF_FALSE in one dispatch.
# Truth values of every kind (bool, None, numbers, containers, __bool__, __len__, neither),
# __bool__ and __len__ that raise or return the wrong type, __bool__ looking at the frame or
# turning tracing on, unbound and deleted locals (UnboundLocalError), where errors are reported
# (line and instruction), jumps past 255 instructions and locals past 255 (EXTENDED_ARG).
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


def test(x):
    if x:
        return "yes"
    return "no"


def chain(a, b):
    if a:
        if b:
            return 3
        return 2
    elif b:
        return 1
    return 0


def countdown(n):
    steps = []
    while n:
        steps.append(n)
        n = n - 1
    return steps


def unbound(flag):
    if flag:
        x = flag
    if x:
        return 1
    return 0


def deleting(x, drop):
    if drop:
        del x
    if x:
        return "set"
    return "unset"


class Bool:
    def __init__(self, value):
        self.value = value

    def __bool__(self):
        return self.value


class Len:
    def __init__(self, value):
        self.value = value

    def __len__(self):
        return self.value


class Raises:
    def __bool__(self):
        raise ValueError("no truth")


class Neither:
    pass


class FalseInt(int):
    def __bool__(self):
        return False


class EmptyList(list):
    def __len__(self):
        return 0


class Looks:
    """__bool__ that looks at the frame testing it: its line and current instruction."""
    def __bool__(self):
        frame = sys._getframe(1)
        seen.append((frame.f_code.co_name, frame.f_lineno - frame.f_code.co_firstlineno,
                     dis.opname[frame.f_code.co_code[frame.f_lasti]]))
        return False


seen = []
values = [True, False, None, 0, 1, -1, 0.0, 0.5, 0j, "", "a", b"", [], [0], (), (0,), {}, {0: 0},
          set(), frozenset({1}), range(0), range(2), 2 ** 100, -2 ** 100, Bool(True), Bool(False),
          Len(0), Len(3), Neither(), FalseInt(5), EmptyList([1]), Ellipsis, float("nan"), Looks()]
wrong = [Bool(1), Bool(None), Len(-1), Len(2 ** 70), Len("3"), Len(1.5), Raises()]

# The fast path, long enough to quicken, then every kind of truth value.
results = []
for i in range(60):
    results.append(test(i % 2 == 0))
    results.append(chain(i % 2, i % 3))
    results.append(countdown(i % 4))
    results.append(unbound(True))
    results.append(deleting(i, False))
print(results[:10], len(results))
for round in range(3):
    print([attempt(test, value) for value in values])
    print([attempt(test, value) for value in wrong])
    print(attempt(unbound, False), attempt(deleting, 1, True), attempt(chain, Raises(), 1),
          attempt(chain, 1, Len(-5)), attempt(countdown, Len(1)))
print(seen[:3], len(seen))

# __bool__ turns tracing on for the frame testing it.
events = []


def tracer(frame, event, arg):
    if frame.f_code.co_name == "traced":
        events.append((event, frame.f_lineno - frame.f_code.co_firstlineno))
    return tracer


class Arm:
    armed = False

    def __bool__(self):
        if Arm.armed:
            Arm.armed = False
            sys._getframe(1).f_trace = tracer
            sys.settrace(tracer)
        return True


def traced(x):
    if x:
        y = 1
    else:
        y = 2
    return y


try:
    for i in range(30):
        Arm.armed = i == 29
        traced(Arm())
        sys.settrace(None)
finally:
    sys.settrace(None)
print(events)

# A jump past 255 instructions (EXTENDED_ARG before the jump: no superinstruction) and a local
# past 255 (EXTENDED_ARG before the load).
source = "def big(a, flag):\n"
source += "".join("    v%d = a\n" % i for i in range(300))
source += "    if flag:\n        del v299\n"
source += "    total = 0\n    if a:\n"
source += "".join("        total = total + v%d\n" % i for i in range(100))
source += "    if v299:\n        total = -total\n"
source += "    return total\n"
namespace = {}
exec(source, namespace)
big = namespace["big"]
for i in range(30):
    big(i % 3, False)
print(big(2, False), big(0, False), big(1.5, False), attempt(big, 1, True))
