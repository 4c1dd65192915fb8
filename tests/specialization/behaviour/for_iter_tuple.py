# member: FOR_ITER_TUPLE
# `for` over a tuple, specialized, then: tuples of every size, tuple subclasses and named
# tuples, an exhausted iterator that stays exhausted, iterators moved by __setstate__, left
# early and resumed, items whose only reference is the tuple (the loop drops the tuple when it
# ends), exceptions in the body, and at the same site lists, ranges and other iterators.
import collections
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


def total(iterable):
    out = []
    for x in iterable:
        out.append(x)
    return out


def warm():
    for _ in range(30):
        total((1, 2))


class T(tuple):
    pass


class Reversed(tuple):
    def __iter__(self):
        return reversed(self)


Point = collections.namedtuple("Point", "x y")

# Specialized on tuples, then tuples of every kind, other iterables at the same site.
def others():
    return [(), (None,), tuple(range(40)), T((7, 8)), Reversed((1, 2, 3)), Point(1, 2), [4, 5],
            range(3), "ab", {1: 2}, iter((1, 2, 3)), reversed((1, 2)), iter(T((9,))),
            tuple("x" * 300)]


rows = []
for round in range(3):
    for other in others():
        warm()
        rows.append(total(other))
n = len(rows) // 3
print(rows[:n - 1], len(rows[n - 1]))
print(rows[n:2 * n] == rows[2 * n:] == rows[:n])

# An exhausted iterator stays exhausted; __setstate__ moves it; __length_hint__ and __reduce__.
for _ in range(40):
    it = iter((1, 2))
    for x in it:
        pass
    after = total(it)
print(after, it.__length_hint__(), it.__reduce__()[0].__name__, it.__reduce__()[1:])
it = iter(tuple(range(10)))
moved = []
for x in it:
    moved.append(x)
    if x == 5 and len(moved) < 10:
        it.__setstate__(2)
    if x == 8:
        it.__setstate__(100)
print(moved, total(it), it.__length_hint__())
it = iter((1, 2, 3))
it.__setstate__(-5)
print(total(it))


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
    partial((1, 2, 3, 4, 5, 6))
print(partial((1, 2, 3, 4, 5, 6)), partial((2,)), partial(()), partial([1, 2, 3]))

# Items whose only reference is the tuple: the loop drops the tuple when it ends, before the
# iterator itself goes.
log = []


class Noisy:
    def __init__(self, name):
        self.name = name

    def __del__(self):
        log.append("del " + self.name)


def consume(it):
    for x in it:
        log.append("at " + x.name)
        x = None
    log.append("loop done")
    return it


for i in range(30):
    kept = consume(iter((Noisy("a"), Noisy("b"))))   # the iterator owns the only reference
    log.append("iterator alive")
    del kept
    if i < 29:
        log.clear()
print(log)
log.clear()


def leave_early(it):
    for x in it:
        log.append("at " + x.name)
        break
    log.append("loop left")
    return it


for i in range(30):
    kept = leave_early(iter((Noisy("c"), Noisy("d"))))
    log.append("iterator alive")
    del kept
    if i < 29:
        log.clear()
print(log)


# Exceptions in the loop body and unpacking in the target; references kept right.
def raising(seq):
    out = []
    try:
        for a, b in seq:
            out.append(a // b)
    except (ZeroDivisionError, ValueError, TypeError) as e:
        out.append(where(e))
    return out


for _ in range(40):
    raising(((1, 1), (4, 2)))
print(raising(((1, 1), (1, 0))), raising(((1, 2), (1, 2, 3))), raising(((1, 2), 5)))
objects = tuple(object() for _ in range(3))
before = [sys.getrefcount(o) for o in objects]
count = 0
for _ in range(20):
    for a in objects:
        for b in objects:
            count += a is b
del a, b
print(count, [sys.getrefcount(o) for o in objects] == before)
