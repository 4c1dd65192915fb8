# member: CONTAINS_OP_SET
# `in` / `not in` on an exact set or frozenset, specialized, then: keys of every kind (sets as
# keys, which are looked up as frozensets and deopt; set and frozenset subclasses; unhashable
# keys; __hash__ and __eq__ that raise, return non-bools or mutate the set during the lookup),
# sets of every size, and at the same site set subclasses and other containers.
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


def test(x, s):
    try:
        return x in s, x not in s
    except Exception as error:
        return where(error)


def warm(s):
    for _ in range(40):
        test(1, s)


class BadHash:
    def __hash__(self):
        raise RuntimeError("no hash")


class Collide:
    """Hashes as 1: compared with the key 1 (and True and 1.0)."""
    def __init__(self, result):
        self.result = result

    def __hash__(self):
        return 1

    def __eq__(self, other):
        if isinstance(self.result, BaseException):
            raise self.result
        return self.result


class Falsy:
    def __bool__(self):
        raise ValueError("no truth")


class HashableSet(set):
    def __hash__(self):
        return hash(frozenset(self))


class PlainSet(set):
    pass


class FrozenSub(frozenset):
    pass


class Mutator:
    """Changes the set it is looked up in, once, from __eq__."""
    def __init__(self, s, action):
        self.s = s
        self.action = action

    def __hash__(self):
        return 7

    def __eq__(self, other):
        action, self.action = self.action, None
        if action == "clear":
            self.s.clear()
        elif action == "grow":
            self.s.update(range(100, 200))
        return False


class Overrides(set):
    def __contains__(self, key):
        return key == "magic"


nan = float("nan")
base = {1, "k", nan, (1, 2), None, frozenset({1, 2}), frozenset(), 2 ** 70}
keys = [1, 1.0, True, "k", "K", nan, float("nan"), (1, 2), (1, [2]), None, {1, 2}, set(), {3},
        frozenset({1, 2}), frozenset(), FrozenSub({1, 2}), HashableSet({1, 2}), PlainSet({1, 2}),
        PlainSet(), [1], {1: 2}, 2 ** 70, BadHash(), Collide(True), Collide(False),
        Collide(ValueError("eq")), Collide(Falsy())]

# Specialized on a set, then on a frozenset; every kind of key, three times.
for container in (base, frozenset(base)):
    rows = []
    for round in range(3):
        warm(container)
        rows.append([test(k, container) for k in keys])
    print(type(container).__name__, rows[0])
    print(rows[1] == rows[0] == rows[2])

# Sets as keys, again and again at one specialized site (each one deopts).
fs = {frozenset({1, 2}), frozenset()}
print([test(k, fs) for k in [{1, 2}, set(), {3}, frozenset({1, 2}), 1] * 30][-5:])

# Sets of every size, and a set changing while it is being looked up.
for s in [set(), {0}, set(range(5)), set(range(5000)), frozenset(range(0, 100, 7)),
          {i * 2 ** 60 for i in range(50)}]:
    warm(s)
    print(test(0, s), test(4999, s), test(98, s), test(2 ** 61, s), test([], s))
for action in ("clear", "grow", None):
    s = set()
    warm(s)
    m = Mutator(s, None)
    s.add(Mutator(s, action))      # the stored key's __eq__ runs
    print(action, test(m, s), len(s), test(m, s))

# The same site after specializing: subclasses and other containers.
others = [PlainSet({"a"}), Overrides({"a"}), FrozenSub({"a"}), {"a": 1}, {"a": 1}.keys(), ["a"],
          ("a",), "a", 1, None]
for round in range(3):
    out = []
    for other in others:
        warm({"a"})
        out.append((type(other).__name__, test("a", other), test("magic", other)))
    print(out)

# Many sites, many calls: counts only.
evens = set(range(0, 2000, 2))
frozen = frozenset(evens)
print(sum(i in evens for i in range(2000)), sum(i not in frozen for i in range(2000)))
