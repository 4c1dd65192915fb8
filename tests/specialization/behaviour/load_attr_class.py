# member: LOAD_ATTR_CLASS
# A class attribute read through the class (`Box.width`): values of several types, found on
# the class or a base; then the class changed after the site specialized (the attribute set,
# shadowed in a subclass, deleted), the value's type given a `__get__`, the type cache
# cleared; names `type` itself has, descriptors found on the class, a metaclass, and other
# owners at the same site.
import sys


def show(value):
    return "!" + type(value).__name__ + ": " + str(value) if isinstance(value, BaseException) \
        else repr(value)


class Base:
    inherited = ("base", 1)


class Box(Base):
    width = 1000
    label = "box"
    nothing = None

    class Inner:
        pass


def width(cls):
    return cls.width


def inherited(cls):
    return cls.inherited


def read(cls, n=25):
    out = None
    for _ in range(n):
        try:
            out = width(cls)
        except AttributeError as error:
            out = show(error)
    return out


def main():
    print(read(Box), [inherited(Box) for _ in range(25)][-1])
    print([Box.label for _ in range(25)][-1], [Box.nothing for _ in range(25)][-1],
          [Box.Inner for _ in range(25)][-1].__name__)

    # The class changed after the site specialized.
    Box.width = 2000
    print(read(Box))
    Base.inherited = ("changed", 2)
    print([inherited(Box) for _ in range(25)][-1])

    class Sub(Box):
        pass
    print(read(Sub))
    Sub.width = "shadowed"
    print(read(Sub), read(Box))
    del Sub.width
    print(read(Sub))
    del Box.width
    print(read(Box), read(Sub))
    Box.width = 3

    # The value's type given a __get__ after the site specialized: the class returns what the
    # descriptor gives.
    class Plain:
        def __repr__(self):
            return "Plain()"

    class Holder:
        width = Plain()
    print(read(Holder))
    Plain.__get__ = lambda self, obj, owner: ("got", obj, owner.__name__)
    print(read(Holder))
    del Plain.__get__
    print(read(Holder))

    # The type cache cleared between reads.
    for i in range(30):
        if i % 10 == 0:
            sys._clear_type_cache()
        value = width(Box)
    print(value)

    # Names `type` has, descriptors on the class, a metaclass.
    class Meta(type):
        width = "meta"

    class WithMeta(metaclass=Meta):
        pass

    class Described:
        width = property(lambda self: "prop")

        @classmethod
        def cm(cls):
            return cls.__name__

    print(read(WithMeta), type(read(Described)).__name__)
    print([Box.__name__ for _ in range(25)][-1], [Box.__doc__ for _ in range(25)][-1],
          [Described.cm() for _ in range(25)][-1])

    # Other owners at the same site: instances, modules, classes in turn.
    class Other:
        width = -1
    owners = [Box, Other, Box(), Other(), sys, Sub, int]
    print([show(e) if isinstance(e, BaseException) else e
           for e in (read(o, 3) for o in owners * 4)])


main()
