# member: COMPARE_OP_STR
# `a == b` and `a != b` on two exact strs where no jump follows: specialized, then what the
# member must hand back or never takes: the ordering operators on strs (generic for good),
# str subclasses with their own __eq__, bytes, mixed operands; equal strings that are not the
# same object, empty and non-ASCII strings.


def eq(a, b):
    r = a == b
    return r


def ne(a, b):
    return a != b


def lt(a, b):
    return a < b


class MyStr(str):
    def __eq__(self, other):
        return ("MyStr.__eq__", str(self), other)

    __hash__ = str.__hash__


def attempt(function, *args):
    try:
        return function(*args)
    except Exception as error:
        return "%s: %s" % (type(error).__name__, error)


def rounds():
    out = []
    words = ["", "a", "ab", "abc", "é", "日本", "a" * 100, "".join(["a", "b"])]
    for a in words:
        for b in words + ["".join(["a", "b", "c"])]:
            out.append(eq(a, b))
            out.append(ne(a, b))
            out.append(lt(a, b))
    cases = [(MyStr("a"), "a"), ("a", MyStr("a")), (b"a", "a"), ("a", b"a"), ("1", 1),
             (None, "x"), ("x", None)]
    for a, b in cases:
        for op in (eq, ne, lt):
            out.append(attempt(op, a, b))
    return out


first = rounds()
for _ in range(3):
    print(rounds() == first)
print(first[-40:])
