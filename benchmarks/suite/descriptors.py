"""Properties and descriptors: read/write properties with validation, data descriptors
with __set_name__, cached non-data descriptors, __getattr__ fallbacks, and class-level
lookups of classmethods and staticmethods.

Thermostat objects are driven through their descriptor-based interface; the
check replays the same schedule with plain numbers.
"""

WALL_SCALE = 12
INSTRUCTIONS_SCALE = 1

UPDATES_PER_SCALE = 14_000
SENSORS = 12


class Bounded:
    """Data descriptor: an integer field clamped to [low, high]."""

    def __init__(self, low, high):
        self.low = low
        self.high = high

    def __set_name__(self, owner, name):
        self.slot = "_" + name

    def __get__(self, instance, owner=None):
        if instance is None:
            return self
        return getattr(instance, self.slot)

    def __set__(self, instance, value):
        setattr(instance, self.slot, min(max(value, self.low), self.high))


class computed_once:
    """Non-data descriptor: computes a value on first access and caches it in the instance."""

    def __init__(self, function):
        self.function = function
        self.name = function.__name__

    def __get__(self, instance, owner=None):
        if instance is None:
            return self
        value = self.function(instance)
        instance.__dict__[self.name] = value
        return value


class Thermostat:
    target = Bounded(50, 300)          # tenths of a degree
    reading = Bounded(-400, 600)

    def __init__(self, ident):
        self.ident = ident
        self.target = 200
        self.reading = 150
        self._mode = "idle"

    @property
    def mode(self):
        return self._mode

    @mode.setter
    def mode(self, value):
        if value not in ("idle", "heat", "cool"):
            raise ValueError(value)
        self._mode = value

    @property
    def error(self):
        return self.target - self.reading

    @computed_once
    def label(self):
        return "sensor-%02d" % self.ident

    @classmethod
    def default_target(cls):
        return 200

    @staticmethod
    def step(error):
        return 1 if error > 0 else -1 if error < 0 else 0

    def __getattr__(self, name):
        if name.startswith("alias_"):
            return getattr(self, name[6:])
        raise AttributeError(name)


def schedule(count):
    state = 99
    for _ in range(count):
        state = state * 48271 % 2147483647
        yield state % SENSORS, state % 700 - 300


def run(scale):
    sensors = [Thermostat(i) for i in range(SENSORS)]
    labels = 0
    for index, value in schedule(UPDATES_PER_SCALE * scale):
        sensor = sensors[index]
        sensor.reading = sensor.reading + value // 10
        error = sensor.error
        sensor.mode = "heat" if error > 0 else "cool" if error < 0 else "idle"
        sensor.reading += Thermostat.step(error) * 5
        if value % 11 == 0:
            sensor.target = sensor.alias_target + value // 20
        elif value % 13 == 0:
            sensor.target = Thermostat.default_target()
        labels += len(sensor.label)
    return [(s.target, s.reading, s.mode) for s in sensors], labels


def clamp(value, low, high):
    return min(max(value, low), high)


def check(result, scale):
    targets = [200] * SENSORS
    readings = [150] * SENSORS
    modes = ["idle"] * SENSORS
    labels = 0
    for index, value in schedule(UPDATES_PER_SCALE * scale):
        readings[index] = clamp(readings[index] + value // 10, -400, 600)
        error = targets[index] - readings[index]
        modes[index] = "heat" if error > 0 else "cool" if error < 0 else "idle"
        step = 1 if error > 0 else -1 if error < 0 else 0
        readings[index] = clamp(readings[index] + step * 5, -400, 600)
        if value % 11 == 0:
            targets[index] = clamp(targets[index] + value // 20, 50, 300)
        elif value % 13 == 0:
            targets[index] = 200
        labels += 9
    assert result == (list(zip(targets, readings, modes)), labels), result
