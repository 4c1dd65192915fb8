# The ints of `for x in range(...)` (FOR_ITER_RANGE, runtime/quicken/quicken_numbers.h's
# _PyQuicken_RangeValue): where the loop variable alone holds the previous one-digit int, the
# next value is written into it. Values kept by the body (in lists, other locals, attributes,
# closures, as dict keys) must keep theirs; the variable rebound in the body (to another int,
# a small int, a big int, a float, a subclass, deleted); small values and the one-digit
# boundary (2**30); negative and huge steps; two loops over one variable; comprehensions and
# generator expressions; a loop variable that is a cell (a closure reads it); more than 256
# locals (EXTENDED_ARG before the store); the loop variable's int and the range's own ints kept
# distinct; small values after large ones (the shared small ints); reference counts.
import sys


def kept(n):
    out, pairs = [], []
    for i in range(1000, 1000 + n):
        out.append(i)                      # a list holds it: not reused
        if i % 7 == 0:
            j = i                          # another local holds it
            pairs.append((j, i))
    return out, pairs


def rebound(n):
    out = []
    for i in range(5000, 5000 + n):
        k = i % 6
        if k == 0:
            i = 3                          # a small int: shared, must not be written
        elif k == 1:
            i = 10 ** 20                   # several digits
        elif k == 2:
            i = 2.5
        elif k == 3:
            i = True
        elif k == 4:
            del i
            out.append("deleted")
            continue
        out.append(i)
    return out, 3, True, 2.5


class MyInt(int):
    pass


def subclass(n):
    out = []
    for i in range(400, 400 + n):
        out.append(type(i).__name__)
        i = MyInt(i)
        out.append((type(i).__name__, i))
    return out


def bounds():
    out = []
    top = 2 ** 30
    for start, stop, step in ((top - 5, top + 5, 1), (-top - 5, -top + 5, 1),
                              (250, 270, 1), (-10, 10, 3), (300, -300, -37),
                              (0, 2 ** 62, 2 ** 59), (-2 ** 40, 2 ** 40, 2 ** 38),
                              (top - 1, top - 12, -1)):
        seen = []
        for v in range(start, stop, step):
            seen.append((v, v > top - 2, -v, v * 1, hash(v) == hash(v * 1)))
        out.append(seen)
    return out


def identities(n):
    out = []
    prev = None
    for i in range(100000, 100000 + n):
        out.append(prev is i)              # never the same object as a kept one
        prev = i
    small = [i for i in range(250, 262) if i is (i * 1)]  # small ints stay shared
    return out, small


def small_crossing():
    # A large value, then small ones: the small ones must be the shared small ints, never
    # written into the int the variable held (which nothing else holds: only text is kept).
    out = []
    for v in range(300, 200, -7):
        out.append((str(v), v is (v + 0), v is int(str(v))))
    for v in range(-20, 20, 3):
        out.append((str(v), v is (v * 1)))
    return out


def two_loops(n):
    out = []
    for i in range(700, 700 + n):
        pass
    a = i
    for i in range(900, 900 + n):
        out.append(i - a)
    return out, a, i


def cells(n):
    fs = []
    for i in range(2000, 2000 + n):
        fs.append(lambda: i)               # `i` is a cell: the store is STORE_DEREF
    return [f() for f in fs]


def comprehensions(n):
    squares = [x * 2 for x in range(3000, 3000 + n)]
    total = sum(x for x in range(4000, 4000 + n))
    keys = {x: x - 1 for x in range(6000, 6000 + n)}
    return squares, total, sorted(keys.items())[:5]


def many_locals(n):
    names = ", ".join("v%d" % k for k in range(300))
    src = "def f(n):\n    %s = %s\n    out = []\n" % (names, ", ".join(["0"] * 300))
    src += "    for v299 in range(8000, 8000 + n):\n        out.append(v299)\n"
    src += "    for v299 in range(9000, 9000 + n):\n        last = v299\n"
    src += "    return out, last, v0\n"
    space = {}
    exec(src, space)
    return space["f"](n)


def refcounts(n):
    out = []
    for i in range(123456, 123456 + n):
        out.append(sys.getrefcount(i))
    return out[-3:]


class Box:
    pass


def attributes(n):
    box = Box()
    seen = {}
    for i in range(70000, 70000 + n):
        box.last = i
        seen[i] = i
    return box.last, sorted(seen)[:3], len(seen)


for _ in range(3):  # quickened and specialized after the first rounds
    results = (kept(40), rebound(36), subclass(8), bounds(), identities(30), two_loops(20),
               cells(10), comprehensions(20), many_locals(12), refcounts(20), attributes(30),
               small_crossing())
for part in results:
    print(part)
