"""Recursive Python-to-Python calls: naive Fibonacci, Ackermann, Towers of Hanoi, building
and folding binary trees, and mutual recursion.

Results are checked against closed forms: iterative Fibonacci, A(2, n) = 2n + 3,
A(3, n) = 2**(n + 3) - 3, 2**n - 1 Hanoi moves, 2**(d + 1) - 1 tree nodes.
"""

WALL_SCALE = 16
INSTRUCTIONS_SCALE = 1


def fib(n):
    return n if n < 2 else fib(n - 1) + fib(n - 2)


def ackermann(m, n):
    if m == 0:
        return n + 1
    if n == 0:
        return ackermann(m - 1, 1)
    return ackermann(m - 1, ackermann(m, n - 1))


def hanoi(disks, source, target, spare, moves):
    if disks:
        hanoi(disks - 1, source, spare, target, moves)
        moves.append((source, target))
        hanoi(disks - 1, spare, target, source, moves)


def build(depth):
    if depth == 0:
        return None
    return (build(depth - 1), depth, build(depth - 1))


def fold(tree):
    if tree is None:
        return 1, 0
    left_count, left_sum = fold(tree[0])
    right_count, right_sum = fold(tree[2])
    return left_count + right_count, left_sum + right_sum + tree[1]


def is_even(n):
    return True if n == 0 else is_odd(n - 1)


def is_odd(n):
    return False if n == 0 else is_even(n - 1)


def run(scale):
    # Bounded arguments keep the recursion depth well below the default limit at any scale.
    fibs = [fib(n) for n in range(18)] + [fib(21) for _ in range(scale)]
    ackermanns = [ackermann(2, n) for _ in range(scale) for n in range(60)] + [ackermann(3, 4)]
    moves = []
    hanoi(12, "a", "c", "b", moves)
    folds = [fold(build(13)) for _ in range(scale)]
    parities = [is_even(n) for _ in range(scale) for n in range(0, 400, 3)]
    return fibs, ackermanns, len(moves), moves[:3], folds, parities


def check(result, scale):
    fibs, ackermanns, move_count, first_moves, folds, parities = result
    a, b = 0, 1
    iterative = []
    for _ in range(22):
        iterative.append(a)
        a, b = b, a + b
    assert fibs == iterative[:18] + [iterative[21]] * scale
    assert ackermanns == [2 * n + 3 for n in range(60)] * scale + [2 ** 7 - 3]
    # An even number of disks starts by moving the smallest one to the spare peg.
    assert move_count == 2 ** 12 - 1 and first_moves == [("a", "b"), ("a", "c"), ("b", "c")]
    # A tree of depth d has 2**d - 1 nodes, 2**d empty leaves, and level k (depth value
    # d - k) holds 2**k nodes.
    node_sum = sum((13 - k) * 2 ** k for k in range(13))
    assert folds == [(2 ** 13, node_sum)] * scale
    assert parities == [n % 2 == 0 for n in range(0, 400, 3)] * scale
