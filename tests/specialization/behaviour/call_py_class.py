# member: CALL_PY_CLASS
# Calling a class with a Python __init__, which runs in the caller's evaluation loop: the
# instance returned, __init__ returning something other than None, raising (the traceback, the
# order in which the instance and the arguments are released), nested instantiations up to
# the recursion limit, the caller's frame and position seen from __init__, tracing and
# profiling turned on inside __init__, and the class changed after the site specialized
# (__init__ replaced, its code replaced, a __new__ added, the class made abstract); other
# callables at the same site.
import abc
import dis
import sys


def show(value):
    return "!" + type(value).__name__ + ": " + str(value) if isinstance(value, BaseException) \
        else repr(value)


def where(error):
    """The functions of an exception's traceback, each with its line counted from the
    function's first line and the instruction it stopped at (its generic name)."""
    out = []
    tb = error.__traceback__
    while tb is not None:
        code = tb.tb_frame.f_code
        out.append("%s+%d:%s" % (code.co_name, tb.tb_lineno - code.co_firstlineno,
                                 dis.opname[code.co_code[tb.tb_lasti]]))
        tb = tb.tb_next
    return show(error) + " at " + " < ".join(out)


log = []


class Point:
    def __init__(self, x, y):
        self.x = x
        self.y = y

    def __repr__(self):
        return "Point(%r, %r)" % (self.x, self.y)


def make(cls, a, b):
    return cls(a, b)


def make_all(cls, pairs):
    return [make(cls, a, b) for a, b in pairs]


def warm(cls=Point):
    for i in range(30):
        make(cls, i, -i)


class Noisy:
    """Logs its release; __init__ raises when told to."""

    def __init__(self, name, fail):
        self.name = name if isinstance(name, str) else "with " + name.name
        log.append("init " + self.name)
        if fail:
            raise ValueError("init of " + name)

    def __del__(self):
        log.append("del " + self.name)


class Arg:
    def __init__(self, name):
        self.name = name

    def __del__(self):
        log.append("del arg " + self.name)


def build(cls, a, b):
    return cls(a, b)


class ReturnsValue:
    def __init__(self, value, unused):
        self.value = value
        if value is not None:
            return value


class Returning:
    """Returns its second argument; logs its release."""

    def __init__(self, arg, value):
        self.name = arg.name
        return value

    def __del__(self):
        log.append("del " + self.name)


def make_returning(name, value):
    return Returning(Arg(name), value)  # the argument's only reference is the call's


class Deep:
    def __init__(self, n, unused):
        self.child = Deep(n - 1, None) if n else None


class Peek:
    """Records its caller's frame as __init__ sees it."""

    def __init__(self, a, b):
        caller = sys._getframe(1)
        self.seen = (caller.f_code.co_name, caller.f_lineno - caller.f_code.co_firstlineno,
                     dis.opname[caller.f_code.co_code[caller.f_lasti]])


def helper(value):
    return value + 1


class Tracing:
    def __init__(self, a, b):
        sys.settrace(tracer)
        self.a = helper(a)
        self.b = b


class Profiling:
    def __init__(self, a, b):
        sys.setprofile(profiler)
        self.a = helper(a)


events = []


def tracer(frame, event, arg):
    events.append("%s %s %d" % (event, frame.f_code.co_name,
                                frame.f_lineno - frame.f_code.co_firstlineno))
    return tracer


def profiler(frame, event, arg):
    events.append("%s %s" % (event, frame.f_code.co_name if event[:2] != "c_" else arg.__name__))


class Base:
    def __init__(self, a, b):
        self.base = (a, b)


class Derived(Base):
    def __init__(self, a, b):
        super().__init__(b, a)
        self.derived = a + b


