# CONTAINS_OP_DICT, _SET, _STR: `in` / `not in` on an exact dict, set or frozenset, str, and
# what the specialized sites see after specializing.

class D(dict):
    def __contains__(self, key):
        return key == "magic"


class S(set):
    def __contains__(self, key):
        return True


class Str(str):
    def __contains__(self, sub):
        return sub == "sub"


class BadHash:
    def __hash__(self):
        raise RuntimeError("no hash")


class EqRaises:
    def __hash__(self):
        return 1

    def __eq__(self, other):
        raise ValueError("no eq")


class Eq1:
    def __hash__(self):
        return 1

    def __eq__(self, other):
        return True


def show(value):
    return "!" + type(value).__name__ + ": " + str(value) if isinstance(value, BaseException) \
        else repr(value)


def test(x, c):
    try:
        return x in c, x not in c
    except BaseException as e:
        return show(e)


nan = float("nan")
containers = [
    {1: "a", "k": 2, nan: 3}, {1, "k", nan, frozenset({1})}, frozenset({2, "k"}), "hello k",
    "", {}, set(), D(a=1), S(), Str("abc"), [1, "k"], (1, "k"), range(3), b"k", {1: 2}.keys(),
]
keys = [1, "k", "h", "lo", "", nan, float("nan"), 1.0, True, 2 ** 70, {1}, [1], {1: 2},
        frozenset({1}), BadHash(), EqRaises(), Eq1(), None, "magic", "sub"]

results = []
for round in range(3):
    for c in containers:
        # A hot loop first: the site specializes on this container's type.
        for _ in range(40):
            1 in c if not isinstance(c, str) else "h" in c
        results.append([test(k, c) for k in keys])
for row in results[:len(containers)]:
    print(row)
print(results[-len(containers):] == results[:len(containers)])

# One site, specialized on a dict, then sees everything else.
seen = []
for c in [{"x": 1}] * 60 + containers + [{"x": 1}] * 60 + [{1}] * 60 + ["x"] * 60:
    seen.append(test("x", c))
print(seen[55:80])
print(seen[-3:])

# Sets as keys of a set: looked up as frozensets (the set member deopts for them).
fs = {frozenset({1, 2}), frozenset()}
print([test(k, fs) for k in [{1, 2}, set(), {3}, frozenset({1, 2})] * 30][-4:])


# Mutation during the lookup: __eq__ changes the dict.
class Mutator:
    def __init__(self, d):
        self.d = d

    def __hash__(self):
        return 7

    def __eq__(self, other):
        self.d.clear()
        return False


d = {}
for i in range(50):
    d = {Mutator(d): 1}
    d[Mutator(d)] = 2
    test(Mutator(d), d)
print(len(d), test(1, d))

# Big dicts and sets, every key present and absent.
big = {i: i for i in range(1000)}
bigset = set(range(0, 2000, 2))
print(sum(i in big for i in range(2000)), sum(i in bigset for i in range(2000)),
      sum(i not in bigset for i in range(2000)))
print(sum(ch in "the quick brown fox" for ch in "abcdefghijklmnopqrstuvwxyz" * 10))
