# member: STORE_ATTR_PROPERTY
# A property whose setter is a Python function of two parameters, assigned at a warmed site:
# the setter runs in the caller's loop. Then at the same sites: setters validating and
# raising (ValueError, AttributeError: no __getattr__ is asked for a store), returning a
# value (dropped), storing through other properties and recursing (to the recursion limit);
# the setter replaced in place (another function, one with a default, a generator function,
# a builtin, none: read-only), the property replaced or deleted on the class, __setattr__
# given to the class; augmented and chained assignments; the order in which the setter's
# value, the value stored and the owner are released; tracing turned on inside the setter;
# a store from a generator's frame.
import sys

log = []


def show(value):
    return "!" + type(value).__name__ + ": " + str(value) if isinstance(value, BaseException) \
        else repr(value)


def write(o, values, n=40):
    seen = []
    for i in range(n):
        try:
            o.value = values[i % len(values)]
            out = o.stored
        except BaseException as e:
            out = show(e)
        if out not in seen:
            seen.append(out)
    return seen


class Plain:
    def __init__(self):
        self.stored = None

    def get(self):
        return self.stored

    def put(self, v):
        self.stored = v * 2

    value = property(get, put)


class Validating(Plain):
    @property
    def value(self):
        return self.stored

    @value.setter
    def value(self, v):
        if v < 0:
            raise ValueError("negative")
        if v == 0:
            raise AttributeError("zero")
        self.stored = v
        return "ignored"


class Hooked(Validating):
    def __getattr__(self, name):
        return "hooked " + name


class Chained(Plain):
    @property
    def value(self):
        return self.stored

    @value.setter
    def value(self, v):
        self.inner = v + 1

    @property
    def inner(self):
        return self.stored

    @inner.setter
    def inner(self, v):
        self.stored = ("inner", v)


class Deep:
    def __init__(self, n):
        self.n = n
        self.stored = 0

    @property
    def value(self):
        return self.stored

    @value.setter
    def value(self, v):
        if self.n:
            child = Deep(self.n - 1)
            child.value = v
            self.stored = child.stored + 1
        else:
            self.stored = v


class Logged:
    def __init__(self, name):
        self.name = name

    def __del__(self):
        log.append("del " + self.name)

    @property
    def value(self):
        return None

    @value.setter
    def value(self, v):
        log.append("setter " + self.name + " " + v.name)
        return Logged("returned by " + self.name)


def store_fresh(i):
    Logged("owner %s" % i).value = Logged("value %s" % i)  # their only references: the stack's


def release_order(n=40):
    for i in range(n):
        store_fresh(i)
    del log[:]
    store_fresh("last")
    return list(log)


events = []


def tracer(frame, event, arg):
    events.append("%s %s %d" % (event, frame.f_code.co_name,
                                frame.f_lineno - frame.f_code.co_firstlineno))
    return tracer


class Tracing(Plain):
    @property
    def value(self):
        return self.stored

    @value.setter
    def value(self, v):
        if v == 39:
            sys.settrace(tracer)
            sys._getframe(1).f_trace = tracer
        self.stored = v


def traced_stores(o):
    for i in range(40):
        o.value = i
        x = i + 1
    sys.settrace(None)
    return x


def generator_stores(objects):
    for i, o in enumerate(objects):
        o.value = i
        yield o.stored


def augmented(o, n=40):
    o.value = 1
    for _ in range(n):
        o.value += 1
    return o.stored


def main():
    print("plain", write(Plain(), [1, 2, 3]))
    print("validating", write(Validating(), [5, -1, 0, 7]))
    print("hooked", write(Hooked(), [5, -1, 0, 7]))
    print("chained", write(Chained(), [1, 2]))
    print("deep", write(Deep(30), [4]))
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(200)
    print("deep at the limit", [write(Deep(n), [1], 3) for n in (193, 194, 195, 196, 250)])
    sys.setrecursionlimit(limit)
    print("augmented", augmented(Plain()), augmented(Validating()))
    a, b = Plain(), Plain()
    for i in range(40):
        a.value = b.value = i
    print("chained assignment", a.stored, b.stored)

    # The setter replaced in place, then the property replaced and deleted.
    prop = Plain.value
    p = Plain()
    print("before", write(p, [3]))
    prop.__init__(Plain.get, lambda self, v: setattr(self, "stored", ("lambda", v)))
    print("lambda", write(p, [3]))

    def with_default(self, v, extra=100):
        self.stored = v + extra
    prop.__init__(Plain.get, with_default)
    print("default", write(p, [3]))

    def gen(self, v):
        self.stored = "never"
        yield v
    prop.__init__(Plain.get, gen)
    print("generator", write(p, [3]))
    prop.__init__(Plain.get, setattr)
    print("builtin", write(p, [3]))
    prop.__init__(Plain.get, None)
    print("read-only", write(p, [3]))
    prop.__init__(Plain.get, Plain.put)
    print("back", write(p, [5]))
    Plain.value = property(Plain.get, lambda self, v: setattr(self, "stored", "new property"))
    print("new property", write(p, [5]))
    del Plain.value
    print("deleted", write(p, [6]), p.value)
    Plain.value = prop
    print("restored", write(p, [7]))
    Plain.__setattr__ = lambda self, name, v: object.__setattr__(self, "stored", ("hook", v))
    print("__setattr__", write(p, [8]))
    del Plain.__setattr__
    print("__setattr__ deleted", write(p, [9]))

    print("release order", release_order())
    events.clear()
    print("traced", traced_stores(Tracing()), events[-6:])
    print("generator", list(generator_stores([Plain() for _ in range(40)]))[-1])


main()
