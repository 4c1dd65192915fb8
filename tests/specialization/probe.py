"""Situations for each family's specializer, run on two interpreters by check.py.

Every case is a function run often enough to be quickened and specialized (and re-run after
backing off); afterwards each of its instructions (but CACHE, RESUME, NOP and EXTENDED_ARG) is
printed with the form it has now: `case position OPNAME`. Run on upstream's 3.11.2 and on the
built interpreter, the lists must be equal except at the positions expected-differences.txt
lists, where the built interpreter must have exactly the form listed there (check.py). Every
addition of the project must be reached by at least one case.
"""

import array
import dis
import sys
import types

RUNS = 200  # quickening after 8 calls; a failure backs off by up to 64 runs of the instruction


class Plain:
    def __init__(self):
        self.a = 1


class Slots:
    __slots__ = ("a", "b")

    def __init__(self):
        self.a = 1


class WithGetitem:
    def __getitem__(self, i):
        return i


class WithSetitem:
    def __setitem__(self, i, v):
        pass


class VarargsGetitem:
    def __getitem__(self, *i):
        return i


class DictSub(dict):
    pass


class Prop:
    @property
    def p(self):
        return 1


class Described:
    def __get__(self, instance, owner):
        return 1

    def __set__(self, instance, value):
        pass


class WithDescriptor:
    a = Described()


class PropSet:
    @property
    def a(self):
        return 1

    @a.setter
    def a(self, value):
        pass


class Many:
    pass


class ClassAttr:
    shared = 1

    def __init__(self):
        self.a = 1


class Maker:
    def make(x):
        return x


class Custom:
    def __getattribute__(self, name):
        return 1


class Hooked:
    def __init__(self):
        self.a = 1

    def __getattr__(self, name):
        return 0


class Callback:
    def __init__(self):
        self.handler = abs


def call_handler(o):
    return o.handler(-1)


class PolyBase:
    def __init__(self):
        self.a = 1

    def area(self):
        return 0


class PolyOne(PolyBase):
    def area(self):
        return 1


class PolyTwo(PolyBase):
    def area(self):
        return 2


def poly_calls(objects):
    total = 0
    for o in objects:
        total += o.area()
    return total


def function_with_dict():
    pass


function_with_dict.x = 1

materialized = Plain()
materialized.__dict__  # an instance whose dict exists


many = Many()
for _k in range(40):
    setattr(many, "attr%d" % _k, _k)
many.__dict__["z"] = 1  # a dict of its own, with more than the cached keys

module = types.ModuleType("m")
module.x = 1

G = 1


def global_module():
    return G


def global_builtin():
    return len


def binary_ops(a, b):
    return a + b, a * b, a - b, a / b, a // b, a % b, a << 1 if isinstance(a, int) else 0


def stored_ops(a, b):
    s = a + b
    p = a * b
    d = a - b
    return s, p, d


def inplace_str():
    s = ""
    for _ in range(3):
        s += "x"
    return s


def subscr(c, i):
    return c[i]


def contains(x, c):
    return x in c, x not in c


def loop(iterable):
    total = 0
    for item in iterable:
        total += 1
    return total


def not_run(x, c):
    """Quickened, but its `in` and its loop never run: they keep the form quickening installs."""
    if c is None:
        return None
    for item in c:
        x = x in c
    return x


def loop_generator():
    total = 0
    for item in (x for x in (1, 2)):
        total += item
    return total


def store_subscr(c, i):
    c[i] = 1


def compare(a, b):
    if a < b:
        x = 1
    if a == b:
        x = 2
    y = a != b
    return y


def unpack2(t):
    a, b = t
    return a


def unpack3(t):
    a, b, c = t
    return c


def attrs(o):
    return o.a


def store_attrs(o):
    o.a = 2


def attrs_shared(o):
    return o.shared


def setattr_many():
    many.attr30 = 3


shadowed = Plain()
shadowed.__repr__ = lambda: "x"


def methods(o):
    return o.__repr__()


def calls(f, *args):
    return f(*args)


def call_len(x):
    return len(x), isinstance(x, list), str(x), type(x), tuple(x), list(x)


def with_default(a, b=2):
    return a


def varargs(*a):
    return a


def call_builtin_kinds(x):
    abs(x)                      # METH_O
    getattr(x, "real")          # METH_FASTCALL
    sorted([x], key=None)       # METH_FASTCALL | METH_KEYWORDS, with keywords
    max(x, x)                   # METH_VARARGS | METH_KEYWORDS
    return divmod(x, 1)         # METH_FASTCALL


