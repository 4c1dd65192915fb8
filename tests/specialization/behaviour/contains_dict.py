# member: CONTAINS_OP_DICT
# `in` / `not in` on an exact dict, specialized, then: keys of every kind (equal numbers of
# other types, nan, unhashable keys, __hash__ and __eq__ that raise, return non-bools or mutate
# the dict during the lookup), dicts of every shape (empty, split instance dicts, globals, big,
# with deleted entries), and at the same site dict subclasses, other mappings and non-containers.
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


def test(x, d):
    try:
        return x in d, x not in d
    except BaseException as error:
        return where(error)


def warm(d):
    for _ in range(40):
        test(1, d)


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


class Mutator:
    """Changes the dict it is looked up in, once, from __eq__."""
    def __init__(self, d, action):
        self.d = d
        self.action = action

    def __hash__(self):
        return 7

    def __eq__(self, other):
        action, self.action = self.action, None
        if action == "clear":
            self.d.clear()
        elif action == "grow":
            for i in range(100):
                self.d[i + 0.5] = i
        elif action == "replace":
            self.d.pop(other, None)
            self.d[self] = "new"
        return False


class Instance:
    def __init__(self):
        self.a = 1
        self.b = 2


class Sub(dict):
    pass


class Overrides(dict):
    def __contains__(self, key):
        return key == "magic"


nan = float("nan")
base = {1: "a", "k": 2, nan: 3, (1, 2): 4, None: 5, frozenset({1}): 6, 2 ** 70: 7}
keys = [1, 1.0, True, 1 + 0j, "k", "K", nan, float("nan"), (1, 2), (1, [2]), None, frozenset({1}),
        {1}, [1], {1: 2}, 2 ** 70, 2.0 ** 70, b"k", BadHash(), Collide(True), Collide(False),
        Collide(ValueError("eq")), Collide(Falsy()), Collide(KeyboardInterrupt("eq"))]

# Specialized on a dict, then every kind of key, three times (the results must not change).
rows = []
for round in range(3):
    warm(base)
    rows.append([test(k, base) for k in keys])
print(rows[0])
print(rows[1] == rows[0] == rows[2])

# Dicts of every shape.
sparse = {i: i for i in range(200)}
for i in range(0, 200, 3):
    del sparse[i]
instance = Instance()
shapes = [{}, {"a": 1}, vars(instance), globals(), sparse, {i: i for i in range(5000)},
          dict.fromkeys("abc"), {(): 0}]
for d in shapes:
    warm(d)
    print(test("a", d), test(0, d), test(1, d), test(4999, d), test((), d), test([], d))
instance.c = 3          # the instance dict grows out of its shared keys
print(test("c", vars(instance)), test("c", Instance().__dict__))

# The dict changes while it is being looked up.
for action in ("clear", "grow", "replace", None):
    d = {}
    warm(d)
    m = Mutator(d, None)
    d[Mutator(d, action)] = 1      # the stored key's __eq__ runs
    print(action, test(m, d), len(d), test(m, d))

# The same site after specializing: subclasses, other mappings, non-containers.
others = [Sub(a=1), Overrides(a=1), collections.OrderedDict(a=1), collections.defaultdict(int),
          collections.Counter("aab"), type("T", (), {"a": 1}).__dict__, {"a": 1}.keys(),
          {"a": 1}.items(), ["a"], ("a",), "a", {"a"}, 1, None]
for round in range(3):
    out = []
    for other in others:
        warm({"a": 1})
        out.append((type(other).__name__, test("a", other), test("magic", other)))
    print(out)

# Many sites, many calls: counts only.
big = {i: i for i in range(1000)}
print(sum(i in big for i in range(2000)), sum(i not in big for i in range(-500, 500)),
      sum(str(i) in sparse for i in range(100)))
