# member: CALL_PY_KEYWORDS
# Calls of Python functions with keyword arguments that name parameters in their order, the
# parameters between and after them taken from defaults: specialized, then every guard and
# every shape the member must leave to the generic call. Keyword-only parameters, defaults
# before, between and after the keywords, a method call and a plain call at one site (bound
# method, function stored on an instance, one function called both ways), `__defaults__` and
# `__code__` replaced after specializing, another function at the site, keywords out of
# order, an unknown or repeated name, a keyword for a positional-only parameter, a missing
# argument, `**kwargs` and `*args` parameters, cells (a parameter an inner function
# captures), generators, closures, errors raised by the callee (their line), recursion with
# keywords and sixteen parameters.
import dis
import sys


def show(value):
    return "!" + type(value).__name__ + ": " + str(value) if isinstance(value, BaseException) \
        else repr(value)


def where(error):
    """An exception and where its innermost frame stopped: the line counted from the function's
    first line and the instruction there (its generic name)."""
    tb = error.__traceback__
    while tb.tb_next is not None:
        tb = tb.tb_next
    code = tb.tb_frame.f_code
    return "%s (line +%d, %s)" % (show(error), tb.tb_lineno - code.co_firstlineno,
                                  dis.opname[code.co_code[tb.tb_lasti]])


def attempt(f, *args):
    try:
        return show(f(*args))
    except Exception as error:
        return where(error)


def scaled(x, factor=2, offset=1):
    return x * factor + offset


def clamp(x, *, lo, hi):
    return lo if x < lo else hi if x > hi else x


def spread(a, b=10, c=20, d=30, *, e=40):
    return (a, b, c, d, e)


def posonly(a, b, /, c=3):
    return (a, b, c)


def captured(x, step=1):
    def inner():
        return x + step
    return inner()


def counting(n, *, start=0, step=1):
    i = start
    while i < n:
        yield i
        i += step


def failing(x, *, divisor):
    return x // divisor


def wide(a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, a15=15):
    return a0 + a1 + a2 + a3 + a4 + a5 + a6 + a7 + a8 + a9 + a10 + a11 + a12 + a13 + a14 + a15


def depth(n, *, acc=0):
    return acc if n == 0 else depth(n - 1, acc=acc + n)


class Shape:
    def __init__(self, w):
        self.w = w

    def area(self, h=1, *, scale=1):
        return self.w * h * scale


def kwargs_taker(x, **rest):
    return (x, sorted(rest.items()))


def args_taker(x, *rest, y=0):
    return (x, rest, y)


def round_(i):
    out = []
    out.append(scaled(i, factor=3))                  # a default after the keyword
    out.append(scaled(i, offset=5))                  # a default before the keyword
    out.append(scaled(i, factor=2, offset=0))        # every parameter
    out.append(scaled(x=i))                          # the first parameter by name
    out.append(clamp(i, lo=2, hi=6))                 # keyword-only
    out.append(spread(i, c=1, e=2))                  # defaults between
    out.append(spread(i, 1, 2, d=3))
    out.append(posonly(i, 2, c=9))
    out.append(captured(i, step=7))
    out.append(list(counting(i % 5 + 3, start=1, step=2)))
    out.append(Shape(i).area(2, scale=3))            # a method call
    out.append(wide(*range(15), a15=i) if i % 2 else wide(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10,
                                                           11, 12, 13, 14, a15=i))
    out.append(depth(30, acc=i))
    return out


def run_rounds(rounds):
    first = round_(1)
    same = [round_(1) == first for _ in range(rounds)]
    return first, all(same)


def warm():
    for i in range(40):
        round_(i)


warm()
print(run_rounds(20))
print([round_(i) for i in range(12)][-1])


# One site, two shapes: a bound method (is_meth) and a function stored on an instance.
def call_area(obj, h):
    return obj.area(h, scale=2)


class Plain:
    pass


plain = Plain()
plain.area = lambda h, scale=1: ("plain", h, scale)
shapes = [Shape(3)] * 20 + [plain, Shape(4), plain]
print([call_area(s, 5) for s in shapes][-4:])


# One site, one function: called as a method (self passed) and stored on an instance (not).
def measure(self, h=1, *, scale=1):
    return ("measure", show(self), h, scale)


class Measured:
    measure = measure

    def __repr__(self):
        return "Measured()"


def call_measure(obj, h):
    return obj.measure(h, scale=2)


loose = Plain()
loose.measure = measure
holders = [Measured()] * 20 + [loose, Measured(), loose]
print([call_measure(o, 5) for o in holders][-4:])


# One site, the function changed after specializing.
def call_scaled(f, x):
    return f(x, factor=4)


def other(x, factor=0, offset=0):
    return ("other", x, factor, offset)


def out_of_order(x, offset=0, factor=0):
    return ("out_of_order", x, factor, offset)


def only_kw(*, x, factor):
    return ("only_kw", x, factor)


results = [call_scaled(scaled, i) for i in range(20)]
results.append(call_scaled(other, 1))
results.append(call_scaled(out_of_order, 2))
results.append(attempt(call_scaled, only_kw, 3))
results.append(attempt(call_scaled, posonly, 4))
results.append(call_scaled(kwargs_taker, 5))
results.append(call_scaled(args_taker, 6) if False else attempt(call_scaled, args_taker, 6))
results.append(call_scaled(scaled, 7))
print(results[-8:])

# __defaults__ and __code__ replaced after specializing.
print([call_scaled(scaled, i) for i in range(20)][-1])
scaled.__defaults__ = (5, 100)
print(call_scaled(scaled, 1), scaled(2, factor=1))
scaled.__code__ = other.__code__
print(call_scaled(scaled, 1), scaled(2, factor=1))
scaled.__defaults__ = None
print(attempt(call_scaled, scaled, 1))


# Errors: a missing keyword-only argument, an unknown name, a repeated value, the callee's.
def call_clamp(x, lo):
    return clamp(x, lo=lo, hi=10)


def call_failing(x, d):
    return failing(x, divisor=d)


print([call_clamp(i, 3) for i in range(20)][-3:])
print(attempt(lambda: clamp(1, lo=2)))
print(attempt(lambda: clamp(1, lo=2, hi=3, mid=4)))
print(attempt(lambda: scaled(1, x=2)))
print(attempt(lambda: posonly(1, b=2)))
print([call_failing(i, 3) for i in range(20)][-1], attempt(call_failing, 5, 0))

# Recursion through keywords up to the limit.
limit = sys.getrecursionlimit()
sys.setrecursionlimit(200)
try:
    depth(500, acc=0)
except RecursionError as error:      # raised at a frame's start: no instruction to name
    print(show(error))
sys.setrecursionlimit(limit)
print(depth(100, acc=1))
