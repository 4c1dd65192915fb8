"""Calls the abi_c and abi_cy extensions that tests/check_abi.py built, in whichever interpreter
runs this file. Each check compares with what plain Python computes; the loops run long enough
for the specializing interpreter to quicken the instructions that touch the extensions (calls of
C functions and methods, attribute access on their types, iteration, binary operations).

usage: python -I -S -B exercise.py MODULE_DIR EXT_SUFFIX
       python -I -S -B exercise.py --unloadable MODULE_DIR EXT_SUFFIX

The first imports both modules from MODULE_DIR (each must be the file MODULE_DIR/NAME+EXT_SUFFIX)
and checks them. The second is for extensions of an ABI this interpreter cannot load: loading the
files by path must fail with an ImportError naming an undefined symbol.
"""
import gc
import os
import sys
import weakref

HERE = os.path.dirname(os.path.abspath(__file__))
LOOPS = 300  # well past the warm-up after which 3.11 specializes an instruction
checks = 0


def check(condition, what):
    global checks
    if not condition:
        raise AssertionError(what)
    checks += 1


def equal(actual, expected, what):
    check(actual == expected, f"{what}: got {actual!r}, expected {expected!r}")


def raises(exc_type, f, *args, **kwargs):
    try:
        f(*args, **kwargs)
    except exc_type as e:
        return e
    raise AssertionError(f"{f!r}{args!r} did not raise {exc_type.__name__}")


# --- abi_c ---------------------------------------------------------------------------------

def check_refcounts(abi_c):
    x = object()
    base = sys.getrefcount(x)
    equal(abi_c.refcnt(x), base, "Py_REFCNT agrees with sys.getrefcount")
    abi_c.incref_n(x, 5)
    equal(sys.getrefcount(x), base + 5, "refcount after Py_INCREF x5")
    abi_c.decref_n(x, 5)
    equal(sys.getrefcount(x), base, "refcount after Py_DECREF x5")

    def identity(value):
        return value
    for _ in range(LOOPS):
        abi_c.call(identity, x)
        abi_c.vcall(lambda a, key: a, x, x)
        abi_c.sum_iter([])
    equal(sys.getrefcount(x), base, "refcount after calls through C")


def check_type_layout(abi_c):
    class Sub(abi_c.Counter):
        pass
    samples = [1, 2 ** 100, "text", "日本", (1, 2, 3), [1], {1: 2}, 1.5, None, abi_c.Counter("c"),
               Sub("s"), abi_c.Error("e", 1), ValueError("v"), abs, Sub]
    for obj in samples:
        name, basicsize, itemsize, flags, size = abi_c.type_info(obj)
        t = type(obj)
        equal((name.rpartition(".")[2], basicsize, itemsize, flags),
              (t.__name__, t.__basicsize__, t.__itemsize__, t.__flags__),
              f"PyTypeObject fields of {t.__name__}")
        if isinstance(obj, tuple):
            equal(size, len(obj), "Py_SIZE of a tuple")


def check_calls(abi_c):
    def f(*args, **kwargs):
        return args, kwargs

    class Box:
        def __init__(self):
            self.items = []

        def put(self, item):
            self.items.append(item)
            return len(self.items)

    def calls():
        results = []
        box = Box()
        for i in range(LOOPS):
            results.append(abi_c.call(f, i, k=i))
            results.append(abi_c.vcall(f, i, -i))
            results.append(abi_c.call_method(box, "put", i))
            results.append(abi_c.call(Box).items)
        return results, box.items
    results, items = calls()
    expected = []
    for i in range(LOOPS):
        expected += [((i,), {"k": i}), ((i,), {"key": -i}), i + 1, []]
    equal(results, expected, "calls back into Python from C")
    equal(items, list(range(LOOPS)), "method called from C")
    equal(abi_c.call(max, 3, 9, 4), 9, "builtin called from C")
    equal(abi_c.call(sorted, [3, 1, 2], reverse=True), [3, 2, 1], "keywords through C")


