# member: LOAD_METHOD_POLYMORPHIC
# `o.area()` at a site that meets instances of several classes (shapes in a list, nodes of a
# tree): once the site has specialized for one class and then meets another, it finds the
# method by the type's version and the name in a table the specializer fills for each class it
# meets there. Then every guard: an instance that gets an attribute of the method's name (the
# class's shared keys change), the instance's dict materialized, the method replaced or deleted
# on the class or a base, the table cleared (sys._clear_type_cache()), more classes than the
# table has entries, classes made and dropped in a loop, a `__getattr__` class, another
# method name at another site (one table for all), and errors raised by the method.
import dis
import sys


def show(value):
    return "!" + type(value).__name__ + ": " + str(value) if isinstance(value, BaseException) \
        else repr(value)


def where(error):
    """An exception and where its innermost frame stopped: the line counted from the function's
    first line and the instruction there (its generic name)."""
    tb = error.__traceback__
    while tb.tb_next is not None:
        tb = tb.tb_next
    code = tb.tb_frame.f_code
    return "%s (line +%d, %s)" % (show(error), tb.tb_lineno - code.co_firstlineno,
                                  dis.opname[code.co_code[tb.tb_lasti]])


class Shape:
    def __init__(self, size):
        self.size = size

    def area(self):
        return ("shape", self.size)


class Square(Shape):
    def area(self):
        return ("square", self.size * self.size)


class Circle(Shape):
    def area(self):
        return ("circle", 3 * self.size * self.size)


class Triangle(Shape):
    def area(self):
        return ("triangle", self.size * self.size // 2)


class Inherits(Square):
    pass


class Hooked(Shape):
    def __getattr__(self, name):
        return lambda: ("hooked", name)


class Failing(Shape):
    def area(self):
        return 1 // 0


SITE = """
def site(o):
    try:
        return show(o.area())
    except Exception as error:
        return where(error)
"""


def new_site():
    """A function calling `o.area()` with code of its own: its LOAD_METHOD is quickened and
    specialized apart from every other site's."""
    namespace = {"show": show, "where": where}
    exec(SITE, namespace)
    return namespace["site"]


def mixed(count):
    kinds = (Square, Circle, Triangle, Inherits, Shape, Hooked)
    return [kinds[i % len(kinds)](i) for i in range(count)]


def settle(site):
    """Long enough for the site to specialize, miss until its member's counter runs out and
    specialize again: then it has met several types."""
    return [site(o) for o in mixed(240)]


class Fresh:
    """Classes made anew for each round, so that no earlier case changed their keys."""
    def __init__(self):
        class Base:
            def __init__(self, size):
                self.size = size

            def area(self):
                return ("base", self.size)

        class One(Base):
            def area(self):
                return ("one", self.size)

        class Two(Base):
            def area(self):
                return ("two", self.size)
        self.kinds = (Base, One, Two)

    def mixed(self, count):
        return [self.kinds[i % 3](i) for i in range(count)]


def many_names():
    """A hundred methods of two classes, each called at a site of its own that both classes
    reach: every site becomes polymorphic, and the table holds two hundred entries of two
    types, whose names it must tell apart."""
    names = ["m%d" % i for i in range(100)]
    a = type("A", (), {n: (lambda self, n=n: ("A", n)) for n in names})
    b = type("B", (), {n: (lambda self, n=n: ("B", n)) for n in names})
    namespace = {}
    exec("".join("def site_%s(o):\n    return o.%s()\n" % (n, n) for n in names), namespace)
    wrong = []
    for n in names:
        site = namespace["site_" + n]
        got = [site(o) for o in [a(), b()] * 80][-2:]
        if got != [("A", n), ("B", n)]:
            wrong.append((n, got))
    return wrong or "all right"


def cases():
    out = []
    # Fresh classes: an instance's dict materialized and made a combined table (a non-str key),
    # then given the method's name (the shared keys do not change); an instance given an
    # attribute of the name (the shared keys change).
    fresh = Fresh()
    site = new_site()
    settle(site)
    results = [site(o) for o in fresh.mixed(240)][-3:]
    o = fresh.kinds[1](7)
    vars(o)[1] = "not a str key"
    vars(o)["area"] = lambda: ("own dict", 7)
    results += [site(o), site(fresh.kinds[1](8))]
    o = fresh.kinds[2](9)
    o.area = lambda: ("own value", 9)
    results += [site(o), site(fresh.kinds[2](10)), site(fresh.kinds[0](11))]
    out.append(results)
    out.append(many_names())
    # The member's case: many classes at one site, for long enough to settle.
    site = new_site()
    out.append([site(o) for o in mixed(120)][-12:])
    # An instance that gets an attribute of the method's name: the class's shared keys change.
    site = new_site()
    results = settle(site)
    shadow = Circle(5)
    shadow.area = lambda: ("instance", 5)
    results += [site(shadow), site(Circle(6)), site(Square(2))]
    out.append(results[-6:])
    # The instance's dict materialized.
    site = new_site()
    results = settle(site)
    o = Triangle(8)
    vars(o)["area"] = lambda: ("vars", 8)
    results += [site(o), site(Triangle(9))]
    out.append(results[-4:])
    # The method replaced, then deleted, on a class and on a base.
    site = new_site()
    results = settle(site)
    triangle_area, shape_area = Triangle.area, Shape.area
    Triangle.area = lambda self: ("replaced", self.size)
    results += [site(o) for o in mixed(12)]
    del Triangle.area
    results += [site(o) for o in mixed(12)]
    Shape.area = lambda self: ("base replaced", self.size)
    results += [site(o) for o in mixed(12)]
    Triangle.area, Shape.area = triangle_area, shape_area
    results += [site(o) for o in mixed(12)]
    out.append(results[-48:])
    # The table cleared between calls.
    site = new_site()
    results = settle(site)
    sys._clear_type_cache()
    results += [site(o) for o in mixed(12)]
    out.append(results[-12:])
    # More classes than the table has entries, and classes made and dropped.
    site = new_site()
    made = [type("K%d" % i, (Shape,), {"area": lambda self, i=i: ("made", i, self.size)})
            for i in range(700)]
    results = [site(k(i)) for i, k in enumerate(made)]
    results += [site(k(i)) for i, k in enumerate(made)]
    out.append(results[::97])
    del made
    results = []
    for i in range(200):
        k = type("Dropped", (Shape,), {"area": lambda self, i=i: ("dropped", i)})
        results.append(site(k(i)))
    out.append(results[::23])
    # Errors raised by the method, and another method name at another site.
    site = new_site()
    results = settle(site)
    results += [site(Failing(1)), site(Square(3))]
    out.append(results[-3:])
    other = {}
    exec("def other_site(o):\n    return o.__repr__().startswith('<')\n", other)
    out.append([other["other_site"](o) for o in mixed(40)][-5:])
    return out


first = cases()
for _ in range(2):
    print(cases() == first)
for line in first:
    print(line)