def call_methods(items, text, d):
    items.append(1)             # list.append, result discarded
    r = items.append(2)         # list.append, result kept
    text.upper()                # METH_NOARGS
    text.startswith("a")        # METH_VARARGS
    d.get(1)                    # METH_FASTCALL
    items.sort(key=None)        # METH_FASTCALL | METH_KEYWORDS, with keywords
    items.sort()                # METH_FASTCALL | METH_KEYWORDS, without
    items.clear()
    return r


def call_py_kinds(o):
    with_default(1)             # defaults
    with_default(1, 2)          # exact
    with_default(a=1)           # keywords
    varargs(1)                  # complex parameters
    bound = o.__init__
    bound()                     # a bound method object
    return Plain()              # a Python class


def call_py(x):
    return global_module() + attrs(Plain())


def fused(a, b, c):
    if a:
        return (a, b, c), (b, c, 1)
    return None


CASES = [
    ("global_module", global_module, ()),
    ("global_builtin", global_builtin, ()),
    ("binary_int", binary_ops, (7, 3)),
    ("binary_float", binary_ops, (7.0, 3.5)),
    ("binary_mixed", binary_ops, (7, 3.5)),
    ("stored_int", stored_ops, (7, 3)),
    ("stored_float", stored_ops, (7.0, 3.5)),
    ("binary_str", lambda: "a" + "b" + str(1), ()),
    ("inplace_str", inplace_str, ()),
    ("binary_list", lambda: [1] + [2], ()),
    ("subscr_list", subscr, ([1, 2, 3], 1)),
    ("subscr_list_slice", subscr, ([1, 2, 3], slice(0, 1))),
    ("subscr_tuple", subscr, ((1, 2, 3), 2)),
    ("subscr_dict", subscr, ({1: 2}, 1)),
    ("subscr_str", subscr, ("abc", 1)),
    ("subscr_getitem", subscr, (WithGetitem(), 1)),
    ("subscr_varargs", subscr, (VarargsGetitem(), 1)),
    ("subscr_array", subscr, (array.array("i", [1, 2]), 1)),
    ("subscr_bytes", subscr, (b"ab", 1)),
    ("contains_dict", contains, (1, {1: 2})),
    ("contains_set", contains, ("a", {"a", "b"})),
    ("contains_frozenset", contains, (3, frozenset({1, 2}))),
    ("contains_set_key", contains, ({1}, {frozenset({1})})),
    ("contains_str", contains, ("b", "abc")),
    ("contains_list", contains, (2, [1, 2, 3])),
    ("contains_tuple", contains, (2, (1, 2))),
    ("contains_range", contains, (2, range(5))),
    ("contains_dictsub", contains, (1, DictSub())),
    ("contains_keys", contains, (1, {1: 2}.keys())),
    ("quickened_not_run", not_run, (1, None)),
    ("for_list", loop, ([1, 2, 3],)),
    ("for_tuple", loop, ((1, 2),)),
    ("for_range", loop, (range(3),)),
    ("for_long_range", loop, (range(2 ** 64, 2 ** 64 + 3),)),
    ("for_empty_list", loop, ([],)),
    ("for_dict", loop, ({1: 2},)),
    ("for_set", loop, ({1, 2},)),
    ("for_str", loop, ("ab",)),
    ("for_generator", loop_generator, ()),
    ("for_enumerate", loop, (enumerate("ab"),)),
    ("store_list", store_subscr, ([1, 2, 3], 1)),
    ("store_list_big", store_subscr, ([1, 2, 3], -1)),
    ("store_dict", store_subscr, ({}, 1)),
    ("store_dictsub", store_subscr, (DictSub(), 1)),
    ("store_bytearray", store_subscr, (bytearray(b"ab"), 1)),
    ("store_setitem", store_subscr, (WithSetitem(), 1)),
    ("compare_int", compare, (1, 2)),
    ("compare_float", compare, (1.0, 2.0)),
    ("compare_str", compare, ("a", "b")),
    ("compare_big", compare, (2 ** 100, 3)),
    ("compare_mixed", compare, (1, 2.0)),
    ("compare_tuple", compare, ((1,), (2,))),
    ("unpack_two_tuple", unpack2, ((1, 2),)),
    ("unpack_list2", unpack2, ([1, 2],)),
    ("unpack_tuple3", unpack3, ((1, 2, 3),)),
    ("unpack_list3", unpack3, ([1, 2, 3],)),
    ("unpack_str", unpack3, ("abc",)),
    ("unpack_iter", unpack3, (iter([1, 2, 3]),)),
    ("attr_instance", attrs, (Plain(),)),
    ("attr_slot", attrs, (Slots(),)),
    ("attr_module", attrs, (module,)),
    ("attr_hint", lambda: many.attr30, ()),
    ("attr_property", lambda: Prop().p, ()),
    ("store_attr_instance", store_attrs, (Plain(),)),
    ("store_attr_property", store_attrs, (PropSet(),)),
    ("attr_descriptor", attrs, (WithDescriptor(),)),
    ("store_attr_descriptor", store_attrs, (WithDescriptor(),)),
    ("store_attr_slot", store_attrs, (Slots(),)),
    ("method", methods, (Plain(),)),
    ("attr_class_attr", attrs_shared, (ClassAttr(),)),
    ("attr_through_class", attrs_shared, (ClassAttr,)),
    ("attr_dunder_class", lambda: Plain().__class__, ()),
    ("attr_getattribute", attrs, (Custom(),)),
    ("attr_getattr_hook", attrs, (Hooked(),)),
    ("method_getattr_hook", methods, (Hooked(),)),
    ("method_instance_value", call_handler, (Callback(),)),
    ("method_polymorphic", poly_calls, ([PolyBase(), PolyOne(), PolyTwo()] * 60,)),
    ("attr_materialized", attrs, (materialized,)),
    ("store_attr_materialized", store_attrs, (materialized,)),
    ("store_attr_hint", lambda: setattr_many(), ()),
    ("store_attr_module", store_attrs, (module,)),
    ("method_no_dict", lambda: [1].copy(), ()),
    ("method_with_values", methods, (ClassAttr(),)),
    ("method_with_dict", methods, (materialized,)),
    ("method_offset_dict", methods, (function_with_dict,)),
    ("method_offset_no_dict", methods, (global_module,)),
    ("method_module", lambda: array.array("i"), ()),
    ("method_class", lambda: Plain.__init__(Plain()), ()),
    ("method_class_own", lambda: Maker.make(1), ()),
    ("method_module_function", lambda m=types: m.new_class("X"), ()),
    ("method_builtin_classmethod", lambda: dict.fromkeys([1]), ()),
    ("method_slot_owner", methods, (Slots(),)),
    ("method_shadowed", lambda: shadowed.__repr__(), ()),
    ("call_builtins", call_len, ([1, 2],)),
    ("call_py", call_py, (1,)),
    ("call_builtin_kinds", call_builtin_kinds, (3,)),
    ("call_methods", call_methods, ([], "abc", {})),
    ("call_py_kinds", call_py_kinds, (Plain(),)),
    ("call_types", lambda: (type(1), str(1), tuple([1]), bytes(1), Plain(), range(2)), ()),
    ("call_class", calls, (Plain,)),
    ("call_bound", calls, (Plain().__init__,)),
    ("fused_locals", fused, (1, 2, 3)),
]


