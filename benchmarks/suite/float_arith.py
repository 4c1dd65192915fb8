"""Float arithmetic and comparisons: Mandelbrot escape times, Simpson integration,
Newton square roots.

The Mandelbrot grid is symmetric about the real axis, so mirrored rows must
agree exactly; sample points are recomputed with Python's complex type.  The
integral of sin over [0, pi] must be 2 and Newton's roots must match math.sqrt.
"""

import math

WALL_SCALE = 10
INSTRUCTIONS_SCALE = 1

MAX_ITERATIONS = 60


def escape_time(cr, ci):
    zr = zi = 0.0
    for n in range(MAX_ITERATIONS):
        zr2 = zr * zr
        zi2 = zi * zi
        if zr2 + zi2 > 4.0:
            return n
        zi = 2.0 * zr * zi + ci
        zr = zr2 - zi2 + cr
    return MAX_ITERATIONS


def mandelbrot(width, height):
    rows = []
    for y in range(height):
        ci = 1.2 - 2.4 * y / (height - 1)
        rows.append([escape_time(-2.1 + 2.8 * x / (width - 1), ci) for x in range(width)])
    return rows


def simpson(f, a, b, intervals):
    h = (b - a) / intervals
    total = f(a) + f(b)
    for i in range(1, intervals):
        total += (4.0 if i % 2 else 2.0) * f(a + i * h)
    return total * h / 3.0


def newton_sqrt(x):
    guess = x if x > 1.0 else 1.0
    while True:
        better = 0.5 * (guess + x / guess)
        if abs(better - guess) <= 1e-15 * better:
            return better
        guess = better


def grid_size(scale):
    side = int(118 * scale ** 0.5)
    return side, side + 1  # an odd row count puts a row on the real axis


def run(scale):
    width, height = grid_size(scale)
    rows = mandelbrot(width, height)
    integral = simpson(math.sin, 0.0, math.pi, 12_000 * scale)
    roots = [newton_sqrt(0.37 * k + 0.01) for k in range(9_000 * scale)]
    return rows, integral, roots


def complex_escape_time(c):
    z = 0j
    for n in range(MAX_ITERATIONS):
        if abs(z) > 2.0:
            return n
        z = z * z + c
    return MAX_ITERATIONS


def check(result, scale):
    rows, integral, roots = result
    width, height = grid_size(scale)
    assert len(rows) == height and all(len(row) == width for row in rows)
    for y in range(height // 2):
        assert rows[y] == rows[height - 1 - y], "Mandelbrot grid is not symmetric"
    for y in range(0, height, 7):
        ci = 1.2 - 2.4 * y / (height - 1)
        for x in range(0, width, 5):
            c = complex(-2.1 + 2.8 * x / (width - 1), ci)
            # |z| > 2 and |z|**2 > 4 can disagree by one step only at the boundary itself.
            assert abs(rows[y][x] - complex_escape_time(c)) <= 1, (x, y)
    assert abs(integral - 2.0) < 1e-9, integral
    for k, root in enumerate(roots):
        assert abs(root - math.sqrt(0.37 * k + 0.01)) <= 1e-12 * root, k
