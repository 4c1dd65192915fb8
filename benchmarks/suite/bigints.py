"""Arbitrary-precision integers: digits of pi from Machin's formula in fixed point,
factorials and large Fibonacci numbers (most of the time is spent in C big-number code,
which a specializing interpreter barely touches).

Pi is recomputed with a different arctangent formula (Euler's), factorials are
compared with math.factorial and Fibonacci numbers with Cassini's identity.
"""

import math

WALL_SCALE = 10
INSTRUCTIONS_SCALE = 1

PI_DIGITS = 6_000       # each scale step computes pi to PI_DIGITS + step digits
FACTORIALS_UP_TO = 600
FIBONACCI_INDEX = 20_000


def arctan_inverse(x, unity):
    """arctan(1/x) * unity, by its Taylor series in fixed point."""
    total = term = unity // x
    x_squared = x * x
    n = 1
    sign = -1
    while term:
        term //= x_squared
        n += 2
        total += sign * (term // n)
        sign = -sign
    return total


def pi_digits_machin(digits):
    unity = 10 ** (digits + 10)
    pi = 4 * (4 * arctan_inverse(5, unity) - arctan_inverse(239, unity))
    return pi // 10 ** 10


def factorial(n):
    result = 1
    for k in range(2, n + 1):
        result *= k
    return result


def fibonacci_pair(n):
    a, b = 0, 1
    for _ in range(n):
        a, b = b, a + b
    return a, b


def run(scale):
    pis = [pi_digits_machin(PI_DIGITS + step) for step in range(scale)]
    factorials = [factorial(n) for n in range(0, FACTORIALS_UP_TO, 7)]
    fibonacci_pairs = [fibonacci_pair(FIBONACCI_INDEX + step) for step in range(scale)]
    return pis, factorials, fibonacci_pairs


def check(result, scale):
    pis, factorials, fibonacci_pairs = result
    longest = pis[-1]
    digits = PI_DIGITS + scale - 1
    unity = 10 ** (digits + 10)
    # Euler: pi/4 = arctan(1/2) + arctan(1/3).
    euler = 4 * (arctan_inverse(2, unity) + arctan_inverse(3, unity)) // 10 ** 10
    assert abs(longest - euler) <= 1, "Machin and Euler disagree"
    assert 3 * 10 ** digits < longest < 4 * 10 ** digits
    leading = longest // 10 ** (digits - 49)
    assert leading == 31415926535897932384626433832795028841971693993751, leading
    for step, pi in enumerate(pis):
        shorter = longest // 10 ** (digits - PI_DIGITS - step)
        assert abs(pi - shorter) <= 1, "pi to %d digits is not a prefix of the longest" % (PI_DIGITS + step)
    assert factorials == [math.factorial(n) for n in range(0, FACTORIALS_UP_TO, 7)]
    for step, (fib_n, fib_next) in enumerate(fibonacci_pairs):
        n = FIBONACCI_INDEX + step
        fib_previous = fib_next - fib_n
        # Cassini: F(n-1) * F(n+1) - F(n)**2 = (-1)**n
        assert fib_previous * fib_next - fib_n * fib_n == (-1) ** n
    a, b = 0, 1
    for _ in range(FIBONACCI_INDEX):
        a, b = b, (a + b) % 1_000_000_007
    assert fibonacci_pairs[0][0] % 1_000_000_007 == a, "F(n) disagrees with the recurrence modulo a prime"
