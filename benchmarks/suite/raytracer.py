"""A ray tracer: a small vector class with operator methods, ray-sphere and ray-plane
intersection, Lambert shading, hard shadows and recursive reflections, rendering a
left-right symmetric scene.

The scene is a mirror image of itself, so the picture must be too; the object hit
by every primary ray is recomputed with independent tuple arithmetic; all colour
channels must lie in [0, 1].
"""

import math

WALL_SCALE = 10
INSTRUCTIONS_SCALE = 1

MAX_BOUNCES = 3


class Vector:
    __slots__ = ("x", "y", "z")

    def __init__(self, x, y, z):
        self.x = x
        self.y = y
        self.z = z

    def __add__(self, other):
        return Vector(self.x + other.x, self.y + other.y, self.z + other.z)

    def __sub__(self, other):
        return Vector(self.x - other.x, self.y - other.y, self.z - other.z)

    def __mul__(self, factor):
        return Vector(self.x * factor, self.y * factor, self.z * factor)

    def dot(self, other):
        return self.x * other.x + self.y * other.y + self.z * other.z

    def length(self):
        return math.sqrt(self.dot(self))

    def normalized(self):
        return self * (1.0 / self.length())

    def times(self, other):
        return Vector(self.x * other.x, self.y * other.y, self.z * other.z)


class Sphere:
    def __init__(self, centre, radius, colour, reflectivity):
        self.centre = centre
        self.radius = radius
        self.colour = colour
        self.reflectivity = reflectivity

    def intersect(self, origin, direction):
        offset = origin - self.centre
        b = offset.dot(direction)
        c = offset.dot(offset) - self.radius * self.radius
        discriminant = b * b - c
        if discriminant < 0:
            return None
        root = math.sqrt(discriminant)
        t = -b - root
        if t > 1e-9:
            return t
        t = -b + root
        return t if t > 1e-9 else None

    def normal(self, point):
        return (point - self.centre).normalized()

    def colour_at(self, point):
        return self.colour


class Floor:
    """The plane y = height with a checkerboard that is symmetric under x -> -x."""

    def __init__(self, height, reflectivity):
        self.height = height
        self.reflectivity = reflectivity
        self.up = Vector(0.0, 1.0, 0.0)

    def intersect(self, origin, direction):
        if abs(direction.y) < 1e-12:
            return None
        t = (self.height - origin.y) / direction.y
        return t if t > 1e-9 else None

    def normal(self, point):
        return self.up

    def colour_at(self, point):
        if (math.floor(abs(point.x)) + math.floor(point.z)) % 2:
            return Vector(0.9, 0.9, 0.9)
        return Vector(0.2, 0.2, 0.25)


def make_scene():
    objects = [
        Sphere(Vector(0.0, 1.0, 6.0), 1.0, Vector(0.9, 0.2, 0.2), 0.3),
        Sphere(Vector(-1.8, 0.6, 5.0), 0.6, Vector(0.2, 0.8, 0.3), 0.1),
        Sphere(Vector(1.8, 0.6, 5.0), 0.6, Vector(0.2, 0.8, 0.3), 0.1),
        Floor(0.0, 0.2),
    ]
    light = Vector(0.0, 6.0, 1.0)
    camera = Vector(0.0, 1.2, 0.0)
    return objects, light, camera


def closest_hit(objects, origin, direction):
    best_t = math.inf
    best = None
    for index, thing in enumerate(objects):
        t = thing.intersect(origin, direction)
        if t is not None and t < best_t:
            best_t, best = t, index
    return best, best_t


def trace(objects, light, origin, direction, depth):
    index, t = closest_hit(objects, origin, direction)
    if index is None:
        return Vector(0.5, 0.7, 1.0) * (0.5 + 0.5 * direction.y)
    thing = objects[index]
    point = origin + direction * t
    normal = thing.normal(point)
    to_light = light - point
    light_distance = to_light.length()
    to_light = to_light * (1.0 / light_distance)
    shadow, shadow_t = closest_hit(objects, point, to_light)
    lit = shadow is None or shadow_t > light_distance
    diffuse = max(0.0, normal.dot(to_light)) if lit else 0.0
    colour = thing.colour_at(point) * (0.1 + 0.9 * diffuse)
    if depth < MAX_BOUNCES and thing.reflectivity > 0:
        reflected = direction - normal * (2 * direction.dot(normal))
        bounce = trace(objects, light, point, reflected, depth + 1)
        colour = colour * (1 - thing.reflectivity) + bounce * thing.reflectivity
    return colour


def primary_direction(x, y, width, height):
    """Direction through pixel (x, y) for a camera looking down +z, as a plain tuple."""
    u = (2 * x + 1 - width) / width          # odd symmetry in x: u(width-1-x) == -u(x)
    v = (height - 2 * y - 1) / width
    norm = math.sqrt(u * u + v * v + 1.0)
    return u / norm, v / norm, 1.0 / norm


def image_size(scale):
    width = int(70 * math.sqrt(scale))
    return width, (width * 3) // 4


def run(scale):
    objects, light, camera = make_scene()
    width, height = image_size(scale)
    image = []
    hits = []
    for y in range(height):
        row = []
        row_hits = []
        for x in range(width):
            dx, dy, dz = primary_direction(x, y, width, height)
            direction = Vector(dx, dy, dz)
            colour = trace(objects, light, camera, direction, 0)
            row.append((colour.x, colour.y, colour.z))
            row_hits.append(closest_hit(objects, camera, direction)[0])
        image.append(row)
        hits.append(row_hits)
    return image, hits


def reference_hit(scene_spheres, floor_height, origin, direction):
    """Index of the first object hit, with spheres as (cx, cy, cz, r) tuples."""
    best_t, best = math.inf, None
    ox, oy, oz = origin
    dx, dy, dz = direction
    for index, (cx, cy, cz, r) in enumerate(scene_spheres):
        px, py, pz = ox - cx, oy - cy, oz - cz
        b = px * dx + py * dy + pz * dz
        disc = b * b - (px * px + py * py + pz * pz - r * r)
        if disc >= 0:
            for t in (-b - math.sqrt(disc), -b + math.sqrt(disc)):
                if t > 1e-9:
                    if t < best_t:
                        best_t, best = t, index
                    break
    if abs(dy) >= 1e-12:
        t = (floor_height - oy) / dy
        if 1e-9 < t < best_t:
            best = len(scene_spheres)
    return best


def check(result, scale):
    image, hits = result
    width, height = image_size(scale)
    assert len(image) == height and all(len(row) == width for row in image)
    for row in image:
        for pixel in row:
            assert all(0.0 <= channel <= 1.0 for channel in pixel), pixel
        for x in range(width // 2):
            mirrored = row[width - 1 - x]
            assert all(abs(a - b) <= 1e-9 for a, b in zip(row[x], mirrored)), "image is not symmetric"
    spheres = [(0.0, 1.0, 6.0, 1.0), (-1.8, 0.6, 5.0, 0.6), (1.8, 0.6, 5.0, 0.6)]
    for y in range(height):
        for x in range(width):
            direction = primary_direction(x, y, width, height)
            assert hits[y][x] == reference_hit(spheres, 0.0, (0.0, 1.2, 0.0), direction), (x, y)
    assert hits[height // 2][width // 2] == 0, "the centre ray must hit the big sphere"
    assert any(h == 1 for row in hits for h in row) and any(h is None for row in hits for h in row)