def specialized_forms(name, function):
    """`case position OPNAME` for each instruction. The position counts instructions, not
    bytes: a build whose families give an instruction an inline cache that upstream's has not
    (or resize one) has other offsets for the same instructions."""
    code = function.__code__
    lines = []
    for position, instruction in enumerate(dis.get_instructions(code, adaptive=True)):
        if instruction.opname.startswith(("CACHE", "RESUME", "NOP", "EXTENDED_ARG")):
            continue
        lines.append("%s %d %s" % (name, position, instruction.opname))
    return lines


def jump_targets(name, function):
    """`case position` for each instruction dis marks as a jump target in the quickened code:
    dis must find a specialized jump's target as it finds its base instruction's."""
    code = function.__code__
    return ["%s %d" % (name, position)
            for position, instruction in enumerate(dis.get_instructions(code, adaptive=True))
            if instruction.is_jump_target]


def fresh(function):
    """A copy of the function with a code object of its own: each case starts unquickened."""
    code = function.__code__.replace()
    if code is function.__code__:
        raise SystemExit("code.replace() returned the same code object: cases would share it")
    return types.FunctionType(code, function.__globals__, function.__name__,
                              function.__defaults__, function.__closure__)


def main():
    report = jump_targets if sys.argv[1:] == ["--jump-targets"] else specialized_forms
    out = []
    for name, function, args in CASES:
        function = fresh(function)
        for _ in range(RUNS):
            try:
                function(*(a if not isinstance(a, type(iter([]))) else iter([1, 2, 3])
                           for a in args))
            except Exception:
                pass
        out += report(name, function)
    sys.stdout.write("\n".join(out) + "\n")


main()
