"""Sequence unpacking and packing: tuple swaps, multiple assignment from tuples and lists,
star-unpacking, nested targets, functions returning tuples, iterating over pairs.

Fibonacci numbers modulo m come from the pair recurrence and are checked with
matrix exponentiation; the other parts are checked with closed-form sums.
"""

WALL_SCALE = 12
INSTRUCTIONS_SCALE = 1

ITERATIONS_PER_SCALE = 26_000
MODULUS = 1_000_000_007


def divide(a, b):
    return a // b, a % b


def run(scale):
    n = ITERATIONS_PER_SCALE * scale
    a, b = 0, 1
    for _ in range(n):
        a, b = b, (a + b) % MODULUS
    fibonacci = a

    pairs = [(i, i * 2) for i in range(n)]
    triples = [[i, i + 1, i + 2] for i in range(n)]
    pair_total = 0
    for left, right in pairs:
        pair_total += right - left
    triple_total = 0
    for x, y, z in triples:
        x, y, z = z, x, y
        triple_total += x - y + z
    head_total = tail_total = 0
    for row in triples:
        head, *rest = row
        head_total += head
        tail_total += len(rest)
    nested_total = 0
    for (p, q), r in zip(pairs, range(n)):
        quotient, remainder = divide(q + r + 7, 5)
        nested_total += quotient + remainder - p
    return fibonacci, pair_total, triple_total, head_total, tail_total, nested_total


def mat_mult(x, y):
    return [
        [(x[0][0] * y[0][0] + x[0][1] * y[1][0]) % MODULUS, (x[0][0] * y[0][1] + x[0][1] * y[1][1]) % MODULUS],
        [(x[1][0] * y[0][0] + x[1][1] * y[1][0]) % MODULUS, (x[1][0] * y[0][1] + x[1][1] * y[1][1]) % MODULUS],
    ]


def fibonacci_mod(n):
    result = [[1, 0], [0, 1]]
    base = [[1, 1], [1, 0]]
    while n:
        if n & 1:
            result = mat_mult(result, base)
        base = mat_mult(base, base)
        n >>= 1
    return result[0][1]


def check(result, scale):
    n = ITERATIONS_PER_SCALE * scale
    fibonacci, pair_total, triple_total, head_total, tail_total, nested_total = result
    assert fibonacci == fibonacci_mod(n), "Fibonacci recurrence is wrong"
    triangle = n * (n - 1) // 2
    assert pair_total == triangle
    # After the rotation x, y, z = i + 2, i, i + 1, so x - y + z = i + 3.
    assert triple_total == triangle + 3 * n
    assert head_total == triangle and tail_total == 2 * n
    # (3i + 7) // 5 + (3i + 7) % 5 - i, summed over i.
    assert nested_total == sum((3 * i + 7) // 5 + (3 * i + 7) % 5 - i for i in range(n))
