# Int results of BINARY_OP's int members (+, -, *, %, //; runtime/quicken/quicken_numbers.h):
# a one-digit result is written into an operand only the stack referred to, small results are
# the shared small ints; % and // of one-digit operands are computed in the case, with Python's
# signs. Temporaries reused on the left, on the right and in chains; operands
# something else still holds (locals, globals, items, attributes, cells) keeping their values;
# results kept in containers staying distinct; results at the one-digit boundary (2**30) and
# beyond, negative ones, zero; identity of small results; multi-digit operands; bools and
# int subclasses (not exact).


class Holder:
    def __init__(self, value):
        self.value = value


def temporaries(ns):
    out = []
    for n in ns:
        out.append((n * 3) + 1000)             # the left operand a temporary
        out.append(1000 - (n * 3))             # the right one
        out.append((n * 7) - (n * 5))          # both
        out.append((n + 300) * (n - 300))      # both, a product
        out.append(n * n - n * n + n)          # a chain
        out.append(((n + 1000) * (n - 1000)) - 7)
    return out


def shared(ns):
    out = []
    holder = Holder(1234)
    items = [5000, 777]
    pair = (3000, -4000)
    table = {"k": 9999}
    for n in ns:
        a = n + 1000                           # a local holds it
        b = a + (a * 2)
        c = items[0] + items[0]                # the same object twice
        d = (pair[0] * n) - pair[1]
        e = table["k"] - (n + 300)
        f = holder.value * (n * 2)
        g = 100000 - a                         # a local's only other reference: the stack
        h = a * 3
        out.append((a, b, c, d, e, f, g, h, items, pair, table["k"], holder.value))
    return out


G = 100000


def globals_and_cells(ns):
    total = 0
    step = 300

    def stepped(v):
        return v * step

    for n in ns:
        total += n * G
        total = total - stepped(n)
    return total, G, step


def boundaries():
    out = []
    top = 2 ** 30 - 1                            # the largest one-digit value
    for k in list(range(-3, 4)) * 8:             # long enough to be specialized
        across = ((top - 10 + k) + (10 + k * 0),     # up to and across 2**30
                  -(top - 10 + k) - 10,
                  (2 ** 15 + k) * (2 ** 15 + k),     # products across the digit
                  (-(2 ** 15) - k) * (2 ** 15 + k))
        for r in across:                             # a well-formed int in every way
            out.append((r, r >> 30, r & 1023, r == top + 1, hash(r), r < top))
        out.append((k + 5) - (k + 5))                # zero
        out.append((k * 100) + (k * -100))
    big = 3 ** 40                                     # several digits
    out.append((big + 1) - big)
    out.append((big * 2) - (big + big))
    out.append(big * (2 ** 20 + 3))
    out.append(-(big - 1) + (big * 1))
    return out


SMALL = (200, -5, 0, 256, 257)


def small_identities(ns):
    out = []
    for n in ns:
        r = n * 0 + 200
        s = (n - n) - 5
        t = (n + 1000) - (n + 1000)
        u = (n * 0 + 257) - 1
        v = (n * 0 + 256) + 1                    # not a small int: a new object either way
        out.append((r is SMALL[0], s is SMALL[1], t is SMALL[2], u is SMALL[3], v is SMALL[4]))
    return out


def divisions(ns):
    out = []
    divisors = [1, -1, 2, -2, 3, -3, 7, -7, 300, -300, 2 ** 30 - 1, -(2 ** 30 - 1), 2 ** 30,
                3 ** 40, -(3 ** 40)]
    for n in ns:
        for d in divisors:
            out.append((n % d, n // d, (n * 1000) % d, (n * 1000) // d,   # temporaries
                        (n * 1000) % (d * 1), (d * 1) // (n * 1000 + 1)))
        for zero in (0, n - n):
            try:
                out.append(n % zero)
            except ZeroDivisionError as error:
                out.append("ZeroDivisionError: %s" % error)
            try:
                out.append((n * 1000) // zero)
            except ZeroDivisionError as error:
                out.append("ZeroDivisionError: %s" % error)
        q = (n * 1000) // 7
        r = (n * 1000) % 7
        out.append((q * 7 + r == n * 1000, q is SMALL[2], r >= 0))
    return out


class MyInt(int):
    pass


def others(ns):
    out = []
    for n in ns:
        out.append(type(MyInt(n) + 1000).__name__)
        out.append(type((n * 1000) - MyInt(3)).__name__)
        out.append(True + (n * 1000))
        out.append((n * 1000) * False)
    return out


ns = [i * 37 - 700 for i in range(40)]
for _ in range(3):   # quickened and specialized after the first rounds
    results = (temporaries(ns), shared(ns), globals_and_cells(ns), boundaries(),
               small_identities(ns), divisions(ns), others(ns[:10]))
for part in results:
    print(part)
