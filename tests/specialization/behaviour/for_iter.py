# FOR_ITER_LIST, _TUPLE, _RANGE: `for` over lists, tuples and ranges, and what the specialized
# loops see after specializing (other iterators, mutation, exhaustion, exceptions, jumps).
import sys


def total(iterable):
    out = []
    for x in iterable:
        out.append(x)
    return out


class L(list):
    pass


class T(tuple):
    pass


def gen(n):
    yield from range(n)


# One loop, specialized on each kind in turn, then fed every kind.
kinds = [[1, 2, 3], (4, 5), range(3), range(10, 0, -3), range(0), range(-2 ** 62, 2 ** 62, 2 ** 61),
         range(sys.maxsize - 3, sys.maxsize), range(-sys.maxsize - 1, -sys.maxsize + 2),
         range(2 ** 64, 2 ** 64 + 2), L([7, 8]), T((9,)), "ab", {1: 2}, {3}, b"xy", gen(3),
         iter([1, 2]), reversed([1, 2]), enumerate("ab"), [], ()]
results = []
for round in range(3):
    for k in kinds:
        for _ in range(30):
            total([1, 2] if round == 0 else (1, 2) if round == 1 else range(2))
        results.append(total(k))
print(results[:len(kinds)])
print(results[len(kinds):2 * len(kinds)] == results[2 * len(kinds):])


# Mutating the list during the loop.
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


for _ in range(40):
    grow([1], 5)
    shrink([1, 2, 3, 4, 5])
print(grow([1], 20), shrink(list(range(9))))

# An exhausted list iterator stays exhausted even if the list grows again.
for _ in range(40):
    lst = [1, 2]
    it = iter(lst)
    for x in it:
        pass
    lst.append(3)
    after = list(it)
print(after, it.__length_hint__(), lst)

# A loop left early and resumed on the same iterator; break, continue and else.
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
print(partial([1, 2, 3, 4, 5, 6]), partial((1, 2, 3, 4)), partial(range(1, 8)))
print(iter(range(5)).__reduce__()[1:], iter([1, 2]).__reduce__()[1:])


# Exceptions raised in the loop body and from the iterator.
def raising(seq):
    out = []
    try:
        for x in seq:
            out.append(10 // x)
    except ZeroDivisionError as e:
        out.append(type(e).__name__)
    return out


def bad_gen():
    yield 1
    raise ValueError("from the iterator")


for _ in range(40):
    raising([1, 2])
print(raising([1, 0, 2]), raising((5, 0)), raising(range(-1, 2)))
try:
    total(bad_gen())
except ValueError as e:
    print("ValueError", e)

# Nested loops over every pair of kinds, with references kept alive by the items.
objects = [object() for _ in range(3)]
count = 0
for outer in [objects, tuple(objects), range(3)] * 20:
    for inner in [objects, tuple(objects), range(3)]:
        for a in outer:
            for b in inner:
                count += a is b
print(count, [sys.getrefcount(o) for o in objects])

# Big ranges and their ints, including past the small-int cache.
print(sum(range(100000)), sum(x for x in range(-300, 300, 7)), list(range(250, 270, 5)))
print([x for x in range(sys.maxsize - 2, sys.maxsize)],
      [x for x in range(-sys.maxsize - 1, -sys.maxsize + 1)])

# A loop inside a generator that is closed halfway.
def inner_loop(seq):
    for x in seq:
        yield x * 2


for _ in range(40):
    g = inner_loop([1, 2, 3])
    next(g)
    g.close()
print(list(inner_loop((1, 2, 3))), list(inner_loop(range(3))))
