# member: BINARY_OP_SUBTRACT_FLOAT_INT
# `float - int` and `int - float` (and `-=`): an exact float and an exact int of one digit in
# either order, specialized, then every operand the member must hand back to the generic
# operator: ints of more than one digit (2**30 and up, where the conversion is still exact
# but the member does not convert), ints too large for a double (OverflowError), bools and int
# and float subclasses (not exact), two floats, two ints; signed zeros, infinities and NaNs
# on the float side.
import math


def sub(a, b):
    return a - b


def isub(a, b):
    a -= b
    return a


class MyFloat(float):
    def __sub__(self, other):
        return ("MyFloat.__sub__", float(self), other)


class MyInt(int):
    def __rsub__(self, other):
        return ("MyInt.__rsub__", other, int(self))


def attempt(function, *args):
    try:
        return function(*args)
    except Exception as error:
        return "%s: %s" % (type(error).__name__, error)


def show(x):
    return repr(x) if not isinstance(x, float) else (x.hex() if not math.isnan(x) else "nan")


def rounds():
    out = []
    for f in (0.5, -0.0, 0.0, 1e300, -2.25, math.inf, -math.inf, math.nan, 1e-320):
        for i in (0, 1, -1, 7, 2 ** 30 - 1, -(2 ** 30 - 1)):
            out.append(show(sub(f, i)))
            out.append(show(sub(i, f)))
            out.append(show(isub(f, i)))
            out.append(show(isub(i, f)))
    cases = [(0.5, 2 ** 30), (2 ** 62, 0.5), (0.5, 10 ** 400), (10 ** 400, 0.5), (True, 0.5),
             (0.5, False), (MyFloat(0.5), 1), (0.5, MyInt(1)), (0.5, 0.25), (1, 2), ("a", 1)]
    for a, b in cases:
        out.append(attempt(sub, a, b))
        out.append(attempt(isub, a, b))
    return out


first = rounds()
for _ in range(3):
    print(rounds() == first)
print(first[:40])
print(first[-30:])
