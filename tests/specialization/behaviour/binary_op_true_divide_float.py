# member: BINARY_OP_TRUE_DIVIDE_FLOAT
# `a / b` and `a /= b` on two exact floats: specialized, then every guard and operand the
# member must hand back to the generic operator: zero and negative zero divisors
# (ZeroDivisionError), infinities and NaN, ints and mixed operands, float subclasses (not
# exact), an operand whose __rtruediv__ runs, results that overflow to inf.
import math


def quot(a, b):
    return a / b


def iquot(a, b):
    a /= b
    return a


class MyFloat(float):
    def __truediv__(self, other):
        return ("MyFloat.__truediv__", float(self), other)

    def __rtruediv__(self, other):
        return ("MyFloat.__rtruediv__", other, float(self))


def attempt(function, *args):
    try:
        r = function(*args)
    except Exception as error:
        return "%s: %s" % (type(error).__name__, error)
    if isinstance(r, float) and math.isnan(r):
        return "nan"
    return r


def rounds():
    out = []
    for a in (0.0, -0.0, 1.0, -2.5, 3.25, 1e300, 7.0, 1e-300):
        for b in (1.0, 2.0, -4.0, 0.1, 3.0, 1e-300, 7.5):
            out.append(attempt(quot, a, b))
            out.append(attempt(iquot, a, b))
    cases = [(1.0, 0.0), (1.0, -0.0), (0.0, 0.0), (math.inf, 2.0), (2.0, math.inf),
             (math.inf, math.inf), (math.nan, 1.0), (1e308, 1e-308), (7, 2), (7.0, 2), (7, 2.0),
             (MyFloat(7.0), 2.0), (7.0, MyFloat(2.0)), (True, 2.0), (2.0, True), (2.0, False),
             (1.0, 3.0)]
    for a, b in cases:
        out.append(attempt(quot, a, b))
        out.append(attempt(iquot, a, b))
    return out


first = rounds()
for _ in range(3):
    print(rounds() == first)
print([repr(x) for x in first])
