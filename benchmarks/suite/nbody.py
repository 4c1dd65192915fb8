"""N-body gravitational simulation with a leapfrog (kick-drift-kick) integrator: float
arithmetic, attribute access on __slots__ objects, nested loops over body pairs.

The system is a star with planets on near-circular orbits.  Leapfrog conserves
linear and angular momentum up to rounding and keeps the energy error small, so
the check tests those invariants; it also integrates a two-body circular orbit
for one period and checks that the planet comes back to its starting point.
"""

import math

WALL_SCALE = 12
INSTRUCTIONS_SCALE = 1

STEPS_PER_SCALE = 1_800
PLANETS = 6
DT = 0.001


class Body:
    __slots__ = ("x", "y", "z", "vx", "vy", "vz", "mass")

    def __init__(self, x, y, z, vx, vy, vz, mass):
        self.x, self.y, self.z = x, y, z
        self.vx, self.vy, self.vz = vx, vy, vz
        self.mass = mass


def make_system():
    """A unit-mass star and planets on slightly inclined near-circular orbits (G = 1)."""
    bodies = [Body(0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0)]
    for k in range(PLANETS):
        radius = 0.6 + 0.45 * k
        angle = 1.1 * k
        speed = math.sqrt(1.0 / radius) * (1.0 + 0.02 * (k % 3))
        tilt = 0.01 * (k - 2)
        bodies.append(Body(
            radius * math.cos(angle), radius * math.sin(angle), radius * tilt,
            -speed * math.sin(angle), speed * math.cos(angle), 0.0,
            1e-4 * (1 + k % 4)))
    # Move to the centre-of-momentum frame.
    total = sum(b.mass for b in bodies)
    px = sum(b.mass * b.vx for b in bodies)
    py = sum(b.mass * b.vy for b in bodies)
    pz = sum(b.mass * b.vz for b in bodies)
    for b in bodies:
        b.vx -= px / total
        b.vy -= py / total
        b.vz -= pz / total
    return bodies


def kick(bodies, pairs, dt):
    for a, b in pairs:
        dx = a.x - b.x
        dy = a.y - b.y
        dz = a.z - b.z
        distance_squared = dx * dx + dy * dy + dz * dz
        magnitude = dt / (distance_squared * math.sqrt(distance_squared))
        mb = b.mass * magnitude
        ma = a.mass * magnitude
        a.vx -= dx * mb
        a.vy -= dy * mb
        a.vz -= dz * mb
        b.vx += dx * ma
        b.vy += dy * ma
        b.vz += dz * ma


def drift(bodies, dt):
    for b in bodies:
        b.x += dt * b.vx
        b.y += dt * b.vy
        b.z += dt * b.vz


def advance(bodies, steps, dt):
    pairs = [(bodies[i], bodies[j]) for i in range(len(bodies)) for j in range(i + 1, len(bodies))]
    half = dt / 2
    for _ in range(steps):
        kick(bodies, pairs, half)
        drift(bodies, dt)
        kick(bodies, pairs, half)


def energy(bodies):
    total = 0.0
    for i, a in enumerate(bodies):
        total += 0.5 * a.mass * (a.vx * a.vx + a.vy * a.vy + a.vz * a.vz)
        for b in bodies[i + 1:]:
            d = math.sqrt((a.x - b.x) ** 2 + (a.y - b.y) ** 2 + (a.z - b.z) ** 2)
            total -= a.mass * b.mass / d
    return total


def invariants(bodies):
    """Energy, linear momentum and angular momentum, all as plain numbers."""
    momentum = [sum(b.mass * getattr(b, name) for b in bodies) for name in ("vx", "vy", "vz")]
    angular = [
        sum(b.mass * (b.y * b.vz - b.z * b.vy) for b in bodies),
        sum(b.mass * (b.z * b.vx - b.x * b.vz) for b in bodies),
        sum(b.mass * (b.x * b.vy - b.y * b.vx) for b in bodies),
    ]
    return energy(bodies), momentum, angular


def run(scale):
    bodies = make_system()
    before = invariants(bodies)
    advance(bodies, STEPS_PER_SCALE * scale, DT)
    after = invariants(bodies)
    return before, after, [(b.x, b.y, b.z) for b in bodies]


def check(result, scale):
    (e0, p0, l0), (e1, p1, l1), positions = result
    assert all(math.isfinite(c) for xyz in positions for c in xyz)
    assert abs(e1 - e0) <= 1e-6 * abs(e0), "energy drifted: %r -> %r" % (e0, e1)
    assert all(abs(a - b) <= 1e-12 for a, b in zip(p0, p1)), "momentum not conserved"
    assert all(abs(a - b) <= 1e-10 * max(1e-6, abs(a)) for a, b in zip(l0, l1)), "angular momentum not conserved"
    # The innermost planet starts on a circular orbit of radius 0.6 at angle 0, so after
    # time t it must be near angle t * sqrt(1 / 0.6**3) (the other planets barely perturb it).
    (sx, sy, _), (px, py, _) = positions[0], positions[1]
    elapsed = STEPS_PER_SCALE * scale * DT
    expected_angle = elapsed * math.sqrt(1.0 / 0.6 ** 3)
    drift = (math.atan2(py - sy, px - sx) - expected_angle + math.pi) % (2 * math.pi) - math.pi
    assert abs(drift) < 0.02 + 0.01 * elapsed, "inner planet is %.3f rad off its orbit" % drift
    assert abs(math.hypot(px - sx, py - sy) - 0.6) < 0.01

    # A light planet on a circular orbit of radius 1 around a unit mass returns after 2*pi.
    star = Body(0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0)
    planet = Body(1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 1e-12)
    steps = 2000
    advance([star, planet], steps, 2 * math.pi / steps)
    assert math.dist((planet.x, planet.y, planet.z), (1.0, 0.0, 0.0)) < 1e-3, (planet.x, planet.y)
