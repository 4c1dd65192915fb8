# Calls whose frames ceval.c.patch's fast path fills, and calls of classes through
# _PyQuicken_CallType (typeobject.c.patch): every shape, compared with python3.11.
import abc
import functools
import sys


def show(f, *args, **kwargs):
    try:
        return f(*args, **kwargs)
    except Exception as error:
        return "!" + type(error).__name__ + ": " + str(error)


def exact(a, b):
    return (a, b)


def defaults(a, b=2, c=3):
    return (a, b, c)


def kwonly(a, *, k):
    return (a, k)


def star(*args, **kwargs):
    return (args, sorted(kwargs.items()))


def posonly(a, b, /):
    return (a, b)


# called from C (map, sorted's key, functools.reduce) and by generic CALLs (a site that sees
# many kinds of callables never specializes)
callables = [exact, defaults, kwonly, star, posonly, max, len, str]
results = []
for i in range(30):
    results.append(list(map(exact, range(3), range(3))))
    results.append(sorted([3, 1, 2], key=lambda v: -v))
    results.append(functools.reduce(exact, [1, 2, 3]))
    for f in callables:
        results.append(show(f, i, i + 1))
        results.append(show(f, i))
        results.append(show(f, i, k=i))
    results.append(show(exact, 1, 2, 3))
    results.append(show(exact))
    results.append(show(defaults, 1, c=9))
    results.append(show(kwonly, 1, 2))
    results.append(show(posonly, a=1, b=2))
print(results[:12], len(results))
print(results[-30:])


class Plain:
    def __init__(self, x, y=2, *, z=3):
        self.v = (x, y, z)


class Child(Plain):
    pass


class Slots:
    __slots__ = ("a",)

    def __init__(self, a):
        self.a = a


class Varargs:
    def __init__(self, *args, **kwargs):
        self.v = (args, sorted(kwargs.items()))


class ReturnsValue:
    def __init__(self):
        return 5


class Raises:
    def __init__(self):
        raise ValueError("in __init__")


class NewOverridden:
    def __new__(cls, *args):
        return ("new", args)


class Abstract(abc.ABC):
    @abc.abstractmethod
    def f(self):
        pass

    def __init__(self):
        pass


class InitDescriptor:
    def __get__(self, obj, cls):
        return lambda *args: results.append(("bound init", args))


class DescriptorInit:
    __init__ = InitDescriptor()


class BuiltinInit(dict):
    pass


class Meta(type):
    def __call__(cls, *args):
        return ("meta", cls.__name__, args)


class WithMeta(metaclass=Meta):
    def __init__(self, x):
        self.x = x


class Changing:
    def __init__(self, x):
        self.x = x


def no_init_args(self):
    self.x = "replaced"


def describe(made):
    """An instance by its class and what __init__ stored (no address); anything else as is."""
    if type(made).__module__ == __name__ and not isinstance(made, type):
        return (type(made).__name__,) + tuple(getattr(made, name, None) for name in "vxa")
    return made


classes = [Plain, Child, Slots, Varargs, ReturnsValue, Raises, NewOverridden, Abstract,
           DescriptorInit, BuiltinInit, WithMeta, Changing, type, int]
results = []
for i in range(30):
    if i == 15:
        Changing.__init__ = no_init_args
    if i == 20:
        del Changing.__init__
    for cls in classes:
        results.append(describe(show(cls, i)))
        results.append(describe(show(cls, i, y=i)))
    results.append(Plain(i, z=i).v)
    results.append(show(Plain))
    results.append(show(Slots, 1, 2))
print(results[:40])
print(results[-40:], len(results))


class Deep:
    def __init__(self, n):
        self.child = Deep(n - 1) if n else None


def recurse_through_init():
    depth = 0

    class Again:
        def __init__(self):
            nonlocal depth
            depth += 1
            Again()

    base = 0
    frame = sys._getframe()
    while frame is not None:
        base += 1
        frame = frame.f_back
    try:
        Again()
    except RecursionError as error:
        # each level costs two units of the limit (the call of the class, then __init__'s
        # frame): what is left of the limit after the frames below is what decides the depth
        return 2 * depth + base, str(error)


print(recurse_through_init())
print(show(Deep, 100000)[:60])
print(Deep(50).child.child is not None)

events = []
FILE = sys._getframe().f_code.co_filename  # the fuzzer's runner gives no __file__


def profiler(frame, event, arg):
    if frame.f_code.co_filename == FILE or event.startswith("c_"):
        events.append((event, frame.f_code.co_name, getattr(arg, "__name__", None)))


sys.setprofile(profiler)
Plain(1)
Slots(2)
show(Raises)
sys.setprofile(None)
print(events)

# an instance made by the call of its class keeps its attributes in inline values (object_new's
# _PyObject_InitializeDict), so that its attribute loads specialize as upstream's do
import dis


def read(made):
    return made.v


made = Plain(1)
for _ in range(20):
    read(made)
print([i.opname for i in dis.get_instructions(read, adaptive=True) if i.opname.startswith("LOAD_ATTR")])
