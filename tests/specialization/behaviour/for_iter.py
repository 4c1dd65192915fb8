# member: FOR_ITER_ADAPTIVE
# `for` at one site that sees, in turn, every kind of iterator the FOR_ITER family does not
# specialize for (generators, dict views, sets, str, bytes, ranges past a C long, enumerate,
# zip, map, itertools, callable iterators, iterators written in Python, __getitem__ sequences,
# errors from __iter__ and __next__): the adaptive form installs the generic FOR_ITER for good
# at the first iterator no member takes (as upstream's loop, which has no family), and a list,
# a tuple or a range coming back runs there generically (a Py_STATS build keeps the adaptive
# form, fails, backs off and specializes again).
import array
import collections
import dis
import io
import itertools
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


def total(iterable):
    out = []
    try:
        for x in iterable:
            out.append(x)
            if len(out) > 20:
                break
    except Exception as error:
        out.append(where(error))
    return out


class Countdown:
    def __init__(self, n):
        self.n = n

    def __iter__(self):
        return self

    def __next__(self):
        if self.n <= 0:
            raise StopIteration("with a value")
        self.n -= 1
        return self.n


class Raises:
    def __iter__(self):
        return self

    def __next__(self):
        raise LookupError("from __next__")


class Indexes:
    def __getitem__(self, i):
        if i > 3:
            raise IndexError(i)
        return i * 2


class BadIter:
    def __iter__(self):
        return 5


def gen(n):
    yield from range(n)
    return "value"


def bad_gen():
    yield 1
    raise ValueError("from the generator")


def makers():
    """Fresh iterables of every kind (iterators are used up by one loop)."""
    calls = iter(range(5))
    return [
        gen(3), bad_gen(), (x * 2 for x in "ab"), {1: 2, 3: 4}, {1: 2}.values(), {1: 2}.items(),
        {3, 4}, frozenset({5}), "ab\u20ac", b"xy", bytearray(b"z"), range(2 ** 64, 2 ** 64 + 2),
        range(-2 ** 70, -2 ** 70 + 3), enumerate("ab"), zip("ab", (1, 2)), map(abs, (-1, -2)),
        filter(None, [0, 1, 2]), reversed([1, 2]), reversed((3, 4)), itertools.count(5),
        itertools.chain([1], (2,)), itertools.islice(range(10), 2, 5), iter(calls.__next__, 3),
        collections.deque([7, 8]), array.array("b", [1, 2]), memoryview(b"mv"),
        io.StringIO("l1\nl2\n"), Countdown(3), Raises(), Indexes(), BadIter(), 5, None,
        iter([1, 2]), iter((3,)), iter(range(2)),
    ]


# Each kind after a hot loop on a list, a tuple and a range (the site specializes, misses,
# goes back to the adaptive form); three rounds give the same results.
rows = []
for round in range(3):
    for index in range(len(makers())):
        for fast in ([1, 2], (1, 2), range(2)):
            for _ in range(30):
                total(fast)
            rows.append(total(makers()[index]))
n = len(rows) // 3
for row in rows[:n:3]:
    print(row)
print(rows[n:2 * n] == rows[:n] == rows[2 * n:])

# One site that only ever sees iterators without a member: it keeps failing and backing off;
# then a list arrives and specializes it.
seen = []
for i in range(200):
    seen.append(total(makers()[i % 12]))
print(seen[-3:], sum(map(len, seen)))
print([total([i, i]) for i in range(100)][-1], total((1,)), total(range(3)), total(gen(2)))


# Nested loops over every pair of kinds.
count = 0
for outer in [[1, 2], (1, 2), range(1, 3), {1: 0, 2: 0}, "12", gen(3)] * 5:
    for inner in [[1, 2], (1, 2), range(1, 3), {1, 2}, iter([2])]:
        for a in outer:
            for b in inner:
                count += a == b
print(count)

# StopIteration raised with tracing on: the loop's exception event.
events = []


def tracer(frame, event, arg):
    if event == "exception":
        events.append((frame.f_code.co_name, arg[0].__name__))
    return tracer


sys.settrace(tracer)
try:
    total(Countdown(2))
    total(gen(2))
finally:
    sys.settrace(None)
print(events)
