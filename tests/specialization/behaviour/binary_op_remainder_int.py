# member: BINARY_OP_REMAINDER_INT
# `a % b` and `a %= b` on two exact ints: specialized on small ints, then every guard and
# operand the member must hand back to the generic operator: negative operands (Python's sign
# rule), zero divisors (ZeroDivisionError), big ints, bools and int subclasses (not exact),
# floats, str formatting at another site, an operand whose __rmod__ runs.


def rem(a, b):
    return a % b


def irem(a, b):
    a %= b
    return a


class MyInt(int):
    def __mod__(self, other):
        return ("MyInt.__mod__", int(self), other)

    def __rmod__(self, other):
        return ("MyInt.__rmod__", other, int(self))


def attempt(function, *args):
    try:
        return function(*args)
    except Exception as error:
        return "%s: %s" % (type(error).__name__, error)


def rounds():
    out = []
    for a in range(-7, 40):
        for b in (1, 2, 3, 7, 10, -3, -10, 2 ** 30):
            out.append(rem(a, b))
            out.append(irem(a, b))
    cases = [(7, 0), (-7, 0), (0, 0), (2 ** 100 + 7, 10), (-(2 ** 100), 7), (7, 2 ** 100),
             (-7, 2 ** 100), (2 ** 64, -(2 ** 63)), (True, 2), (7, True), (7, False),
             (MyInt(7), 3), (7, MyInt(3)), (7.5, 2), (7, 2.5), (-7, 2.0), (10 ** 20, 3.0)]
    for a, b in cases:
        out.append(attempt(rem, a, b))
        out.append(attempt(irem, a, b))
    return out


first = rounds()
for _ in range(3):
    print(rounds() == first)
print(first[:60])
print(first[-34:])
print(attempt(rem, "%d items", 3), attempt(rem, b"%s", (b"x",)))