def check_iteration(abi_c):
    def gen(n):
        yield from range(n)

    def broken(n):
        yield from range(n)
        raise KeyError("from generator")

    equal(abi_c.sum_iter(gen(100)), sum(range(100)), "a generator iterated in C")
    equal(abi_c.sum_iter({1: "a", 2: "b"}), 3, "a dict iterated in C")
    g = broken(3)
    e = raises(KeyError, abi_c.sum_iter, g)
    equal(e.args, ("from generator",), "exception out of a generator through C")
    raises(StopIteration, next, g)
    raises(TypeError, abi_c.sum_iter, (gen(3) for _ in "x"))  # 0 + a generator


def check_exceptions(abi_c):
    def fails():
        raise ValueError("in Python")

    e = abi_c.catch(fails, ValueError)
    check(isinstance(e, ValueError) and e.args == ("in Python",), "exception caught in C")
    tb = e.__traceback__
    while tb.tb_next is not None:
        tb = tb.tb_next
    equal(tb.tb_frame.f_code.co_name, "fails", "traceback of an exception caught in C")
    raises(ValueError, abi_c.catch, fails, KeyError)
    equal(abi_c.catch(lambda: 7, ValueError), 7, "catch() without an exception")

    check(issubclass(abi_c.Error, RuntimeError), "abi_c.Error is a RuntimeError")
    try:
        abi_c.raise_error("from C", 7)
    except RuntimeError as e:
        equal((type(e), e.args), (abi_c.Error, ("from C", 7)), "exception raised in C")
    else:
        raise AssertionError("raise_error() did not raise")

    e = raises(abi_c.Error, abi_c.raise_from, lambda: 1 / 0)
    check(isinstance(e.__cause__, ZeroDivisionError) and e.__context__ is e.__cause__,
          "exception chained in C")
    equal(e.args, ("wrapped in C",), "wrapper exception")

    def in_handler():
        try:
            raise KeyError("outer")
        except KeyError:
            for _ in range(LOOPS):
                abi_c.catch(fails, ValueError)
            return sys.exc_info()[1].args
    equal(in_handler(), ("outer",), "handled exception kept across C calls")


def check_counter(abi_c):
    Counter = abi_c.Counter
    fired = []

    def callback(*args, **kwargs):
        fired.append((args, kwargs))
        return len(fired)

    c = Counter("a", 5, callback=callback)
    equal(list(c), [0, 1, 2, 3, 4], "tp_iternext")
    equal(c.count, 5, "T_PYSSIZET member")
    raises(AttributeError, setattr, c, "limit", 1)
    c.reset()
    equal(c.step(2, times=3), 6, "METH_FASTCALL|METH_KEYWORDS method")
    raises(TypeError, c.step, 1, bogus=2)
    raises(TypeError, c.step, "x")
    equal(c.doubled, 12, "getset getter")
    c.doubled = 10
    equal(c.count, 5, "getset setter")
    equal((c + 1, 1 + c, c[3]), (6, 6, 15), "nb_add and mp_subscript")
    equal(str(raises(IndexError, c.__getitem__, -1)), "negative index -1",
          "error from mp_subscript")
    check(Counter("x") == Counter("y") and not Counter("x") != Counter("y"), "tp_richcompare")
    raises(TypeError, hash, c)
    equal(repr(c), "<abi_c.Counter 'a' at 5>", "tp_repr")
    equal(c.fire(1, k=2), 1, "callback called by a method")
    equal(fired, [(("a", 1), {"k": 2})], "callback arguments")
    c.callback = lambda *a: 1 / 0
    raises(ZeroDivisionError, c.fire)

    def hot_attributes(counter):
        total = 0
        for i in range(LOOPS):
            counter.label = i          # STORE_ATTR on a T_OBJECT_EX member
            total += counter.label     # LOAD_ATTR on it
            total += counter.count     # a T_PYSSIZET member
            total += counter.doubled   # a getset
            total += counter[1] + (counter + 1)
            counter.step()
        return total
    c.reset()
    expected = sum(i + i + 2 * i + i + (i + 1) for i in range(LOOPS))
    equal(hot_attributes(c), expected, "hot attribute access on an extension type")
    del c.label
    raises(AttributeError, getattr, c, "label")

    class Sub(Counter):
        def __init__(self, label, limit=0):
            super().__init__(label, limit)
            self.extra = [label]

        def step(self, n=1, *, times=1):
            return super().step(n, times=times) * 10

    s = Sub("s", 3)
    equal((list(s), s.extra, s.label), ([0, 1, 2], ["s"], "s"),
          "Python subclass of an extension type")

    def hot_sub(sub):
        total = 0
        for _ in range(LOOPS):
            total += sub.step() + len(sub.extra) + len(sub.label)
        return total
    s.reset()
    equal(hot_sub(s), sum(10 * i + 2 for i in range(1, LOOPS + 1)), "hot subclass methods")

    # A reference cycle through the extension's own members, collected by the GC.
    c = Counter("cycle")
    c.callback = c
    ref = weakref.ref(c)
    del c
    gc.collect()
    check(ref() is None, "cycle through an extension object collected")
    s = Sub("sub-cycle")
    s.extra.append(s)
    ref = weakref.ref(s)
    del s
    gc.collect()
    check(ref() is None, "cycle through a subclass instance collected")


