# member: BINARY_OP_SUBTRACT_INT_STORED
# `x = a - b` on two exact ints where a store into a local follows (`x -= b`, `d = a - b`):
# specialized, the result written into the object the store replaces where nothing else refers
# to it: an operand stored back or the local's previous value. Every holder that must keep its
# value (aliases, lists, attributes, the same object on both sides), results of another size or
# type, and operands the member must hand back to the generic operator: small and big results, bools and int subclasses (not exact), floats, an operand whose method runs.


class Box:
    pass


class Sub(int):
    def __sub__(self, other):
        return ("Sub.__sub__", int(self), other)


def stored_back(a, b, n):
    x = a
    kept = []
    for i in range(n):
        x -= b                   # stored back into x
        if i % 5 == 0:
            kept.append(x)           # held twice: the next result is a new object
    return x, kept


def previous(xs, b):
    out, box = [], Box()
    d = None
    for i, a in enumerate(xs):
        d = a - b                # into the last iteration's d
        if i % 4 == 0:
            box.v = d                # held by an attribute
        if i % 6 == 0:
            alias = d                # held by another local
            d = alias - b
            out.append(alias)
        out.append(d)
    return out, box.v


def same(a):
    a = a - a                    # both operands the same object
    return a


def attempt(function, *args):
    try:
        return function(*args)
    except Exception as error:
        return "%s: %s" % (type(error).__name__, error)


def rounds():
    out = []
    out.append(stored_back(1000, 7, 40))
    out.append(previous([1000 + 7 * i for i in range(30)], 7))
    out.append(same(1000))
    for a, b in [(2 ** 29, 2 ** 29), (-1000, 3), (5, 3), (2 ** 100, 7), (7, 2 ** 100), (True, 1000), (1000, True), (Sub(1000), 7), (1000, Sub(7)), (1000, 2.5), (2.5, 1000)]:
        out.append(attempt(stored_back, a, b, 3))
        out.append(attempt(previous, [a, a, a], b))
    return out


first = rounds()
for _ in range(3):
    print(rounds() == first)
print(first)
