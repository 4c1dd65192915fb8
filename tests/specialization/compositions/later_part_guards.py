# Members composed of shared ops whose guards stand in a later part (docs/dsl.md 2.4): after a
# part that guards the type or the callable, a later part guards what depends on it. Each site
# is run until it specializes, then the thing the later part checks changes, so that its guard
# misses and the generic instruction answers or raises; the results and the errors (type,
# message, line) must be Debian python3.11's.
# - LOAD_METHOD_WITH_VALUES (_GUARD_SELF_VERSION + _CHECK_VALUES_KEYS + _PUSH_CACHED_METHOD):
#   the instance's dict materialized, then an instance attribute shadowing the method.
# - PRECALL_NO_KW_METHOD_DESCRIPTOR_FAST / _O / _NOARGS (_CALL_SHAPE + _CHECK_METHOD_DESCRIPTOR
#   + the call): `self` of a subclass, the wrong number of arguments, another descriptor.
# - PRECALL_NO_KW_BUILTIN_O / _FAST (_CALL_SHAPE + the call): the callable rebound to builtins
#   of other flags and arities, and to a Python function.
# - LOAD_ATTR_PROPERTY / STORE_ATTR_PROPERTY (_GUARD_TYPE_VERSION + their push): the property
#   re-initialized in place with a getter and a setter that are no Python function of the
#   right arity.
# - CALL_PY_WITH_DEFAULTS (_CHECK_PY_FUNCTION + _CHECK_FUNCTION_VERSION + _DEFAULTS_FRAME):
#   a method call and a plain call of the same function through one site.


def where(error):
    tb = error.__traceback__
    while tb.tb_next is not None:
        tb = tb.tb_next
    return "%s: %s (line +%d)" % (type(error).__name__, error,
                                  tb.tb_lineno - tb.tb_frame.f_code.co_firstlineno)


def attempt(function, *args):
    try:
        return function(*args)
    except Exception as error:  # what the generic instruction raises after the miss
        return where(error)


class Point:
    def __init__(self, x):
        self.x = x

    def norm(self):
        return abs(self.x)


def norms(points):
    return [p.norm() for p in points]


def methods(values, n):
    out = []
    for v in values[:n]:
        out.append((v.count("a"), v.startswith("a"), v.upper()))
    return out


class Text(str):
    pass


def apply(fn, values):
    return [fn(v) for v in values]


def pair(fn, a, b):
    return fn(a, b)


class Box:
    def __init__(self, v):
        self._v = v

    @property
    def v(self):
        return self._v

    @v.setter
    def v(self, value):
        self._v = value * 2


def read_boxes(boxes):
    return [b.v for b in boxes]


def write_boxes(boxes, value):
    for b in boxes:
        b.v = value
    return [b._v for b in boxes]


def scaled(first, x=1, k=2):
    return x * k + (first if isinstance(first, int) else 0)


class Holder:
    scale = scaled


def through(objs):
    return [o.scale(3) for o in objs]


def main():
    results = []
    points = [Point(-i) for i in range(30)]
    results.append(sum(norms(points)))
    points[3].__dict__          # the dict materialized: _CHECK_VALUES_KEYS misses
    results.append(sum(norms(points)))
    points[4].norm = lambda: 1000   # an instance attribute shadows the method
    results.append(sum(norms(points)))

    texts = ["abc", "bca", "aaa"] * 10
    results.append(methods(texts, 30)[-1])
    results.append(methods([Text("a-b")] * 3, 3))       # self of a subclass
    results.append(attempt(methods, [1, 2], 2))           # no such methods on int

    values = list(range(-20, 20))
    results.append(sum(apply(abs, values)))               # METH_O
    results.append(apply(len, [[1], [1, 2], "abc"]))      # another METH_O builtin
    results.append(attempt(apply, divmod, values))        # METH_FASTCALL, one argument
    results.append(apply(lambda v: v + 1, values[:3]))    # a Python function
    results.append([pair(divmod, i + 1, 3) for i in range(30)][-1])
    results.append(pair(max, 3, 9))
    results.append(attempt(pair, abs, 1, 2))               # METH_O with two arguments

    boxes = [Box(i) for i in range(30)]
    results.append(sum(read_boxes(boxes)))
    results.append(sum(write_boxes(boxes, 3)))
    # The property re-initialized in place: the class (and its version) does not change, so
    # the type guard holds and the getter's and setter's guards in the later part miss.
    Box.__dict__["v"].__init__(abs)                        # a builtin getter
    results.append(attempt(read_boxes, boxes[:2]))
    Box.__dict__["v"].__init__(lambda self, extra: 0, lambda self: None)  # wrong arities
    results.append(attempt(read_boxes, boxes[:2]))
    results.append(attempt(write_boxes, boxes[:2], 1))

    holders = [Holder() for _ in range(30)]
    results.append(sum(through(holders)))             # scaled(holder, 3): CALL_PY_WITH_DEFAULTS
    holders[5].scale = scaled                              # a plain call through the site
    results.append(through(holders)[4:7])
    for line in results:
        print(line)


main()
