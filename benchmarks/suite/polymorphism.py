"""Polymorphic sites: one call site and one attribute site seeing eight classes in turn
(where a specializing interpreter keeps missing), duck typing, and Python-level
comparison dunders used by sorted().

Each shape's area and perimeter are recomputed from its raw parameters with
formulas written independently of the classes.
"""

import math

WALL_SCALE = 12
INSTRUCTIONS_SCALE = 1

SHAPES_PER_SCALE = 24_000


class Shape:
    sides = 0

    def __lt__(self, other):
        return self.area() < other.area()

    def describe(self):
        return self.kind + str(self.sides)


class Square(Shape):
    kind = "square"
    sides = 4

    def __init__(self, a):
        self.a = a

    def area(self):
        return self.a * self.a

    def perimeter(self):
        return 4 * self.a


class Rectangle(Shape):
    kind = "rectangle"
    sides = 4

    def __init__(self, a, b):
        self.a = a
        self.b = b

    def area(self):
        return self.a * self.b

    def perimeter(self):
        return 2 * (self.a + self.b)


class Circle(Shape):
    kind = "circle"

    def __init__(self, r):
        self.r = r

    def area(self):
        return math.pi * self.r * self.r

    def perimeter(self):
        return 2 * math.pi * self.r


class Triangle(Shape):
    kind = "triangle"
    sides = 3

    def __init__(self, a, b, c):
        self.a, self.b, self.c = a, b, c

    def area(self):
        s = (self.a + self.b + self.c) / 2
        return math.sqrt(s * (s - self.a) * (s - self.b) * (s - self.c))

    def perimeter(self):
        return self.a + self.b + self.c


class Hexagon(Shape):
    kind = "hexagon"
    sides = 6

    def __init__(self, a):
        self.a = a

    def area(self):
        return 3 * math.sqrt(3) / 2 * self.a * self.a

    def perimeter(self):
        return 6 * self.a


class Ring(Circle):
    kind = "ring"

    def __init__(self, r, inner):
        super().__init__(r)
        self.inner = inner

    def area(self):
        return super().area() - math.pi * self.inner * self.inner


class Ellipse(Shape):
    kind = "ellipse"

    def __init__(self, a, b):
        self.a = a
        self.b = b

    def area(self):
        return math.pi * self.a * self.b

    def perimeter(self):  # Ramanujan's first approximation
        return math.pi * (3 * (self.a + self.b) - math.sqrt((3 * self.a + self.b) * (self.a + 3 * self.b)))


class Strip:
    """Duck-typed: not a Shape, but answers the same questions."""

    kind = "strip"
    sides = 4

    def __init__(self, length):
        self.length = length

    def area(self):
        return self.length

    def perimeter(self):
        return 2 * self.length + 2

    def describe(self):
        return "strip"

    def __lt__(self, other):
        return self.area() < other.area()


def parameters(i):
    """(kind index, parameters) for the i-th shape."""
    k = i % 8
    a = 1 + i % 17
    b = 2 + i % 5
    if k == 3:
        return k, (a + 2, a + 3, a + 4)
    return k, (a, b)


FACTORIES = (
    lambda p: Square(p[0]),
    lambda p: Rectangle(p[0], p[1]),
    lambda p: Circle(p[0]),
    lambda p: Triangle(*p),
    lambda p: Hexagon(p[0]),
    lambda p: Ring(p[0] + p[1], p[1]),
    lambda p: Ellipse(p[0], p[1]),
    lambda p: Strip(p[0] * p[1]),
)


def make(i):
    k, p = parameters(i)
    return FACTORIES[k](p)


def run(scale):
    shapes = [make(i) for i in range(SHAPES_PER_SCALE * scale)]
    total_area = 0.0
    total_perimeter = 0.0
    sides = 0
    names = 0
    for shape in shapes:
        total_area += shape.area()
        total_perimeter += shape.perimeter()
        sides += shape.sides
        names += len(shape.describe())
    ranked = sorted(shapes[:600])
    return total_area, total_perimeter, sides, names, [s.area() for s in ranked]


def check(result, scale):
    total_area, total_perimeter, sides, names, ranked_areas = result
    area = perimeter = 0.0
    side_count = name_length = 0
    areas = []
    for i in range(SHAPES_PER_SCALE * scale):
        k, p = parameters(i)
        a, b = p[0], p[1]
        if k == 0:
            shape_area, shape_perimeter, n, name = a * a, 4 * a, 4, "square4"
        elif k == 1:
            shape_area, shape_perimeter, n, name = a * b, 2 * a + 2 * b, 4, "rectangle4"
        elif k == 2:
            shape_area, shape_perimeter, n, name = math.pi * a * a, 2 * math.pi * a, 0, "circle0"
        elif k == 3:  # Heron's formula on sides a+2, a+3, a+4
            x, y, z = p
            s = (x + y + z) / 2
            shape_area, shape_perimeter, n, name = (s * (s - x) * (s - y) * (s - z)) ** 0.5, x + y + z, 3, "triangle3"
        elif k == 4:
            shape_area, shape_perimeter, n, name = 1.5 * 3 ** 0.5 * a * a, 6 * a, 6, "hexagon6"
        elif k == 5:
            r = a + b
            shape_area, shape_perimeter, n, name = math.pi * (r * r - b * b), 2 * math.pi * r, 0, "ring0"
        elif k == 6:
            h = ((a - b) / (a + b)) ** 2
            # Ramanujan's first approximation, written in its h form.
            shape_area = math.pi * a * b
            shape_perimeter = math.pi * (a + b) * (3 - (4 - h) ** 0.5)
            n, name = 0, "ellipse0"
        else:
            shape_area, shape_perimeter, n, name = a * b, 2 * a * b + 2, 4, "strip"
        area += shape_area
        perimeter += shape_perimeter
        side_count += n
        name_length += len(name)
        if i < 600:
            areas.append(shape_area)
    assert abs(total_area - area) <= 1e-9 * area, (total_area, area)
    assert abs(total_perimeter - perimeter) <= 1e-9 * perimeter, (total_perimeter, perimeter)
    assert (sides, names) == (side_count, name_length)
    assert len(ranked_areas) == len(areas)
    assert all(abs(x - y) <= 1e-9 * y for x, y in zip(ranked_areas, sorted(areas)))
