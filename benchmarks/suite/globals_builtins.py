"""Global and builtin name lookups: module-level constants, tables and helper functions,
builtins such as len/abs/min, and module globals rebound with the `global` statement.

A checksum loop reads globals and builtins on every iteration and periodically
rebinds a global function and a global counter.  Every figure has a closed form.
"""

WALL_SCALE = 12
INSTRUCTIONS_SCALE = 1

ITERATIONS_PER_SCALE = 66_000

OFFSET = 17
FACTOR = 3
TABLE = tuple(range(0, 640, 10))
LIMIT = 50

calls_made = 0
resets = 0


def double(x):
    return 2 * x


def triple(x):
    return 3 * x


transform = double


def tick():
    global calls_made
    calls_made += 1


def switch():
    global transform, resets
    transform = triple if transform is double else double
    resets += 1


def run(scale):
    global calls_made, resets, transform
    calls_made = resets = 0
    transform = double
    total = 0
    for i in range(ITERATIONS_PER_SCALE * scale):
        total += transform(i) + OFFSET * FACTOR
        total += TABLE[i % len(TABLE)] - abs(i - LIMIT) + min(i, LIMIT)
        tick()
        if i % 1000 == 999:
            switch()
    return total, calls_made, resets


def check(result, scale):
    n = ITERATIONS_PER_SCALE * scale
    expected = 0
    for block_start in range(0, n, 1000):
        factor = 2 if (block_start // 1000) % 2 == 0 else 3
        block = range(block_start, min(block_start + 1000, n))
        expected += factor * sum(block) + 51 * len(block)
    table_part = sum(10 * (i % 64) for i in range(n))
    # -|i - 50| + min(i, 50) is 2i - 50 below 50 and 100 - i from 50 on.
    bend = sum(2 * i - 50 if i < 50 else 100 - i for i in range(n))
    assert result == (expected + table_part + bend, n, n // 1000), result
