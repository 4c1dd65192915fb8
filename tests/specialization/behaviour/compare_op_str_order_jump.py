# member: COMPARE_OP_STR_ORDER_JUMP
# `<`, `<=`, `>` and `>=` on two exact strs before a conditional jump, forward (`if`) and
# backward (`while`): specialized, then what the member must hand back: str subclasses with
# their own ordering, bytes and mixed operands (TypeError), None; the same object, equal
# strings that are not, empty strings, a NUL, and strings of every code point width.


def branch_lt(a, b):
    if a < b:
        return "lt"
    return "not lt"


def branch_le(a, b):
    if a <= b:
        return "le"
    return "not le"


def branch_gt(a, b):
    if not a > b:
        return "not gt"
    return "gt"


def branch_ge(a, b):
    return "ge" if a >= b else "not ge"


def chained(ch):
    if "0" <= ch <= "9":
        return "digit"
    return "other"


def count_up(a, limit):
    # a backward jump: the loop test runs at the bottom of the loop
    n = 0
    while n < 10 and a < limit:
        a = a + "a"
        n += 1
    return n


class Ordered(str):
    def __lt__(self, other):
        return "Ordered.__lt__"

    def __gt__(self, other):
        return False


def attempt(function, *args):
    try:
        return function(*args)
    except Exception as error:
        return "%s: %s" % (type(error).__name__, error)


def rounds():
    out = []
    words = ["", "a", "ab", "abc", "b", "B", "é", "日本", "\U0001f600", "a\x00", "a" * 50,
             "".join(["a", "b"]), "9", "0", "/", ":"]
    for a in words:
        for b in words:
            for op in (branch_lt, branch_le, branch_gt, branch_ge):
                out.append(op(a, b))
        out.append(chained(a))
        out.append(count_up(a[:3], "aaaa"))
    same = "xyz" * 3
    out.append([op(same, same) for op in (branch_lt, branch_le, branch_gt, branch_ge)])
    cases = [(Ordered("a"), "b"), ("a", Ordered("b")), (b"a", "a"), ("a", b"a"), ("1", 1),
             (None, "x"), ("x", None), (Ordered("b"), Ordered("a"))]
    for a, b in cases:
        for op in (branch_lt, branch_le, branch_gt, branch_ge):
            out.append(attempt(op, a, b))
    out.append(attempt(count_up, "a", 5))
    return out


first = rounds()
for _ in range(3):
    print(rounds() == first)
print(first)
