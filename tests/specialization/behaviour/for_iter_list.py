# member: FOR_ITER_LIST
# `for` over a list, specialized, then: the list growing, shrinking, cleared, replaced or
# sorted during the loop; an exhausted iterator that stays exhausted; iterators moved by
# __setstate__, left early and resumed; items whose only reference is the list (their
# __del__ runs when the loop lets go of them); list subclasses; and at the same site tuples,
# ranges and other iterators.
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
        total([1, 2])


class L(list):
    pass


class Reversed(list):
    def __iter__(self):
        return reversed(self)


# Specialized on lists, then lists of every kind, other iterables at the same site.
def others():
    return [[], [None], list(range(40)), L([7, 8]), Reversed([1, 2, 3]), (4, 5), range(3), "ab",
            {1: 2}, iter([1, 2, 3]), reversed([1, 2]), iter(L([9]))]


rows = []
for round in range(3):
    for other in others():
        warm()
        rows.append(total(other))
n = len(rows) // 3
print(rows[:n])
print(rows[n:2 * n] == rows[2 * n:] == rows[:n])


# The list changes during the loop.
def grow(lst, limit):
    for x in lst:
        if len(lst) < limit:
            lst.append(x + 1)
    return lst


def shrink(lst):
    seen = []
    for x in lst:
        seen.append(x)
        if lst:
            lst.pop()
    return seen, lst


def clear(lst):
    seen = []
    for x in lst:
        seen.append(x)
        lst.clear()
    return seen, lst


def replace(lst):
    seen = []
    for x in lst:
        seen.append(x)
        lst[:] = [x * 10] * (4 - len(seen))
    return seen, lst


def insert_front(lst):
    seen = []
    for x in lst:
        seen.append(x)
        if len(lst) < 8:
            lst.insert(0, -x)
    return seen, lst


for _ in range(40):
    grow([1], 5)
    shrink([1, 2, 3, 4, 5])
print(grow([1], 20), shrink(list(range(9))), clear([1, 2, 3]), replace([1, 2, 3]),
      insert_front([1, 2, 3]))
print(grow([1], 1000)[-3:])      # grows past its allocation many times


# A loop over the list being sorted: during the sort it looks empty.
def sneaky_key(item):
    peek.append(total(sorting))
    return -item


peek = []
sorting = [3, 1, 2]
sorting.sort(key=sneaky_key)
print(sorting, peek)

# An exhausted iterator stays exhausted even if the list grows again; __setstate__ moves it.
for _ in range(40):
    lst = [1, 2]
    it = iter(lst)
    for x in it:
        pass
    lst.append(3)
    after = total(it)
print(after, it.__length_hint__(), lst)
lst = list(range(10))
it = iter(lst)
moved = []
for x in it:
    moved.append(x)
    if x == 5 and len(moved) < 10:
        it.__setstate__(2)
    if x == 8:
        it.__setstate__(100)
print(moved, total(it), it.__reduce__()[1:])
it = iter([1, 2, 3])
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
    partial([1, 2, 3, 4, 5, 6])
print(partial([1, 2, 3, 4, 5, 6]), partial([2]), partial([]), partial((1, 2, 3)))

# Items whose only reference is the list: the loop variable keeps the current one alive.
log = []


class Noisy:
    def __init__(self, name):
        self.name = name

    def __del__(self):
        log.append("del " + self.name)


def drop_all(lst):
    for x in lst:
        log.append("at " + x.name)
        lst.clear()
        log.append("still " + x.name)
        x = None
    log.append("loop done")


for i in range(30):
    drop_all([Noisy("a"), Noisy("b")])
    if i < 29:
        log.clear()
print(log)
log.clear()


def consume(it):
    for x in it:
        log.append("at " + x.name)
    log.append("loop done")


for i in range(30):
    consume(iter([Noisy("c"), Noisy("d")]))     # the iterator owns the only list reference
    if i < 29:
        log.clear()
print(log)


# Exceptions in the loop body; nested loops over the same list; references kept right.
def raising(seq):
    out = []
    try:
        for x in seq:
            out.append(10 // x)
    except ZeroDivisionError as e:
        out.append(where(e))
    return out


for _ in range(40):
    raising([1, 2])
print(raising([1, 0, 2]), raising([5, 0]))
objects = [object() for _ in range(3)]
before = [sys.getrefcount(o) for o in objects]
count = 0
for _ in range(20):
    for a in objects:
        for b in objects:
            count += a is b
del a, b
print(count, [sys.getrefcount(o) for o in objects] == before)
