# member: FOR_ITER_RANGE
# `for` over a range, specialized, then: ranges of every shape (empty, negative steps, huge
# steps, bounds at the ends of a C long, past them, where the member must not go), reversed
# ranges, iterators moved by __setstate__ or partly used before the loop, left early and
# resumed, ints past the small-int cache, exceptions in the body, and at the same site lists,
# tuples and other iterators.
import dis
import sys


def show(value):
    return "!" + type(value).__name__ + ": " + str(value) if isinstance(value, BaseException) \
        else repr(value)


def where(error):
    """An exception and where its innermost frame stopped: the line counted from the function's
    first line and the instruction there (its generic name)."""
    tb = error.__traceback__
    while tb.tb_next is not None:
        tb = tb.tb_next
    code = tb.tb_frame.f_code
    return "%s (line +%d, %s)" % (show(error), tb.tb_lineno - code.co_firstlineno,
                                  dis.opname[code.co_code[tb.tb_lasti]])


def total(iterable, limit=8):
    out = []
    for x in iterable:
        out.append(x)
        if len(out) == limit:
            break
    return out


def warm():
    for _ in range(30):
        total(range(2))


M = sys.maxsize


def ranges():
    return [range(0), range(1), range(5), range(10, 0, -3), range(-5, 5, 4), range(3, 3),
            range(5, 0), range(0, -1, -1), range(250, 270, 5), range(-300, -200, 33),
            range(-2 ** 62, 2 ** 62, 2 ** 61), range(M - 3, M), range(-M - 1, -M + 2),
            range(M - 2, M + 2), range(-M - 3, -M), range(0, M, M // 3), range(M, -M - 1, -M),
            range(-M - 1, M, 2 ** 62), range(-M - 1, M), range(M, -M - 1, -1),
            range(2 ** 64, 2 ** 64 + 2), range(0, 2 ** 64, 2 ** 63), reversed(range(5)),
            reversed(range(-M - 1, -M + 2)), reversed(range(M - 2, M + 3)), iter(range(3)),
            [1, 2], (3, 4), "ab", iter([5])]


rows = []
for round in range(3):
    for r in ranges():
        warm()
        rows.append(total(r))
n = len(rows) // 3
print(rows[:n])
print(rows[n:2 * n] == rows[2 * n:] == rows[:n])
print([len(total(r, 10 ** 6)) for r in (range(0, M, M // 7), range(-7, M, M // 5 + 3))])

# __setstate__ moves an iterator (clamped to the range); one partly used before the loop.
it = iter(range(10))
moved = []
for x in it:
    moved.append(x)
    if x == 5 and len(moved) < 10:
        it.__setstate__(2)
    if x == 8:
        it.__setstate__(100)
print(moved, total(it), it.__length_hint__(), it.__reduce__()[1:])
it = iter(range(0, 30, 3))
it.__setstate__(-5)
next(it)
next(it)
print(total(it), it.__length_hint__())


# Left early and resumed on the same iterator; break, continue and else.
def partial(seq):
    it = iter(seq)
    first = []
    for x in it:
        if x == 2:
            break
        first.append(x)
    rest = []
    for x in it:
        if x % 2:
            continue
        rest.append(x)
    else:
        rest.append("else")
    return first, rest


for _ in range(40):
    partial(range(1, 7))
print(partial(range(1, 7)), partial(range(2, 3)), partial(range(0)), partial(range(9, 0, -1)))


# Ints past the small-int cache are new objects, small ones are shared.
def identities(r):
    shared = []
    for x in r:
        shared.append(x is int(str(x)))
    return shared


for _ in range(40):
    identities(range(3))
print(identities(range(250, 260)), identities(range(-3, 3)), identities(range(258, 262)))


# Exceptions in the loop body; sums of big ranges.
def raising(seq):
    out = []
    try:
        for x in seq:
            out.append(10 // x)
    except ZeroDivisionError as e:
        out.append(where(e))
    return out


for _ in range(40):
    raising(range(1, 3))
print(raising(range(-1, 2)), raising(range(5, -5, -5)))
total_sum = 0
for x in range(100000):
    total_sum += x
print(total_sum, sum(x for x in range(-300, 300, 7)))
