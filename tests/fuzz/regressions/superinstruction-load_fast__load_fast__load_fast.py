# member: LOAD_FAST__LOAD_FAST__LOAD_FAST
# regression: a superinstruction quicken added (45d1b7d), removed (issue 22) and added again
# (issue 20). On the build that first had it, this program's output differed from Debian's
# python3.11: the parts after the first ran without their own frame->prev_instr (errors,
# f_lasti and traceback columns pointed at the first part) and, after a STORE_FAST part
# whose released value's __del__ turned tracing on, without the tracing check upstream
# makes at that instruction. Now a part that 3.11.2 runs as an instruction of its own gets
# both (docs/dsl.md 2.4). What the program does (it is the member's behaviour program, in
# tests/specialization/behaviour/ as a link to this file):
# Three locals in a row (a tuple, a call's arguments, `a[b] = c`): LOAD_FAST three times in one
# dispatch. Runs of three to six loads, a jump landing in the middle of a run, unbound and
# deleted locals in every part and in the load after the run (UnboundLocalError: its message,
# line and instruction), locals past 255 (EXTENDED_ARG), generators and recursion.
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


def three(a, b, c):
    return (a, b, c)


def store(a, b, c):
    a[b] = c
    return a


def runs(a, b, c, d, e, f):
    return (a, b, c, d), (a, b, c, d, e), (a, b, c, d, e, f)


def call(a, b, c):
    return max(a, b, c)


def unbound(n, a):
    if n > 0:
        b = a
    if n > 1:
        c = a
    if n > 2:
        d = a
    return (a,
            b,
            c,
            d)


def deleting(a, b, c, drop):
    if drop == 1:
        del a
    elif drop == 2:
        del b
    elif drop == 3:
        del c
    return (a, b, c)


def jump_into(flag, a, b, c):
    return (a if flag else b, b, c)     # the jump lands on the second load of a run


def recursive(n, a, b):
    if n == 0:
        return (a, b, n)
    return recursive(n - 1, b, a)


def generator(a, b, c):
    while True:
        a = yield (a, b, c)
        b, c = c, a


# The fast path, long enough to quicken, with values of several types.
results = []
for i in range(60):
    for value in (i, "s", None, (i,)):
        results.append(three(value, i, value))
    results.append(store([0, 1, 2], i % 3, i))
    results.append(runs(i, 1, 2, 3, 4, 5))
    results.append(call(i, -i, 30))
    results.append(unbound(3, i))
    results.append(deleting(i, -i, i, 0))
    results.append(jump_into(i % 2, i, -i, 0))
    results.append(recursive(i % 7, i, -i))
print(results[:11], results[-11:], len(results))

# Unbound and deleted locals in each part, after quickening; errors from the store.
for round in range(3):
    print([attempt(unbound, n, 1) for n in range(3)])
    print([attempt(deleting, 1, 2, 3, drop) for drop in (1, 2, 3)])
    print(attempt(store, (1, 2), 0, 1), attempt(store, [1], 5, 1), attempt(call, 1, "a", 2))

# Generators: resumed by send, thrown into, closed halfway.
g = generator(1, 2, 3)
out = [next(g)]
for value in ("x", None, 4.5, (1,)):
    out.append(g.send(value))
print(out, attempt(g.throw, ValueError("thrown")), attempt(next, g))
for i in range(20):
    g = generator(i, i, i)
    next(g)
    g.send(i)
    g.close()

# Locals past 255: EXTENDED_ARG before the first load; before a later one (no superinstruction).
names = ["v%d" % i for i in range(300)]
source = "def big(a, b, flag):\n"
source += "".join("    %s = a\n" % name for name in names)
source += "    if flag == 1:\n        del v299\n"
source += "    if flag == 2:\n        del b\n"
source += "    return (v299, a, b), (a, b, v299), (v298, v299, a, b)\n"
namespace = {}
exec(source, namespace)
big = namespace["big"]
for i in range(30):
    big(i, -i, 0)
print(big(5, 6, 0), attempt(big, 7, 8, 1), attempt(big, 7, 8, 2))
