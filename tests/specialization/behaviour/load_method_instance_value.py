# member: LOAD_METHOD_INSTANCE_VALUE
# `obj.name(...)` where `name` is an attribute the instance keeps in its inline values and its
# class does not have (a callable stored on the instance: a callback, a strategy, an operator
# function): specialized, then every guard. The value replaced (another callable, a bound
# method, a class, None), deleted (AttributeError, then `__getattr__`), the instance's dict
# materialized (`vars()`), instances of another class at the site, a class attribute or a
# method of that name added to the class's base after specializing (the instance's value
# still wins) and a data descriptor (it wins), `__getattr__` classes, errors raised by the
# callable (their line), and the callable released while it runs.
import dis
import operator


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


class Binary:
    def __init__(self, function):
        self.left = 6
        self.function = function
        self.right = 3


class Other:
    def __init__(self, function):
        self.function = function
        self.extra = 1


class Base:
    pass


class Derived(Base):
    def __init__(self, function):
        self.function = function


class Hooked:
    def __init__(self, function):
        self.function = function

    def __getattr__(self, name):
        return lambda a, b: ("hooked", name, a, b)


SITE = """
def site(o, a, b):
    try:
        return show(o.function(a, b))
    except Exception as error:
        return where(error)
"""


def new_site():
    """A function calling `o.function(a, b)` with code of its own: its LOAD_METHOD is
    quickened and specialized apart from every other site's."""
    namespace = {"show": show, "where": where}
    exec(SITE, namespace)
    return namespace["site"]


def warm(site, o, count=10):
    return [site(o, i, 2) for i in range(count)]


class Method:
    def scale(self, a, b):
        return ("method", a * b)


class Releasing:
    """A callable whose call deletes the attribute that holds it (the last reference)."""
    def __init__(self, owner):
        self.owner = owner

    def __call__(self, a, b):
        del self.owner.function
        return ("released", a, b)


def cases():
    out = []
    # The member's case, then each value and shape the site can meet after specializing.
    for replacement in (operator.sub, Method().scale, tuple, None, lambda a, b: a - b,
                        max, "not callable"):
        site = new_site()
        o = Binary(operator.add)
        results = warm(site, o)
        o.function = replacement
        results += warm(site, o, 3)
        out.append(results)
    # Deleted: AttributeError, at the site's line; then set again.
    site = new_site()
    o = Binary(operator.mul)
    results = warm(site, o)
    del o.function
    results.append(site(o, 1, 2))
    o.function = operator.add
    results += warm(site, o, 2)
    out.append(results)
    # The instance's dict materialized after specializing.
    site = new_site()
    o = Binary(operator.add)
    results = warm(site, o)
    vars(o)["function"] = operator.mul
    results += warm(site, o, 3)
    out.append(results)
    # Other classes at the site: another layout, a subclass, a class with __getattr__.
    for other in (Other(operator.truediv), Derived(operator.floordiv), Hooked(operator.pow)):
        site = new_site()
        results = warm(site, Binary(operator.add))
        results += warm(site, other, 3)
        results += warm(site, Binary(operator.sub), 2)
        out.append(results)
    # The class, or a base, given an attribute of the name after specializing: a plain class
    # attribute (the instance's value still wins), a method (the instance's still wins), a
    # data descriptor (it wins).
    for kind in ("attribute", "method", "property"):
        site = new_site()
        o = Derived(operator.add)
        results = warm(site, o)
        if kind == "attribute":
            Base.function = operator.mod
        elif kind == "method":
            Base.function = lambda self, a, b: ("class method", a, b)
        else:
            Base.function = property(lambda self: operator.lshift)
        results += warm(site, o, 3)
        del Base.function
        results += warm(site, o, 2)
        out.append(results)
    # __getattr__ once the value is deleted.
    site = new_site()
    h = Hooked(operator.add)
    results = warm(site, h)
    del h.function
    results += warm(site, h, 2)
    out.append(results)
    # Errors raised by the callable, and a callable released while it runs.
    site = new_site()
    o = Binary(operator.add)
    results = warm(site, o)
    # (a Python function: where a builtin raises, the site's position is its PRECALL when
    # specialized and its CALL when not, in 3.11.2 too; a chaos build deoptimizes at random)
    o.function = lambda a, b: a // b
    results += [site(o, 1, 0), site(o, 7, 2)]
    out.append(results)
    site = new_site()
    results = warm(site, Binary(operator.add))
    for _ in range(3):
        o = Binary(operator.add)
        o.function = Releasing(o)
        results.append(site(o, 5, 6))
        results.append(hasattr(o, "function"))
    out.append(results)
    return out


# Names longer than the method cache takes leave new classes without a type version; the member
# must not be installed without one (with version 0 it matched every other class without one
# and read past that class's values, two slots here: a crash, seen). At module level, as found.
class NoVersionA:
    pass


class NoVersionB:
    pass


no_version_a = NoVersionA()
no_version_bs = [object.__new__(NoVersionB) for _ in range(100)]
long_names = ["a%02d" % i + "x" * 120 for i in range(20)]
for long_name in long_names:
    setattr(no_version_a, long_name, len)
for o in no_version_bs:
    setattr(o, "b" * 120, 1)
no_version = {}
exec("def call(o):\n    return o.%s(())\n" % long_names[19], no_version)
no_version_results = [no_version["call"](no_version_a) for _ in range(100)][-1:]
for o in no_version_bs:
    try:
        no_version_results.append(no_version["call"](o))
    except AttributeError as error:
        no_version_results.append(type(error).__name__)
print(no_version_results[:3], len(no_version_results))
first = cases()
for _ in range(3):
    print(cases() == first)
for line in first:
    print(line)
