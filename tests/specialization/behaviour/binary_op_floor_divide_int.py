# member: BINARY_OP_FLOOR_DIVIDE_INT
# `a // b` and `a //= b` on two exact ints: specialized on small ints, then every guard and
# operand the member must hand back to the generic operator: negative operands (rounding
# towards minus infinity), zero divisors (ZeroDivisionError), big ints, bools and int
# subclasses (not exact), floats, an operand whose __rfloordiv__ runs.


def div(a, b):
    return a // b


def idiv(a, b):
    a //= b
    return a


class MyInt(int):
    def __floordiv__(self, other):
        return ("MyInt.__floordiv__", int(self), other)

    def __rfloordiv__(self, other):
        return ("MyInt.__rfloordiv__", other, int(self))


def attempt(function, *args):
    try:
        return function(*args)
    except Exception as error:
        return "%s: %s" % (type(error).__name__, error)


def rounds():
    out = []
    for a in range(-7, 40):
        for b in (1, 2, 3, 7, 10, -3, -10, 2 ** 30):
            out.append(div(a, b))
            out.append(idiv(a, b))
    cases = [(7, 0), (-7, 0), (0, 0), (2 ** 100 + 7, 10), (-(2 ** 100), 7), (7, 2 ** 100),
             (-7, 2 ** 100), (-(2 ** 63), -1), (True, 2), (7, True), (7, False),
             (MyInt(7), 3), (7, MyInt(3)), (7.5, 2), (7, 2.5), (-7, 2.0), (10 ** 20, 3.0)]
    for a, b in cases:
        out.append(attempt(div, a, b))
        out.append(attempt(idiv, a, b))
    return out


first = rounds()
for _ in range(3):
    print(rounds() == first)
print(first[:60])
print(first[-34:])
