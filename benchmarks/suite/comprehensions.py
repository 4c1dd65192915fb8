"""Comprehensions and generator expressions: nested and filtered list comprehensions,
dict and set comprehensions, generator expressions fed to sum/any/all.

Pythagorean triples found by brute force are checked against Euclid's formula;
the dict and set results are checked with loops and arithmetic.
"""

import math

WALL_SCALE = 12
INSTRUCTIONS_SCALE = 1

TRIPLE_LIMIT = 125       # hypotenuse bound, grows with the cube root of scale
WORDS_PER_SCALE = 11_000


def triple_limit(scale):
    return int(TRIPLE_LIMIT * scale ** (1 / 3))


def run(scale):
    limit = triple_limit(scale)
    triples = [
        (a, b, c)
        for c in range(1, limit + 1)
        for b in range(1, c)
        for a in range(1, b)
        if a * a + b * b == c * c
    ]
    words = ["w%d" % (i * 7 % 1013) for i in range(WORDS_PER_SCALE * scale)]
    first_index = {word: index for index, word in reversed(list(enumerate(words)))}
    residues = {len(word) * 100 + int(word[1:]) % 100 for word in words}
    squares = {n: n * n for n in range(WORDS_PER_SCALE * scale) if n % 3 == 0}
    total = sum(v for v in squares.values() if v % 2 == 0)
    has_long = any(len(word) > 4 for word in words)
    grid = [[row * col for col in range(40)] for row in range(100 * scale)]
    diagonal = [grid[i][i % 40] for i in range(len(grid))]
    return triples, first_index, residues, total, has_long, sum(diagonal)


def euclid_triples(limit):
    found = set()
    for m in range(2, math.isqrt(limit) + 1):
        for n in range(1, m):
            if (m - n) % 2 == 1 and math.gcd(m, n) == 1:
                a, b, c = m * m - n * n, 2 * m * n, m * m + n * n
                k = 1
                while k * c <= limit:
                    found.add((min(a, b) * k, max(a, b) * k, c * k))
                    k += 1
    return found


def check(result, scale):
    triples, first_index, residues, total, has_long, diagonal = result
    limit = triple_limit(scale)
    assert set(triples) == euclid_triples(limit) and len(triples) == len(set(triples))
    n = WORDS_PER_SCALE * scale
    seen = {}
    for i in range(n):
        word = "w%d" % (i * 7 % 1013)
        if word not in seen:
            seen[word] = i
    assert first_index == seen
    assert residues == {len(w) * 100 + int(w[1:]) % 100 for w in seen}
    assert total == sum(k * k for k in range(0, n, 6))
    assert has_long == any(i * 7 % 1013 >= 1000 for i in range(n))  # "w1000" and up
    assert diagonal == sum(i * (i % 40) for i in range(100 * scale))
