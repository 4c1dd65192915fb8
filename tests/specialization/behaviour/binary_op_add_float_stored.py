# member: BINARY_OP_ADD_FLOAT_STORED
# `x = a + b` on two exact floats where a store into a local follows (`x += b`, `d = a + b`):
# specialized, the result written into the object the store replaces where nothing else refers
# to it: an operand stored back or the local's previous value. Every holder that must keep its
# value (aliases, lists, attributes, the same object on both sides), results of another size or
# type, and operands the member must hand back to the generic operator: float subclasses (not exact), ints, an infinity and a NaN, an operand whose method runs.


class Box:
    pass


class Sub(float):
    def __add__(self, other):
        return ("Sub.__add__", float(self), other)


def stored_back(a, b, n):
    x = a
    kept = []
    for i in range(n):
        x += b                   # stored back into x
        if i % 5 == 0:
            kept.append(x)           # held twice: the next result is a new object
    return x, kept


def previous(xs, b):
    out, box = [], Box()
    d = None
    for i, a in enumerate(xs):
        d = a + b                # into the last iteration's d
        if i % 4 == 0:
            box.v = d                # held by an attribute
        if i % 6 == 0:
            alias = d                # held by another local
            d = alias + b
            out.append(alias)
        out.append(d)
    return out, box.v


def same(a):
    a = a + a                    # both operands the same object
    return a


def attempt(function, *args):
    try:
        return function(*args)
    except Exception as error:
        return "%s: %s" % (type(error).__name__, error)


def rounds():
    out = []
    out.append(stored_back(1000.5, 0.25, 40))
    out.append(previous([1000.5 + 0.25 * i for i in range(30)], 0.25))
    out.append(same(1000.5))
    for a, b in [(1e308, 1e308), (float('inf'), 1.0), (float('nan'), 2.0), (-0.0, 0.0), (Sub(1.5), 2.0), (1.5, Sub(2.0)), (1.5, 2), (2, 1.5), (1.5, 10 ** 20)]:
        out.append(attempt(stored_back, a, b, 3))
        out.append(attempt(previous, [a, a, a], b))
    return out


first = rounds()
for _ in range(3):
    print(rounds() == first)
print(first)
