# member: LOAD_ATTR_PROPERTY
# A property whose getter is a Python function of one parameter, read at a warmed site: the
# getter runs in the caller's loop. Then at the same sites: getters nested and recursing (to
# the recursion limit), raising AttributeError with and without a class __getattr__ (which
# answers, even where the getter replaced it first), raising other errors; the property's
# getter replaced in place (another function, one with a default, a generator function, a
# builtin, none), the property deleted or replaced on the class by its own getter, the
# owner's class swapped; what the getter sees of its caller (position, line, traceback),
# tracing and profiling turned on inside it, the order in which the owner and the values are
# released, a getter read from a generator at its deepest stack.
import dis
import sys
import traceback

log = []


def show(value):
    return "!" + type(value).__name__ + ": " + str(value) if isinstance(value, BaseException) \
        else repr(value)


def read_all(o, n=40):
    seen = []
    for _ in range(n):
        try:
            out = o.value
        except BaseException as e:
            out = show(e)
        if out not in seen:
            seen.append(out)
    return seen


def read(o, n=40):
    out = None
    for _ in range(n):
        try:
            out = o.value
        except BaseException as e:
            out = show(e)
    return out


class Plain:
    def __init__(self, v):
        self.v = v

    @property
    def value(self):
        return self.v * 2


class Nested(Plain):
    @property
    def inner(self):
        return self.v + 1

    @property
    def value(self):
        return self.inner * 10


class Raising(Plain):
    @property
    def value(self):
        if self.v < 0:
            raise AttributeError("negative " + str(self.v))
        if self.v == 0:
            raise ZeroDivisionError("zero")
        return self.v


class Hooked(Raising):
    def __getattr__(self, name):
        if self.v == -2:
            raise KeyError(name)
        return "hooked " + name


class Replacing(Plain):
    """Its getter replaces the class's __getattr__, then raises AttributeError."""

    def __getattr__(self, name):
        return "first hook " + name

    @property
    def value(self):
        if self.v < 0:
            Replacing.__getattr__ = lambda self, name: "second hook " + name
            raise AttributeError("replaced")
        return self.v


class HookedNoGetter(Plain):
    value = property()

    def __getattr__(self, name):
        return "no getter, hooked " + name


class Deep:
    def __init__(self, n):
        self.n = n

    @property
    def value(self):
        return 0 if not self.n else Deep(self.n - 1).value + 1


class Endless:
    @property
    def value(self):
        return self.value


class Peek:
    @property
    def value(self):
        caller = sys._getframe(1)
        stack = traceback.extract_stack(limit=3)
        return (caller.f_code.co_name, caller.f_lineno - caller.f_code.co_firstlineno,
                dis.opname[caller.f_code.co_code[caller.f_lasti]],
                [(f.name, f.line) for f in stack])


class Suggest:
    def __init__(self):
        self.colour = 1

    @property
    def color(self):
        raise AttributeError("no color")


def suggestion():
    s = Suggest()
    out = None
    for _ in range(40):
        try:
            s.color
        except AttributeError as e:
            out = (e.name, e.obj is s, traceback.format_exception_only(type(e), e))
    return out


def unoptimized_getter(self):
    return locals() is globals()


# Without CO_OPTIMIZED, a function's frame has its globals as its locals.
unoptimized_getter.__code__ = unoptimized_getter.__code__.replace(
    co_flags=unoptimized_getter.__code__.co_flags & ~1)


class Unoptimized:
    value = property(unoptimized_getter)


def read_unoptimized(o, n=40):
    out = None
    for _ in range(n):
        out = o.value  # a site of its own: it specializes for this class alone
    return out


class Failing:
    @property
    def value(self):
        return helper_that_fails(self)


def helper_that_fails(o):
    return 1 / 0


class Logged:
    def __init__(self, name):
        self.name = name

    def __del__(self):
        log.append("del " + self.name)

    @property
    def value(self):
        log.append("getter " + self.name)
        return Logged(self.name + "'s value")


def fresh(name):
    return Logged(name).value  # the owner's only reference is the stack's


def fresh_site(n=40):
    for i in range(n):
        fresh(str(i)).name
    del log[:]
    fresh("last")
    return list(log)


events = []


def tracer(frame, event, arg):
    events.append("%s %s %d" % (event, frame.f_code.co_name,
                                frame.f_lineno - frame.f_code.co_firstlineno))
    return tracer


def profiler(frame, event, arg):
    events.append("%s %s" % (event, frame.f_code.co_name if event[:2] != "c_" else arg.__name__))


class Tracing:
    @property
    def value(self):
        sys.settrace(tracer)
        sys._getframe(1).f_trace = tracer
        return 5


class Profiling:
    @property
    def value(self):
        sys.setprofile(profiler)
        return 6


def after_trace(o):
    x = o.value
    y = x + 1
    return y


def generator_reads(objects):
    for o in objects:
        yield (o.value, (o.value, (o.value, o.value)))


def main():
    print("plain", read(Plain(3)), read(Nested(4)))
    print("raising", read(Raising(5)), read(Raising(-1)), read(Raising(0)))
    print("hooked", read(Hooked(5)), read(Hooked(-1)), read(Hooked(-2)), read(Hooked(0)))
    for v in (4, 4, -1, 4, -1):
        print("replacing", read_all(Replacing(v)))
    print("deep", read(Deep(50)))
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(200)
    print("deep at the limit", [read(Deep(n), 3) for n in (150, 190, 197, 198, 199, 250)])
    print("endless", read(Endless(), 3))
    sys.setrecursionlimit(limit)
    print("peek", read(Peek()))
    print("suggestion", suggestion())
    print("unoptimized", read_unoptimized(Unoptimized()))
    try:
        for _ in range(40):
            Failing().value
    except ZeroDivisionError:
        print("traceback", [(f.name, f.line) for f in traceback.extract_tb(sys.exc_info()[2])])

    # The getter replaced in place, then the property replaced and deleted.
    prop = Plain.value
    p = Plain(7)
    print("before", read(p))
    prop.__init__(lambda self: "lambda " + str(self.v))
    print("lambda", read(p))

    def with_default(self, extra=100):
        return self.v + extra
    prop.__init__(with_default)
    print("default", read(p))

    def gen(self):
        yield self.v
    prop.__init__(gen)
    print("generator", type(read(p)).__name__)
    prop.__init__(repr)
    print("builtin", read(p)[:6])
    prop.__init__(None)
    print("no getter", read(p))
    print("no getter, hooked", read(HookedNoGetter(1)))
    prop.__init__(lambda self: self.v * 2)
    print("back", read(p))
    Plain.value = property(lambda self: "new property")
    print("new property", read(p))
    del Plain.value
    print("deleted", read(p))
    Plain.value = 42
    print("plain value", read(p))
    Plain.value = prop
    q = Nested(1)
    print("nested", read(q))
    q.__class__ = Plain
    print("class swapped", read(q))

    print("release order", fresh_site())
    events.clear()
    t = Tracing()
    for _ in range(40):
        after_trace(t)
        sys.settrace(None)
    print("traced", events[-6:])
    events.clear()
    pr = Profiling()
    for _ in range(40):
        after_trace(pr)
        sys.setprofile(None)
    print("profiled", events[-6:])
    print("generator", list(generator_reads([Plain(i) for i in range(40)]))[-1])


main()