# --- abi_cy --------------------------------------------------------------------------------

def check_cython(abi_cy):
    with open(os.path.join(HERE, "abi_cy.pyx"), encoding="utf-8") as source:
        raise_line = next(number for number, line in enumerate(source, 1)
                          if "raise ValueError(message)" in line)
    equal(abi_cy.fail(""), None, "Cython function returning None")
    e = raises(ValueError, abi_cy.fail, "boom")
    tb = e.__traceback__
    while tb.tb_next is not None:
        tb = tb.tb_next
    equal((os.path.basename(tb.tb_frame.f_code.co_filename), tb.tb_lineno, e.args),
          ("abi_cy.pyx", raise_line, ("boom",)), "Cython's traceback frame")

    Point = abi_cy.Point
    p = Point(3, 4, tag="t")
    equal(p.norm2(), 25.0, "cpdef method")
    equal(p.move(1, dy=2, scale=2).pair, (5.0, 8.0), "method with keywords")
    equal((p.moves, list(p), p.tag), (1, [5.0, 8.0], "t"), "readonly attribute, __iter__")
    raises(AttributeError, setattr, p, "moves", 3)
    raises(TypeError, setattr, p, "x", "not a number")
    equal(p + Point(1, 1), Point(6, 9), "__add__ and __eq__")
    equal(hash(p), hash((5.0, 8.0)), "__hash__")
    equal(repr(p), "Point(5.0, 8.0, tag='t')", "__repr__ (an f-string in Cython)")

    class Scaled(Point):
        def norm2(self):
            return -super().norm2()
    equal(Scaled(1, 2).norm2(), -5.0, "cpdef method overridden in Python")

    def hot_point(point):
        total = 0.0
        for i in range(LOOPS):
            point.x = i
            total += point.x + point.y + point.norm2()
            point.move(0.5)
        return total
    q = Point(0, 2)
    equal(hot_point(q), sum(i + 2 + i * i + 4 for i in range(LOOPS)), "hot Cython attributes")

    equal(abi_cy.call_back(lambda *a, **k: (a, k), 1, 2, x=3), ((1, 2), {"x": 3}),
          "Cython calling back into Python")
    e = abi_cy.catch(lambda: {}["missing"], KeyError)
    equal((type(e), e.args), (KeyError, ("missing",)), "exception caught in Cython")
    raises(KeyError, abi_cy.catch, lambda: {}["missing"], ValueError)
    raises(ZeroDivisionError, abi_cy.with_finally, lambda: 1 / 0, "after error")
    equal(abi_cy.with_finally(lambda: 5, "after return"), 5, "try/finally in Cython")
    equal(abi_cy.cleanups, ["after error", "after return"], "finally blocks ran")

    events = []

    class Manager:
        def __enter__(self):
            events.append("enter")
            return self

        def __exit__(self, *exc):
            events.append(("exit", exc[0]))
            return False
    m = Manager()
    equal(abi_cy.with_context(m, 1), (m, 1), "with statement in Cython")
    equal(events, ["enter", ("exit", None)], "context manager called by Cython")

    equal(abi_cy.sum_iter(x for x in range(10)), 45, "Cython iterating a generator")
    equal(abi_cy.sum_iter(Point(1, 2)), 3, "Cython iterating a Cython generator")
    raises(TypeError, abi_cy.sum_iter, ["a"])

    g = abi_cy.countdown(3)
    equal((next(g), g.send(10), next(g)), (3, 10, 9), "Cython generator: next, send")
    raises(KeyError, g.throw, KeyError("thrown"))
    raises(StopIteration, next, g)

    def outer():
        result = yield from abi_cy.delegate(abi_cy.countdown(2))
        yield result
    equal(list(outer()), [2, 1, "done"], "yield from through a Cython generator")

    def exception_state():
        try:
            raise KeyError("handled")
        except KeyError:
            for _ in range(LOOPS // 10):
                list(abi_cy.countdown(3))
                abi_cy.catch(lambda: 1 / 0, ZeroDivisionError)
            return sys.exc_info()[1].args
    equal(exception_state(), ("handled",), "exc_info kept across Cython generators")

    for value in [0, 1, -1, 2 ** 30 - 1, 2 ** 30, -2 ** 30, 2 ** 31, -2 ** 40, 2 ** 62,
                  -2 ** 63, 2 ** 63 - 1]:
        equal(abi_cy.roundtrip_long(value), value, "int to C long and back")
    raises(OverflowError, abi_cy.roundtrip_long, 2 ** 63)
    for n in [5, -17, 2 ** 100, -(2 ** 70) + 3]:
        equal(abi_cy.big_arith(n), (n * 3 + 1, n // 7, -n, n << 65), "int arithmetic in Cython")
    equal(abi_cy.list_ops(10), (25, 10, 81, [1, 4, 9]), "list operations in Cython")
    equal(abi_cy.dict_ops({"a": 1, "b": 0, "c": 3}),
          ([("a", 1), ("c", 3)], {1: "a", 0: "b", 3: "c"}), "dict operations in Cython")
    for s in ["abc", "héllo wörld", "ĀĂ日本語", "𝔘𝔫𝔦𝔠𝔬𝔡𝔢"]:
        equal(abi_cy.string_ops(s), (len(s), s.upper(), s[::-1], f"[{s}:{len(s):03d}]",
                                     [ord(c) for c in s[:3]]), f"string operations on {s!r}")
    add = abi_cy.make_closure(10)
    equal([add(i) for i in range(LOOPS)], [10 + i for i in range(LOOPS)], "Cython closure")


def load_by_path(name, path):
    import importlib.machinery
    import importlib.util
    loader = importlib.machinery.ExtensionFileLoader(name, path)
    spec = importlib.util.spec_from_file_location(name, path, loader=loader)
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module


def main(args):
    unloadable = args[:1] == ["--unloadable"]
    module_dir, ext_suffix = args[-2:]
    if unloadable:
        for name in ("abi_c", "abi_cy"):
            path = os.path.join(module_dir, name + ext_suffix)
            e = raises(ImportError, load_by_path, name, path)
            check("undefined symbol" in str(e), f"loading {path}: {e}")
            print(f"exercise: {name}{ext_suffix} does not load, as expected: {e}")
        return
    sys.path.insert(0, module_dir)
    import abi_c
    import abi_cy
    for module in (abi_c, abi_cy):
        expected = os.path.join(module_dir, module.__name__ + ext_suffix)
        equal(module.__file__, expected, f"{module.__name__} loaded from")
    for check_c in (check_refcounts, check_type_layout, check_calls, check_iteration,
                    check_exceptions, check_counter):
        check_c(abi_c)
    check_cython(abi_cy)
    gc.collect()
    print(f"exercise: {checks} checks passed (abi_c built with Py_DEBUG: {abi_c.PY_DEBUG})")


if __name__ == "__main__":
    main(sys.argv[1:])
