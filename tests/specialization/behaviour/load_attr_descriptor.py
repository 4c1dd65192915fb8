# member: LOAD_ATTR_DESCRIPTOR
# A data descriptor whose class defines __get__ (three parameters) and __set__ in Python, read
# through an instance at a warmed site: __get__ runs in the caller's loop. Then at the same
# sites: an instance dict holding the name (the data descriptor still wins), __get__ raising
# (AttributeError with and without a class __getattr__, which answers), recursing to the
# recursion limit, seeing its arguments; the descriptor's class changed after the site
# specialized (__get__ replaced by another function, one of another shape, a builtin, deleted;
# __set__ deleted, so that the instance's dict wins), a property subclass with a Python
# __get__, the owner's class changed; the order in which the owner and the values are released.
import sys

log = []


def show(value):
    return "!" + type(value).__name__ + ": " + str(value) if isinstance(value, BaseException) \
        else repr(value)


def read_all(o, n=40):
    seen = []
    for _ in range(n):
        try:
            out = o.field
        except BaseException as e:
            out = show(e)
        if out not in seen:
            seen.append(out)
    return seen


class Field:
    def __init__(self, tag):
        self.tag = tag

    def __get__(self, instance, owner=None):
        if instance is None:
            return self
        return (self.tag, owner.__name__, instance.__dict__.get("raw"))

    def __set__(self, instance, value):
        instance.__dict__["raw"] = value


class Record:
    field = Field("f")

    def __init__(self, raw):
        self.raw = raw


class Raising:
    def __get__(self, instance, owner):
        if instance.raw < 0:
            raise AttributeError("negative")
        if instance.raw == 0:
            raise KeyError("zero")
        return instance.raw

    def __set__(self, instance, value):
        pass


class Plain:
    field = Raising()

    def __init__(self, raw):
        self.raw = raw


class Hooked(Plain):
    def __getattr__(self, name):
        return "hooked " + name


class Deep:
    def __get__(self, instance, owner):
        return 0 if not instance.raw else Chain(instance.raw - 1).field + 1

    def __set__(self, instance, value):
        pass


class Chain:
    field = Deep()

    def __init__(self, raw):
        self.raw = raw


class Prop(property):
    def __get__(self, instance, owner=None):
        return ("subclass", property.__get__(self, instance, owner))


class WithProp:
    field = Prop(lambda self: self.raw)

    def __init__(self, raw):
        self.raw = raw


class Noisy:
    def __init__(self, name):
        self.name = name

    def __del__(self):
        log.append("del " + self.name)


class Logging:
    def __get__(self, instance, owner):
        log.append("get " + instance.name)
        return Noisy("value of " + instance.name)

    def __set__(self, instance, value):
        pass


class Owner(Noisy):
    field = Logging()


def fresh(name):
    return Owner(name).field.name


def release_order(n=40):
    for i in range(n):
        fresh(str(i))
    del log[:]
    fresh("last")
    return list(log)


def error_context(o):
    out = None
    for _ in range(40):
        try:
            o.field
        except AttributeError as e:
            out = (e.name, e.obj is o, str(e))
    return out


def main():
    print("error context", error_context(Plain(-1)))
    r = Record(1)
    print("plain", read_all(r))
    r.__dict__["field"] = "in the dict"
    print("dict holds the name", read_all(r))
    print("raising", read_all(Plain(3)), read_all(Plain(-1)), read_all(Plain(0)))
    print("hooked", read_all(Hooked(3)), read_all(Hooked(-1)), read_all(Hooked(0)))
    print("deep", read_all(Chain(30)))
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(200)
    print("deep at the limit", [read_all(Chain(n), 3) for n in (194, 195, 196, 197, 250)])
    sys.setrecursionlimit(limit)
    print("property subclass", read_all(WithProp(4)))

    r = Record(2)
    print("before", read_all(r))
    Field.__get__ = lambda self, instance, owner: "lambda"
    print("lambda", read_all(r))
    Field.__get__ = lambda self, instance, owner, extra=1: "with a default"
    print("default", read_all(r))
    Field.__get__ = lambda self, instance: "two parameters"
    print("two parameters", read_all(r))
    Field.__get__ = getattr
    print("builtin", read_all(r))
    del Field.__get__
    print("no __get__", [type(v).__name__ for v in read_all(r)])
    Field.__get__ = lambda self, instance, owner: "back"
    print("back", read_all(r))
    r.__dict__["field"] = "in the dict"
    print("dict, data descriptor", read_all(r))
    del Field.__set__
    print("no __set__: the dict wins", read_all(r))
    Field.__set__ = lambda self, instance, value: None
    print("__set__ again", read_all(r))
    Record.field = Field("g")
    print("new descriptor", read_all(r))
    r.__class__ = Plain
    print("class swapped", read_all(r))
    print("release order", release_order())


main()
