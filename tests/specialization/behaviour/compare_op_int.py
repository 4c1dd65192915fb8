# member: COMPARE_OP_INT
# `a < b` and the other five operators on two exact ints where no jump follows (the bool is
# stored or returned): specialized on small ints, then every operand the member must hand back
# to the generic comparison: ints of more than one digit (at either side, at the edge
# 2**30), negative and zero values, bools and int subclasses (not exact), floats and mixed
# operands, an operand whose rich comparison runs; and each operator at its own site.


def lt(a, b):
    r = a < b
    return r


def le(a, b):
    return a <= b


def eq(a, b):
    return a == b


def ne(a, b):
    return a != b


def gt(a, b):
    r = a > b
    return r


def ge(a, b):
    return [a >= b]


class MyInt(int):
    def __lt__(self, other):
        return ("MyInt.__lt__", int(self), other)

    def __eq__(self, other):
        return ("MyInt.__eq__", int(self), other)

    __hash__ = int.__hash__


def attempt(function, *args):
    try:
        return function(*args)
    except Exception as error:
        return "%s: %s" % (type(error).__name__, error)


OPERATORS = (lt, le, eq, ne, gt, ge)


def rounds():
    out = []
    for a in range(-5, 12):
        for b in (-3, 0, 1, 4, 7, 11, 2 ** 30 - 1, -(2 ** 30 - 1)):
            for op in OPERATORS:
                out.append(op(a, b))
    cases = [(2 ** 30, 1), (1, 2 ** 30), (-(2 ** 30), 5), (2 ** 100, 2 ** 100), (True, 1),
             (0, False), (MyInt(3), 3), (3, MyInt(4)), (1.5, 1), (1, 1.5), (2, 2.0),
             (1, "1"), (None, 1)]
    for a, b in cases:
        for op in OPERATORS:
            out.append(attempt(op, a, b))
    return out


first = rounds()
for _ in range(3):
    print(rounds() == first)
print(first[:80])
print(first[-80:])
