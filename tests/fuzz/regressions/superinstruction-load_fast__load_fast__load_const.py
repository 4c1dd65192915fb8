# member: LOAD_FAST__LOAD_FAST__LOAD_CONST
# regression: a superinstruction quicken added (45d1b7d), removed (issue 22) and added again
# (issue 20). On the build that first had it, this program's output differed from Debian's
# python3.11: the parts after the first ran without their own frame->prev_instr (errors,
# f_lasti and traceback columns pointed at the first part) and, after a STORE_FAST part
# whose released value's __del__ turned tracing on, without the tracing check upstream
# makes at that instruction. Now a part that 3.11.2 runs as an instruction of its own gets
# both (docs/dsl.md 2.4). What the program does (it is the member's behaviour program, in
# tests/specialization/behaviour/ as a link to this file):
# Two locals then a constant (`f(a, b, 1)`, `(a, b, "x")`, `a[b:1]`): LOAD_FAST, LOAD_FAST,
# LOAD_CONST in one dispatch. Unbound and deleted locals in both loads and in a load after the
# constant (UnboundLocalError: its message, line and instruction), constants of every kind,
# constants and locals past 255 (EXTENDED_ARG), generators.
import dis


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


def constants(a, b):
    return (a, b, 1), (a, b, "x"), (a, b, None), (a, b, (1, 2)), (a, b, 2.5), (a, b, b"y")


def sliced(a, b):
    return a[b:2]


def call(a, b):
    return max(a, b, 0)


def unbound(n, a):
    if n > 0:
        b = a
    if n > 1:
        c = a
    return (a,
            b,
            1,
            c)


def deleting(a, b, drop):
    if drop == 1:
        del a
    elif drop == 2:
        del b
    return (a, b, 3)


def generator(a, b):
    while True:
        a = yield (a, b, "k")
        b = a


# The fast path, long enough to quicken, with values of several types.
results = []
for i in range(60):
    for value in (i, "s", None, (i,)):
        results.append(constants(value, i))
    results.append(sliced([1, 2, 3, 4], i % 3))
    results.append(sliced("abcd", -i % 4))
    results.append(call(i, -i))
    results.append(unbound(2, i))
    results.append(deleting(i, -i, 0))
print(results[:6], results[-6:], len(results))

# Unbound and deleted locals in each load, after quickening; errors from what follows.
for round in range(3):
    print([attempt(unbound, n, 1) for n in range(2)])
    print([attempt(deleting, 1, 2, drop) for drop in (1, 2)])
    print(attempt(sliced, 1, 0), attempt(sliced, [1], "a"), attempt(call, "a", 1))

# Generators: resumed by send, closed halfway.
g = generator(1, 2)
out = [next(g)]
for value in ("x", None, 4.5):
    out.append(g.send(value))
print(out, attempt(g.throw, KeyError("thrown")))
for i in range(20):
    g = generator(i, i)
    next(g)
    g.close()

# Constants and locals past 255: EXTENDED_ARG before the first load, or before the constant
# (no superinstruction).
source = "def big(a, b, flag):\n"
source += "".join("    v%d = a + %d\n" % (i, i) for i in range(300))
source += "    if flag:\n        del v299\n"
source += "    return (v299, a, 7), (a, b, 1000), (a, b, 'c299')\n"
namespace = {}
exec(source, namespace)
big = namespace["big"]
for i in range(30):
    big(i, -i, False)
print(big(5, 6, False), attempt(big, 7, 8, True))
