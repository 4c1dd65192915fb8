"""Python function calls: positional, keyword and default arguments, *args/**kwargs, closures, lambdas.

Every loop iteration calls nine small functions through a different calling
convention.  Each function is linear in the loop index, so the total has a
closed form, which the check evaluates independently.
"""

WALL_SCALE = 12
INSTRUCTIONS_SCALE = 1

CALLS_PER_SCALE = 32_000


def add3(a, b, c):
    return a + b + c


def scaled(x, factor=2, offset=1):
    return x * factor + offset


def clamp(x, *, lo, hi):
    if x < lo:
        return lo
    if x > hi:
        return hi
    return x


def count_and_first(*args):
    return len(args) + args[0]


def difference(**named):
    return named["a"] - named["b"]


def make_counter(step):
    count = 0

    def bump():
        nonlocal count
        count += step
        return count

    return bump


def compose(outer, inner):
    return lambda x: outer(inner(x))


def run(scale):
    n = CALLS_PER_SCALE * scale
    bump = make_counter(3)
    increment_then_double = compose(lambda x: x * 2, lambda x: x + 1)
    total = 0
    for i in range(n):
        total += add3(i, 1, 2)
        total += scaled(i)
        total += scaled(i, 3)
        total += scaled(i, offset=5)
        total += clamp(i % 100, lo=10, hi=90)
        total += count_and_first(i, 2, 3)
        total += difference(a=i, b=1)
        total += bump()
        total += increment_then_double(i)
    return total


def check(result, scale):
    n = CALLS_PER_SCALE * scale
    # Per iteration the linear calls contribute 15*i + 17 (see the functions above):
    # (i+3) + (2i+1) + (3i+1) + (2i+5) + (i+3) + (i-1) + 3(i+1) + 2(i+1).
    linear = 15 * (n * (n - 1) // 2) + 17 * n
    cycle = [min(max(r, 10), 90) for r in range(100)]
    clamped = sum(cycle) * (n // 100) + sum(cycle[: n % 100])
    assert result == linear + clamped, (result, linear + clamped)