def main():
    warm()
    print(make_all(Point, [(1, 2), (3, 4), ("a", None)]))

    # __init__ raises: the instance is released before the arguments, the traceback runs from
    # the caller into __init__; a successful call releases nothing early.
    for fail in (False, True, False):
        for _ in range(20):
            try:
                kept = build(Noisy, "n%d" % len(log), fail)
            except ValueError as error:
                log.append(where(error))
        log.append("round")
    del kept
    print(log[-12:])
    log.clear()
    for i in range(20):
        try:
            build(Noisy, Arg("a%d" % i), i % 7 == 3)
        except (ValueError, TypeError, AttributeError) as error:
            log.append(where(error))
    print(log[-10:])
    log.clear()

    # __init__ returning a value: TypeError, the instance released.
    for value in [None] * 20 + [0, "x", None, ReturnsValue]:
        try:
            result = build(ReturnsValue, value, None)
            log.append(type(result).__name__)
        except TypeError as error:
            log.append(where(error))
    print(log[-6:])
    log.clear()
    # ... and the instance is released before the arguments, as type_call releases it.
    for i in range(25):
        try:
            make_returning("r%d" % i, None if i % 8 else i)
        except TypeError as error:
            log.append(where(error))
    print(log[-8:])
    log.clear()

    # Nested instantiations: the recursion limit as upstream's reaches it (two levels a call).
    for depth in (10, 50, 100):
        for _ in range(20):
            d = Deep(depth, None)
        n = 0
        while d is not None:
            d, n = d.child, n + 1
        print("deep", depth, n)
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(200)
    try:
        for depth in range(40, 140, 7):
            try:
                Deep(depth, None)
                print("depth", depth, "ok")
            except RecursionError as error:
                print("depth", depth, show(error))
    finally:
        sys.setrecursionlimit(limit)

    # Called from a generator, whose frame lives in the generator object: the call at the
    # frame's deepest stack (its items stay there while __init__ runs, with no room above).
    def points(n):
        for i in range(n):
            yield Point(i, -i)
    for _ in range(20):
        ps = list(points(3))
    print(ps, [p for p in points(2)])

    # The caller as __init__ sees it.
    for _ in range(25):
        p = build(Peek, 1, 2)
    print(p.seen)

    # super().__init__ inside.
    for i in range(25):
        d = build(Derived, i, 1)
    print(d.base, d.derived)

    # Tracing and profiling turned on inside __init__.
    for i in range(25):
        t = build(Point, i, i)
    events.clear()
    t = build(Tracing, 1, 2)
    sys.settrace(None)
    print(events)
    events.clear()
    t = build(Profiling, 1, 2)
    sys.setprofile(None)
    print(events)
    events.clear()

    # The class changed after the site specialized.
    class Mutable:
        def __init__(self, a, b):
            self.v = a + b
    for i in range(30):
        m = build(Mutable, i, 1)
    print(m.v)

    def other_init(self, a, b):
        self.v = a * b
    Mutable.__init__ = other_init
    print([build(Mutable, i, 3).v for i in range(3)])

    def replaced(self, a, b, c=100):
        self.v = a - b - c
    other_init.__code__ = replaced.__code__
    other_init.__defaults__ = (100,)
    print([build(Mutable, i, 3).v for i in range(3)])

    def gen_init(self, a, b):
        yield a
    other_init.__code__ = gen_init.__code__
    try:
        build(Mutable, 1, 2)
    except TypeError as error:
        print(where(error))

    def new(cls, a, b):
        obj = object.__new__(cls)
        obj.v = "new"
        return obj
    Mutable.__new__ = new
    Mutable.__init__ = lambda self, a, b: None
    print(build(Mutable, 1, 2).v)

    class Shape(abc.ABC):
        def __init__(self, a, b):
            self.a = a
    for i in range(30):
        s = build(Shape, i, 0)
    Shape.area = abc.abstractmethod(lambda self: 0)
    Shape.__abstractmethods__ = frozenset({"area"})
    try:
        build(Shape, 1, 2)
    except TypeError as error:
        print(where(error))

    # Other callables at the same site.
    for f in [Point] * 20 + [complex, lambda a, b: (a, b), dict.fromkeys, Point, Base]:
        try:
            print(type(build(f, 1, 2)).__name__, end=" ")
        except TypeError as error:
            print(show(error), end=" ")
    print()


main()
