# Classes with __getattr__ and object's __getattribute__ (slot_tp_getattr_hook), whose
# attribute sites the LOAD_ATTR and LOAD_METHOD members take as a generic class's
# (_PyQuicken_GetattrIsGeneric, typeobject.c.patch): instance values, slots, a dict, methods,
# class attributes through an instance; then at the same sites an attribute missing or
# deleted (__getattr__ answers), __getattr__ raising, replaced or deleted, __getattribute__
# assigned to the class or a base, a subclass overriding __getattribute__, a property and a
# descriptor raising AttributeError (__getattr__ answers), an instance dict shadowing a method.


def show(value):
    return "!" + type(value).__name__ + ": " + str(value) if isinstance(value, BaseException) \
        else repr(value)


class Hooked:
    kind = "hooked"

    def __init__(self, a):
        self.a = a
        self.b = a * 2

    def m(self, x):
        return self.a + x

    def __getattr__(self, name):
        if name.startswith("alias_"):
            return getattr(self, name[6:])
        if name == "boom":
            raise KeyError(name)
        raise AttributeError("no " + name)


class Slotted:
    __slots__ = ("a", "b")

    def __init__(self, a):
        self.a = a

    def __getattr__(self, name):
        return "slot-fallback:" + name


class Bare:
    def __getattr__(self, name):
        return "bare:" + name


class Explicit(Hooked):
    __getattribute__ = object.__getattribute__


class Tracing(Hooked):
    def __getattribute__(self, name):
        if name == "a":
            return "traced-a"
        return object.__getattribute__(self, name)


class WithProperty(Hooked):
    @property
    def broken(self):
        raise AttributeError("inside the property")

    @property
    def fine(self):
        return self.a * 10


class Raising:
    def __get__(self, instance, owner=None):
        raise AttributeError("descriptor")


class WithDescriptor(Hooked):
    d = Raising()


def read_a(o):
    return o.a


def read_b(o):
    return o.b


def read_kind(o):
    return o.kind


def call_m(o):
    return o.m(1)


def read(o, name):
    return getattr(o, name)


def site(f, objects, n=150):
    out = []
    for i in range(n):
        o = objects[i % len(objects)]
        try:
            out.append(f(o))
        except BaseException as e:
            out.append(show(e))
    return out


def summary(values):
    seen = []
    for v in values:
        if v not in seen:
            seen.append(v)
    return len(values), seen


h = Hooked(1)
print("values", summary(site(read_a, [h])), summary(site(read_b, [h])))
print("class attr", summary(site(read_kind, [h])))
print("method", summary(site(call_m, [h])))
s = Slotted(5)
print("slots", summary(site(read_a, [s])))
del s.a
print("slot emptied", summary(site(read_a, [s])))
print("bare", summary(site(read_a, [Bare()])))

# An attribute deleted after the site specialized: __getattr__ answers.
h2 = Hooked(2)
print("before del", summary(site(read_a, [h2])))
del h2.a
print("after del", summary(site(read_a, [h2])))
h2.a = 7
print("set again", summary(site(read_a, [h2])))

# Materialized dict (hint member) and a combined dict.
h3 = Hooked(3)
h3.__dict__
print("dict", summary(site(read_b, [h3])))
h3.__dict__ = {"b": "replaced"}
print("dict replaced", summary(site(read_b, [h3])))
print("dict missing a", summary(site(read_a, [h3])))

# Several classes at one site.
print("mixed", summary(site(read_a, [Hooked(4), Explicit(5), Tracing(6), Slotted(7), Bare()])))
print("overriding alone", summary(site(lambda o: o.a, [Tracing(6)])), summary(site(read_b, [Tracing(6)])))

# __getattr__ raising something else, and aliases through getattr.
print("boom", summary(site(lambda o: o.boom, [Hooked(1)])))
print("alias", summary(site(lambda o: o.alias_b, [Hooked(8)])))

# A property or a descriptor raising AttributeError: __getattr__ is asked next.
w = WithProperty(9)
print("property ok", summary(site(lambda o: o.fine, [w])))
print("property raising", summary(site(lambda o: o.broken, [w])))
print("descriptor raising", summary(site(lambda o: o.d, [WithDescriptor(1)])))

# The class changed after its sites specialized.
class Changing:
    def __init__(self):
        self.a = 1

    def m(self, x):
        return x

    def __getattr__(self, name):
        return "changing:" + name


c = Changing()
print("changing", summary(site(read_a, [c])), summary(site(call_m, [c])))
Changing.__getattribute__ = lambda self, name: "overridden:" + name
print("getattribute set", summary(site(read_a, [c])), summary(site(lambda o: o.m, [c])),
      summary(site(lambda o: o.a, [c])))
del Changing.__getattribute__
print("getattribute deleted", summary(site(read_a, [c])), summary(site(call_m, [c])))
del Changing.__getattr__
del c.a
print("getattr deleted", summary(site(read_a, [c])))
Changing.__getattr__ = lambda self, name: "new hook:" + name
print("getattr set", summary(site(read_a, [c])))
Changing.m = lambda self, x: x * 100
print("method replaced", summary(site(call_m, [c])))
c.m = lambda x: "instance:" + str(x)
print("method shadowed", summary(site(call_m, [c])))


class Base:
    def __getattr__(self, name):
        return "base hook:" + name


class Derived(Base):
    def __init__(self):
        self.a = "derived a"


d = Derived()
print("derived", summary(site(read_a, [d])))
Base.__getattribute__ = lambda self, name: "base getattribute:" + name
print("base getattribute", summary(site(read_a, [d])), summary(site(lambda o: o.a, [d])))
del Base.__getattribute__
del d.a
print("base getattr", summary(site(read_a, [d])))
print("getattr builtin", summary(site(lambda o: read(o, "a"), [Hooked(3), Bare()])))
