"""Small-integer arithmetic and comparisons: Euclid's gcd, Collatz chains, modular
exponentiation by squaring, and bit counting.

Each part is checked against a different algorithm: the gcd sum through Euler's
totient (sum of gcd(a, b) = sum over d of phi(d) * (K // d)**2), Collatz
lengths through a memoised recursion, powers through the builtin pow, and bit
counts through bin().
"""

WALL_SCALE = 12
INSTRUCTIONS_SCALE = 1

GCD_SIDE = 118         # K for the gcd table; the table grows with the square root of scale
COLLATZ_PER_SCALE = 3_300
POWERS_PER_SCALE = 1_300
BITS_PER_SCALE = 6_600


def gcd(a, b):
    while b:
        a, b = b, a % b
    return a


def gcd_table_sum(side):
    total = 0
    for a in range(1, side + 1):
        for b in range(1, side + 1):
            total += gcd(a, b)
    return total


def collatz_steps(n):
    steps = 0
    while n != 1:
        if n % 2 == 0:
            n = n // 2
        else:
            n = 3 * n + 1
        steps += 1
    return steps


def power_mod(base, exponent, modulus):
    result = 1
    base %= modulus
    while exponent > 0:
        if exponent & 1:
            result = result * base % modulus
        base = base * base % modulus
        exponent >>= 1
    return result


def popcount(x):
    count = 0
    while x:
        x &= x - 1
        count += 1
    return count


def gcd_side(scale):
    return int(GCD_SIDE * scale ** 0.5)


def run(scale):
    gcd_sum = gcd_table_sum(gcd_side(scale))
    longest = max((collatz_steps(n), n) for n in range(1, COLLATZ_PER_SCALE * scale))
    modulus = 1_000_003
    powers = sum(power_mod(b, b * 7 + 3, modulus) for b in range(2, POWERS_PER_SCALE * scale))
    bits = sum(popcount(x * 2654435761 % 2**30) for x in range(BITS_PER_SCALE * scale))
    return gcd_sum, longest, powers, bits


def totients(limit):
    phi = list(range(limit + 1))
    for p in range(2, limit + 1):
        if phi[p] == p:
            for multiple in range(p, limit + 1, p):
                phi[multiple] -= phi[multiple] // p
    return phi


def check(result, scale):
    gcd_sum, longest, powers, bits = result
    side = gcd_side(scale)
    phi = totients(side)
    assert gcd_sum == sum(phi[d] * (side // d) ** 2 for d in range(1, side + 1)), gcd_sum

    memo = {1: 0}

    def chain(n):
        if n not in memo:
            memo[n] = 1 + chain(n // 2 if n % 2 == 0 else 3 * n + 1)
        return memo[n]

    expected_longest = max((chain(n), n) for n in range(1, COLLATZ_PER_SCALE * scale))
    assert longest == expected_longest, (longest, expected_longest)
    modulus = 1_000_003
    assert powers == sum(pow(b, b * 7 + 3, modulus) for b in range(2, POWERS_PER_SCALE * scale))
    assert bits == sum(bin(x * 2654435761 % 2**30).count("1") for x in range(BITS_PER_SCALE * scale))
