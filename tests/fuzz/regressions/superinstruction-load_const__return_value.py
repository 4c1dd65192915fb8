# member: LOAD_CONST__RETURN_VALUE
# regression: a superinstruction quicken added (45d1b7d), removed (issue 22) and added again
# (issue 20). On the build that first had it, this program's output differed from Debian's
# python3.11: the parts after the first ran without their own frame->prev_instr (errors,
# f_lasti and traceback columns pointed at the first part) and, after a STORE_FAST part
# whose released value's __del__ turned tracing on, without the tracing check upstream
# makes at that instruction. Now a part that 3.11.2 runs as an instruction of its own gets
# both (docs/dsl.md 2.4). What the program does (it is the member's behaviour program, in
# tests/specialization/behaviour/ as a link to this file):
# `return CONSTANT` and the implicit `return None`: LOAD_CONST then RETURN_VALUE in one
# dispatch. Constants of every kind; returns to a Python caller and to C (map, sorted, dunder
# methods, class bodies, exec); from generators, coroutines and async generators; through
# finally and with blocks, from loops and except blocks (the caller's exception state after);
# deep recursion; profiling turned on just before; a frame object kept after its return (its
# line and instruction).
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


def kinds(n):
    if n == 0:
        return 1
    if n == 1:
        return "s"
    if n == 2:
        return (1, "a", None)
    if n == 3:
        return 2.5
    if n == 4:
        return b"b"
    if n == 5:
        return -7
    if n == 6:
        return frozenset({1})    # the compiler keeps the set display as a constant
    if n == 7:
        return ...


def implicit(x):
    x.append(1)


def in_finally(n):
    try:
        if n:
            return 1
    finally:
        if n == 2:
            return 2


class Manager:
    def __enter__(self):
        log.append("enter")

    def __exit__(self, *exc):
        log.append("exit")
        return True


def in_with(n):
    with Manager():
        if n:
            return "inside"
        raise KeyError(n)
    return "suppressed"


def in_loop(items):
    for item in items:
        if item == 2:
            return "found"
    return "missing"


def in_except(n):
    try:
        raise ValueError(n)
    except ValueError:
        if n:
            return "handled"
    return "fell through"


def caller_state():
    try:
        raise KeyError("outer")
    except KeyError:
        in_except(1)
        return repr(sys.exc_info()[1])


def zero(x):
    return 0


def recursive(n):
    if not n:  # no comparison: a generic one would check the recursion depth itself
        return 0
    recursive(n - 1)
    return 1


def generator(n):
    yield n
    return "done"


def delegating(n):
    result = yield from generator(n)
    return result


async def coroutine(n):
    return 42


async def awaiting(n):
    value = await coroutine(n)
    return value


async def async_generator(n):
    yield n
    return


class Key:
    def __eq__(self, other):
        return True

    def __hash__(self):
        return 3


def make_class():
    class Body:
        a = 1
    return Body.a


log = []
module_code = compile("x = 1\n", "<snippet>", "exec")

# The fast path, long enough to quicken, from Python callers and from C.
results = []
for i in range(60):
    results.append(kinds(i % 9))
    results.append(implicit([]))
    results.append(in_finally(i % 3))
    results.append(in_with(i % 2))
    results.append(in_loop(range(i % 4)))
    results.append(in_except(i % 2))
    results.append(caller_state())
    results.append(recursive(i % 5))
    results.append(list(map(kinds, range(9))))
    results.append(sorted(range(5), key=zero))
    results.append(Key() == i)
    results.append({Key(): i}[Key()])
    results.append(make_class())
    namespace = {}
    exec(module_code, namespace)
    results.append(namespace["x"])
    results.append(list(delegating(i)))
    g = generator(i)
    next(g)
    results.append(attempt(next, g))
    c = awaiting(i)
    results.append(attempt(c.send, None))
    a = async_generator(i)
    results.append(attempt(a.asend(None).send, None))
    results.append(attempt(a.asend(None).send, None))
print(results[:22], results[-22:], len(results), log[-4:])

# Deep recursion: every frame returns a constant, the limit is hit and recovered from.
limit = sys.getrecursionlimit()
sys.setrecursionlimit(200)
try:
    print(attempt(recursive, 150), attempt(recursive, 500)[:50], attempt(recursive, 100))
finally:
    sys.setrecursionlimit(limit)

# Profiling turned on by the call just before the return.
calls = []


def profiler(frame, event, arg):
    if frame.f_code.co_name in ("profiled", "kinds"):
        calls.append((frame.f_code.co_name, event, repr(arg) if event == "return" else None))


def profiled(n):
    sys.setprofile(profiler if n else None)
    return 7


try:
    for i in range(30):
        profiled(i == 29)
        kinds(2)
        sys.setprofile(None)
finally:
    sys.setprofile(None)
print(calls)

# A frame object kept after its function returned: its line and current instruction.
kept = []


def keeps(n):
    kept.append(sys._getframe())
    if n:
        return (
            "multi-line")
    return None


for i in range(30):
    keeps(i % 2)
print([(frame.f_lineno - frame.f_code.co_firstlineno,
        dis.opname[frame.f_code.co_code[frame.f_lasti]]) for frame in kept[-2:]])
del kept[:]
