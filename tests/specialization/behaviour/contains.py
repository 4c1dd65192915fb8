# member: CONTAINS_OP_ADAPTIVE
# `in` / `not in` at one site that sees, in turn, every kind of container the CONTAINS_OP
# family does not specialize for (lists, tuples, ranges, bytes, dict and set and str
# subclasses, dict views, __contains__, __iter__ and __getitem__ fallbacks, non-containers):
# the adaptive form installs the generic CONTAINS_OP for good at the first container no
# member takes (as upstream's site, which has no family), and a dict, set or str coming back
# runs there generically (a Py_STATS build keeps the adaptive form, fails, backs off and
# specializes again).
import array
import collections
import dis


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


def test(x, c):
    try:
        return x in c, x not in c
    except Exception as error:
        return where(error)


class D(dict):
    def __contains__(self, key):
        return key == "magic"


class S(frozenset):
    pass


class Str(str):
    def __contains__(self, sub):
        return sub == "sub"


class Contains:
    def __init__(self, result):
        self.result = result

    def __contains__(self, item):
        if isinstance(self.result, BaseException):
            raise self.result
        return self.result


class Falsy:
    def __bool__(self):
        raise ValueError("no truth")


class Iterates:
    def __iter__(self):
        return iter([1, "k", 2.0])


class Indexes:
    def __getitem__(self, i):
        if i > 3:
            raise IndexError(i)
        return i * 2


class BadIter:
    def __iter__(self):
        return 5


class NotContainer:
    __contains__ = None


def gen():
    yield 1
    yield "k"


containers = [
    [1, "k"], (1, "k"), range(3), range(2 ** 70, 2 ** 70 + 3), b"k\x01", bytearray(b"k"),
    memoryview(b"k"), array.array("i", [1, 2]), collections.deque([1, "k"]), D(k=1), S({1}),
    Str("k"), {1: 2}.keys(), {1: 2}.values(), {1: "k"}.items(), type("T", (), {}).__dict__,
    Contains(True), Contains(0), Contains([1]), Contains(Falsy()), Contains(KeyError("c")),
    Iterates(), Indexes(), BadIter(), NotContainer(), 1, None, gen(),
]
keys = [1, "k", 2.0, 6, (1, "k"), [1], "magic", "sub", 2 ** 70 + 1, 1.5]

# Each kind after a hot loop on a dict, a set and a str (the site specializes, misses, goes
# back to the adaptive form); three rounds give the same results.
rows = []
for round in range(3):
    for c in containers:
        for fast in ({"k": 1}, {"k"}, "k"):
            for _ in range(30):
                test("k", fast)
            if isinstance(c, type(gen())):
                c = gen()
            rows.append([test(k, c) for k in keys])
n = len(rows) // 3
for row in rows[:n:3]:
    print(row)
print(rows[n:2 * n] == rows[:n] == rows[2 * n:])

# One site that only ever sees containers without a member: it keeps failing and backing off;
# then a dict arrives and specializes it.
seen = []
for i in range(300):
    c = containers[i % 8]
    seen.append(test(i % 3, c))
print(seen[-8:], sum(1 for s in seen if s[0] is True))
late = [test("k", {"k": 1}) for _ in range(100)] + [test("k", "k"), test(1, [1]), test(1, {1})]
print(late[-4:])


# Many sites in generated code, each with one kind of container.
def many(c):
    return [1 in c, "k" in c, 2 not in c, None in c]


for c in containers[:12]:
    if isinstance(c, (bytes, bytearray)):
        continue
    results = [many(c) for _ in range(20)]
    print(type(c).__name__, results[-1], results[0] == results[-1])
