# Float results written into an operand only the stack referred to (runtime/quicken/
# quicken_numbers.h, called by BINARY_OP's float members): temporaries reused on the left, on
# the right and in chains; operands that something else still holds (locals, globals, list
# and tuple items, dict values, attributes, closures, the same object twice) must keep their
# values; results kept in containers stay distinct; float and int operands (the int freed,
# small and not), zero divisors, float subclasses, reference counts after the operations.
import sys


class Holder:
    def __init__(self, value):
        self.value = value


def temporaries(xs):
    out = []
    for x in xs:
        out.append((x * 2.0) * 3.0)            # the left operand a temporary
        out.append(3.0 * (x * 2.0))            # the right one
        out.append((x * 2.0) + (x * 3.0))      # both
        out.append((x - 1.5) / (x + 0.3))      # both, a division
        out.append(x * x - x * x + x)          # a chain
        out.append(((x + 1.0) * (x - 1.0)) / 4.0)
    return out


def shared(xs):
    out = []
    holder = Holder(0.75)
    items = [0.5, 1.25]
    pair = (2.5, -0.5)
    table = {"k": 4.0}
    for x in xs:
        a = x * 1.0                             # a local holds it
        b = a + (a * 2.0)
        c = items[0] + items[0]                 # the same object twice
        d = (pair[0] * x) - pair[1]
        e = table["k"] / (x + 0.3)
        f = holder.value * (x * 2.0)
        g = 0.5 - a                             # a local's only other reference: the stack
        h = a * 0.5
        out.append((a, b, c, d, e, f, g, h, items[0], pair, table["k"], holder.value))
    return out


G = 1.0


def globals_and_cells(xs):
    total = 0.0
    scale = 0.5

    def scaled(v):
        return v * scale

    for x in xs:
        total += x * G                           # the right operand a temporary, total a local
        total = total + scaled(x)                # a call's result
    return total, G, scale


def int_operands(xs):
    out = []
    for k, x in enumerate(xs):
        big = k * 1000 + 300                    # one digit, not a cached small int
        out.append((x * 2.0) + 1)
        out.append(1 + (x * 2.0))
        out.append((x * 2.0) - big)
        out.append(big - (x * 2.0))
        out.append((x * 2.0) * (k * 7 + 260))  # the int a temporary too
        out.append((k * 7 + 260) * (x * 2.0))
        out.append(x + k)                       # neither a temporary
    return out


class MyFloat(float):
    pass


def others(xs):
    out = []
    for x in xs:
        out.append(type(MyFloat(x) * 2.0).__name__)
        out.append(type((x * 1.0) * MyFloat(2.0)).__name__)
        try:
            out.append((x * 1.0) / (x * 0.0))
        except ZeroDivisionError as error:
            out.append("ZeroDivisionError: %s" % error)
    return out


def references():
    a = 1.5
    b = 2.5
    before = (sys.getrefcount(a), sys.getrefcount(b))
    for _ in range(50):
        t = (a * b) + (a - b)
        u = a + b
    after = (sys.getrefcount(a), sys.getrefcount(b))
    kept = t
    alias = kept
    return before == after, alias is kept, t, u, a, b


xs = [i * 0.25 - 3.0 for i in range(40)]
for _ in range(3):   # quickened and specialized after the first rounds
    results = (temporaries(xs), shared(xs), globals_and_cells(xs), int_operands(xs),
               others(xs[:10]), references())
for part in results:
    print(part)
distinct = temporaries(xs[:5])
print(len(set(map(id, distinct))) == len(distinct), distinct)
