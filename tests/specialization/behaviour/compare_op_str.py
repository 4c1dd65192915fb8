# member: COMPARE_OP_STR
# A comparison of two exact strs where no jump follows (`==` and `!=` by equality, `<`, `<=`,
# `>`, `>=` by code point order): specialized, then what the member must hand back: str
# subclasses with their own __eq__ and __lt__, bytes, mixed operands (TypeError for the
# ordering); equal strings that are not the same object, the same object, empty and non-ASCII
# strings of every width.


def eq(a, b):
    r = a == b
    return r


def ne(a, b):
    return a != b


def lt(a, b):
    return a < b


def le(a, b):
    r = a <= b
    return r


def gt(a, b):
    return a > b


def ge(a, b):
    return a >= b


class MyStr(str):
    def __eq__(self, other):
        return ("MyStr.__eq__", str(self), other)

    def __lt__(self, other):
        return ("MyStr.__lt__", str(self), other)

    __hash__ = str.__hash__


def attempt(function, *args):
    try:
        return function(*args)
    except Exception as error:
        return "%s: %s" % (type(error).__name__, error)


def rounds():
    out = []
    words = ["", "a", "ab", "abc", "b", "é", "日本", "\U0001f600", "a\x00", "a" * 100,
             "".join(["a", "b"])]
    for a in words:
        for b in words + ["".join(["a", "b", "c"])]:
            for op in (eq, ne, lt, le, gt, ge):
                out.append(op(a, b))
    cases = [(MyStr("a"), "a"), ("a", MyStr("a")), (b"a", "a"), ("a", b"a"), ("1", 1),
             (None, "x"), ("x", None)]
    for a, b in cases:
        for op in (eq, ne, lt, le, gt, ge):
            out.append(attempt(op, a, b))
    return out


first = rounds()
for _ in range(3):
    print(rounds() == first)
print(first)
