# BINARY_OP's `_STORED` members (+ - * on exact ints and on exact floats, chosen where the
# next instruction stores the result into a fast local) write their result, where no operand is
# a temporary, into the object that store replaces, if nothing else refers to it
# (runtime/quicken/quicken_numbers.h, _PyQuicken_StoreTarget): an operand stored back (`x +=
# y`, `x = x - y`, `x = y * x`: the local and the stack refer to it) or the local's previous
# value (`d = x - y` in a loop). Every other holder must keep its value: another local
# (aliases, and the result stored into a different local), list items, dict values,
# attributes, a closure's cell, default arguments; also the same object as both operands, a
# previous value of another type, a small int, unbound or big; results that are small ints
# (shared), cross the one-digit boundary (2**30) or change sign; % and // (no such member);
# float and int mixed; more than 256 locals (an EXTENDED_ARG before the store: no such member);
# reference counts afterwards.
import sys


class Box:
    pass


def ints(n):
    x, k, s = 1000, 7, -2000
    held, box, seen = [], Box(), {}
    y = z = None
    for i in range(n):
        x += 3                       # stored back into x
        x = x - 1
        k = k * 3 % 1000003          # % then *: both stored back
        s = s // 2 - 1000            # // then -: a temporary, then stored back
        y = x + 5                    # stored into another local: x keeps its value
        z = y                        # z and y share: y + 1 must not write into it
        y += 1
        if i % 40 == 0:
            held.append(x)           # held elsewhere from now on
            box.v = x
            seen[i] = k
        x = 2 * x if x < 2 ** 29 else x - 2 ** 29   # right operand stored back; crosses 2**30
    return x, k, s, y, z, held, box.v, seen


def boundaries():
    out = []
    a = 2 ** 30 - 5
    for _ in range(10):
        a += 1                       # leaves one digit: longobject.c, a new int
        out.append(a)
    b = 300
    for _ in range(60):
        b -= 7                       # through the small ints (shared) and below zero
        out.append((b, b is int(str(b))))
    c = -(2 ** 30) + 3
    for _ in range(6):
        c -= 1
        out.append(c)
    d = 1000
    d = d + d                        # both operands the same object
    out.append(d)
    e = 12345
    for _ in range(5):
        e = e * 1                    # a result equal to the operand
    out.append(e)
    return out


def floats(n):
    f, g, h = 0.5, 1000.0, -3.25
    kept = []
    for i in range(n):
        f += 0.25                    # stored back
        g = g * 1.0001
        h = 3.0 - h                  # right operand stored back
        f = f / 1.5 if f > 10.0 else f
        alias = g
        g += 1.0                     # alias still holds the old value
        if i % 30 == 0:
            kept.append((f, g, h, alias))
        f = f + i                    # float + int
        f = 2 * f if f < 1e6 else f - 1e6
    return f, g, h, kept


def replaced(n):
    # The result goes into the object the store replaces: each iteration's d and e into the
    # last one's, unless something else holds it (kept), it is of another type (a float
    # before an int result, an int before a float), a small int, unbound (deleted), or big.
    xs = [3000 + 7 * i for i in range(n)]
    fs = [0.5 * i for i in range(n)]
    kept, out = [], []
    d = e = None
    for i in range(n):
        x = xs[i]
        f = fs[i]
        d = x - 1000                 # int: into the last d
        e = f * 3.0                  # float: into the last e
        if i % 7 == 0:
            kept.append(d)           # held twice now: the next d is a new int
            kept.append(e)
        if i % 11 == 0:
            d = 2.5                  # a float where the int result goes
            e = 7                    # an int where the float result goes
        if i % 13 == 0:
            del d                    # unbound before the next store
            d = 5                    # a small int (shared)
        if i % 17 == 0:
            d = 10 ** 12             # more than one digit
        g = x * 2 + i                # a temporary, then stored into g
        out.append((d, e, g))
    return out[-3:], kept[:8], sum(v for v, _, _ in out if isinstance(v, int))


def cells(n):
    count = 0

    def peek():
        return count

    seen = []
    for _ in range(n):
        count += 1001                # a cell: STORE_DEREF, never written into
        seen.append(peek())
    return count, seen[-3:]


def defaults(n, start=5000):
    for _ in range(n):
        start += 1                   # the default object is held by the function too
    return start, defaults.__defaults__


def many_locals(n):
    # 300 locals: `v299 += 1` is STORE_FAST after EXTENDED_ARG
    names = ["v%d" % i for i in range(300)]
    src = "def g(n):\n" + "".join("    %s = %d\n" % (v, 1000 + i) for i, v in enumerate(names))
    src += "    for _ in range(n):\n        v299 += 1\n        v0 = v0 + v299\n"
    src += "    return v0, v299\n"
    space = {}
    exec(src, space)
    return space["g"](n)


for _ in range(3):                   # quickened from the second call on
    print(ints(200))
    print(boundaries())
    print(floats(200))
    print(cells(20))
    print(defaults(50))
    print(many_locals(50))
    print(replaced(120))


def refs(n):
    x = 10 ** 5
    for _ in range(n):
        x += 1
    return x, sys.getrefcount(x)     # the local and the argument: 3.11.2's count


print(refs(10), refs(10))
