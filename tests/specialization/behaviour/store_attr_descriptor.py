# member: STORE_ATTR_DESCRIPTOR
# A data descriptor whose class defines __set__ (three parameters) in Python, assigned through
# an instance at a warmed site: __set__ runs in the caller's loop. Then at the same sites:
# __set__ validating and raising, returning a value (dropped), recursing to the recursion
# limit; the descriptor's class changed after the site specialized (__set__ replaced by
# another function, one of another shape, a builtin, deleted: then the instance's dict takes
# the value), __setattr__ given to the owner's class; augmented assignments; the order in
# which __set__'s value, the value stored and the owner are released.
import sys

log = []


def show(value):
    return "!" + type(value).__name__ + ": " + str(value) if isinstance(value, BaseException) \
        else repr(value)


def write(o, values, n=40):
    seen = []
    for i in range(n):
        try:
            o.field = values[i % len(values)]
            out = o.__dict__.get("raw", "-"), o.__dict__.get("field", "-")
        except BaseException as e:
            out = show(e)
        if out not in seen:
            seen.append(out)
    return seen


class Clamped:
    def __get__(self, instance, owner=None):
        return instance.__dict__.get("raw")

    def __set__(self, instance, value):
        if not isinstance(value, int):
            raise TypeError("not an int: %r" % (value,))
        if value < 0:
            raise AttributeError("negative")
        instance.__dict__["raw"] = min(value, 100)
        return "dropped"


class Record:
    field = Clamped()


class Deep:
    # No call of a builtin and no comparison at the deepest frames: deoptimized (as under a
    # chaos build) they check the recursion depth themselves, as 3.11.2's do (docs/fuzzing.md).
    def __get__(self, instance, owner=None):
        return instance.__dict__["raw"]

    def __set__(self, instance, value):
        if value:
            child = Chain()
            child.field = value - 1
            instance.__dict__["raw"] = child.field + 1
        else:
            instance.__dict__["raw"] = 0


class Chain:
    field = Deep()


class Noisy:
    def __init__(self, name):
        self.name = name

    def __del__(self):
        log.append("del " + self.name)


class Logging:
    def __get__(self, instance, owner=None):
        return None

    def __set__(self, instance, value):
        log.append("set " + instance.name + " " + value.name)
        return Noisy("returned for " + instance.name)


class Owner(Noisy):
    field = Logging()


def store_fresh(name):
    Owner("owner " + name).field = Noisy("value " + name)


def release_order(n=40):
    for i in range(n):
        store_fresh(str(i))
    del log[:]
    store_fresh("last")
    return list(log)


def augmented(o, n=40):
    o.field = 1
    for _ in range(n):
        o.field += 3
    return o.field


def main():
    print("plain", write(Record(), [5, 500, 7]))
    print("raising", write(Record(), [5, -1, "x", 6]))
    print("deep", write(Chain(), [30]))
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(200)
    print("deep at the limit", [write(Chain(), [n], 3) for n in (193, 194, 195, 196, 250)])
    sys.setrecursionlimit(limit)
    print("augmented", augmented(Record()))

    r = Record()
    print("before", write(r, [3]))
    Clamped.__set__ = lambda self, instance, value: instance.__dict__.update(raw=("lambda", value))
    print("lambda", write(r, [3]))
    Clamped.__set__ = lambda self, instance, value, extra=1: instance.__dict__.update(raw=extra)
    print("default", write(r, [3]))
    Clamped.__set__ = lambda self, instance: None
    print("two parameters", write(r, [3]))
    Clamped.__set__ = setattr
    print("builtin", write(r, [3]))
    del Clamped.__set__
    print("no __set__", write(r, [4]))
    Clamped.__set__ = lambda self, instance, value: instance.__dict__.update(raw=("back", value))
    print("back", write(r, [5]))
    Record.__setattr__ = lambda self, name, value: object.__setattr__(self, "raw", ("hook", value))
    print("__setattr__", write(r, [6]))
    del Record.__setattr__
    print("__setattr__ deleted", write(r, [7]))
    print("release order", release_order())


main()
