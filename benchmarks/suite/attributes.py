"""Attribute access: instance __dict__ attributes, __slots__, class attributes, module attributes.

Particles bounce inside a box.  The same simulation runs on ordinary instances
and on __slots__ instances; the box size is a class attribute and the step
function reads constants and functions through a module object.  The check
replays every simulation with plain local lists, without any attribute access.
"""

import math

WALL_SCALE = 12
INSTRUCTIONS_SCALE = 1

PARTICLES = 64
STEPS_PER_SCALE = 1_000


class Particle:
    def __init__(self, x, v):
        self.x = x
        self.v = v
        self.hits = 0


class SlottedParticle:
    __slots__ = ("x", "v", "hits")

    def __init__(self, x, v):
        self.x = x
        self.v = v
        self.hits = 0


class Box:
    width = 1000
    energy_unit = 3


def initial_state():
    """Deterministic starting positions and velocities."""
    return [((i * 97) % 1000, (i % 13) - 6 or 7) for i in range(PARTICLES)]


def bounce(particles, steps):
    for _ in range(steps):
        for p in particles:
            x = p.x + p.v
            if x < 0 or x >= Box.width:
                p.v = -p.v
                p.hits += 1
            else:
                p.x = x
    return [(p.x, p.v, p.hits) for p in particles]


def module_attributes(particles):
    """Read constants and call functions through the math module object."""
    total = 0.0
    for p in particles:
        angle = p.x * math.pi / Box.width
        total += math.floor(math.sin(angle) * Box.energy_unit * 1000) + math.fabs(p.v)
    return total


def run(scale):
    steps = STEPS_PER_SCALE * scale
    plain = [Particle(x, v) for x, v in initial_state()]
    slotted = [SlottedParticle(x, v) for x, v in initial_state()]
    plain_final = bounce(plain, steps)
    slotted_final = bounce(slotted, steps)
    energy = 0.0
    for _ in range(scale * 600):
        energy += module_attributes(plain)
    return plain_final, slotted_final, energy


def reference_bounce(steps):
    xs = [x for x, _ in initial_state()]
    vs = [v for _, v in initial_state()]
    hits = [0] * PARTICLES
    for _ in range(steps):
        for i in range(PARTICLES):
            x = xs[i] + vs[i]
            if x < 0 or x >= 1000:
                vs[i] = -vs[i]
                hits[i] += 1
            else:
                xs[i] = x
    return list(zip(xs, vs, hits))


def check(result, scale):
    plain_final, slotted_final, energy = result
    expected = reference_bounce(STEPS_PER_SCALE * scale)
    assert plain_final == expected, "instance simulation diverged from the reference"
    assert slotted_final == expected, "__slots__ simulation diverged from the reference"
    one_pass = sum(
        (math.sin(x * math.pi / 1000) * 3 * 1000) // 1 + abs(v) for x, v, _ in expected
    )
    assert abs(energy - one_pass * scale * 600) < 1e-6 * max(1.0, abs(energy)), energy
