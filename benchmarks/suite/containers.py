"""List, tuple and dict indexing and stores: matrix products on nested lists, in-place
prefix sums, histograms in dicts, lookup tables in tuples.

Matrix products are verified with Freivalds' test (A(Bv) == (AB)v for several
vectors v); histograms and prefix sums are checked against independent counts.
"""

WALL_SCALE = 12
INSTRUCTIONS_SCALE = 1

MATRIX_SIDE = 40
VALUES_PER_SCALE = 60_000


def make_matrix(side, seed):
    return [[(seed + 31 * r + 17 * c) % 23 - 11 for c in range(side)] for r in range(side)]


def matmul(a, b):
    side = len(a)
    product = [[0] * side for _ in range(side)]
    for i in range(side):
        row_a = a[i]
        row_p = product[i]
        for k in range(side):
            aik = row_a[k]
            row_b = b[k]
            for j in range(side):
                row_p[j] += aik * row_b[j]
    return product


SQUARES = tuple(i * i for i in range(64))


def run(scale):
    a = make_matrix(MATRIX_SIDE, 1)
    b = make_matrix(MATRIX_SIDE, 2)
    products = []
    for _ in range(scale):
        products.append(matmul(a, b))
        a, b = b, [[x % 19 - 9 for x in row] for row in products[-1]]  # keep entries small
    values = [(i * 7919) % 1009 for i in range(VALUES_PER_SCALE * scale)]
    histogram = {}
    for v in values:
        bucket = v % 50
        histogram[bucket] = histogram.get(bucket, 0) + SQUARES[v % 64]
    prefix = values[:]
    for i in range(1, len(prefix)):
        prefix[i] += prefix[i - 1]
    return products, histogram, prefix, values


def check(result, scale):
    products, histogram, prefix, values = result
    assert len(products) == scale
    a = make_matrix(MATRIX_SIDE, 1)
    b = make_matrix(MATRIX_SIDE, 2)
    for product in products:
        for seed in range(3):
            v = [(seed * 5 + j * 3) % 7 - 3 for j in range(MATRIX_SIDE)]
            bv = [sum(x * y for x, y in zip(row, v)) for row in b]
            abv = [sum(x * y for x, y in zip(row, bv)) for row in a]
            pv = [sum(x * y for x, y in zip(row, v)) for row in product]
            assert abv == pv, "matrix product failed Freivalds' test"
        a, b = b, [[x % 19 - 9 for x in row] for row in product]
    expected = {}
    for v in sorted(values):
        expected.setdefault(v % 50, []).append((v % 64) ** 2)
    assert histogram == {k: sum(s) for k, s in expected.items()}
    assert prefix[-1] == sum(values) and len(prefix) == len(values)
    assert all(prefix[i] - prefix[i - 1] == values[i] for i in range(1, len(values), 97))
