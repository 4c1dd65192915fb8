"""The scenario families: one per group of specializing instructions, each a random Driver.

A family function takes the program's random.Random and the chunk's tag and returns the chunk's
source. The tables below are operand kinds: a Python expression of the loop counter `i`
(evaluated on each iteration, so values move within a kind too) keyed by a description that
goes into the chunk's title comment. Kinds are chosen to cross the guards of 3.11's specialized
instructions: exact type (int vs bool vs int subclass), value range (one-digit ints for
COMPARE_OP_INT_JUMP and the list subscripts, 2**62 for ranges), float specials, shapes of
objects and classes, and Python-level special methods, some of which raise.

Programs must stay fast (a long run is 100,000 of them) and bounded: sequence repetition, `**`
and shifts only get small right-hand operands, and nothing iterates without an end.
"""

from tests.fuzz.driver import Driver, Phase

NUMBERS = {
    "int": "i",
    "negative int": "i - 40",
    "int at 2**30": "2**30 - 6 + i",
    "big int": "10**20 + i",
    "huge int": "-(7**200) - i",
    "bool": "i % 3 == 1",
    "float": "i * 0.5",
    "-0.0": "-0.0",
    "nan": "float('nan')",
    "inf": "float('-inf')",
    "int subclass": "MyInt(i)",
    "float subclass": "MyFloat(i / 4)",
    "complex": "complex(i, -1)",
    "Num": "Num(i)",
    "Bad": "Bad(i)",
}
SEQUENCES = {
    "str": "'s%d' % (i % 10)",
    "str subclass": "MyStr('t')",
    "list": "[i, 'x']",
    "tuple": "(i, None)",
    "None": "None",
}
# Right-hand operands of `**`, `<<`, `>>`, and either side of `*` with a sequence.
SMALL = {
    "small int": "i % 5",
    "negative small int": "-(i % 3)",
    "bool": "i % 2 == 0",
    "small float": "(i % 4) / 2",
    "small int subclass": "MyInt(i % 4)",
    "Bad": "Bad(i)",
}
OPERANDS = {**NUMBERS, **SEQUENCES}
ARITHMETIC = ("+", "-", "*", "/", "//", "%", "**", "<<", ">>", "&", "|", "^")
COMPARISONS = ("<", "<=", "==", "!=", ">", ">=")

CONTAINERS = {
    "list": "[10, 'a', 2.5, None, -0.0]",
    "long list": "list(range(40))",
    "tuple": "(10, 'a', 2.5)",
    "str": "'quicken'",
    "dict": "{0: 'zero', 1: 'one', 'k': 'kay', 2.5: 'float key'}",
    "list subclass": "MyList([1, 2, 3])",
    "tuple subclass": "MyTuple((1, 2))",
    "dict with __missing__": "MyDict({0: 'zero'})",
    "str subclass": "MyStr('sub')",
    "Seq": "Seq(i)",
    "range": "range(-3, 50, 7)",
    "bytes": "b'xyz'",
    "Bad": "Bad(i)",
    "None": "None",
}
INDEXES = {
    "small index": "i % 4",
    "negative index": "-1 - i % 3",
    "index out of range": "i + 60",
    "bool index": "i % 2 == 1",
    "int subclass index": "MyInt(i % 3)",
    "index at 2**30": "2**30 - 2 + i % 4",
    "huge index": "10**25",
    "float key": "2.5",
    "str key": "'k'",
    "str subclass key": "MyStr('k')",
    "Num index": "Num(i % 3)",
    "Bad index": "Bad(i)",
    "slice": "slice(None, 2)",
}

ITERABLES = {
    "list": "[i, 'a', 2]",
    "tuple": "(i, 2.5)",
    "range": "range(i % 5)",
    "range past 2**62": "range(2**62 - 1 + i, 2**62 + 2 + i)",
    "range at -2**63": "range(-2**63, -2**63 + 3)",
    "huge range": "range(10**30, 10**30 + 3)",
    "backwards range": "range(3, -4, -2)",
    "str": "'abc'",
    "dict": "{'a': 1, i: 2}",
    "set": "{i, -1, 7}",
    "generator": "(j * 2 for j in range(3))",
    "list subclass": "MyList([i, i])",
    "Seq": "Seq(i)",
    "Bad": "Bad(i)",
    "int": "i",
}
PROBES = {
    "int": "i % 5",
    "str": "str(i % 5)",
    "'always'": "'always'",
    "nan": "float('nan')",
    "int subclass": "MyInt(2)",
    "tuple": "(1, 2)",
    "list": "[1]",
    "Bad": "Bad(i)",
    "None": "None",
}
HAYSTACKS = {
    "list": "[0, 1, 2, '3', None]",
    "tuple": "(4, 'x', (1, 2))",
    "dict": "{0: 'a', '1': 'b', (1, 2): 'c'}",
    "set": "{2, 3, '4', None}",
    "frozenset": "frozenset([1, '2'])",
    "str": "'0123'",
    "dict with __missing__": "MyDict({1: 1})",
    "str subclass": "MyStr('12')",
    "Seq": "Seq(i % 5)",
    "range past 2**64": "range(2**64 - 6, 2**64 + 6, 2)",
    "dict keys": "{3: 0, 'x': 1}.keys()",
    "Bad": "Bad(i)",
    "int": "i",
}

# Builtins that scenarios rebind: never used by the prelude's show(), so output stays readable.
REBINDABLE = {
    "abs": "abs(i - 5)",
    "len": "len('ab' * (i % 3))",
    "min": "min(i, 30)",
    "max": "max(3, i)",
    "ord": "ord('a')",
    "divmod": "divmod(i, 7)",
    "callable": "callable(i)",
    "round": "round(i / 3)",
    "sum": "sum((i, 1))",
    "chr": "chr(65 + i % 26)",
    "hex": "hex(i)",
}
FIRST_LENGTHS = (8, 9, 20, 30, 53, 60, 100)
LENGTHS = (1, 3, 8, 9, 16, 30, 52, 53, 54, 60, 100, 150)


def schedule(rng, count, minimum=0):
    """First iterations of `count` phases, and the loop's length (at least `minimum`)."""
    lengths = [rng.choice(FIRST_LENGTHS)] + [rng.choice(LENGTHS) for _ in range(count - 1)]
    starts = [sum(lengths[:n]) for n in range(count)]
    return starts, max(sum(lengths), minimum)


def pick(rng, table):
    name = rng.choice(sorted(table))
    return name, table[name]


def operand_pair(rng, table):
    """Two operands from table, of the same kind half of the time: most specializations need
    both operands of one type (int + int, float < float, str == str)."""
    left = pick(rng, table)
    return left, left if rng.random() < 0.5 else pick(rng, table)


def title(tag, what, kinds):
    return "# %s: %s: %s\n" % (tag, what, " -> ".join(kinds))


def events_between(rng, choices, total, count):
    """`count` (iteration, statement) pairs drawn from choices at random iterations."""
    return [(rng.randrange(total), rng.choice(choices)) for _ in range(count)]


def binary_op(rng, tag):
    """BINARY_OP and its int/float/str specializations, in-place forms and superinstructions."""
    op = rng.choice(ARITHMETIC)
    starts, total = schedule(rng, rng.randint(2, 4))
    phases, kinds = [], []
    for start in starts:
        if op in ("**", "<<", ">>"):
            (left, a), (right, b) = pick(rng, NUMBERS), pick(rng, SMALL)
        elif op == "*" and rng.random() < 0.4:
            (left, a), (right, b) = pick(rng, OPERANDS), pick(rng, SMALL)
            if rng.random() < 0.5:
                (left, a), (right, b) = (right, b), (left, a)
        elif op == "*":
            (left, a), (right, b) = operand_pair(rng, NUMBERS)
        else:
            (left, a), (right, b) = operand_pair(rng, OPERANDS)
        phases.append(Phase(start, every=["a = %s" % a, "b = %s" % b]))
        kinds.append("%s %s %s" % (left, op, right))
    site = rng.choice([["r = a %s b" % op], ["a %s= b" % op, "r = a"], ["r = (a %s b, b)" % op]])
    events = []
    if rng.random() < 0.3:
        events.append((rng.randrange(total), "del b"))   # LOAD_FAST__LOAD_FAST meets an unbound local
    return Driver(tag, total, phases, site, events=events,
                  site_parameters=("a", "b") if rng.random() < 0.3 else None,
                  definitions=title(tag, "binary op " + op, kinds)).render()


def compare(rng, tag):
    """COMPARE_OP and its *_JUMP forms (the comparison feeding a branch) on changing operands."""
    op = rng.choice(COMPARISONS)
    starts, total = schedule(rng, rng.randint(2, 4))
    phases, kinds = [], []
    for start in starts:
        (left, a), (right, b) = operand_pair(rng, OPERANDS)
        phases.append(Phase(start, every=["a = %s" % a, "b = %s" % b]))
        kinds.append("%s %s %s" % (left, op, right))
    site = rng.choice([
        ["if a %s b:" % op, "    r = 'yes'", "else:", "    r = 'no'"],
        ["r = a %s b" % op],
        ["r = 0 %s a %s b" % (op, op)],
        ["r = 'no'", "while a %s b:" % op, "    r = 'yes'", "    break"],
    ])
    return Driver(tag, total, phases, site,
                  site_parameters=("a", "b") if rng.random() < 0.3 else None,
                  definitions=title(tag, "compare " + op, kinds)).render()


def subscript(rng, tag):
    """BINARY_SUBSCR, STORE_SUBSCR, DELETE_SUBSCR: lists, tuples, dicts, str[int] and the rest."""
    starts, total = schedule(rng, rng.randint(2, 4))
    phases, kinds = [], []
    for start in starts:
        (container, c), (index, k) = pick(rng, CONTAINERS), pick(rng, INDEXES)
        phases.append(Phase(start, every=["k = %s" % k], entry=["c = %s" % c]))
        kinds.append("%s[%s]" % (container, index))
    form = rng.choice(["load", "store", "store", "load twice"])
    site = {"load": ["r = c[k]"],
            "store": ["c[k] = i", "r = c[k]"],
            "load twice": ["r = (c[k], c[0])"]}[form]
    mutations = ["c.append(i)", "c.clear()", "del c[k]", "c.pop()", "c = c[::-1]"]
    return Driver(tag, total, phases, site, setup=["c = None"],
                  events=events_between(rng, mutations, total, rng.randint(0, 2)),
                  finish=["c"], site_parameters=("c", "k", "i") if rng.random() < 0.3 else None,
                  definitions=title(tag, "subscript " + form, kinds)).render()


ATTRIBUTE_CLASSES = '''\
class Meta_{t}(type):
    pass


class A_{t}(Base, metaclass=Meta_{t}):
    k = 'A.k'

    def __init__(self, v):
        self.x = v
        self.y = 'y'

    def m(self, n):
        return ('A.m', n)

    @classmethod
    def cm(cls, n):
        return (cls.__name__, n)

    @staticmethod
    def sm(n):
        return ('sm', n)


class B_{t}(A_{t}):
    def m(self, n):
        return ('B.m', n)


class S_{t}(Base):
    __slots__ = ('x', 'y')
    k = 'S.k'

    def __init__(self, v):
        self.x = v
        self.y = 'y'

    def m(self, n):
        return ('S.m', n)


class E_{t}(Exception):
    """Its instances keep their dict at an offset (LOAD_METHOD_WITH_DICT), not managed."""
    k = 'E.k'

    def __init__(self, v):
        self.x = v
        self.y = 'y'

    def m(self, n):
        return ('E.m', n)


def with_dict_{t}(v):
    o = A_{t}(v)
    o.__dict__ = {{'x': v, 'y': 'own dict'}}
    return o


mod_{t} = type(sys)('mod_{t}')
mod_{t}.x = 'module x'
mod_{t}.m = lambda n: ('mod.m', n)
'''
OBJECTS = {
    "A": "A_{t}(i)",
    "A with a dict of its own": "with_dict_{t}(i)",
    "B (subclass)": "B_{t}(i)",
    "S (slots)": "S_{t}(i)",
    "E (exception subclass)": "E_{t}(i)",
    "module": "mod_{t}",
    "class A": "A_{t}",
    "Bad (__getattr__ raises)": "Bad(i)",
    "int": "i",
}
ATTRIBUTE_SITES = (
    "r = o.x", "r = o.k", "r = o.y", "o.y = i\nr = o.y", "o.x = (i, 'stored')\nr = o.x",
    "r = o.m(i)", "bound = o.m\nr = bound(i)", "r = o.cm(i)", "r = A_{t}.cm(i)", "r = o.sm(i)",
    "r = type(o).k", "r = mod_{t}.x", "r = mod_{t}.m(i)",
)
ATTRIBUTE_EVENTS = (
    "o.z = i", "del o.x", "o.x = 'reassigned'", "o.__dict__.clear()",
    "o.__dict__ = {{'x': 'new dict'}}", "vars(o).update({{'a%d' % n: n for n in range(30)}})",
    "A_{t}.x = property(lambda self: 'property x')", "A_{t}.x = property(lambda self: 1 / 0)",
    "A_{t}.y = property(lambda self: 'property y', lambda self, v: None)",
    "del A_{t}.x", "A_{t}.k = i", "del A_{t}.k",
    "A_{t}.m = lambda self, n: ('replaced m', n)", "del A_{t}.m",
    "A_{t}.m = staticmethod(lambda n: ('static m', n))",
    "A_{t}.__getattr__ = lambda self, name: 'getattr ' + name",
    "A_{t}.__getattribute__ = lambda self, name: ('intercepted ' + name if name == 'x' "
    "else object.__getattribute__(self, name))",
    "A_{t}.__setattr__ = lambda self, name, value: object.__setattr__(self, name, ('set', value))",
    "Meta_{t}.k = 'Meta.k'", "Meta_{t}.cm = lambda cls, n: ('Meta.cm', n)",
    "Meta_{t}.__getattribute__ = lambda cls, name: type.__getattribute__(cls, name)",
    "o.__class__ = B_{t}", "o.__class__ = A_{t}", "o.m = lambda n: ('instance m', n)",
    "S_{t}.x = 'class x over the slot'", "mod_{t}.x = i", "del mod_{t}.x",
    "mod_{t}.__getattr__ = lambda name: 'module getattr ' + name",
)


def attributes(rng, tag):
    """LOAD_ATTR, STORE_ATTR, LOAD_METHOD: instances with dicts, slots, classes, modules,
    while attributes come and go and the classes and metaclass are changed under the site."""
    starts, total = schedule(rng, rng.randint(1, 4), minimum=60)
    phases, kinds = [], []
    for start in starts:
        kind, expression = pick(rng, OBJECTS)
        phases.append(Phase(start, entry=["o = " + expression.format(t=tag)]))
        kinds.append(kind)
    site = rng.choice(ATTRIBUTE_SITES).format(t=tag).split("\n")
    events = [(iteration, statement.format(t=tag)) for iteration, statement
              in events_between(rng, ATTRIBUTE_EVENTS, total, rng.randint(1, 4))]
    return Driver(tag, total, phases, site, events=events, setup=["o = None"],
                  finish=["sorted(vars(o))", "sorted(k for k in vars(A_%s) if k[0] != '_')" % tag],
                  site_parameters=("o", "i") if rng.random() < 0.3 else None,
                  definitions=title(tag, "attributes", kinds) + ATTRIBUTE_CLASSES.format(t=tag)).render()


def globals_and_builtins(rng, tag):
    """LOAD_GLOBAL_MODULE and LOAD_GLOBAL_BUILTIN while globals and builtins are rebound,
    deleted, shadowed and while unrelated names are added to either dict."""
    name = rng.choice(sorted(REBINDABLE))
    fake = "lambda *args: ('fake %s',) + args" % name
    g = "g_" + tag
    sites = ["r = %s" % g, "r = " + REBINDABLE[name], "r = (%s, %s)" % (g, REBINDABLE[name])]
    choices = [
        "%s = 'rebound'" % g, "%s = i * 0.5" % g, "del %s" % g, "%s = i" % g,
        "globals()['filler_%s_%%d' %% i] = i" % tag,
        "for n in range(20):\n    globals()['bulk_%s_%%d' %% n] = n" % tag,
        "builtins.%s = %s" % (name, fake), "globals()[%r] = %s" % (name, fake),
        "del globals()[%r]" % name, "del builtins.%s" % name, "builtins.%s = saved" % name,
        "builtins.extra_%s = i" % tag,
    ]
    total = rng.choice((60, 100, 150, 200))
    return Driver(tag, total, [Phase(0)], [rng.choice(sites)], declare=[g],
                  events=events_between(rng, choices, total, rng.randint(1, 5)),
                  setup=["saved = builtins.%s" % name],
                  finish=[g, "sorted(k for k in globals() if k.startswith(('filler', 'bulk')))"],
                  restore=["builtins.%s = saved" % name, "globals().pop(%r, None)" % name],
                  definitions="# %s: globals and builtin %s\n%s = 1\n" % (tag, name, g)).render()


CALL_DEFINITIONS = '''\
def plain_{t}(x):
    return ('plain', x)


def other_{t}(x):
    return ('other code', x)


def defaults_{t}(x, y=2, z=3):
    return ('defaults', x, y, z)


def keyword_only_{t}(x, *, z=3):
    return ('keyword-only', x, z)


def gen_{t}(x):
    yield x


class K_{t}(Base):
    def __call__(self, x):
        return ('K call', x)

    def m(self, x):
        return ('K.m', x)

    def append(self, x):
        return ('K.append', x)
'''
CALLABLES = {
    "Python function": "plain_{t}",
    "function with defaults": "defaults_{t}",
    "function with a keyword-only argument": "keyword_only_{t}",
    "lambda": "lambda x: ('lambda', x)",
    "len": "len", "abs": "abs", "type": "type", "str": "str", "tuple": "tuple", "repr": "repr",
    "bool": "bool", "int": "int", "float": "float", "list": "list", "isinstance": "isinstance",
    "str.upper": "str.upper",
    "str.split": "str.split",
    "bound builtin method": "'-'.join",
    "dict.get": "{{0: 'a', 1: 'b'}}.get",
    "bound Python method": "K_{t}().m",
    "class": "Num",
    "int subclass": "MyInt",
    "callable object": "K_{t}()",
    "generator function": "gen_{t}",
    "Bad": "Bad(i)",
}
ARGUMENTS = {
    "int": "i", "str": "str(i)", "list": "[i, 1]", "tuple": "(i,)", "float": "i * 0.5",
    "int subclass": "MyInt(i)", "Bad": "Bad(i)", "None": "None", "-0.0": "-0.0", "nan": "float('nan')",
}
RECEIVERS = {
    "list": "[]", "list subclass": "MyList()", "object with append": "K_{t}()",
    "tuple": "()", "str": "'abc'", "dict": "{{}}",
}
CALL_EVENTS = (
    "plain_{t}.__code__ = other_{t}.__code__", "plain_{t}.__defaults__ = (5,)",
    "defaults_{t}.__defaults__ = ()", "defaults_{t}.__defaults__ = ('new y',)",
    "keyword_only_{t}.__kwdefaults__ = {{'z': 'new z'}}", "keyword_only_{t}.__kwdefaults__ = None",
    "K_{t}.__call__ = lambda self, x: ('new __call__', x)", "K_{t}.m = lambda self, x: ('new m', x)",
    "del K_{t}.__call__", "builtins.len = lambda x: 'fake len'", "builtins.len = saved_len",
)


def calls(rng, tag):
    """PRECALL/CALL: Python functions with and without defaults, builtins of every calling
    convention, method descriptors, bound methods, classes and callable objects, with the callee,
    its code, its defaults or the argument's type changing under the site."""
    starts, total = schedule(rng, rng.randint(2, 4))
    phases, kinds = [], []
    form = rng.choice(["callee", "callee", "argument", "receiver"])
    for start in starts:
        if form == "callee":
            (kind, f), (_, x) = pick(rng, CALLABLES), pick(rng, ARGUMENTS)
            phases.append(Phase(start, every=["x = " + x], entry=["f = " + f.format(t=tag)]))
        elif form == "argument":
            kind, x = pick(rng, ARGUMENTS)
            phases.append(Phase(start, every=["x = " + x]))
        else:
            kind, f = pick(rng, RECEIVERS)
            phases.append(Phase(start, every=["x = i"], entry=["f = " + f.format(t=tag)]))
        kinds.append(kind)
    if form == "callee":
        site = rng.choice(["r = f(x)", "r = f(x)", "r = (f(x), f(x))"])
    elif form == "argument":
        site = rng.choice(["r = len(x)", "r = isinstance(x, int)", "r = type(x)", "r = str(x)",
                           "r = tuple(x)", "r = plain_%s(x)" % tag, "r = defaults_%s(x)" % tag,
                           "r = K_%s().m(x)" % tag, "r = abs(x)", "r = divmod(x, 3)",
                           "r = '-'.join(x)", "r = MyInt(x)", "r = str(x).split('1')"])
    else:
        site = rng.choice(["r = f.append(x)", "f.append(x)\nr = len(f)"])
    events = [(iteration, statement.format(t=tag)) for iteration, statement
              in events_between(rng, CALL_EVENTS, total, rng.randint(0, 3))]
    return Driver(tag, total, phases, site.split("\n"), events=events,
                  setup=["f = None", "saved_len = builtins.len"], restore=["builtins.len = saved_len"],
                  finish=["f" if form == "receiver" else "plain_%s(0)" % tag],
                  definitions=title(tag, "calls of the " + form, kinds) + CALL_DEFINITIONS.format(t=tag)
                  ).render()


UNPACKABLES = {
    "2-tuple": "(i, 'b')", "3-tuple": "(i, 2, 3)", "2-list": "[i, 'b']", "3-list": "[i, 2, 3]",
    "2-str": "'ab'", "dict": "{i: 1, 'k': 2}", "2-range": "range(i, i + 2)",
    "generator": "(j for j in (i, 1))", "tuple subclass": "MyTuple((i, 1))",
    "list subclass": "MyList([i, 1])", "set": "{i, -i - 1}", "int": "i", "Bad": "Bad(i)",
}


def unpack(rng, tag):
    """UNPACK_SEQUENCE (two-tuple, tuple, list) and UNPACK_EX on changing shapes and lengths."""
    starts, total = schedule(rng, rng.randint(2, 4))
    phases, kinds = [], []
    for start in starts:
        kind, x = pick(rng, UNPACKABLES)
        phases.append(Phase(start, every=["x = " + x]))
        kinds.append(kind)
    site = rng.choice([["p, q = x", "r = (p, q)"], ["p, q, s = x", "r = (p, q, s)"],
                       ["p, *q = x", "r = (p, q)"], ["*p, q = x", "r = (p, q)"],
                       ["for p, q in (x, x):", "    pass", "r = (p, q)"]])
    return Driver(tag, total, phases, site, site_parameters=("x",) if rng.random() < 0.3 else None,
                  definitions=title(tag, "unpack", kinds)).render()


def iteration(rng, tag):
    """FOR_ITER over lists, tuples, ranges (with bounds past the machine word), dicts,
    generators, subclasses, mutated while iterated; CONTAINS_OP on every kind of container."""
    starts, total = schedule(rng, rng.randint(2, 4))
    phases, kinds = [], []
    looping = rng.random() < 0.5
    for start in starts:
        if looping:
            kind, x = pick(rng, ITERABLES)
            phases.append(Phase(start, every=["x = " + x]))
        else:
            (kind, x), (probe, p) = pick(rng, HAYSTACKS), pick(rng, PROBES)
            phases.append(Phase(start, every=["p = " + p], entry=["x = " + x]))
            kind = "%s in %s" % (probe, kind)
        kinds.append(kind)
    if looping:
        mutate = rng.choice(["", "    if len(out) < 3:\n        x.append(item)",
                             "    if len(out) == 1:\n        x.pop()",
                             "    if len(out) == 1:\n        x[i % 3] = 'changed'",
                             "    if len(out) == 2:\n        x.clear()"])
        site = ["out = []", "for item in x:", "    out.append(item)"] + ([mutate] if mutate else [])
        site += ["r = out"]
        setup = []
    else:
        site = [rng.choice(["r = p in x", "r = (p not in x, p in x)",
                            "if p in x:\n    r = 'in'\nelse:\n    r = 'out'"])]
        setup = ["x = None"]
    return Driver(tag, total, phases, site, setup=setup,
                  site_parameters=("x", "p", "i") if not looping and rng.random() < 0.3 else None,
                  definitions=title(tag, "iteration" if looping else "containment", kinds)).render()


GENERATOR_DEFINITIONS = '''\
def gen_{t}(total):
    while True:
        try:
            got = yield total
        except ValueError as e:
            got = 'thrown ' + str(e)
        try:
            total = total + got
        except TypeError as e:
            total = str(e)


def outer_{t}(total):
    result = yield from gen_{t}(total)
    return result


class Tick_{t}(Base):
    def __init__(self, v):
        self.v = v

    def __await__(self):
        got = yield self.v
        return got


async def co_{t}(total):
    while True:
        try:
            total = total + await Tick_{t}(total)
        except TypeError as e:
            total = str(e)
'''
SENT = {"int": "i", "float": "i * 0.5", "str": "'s'", "big int": "10**20", "bool": "True",
        "int subclass": "MyInt(i)", "Num": "Num(i)", "nan": "float('nan')"}
GENERATOR_EVENTS = ("r = g.throw(ValueError('x%d' % i))", "g.close()", "g = {maker}(0)\ng.send(None)",
                    "r = g.throw(KeyError('k'))", "g.send(None)")


def generators(rng, tag):
    """Generators and coroutines driven by send/throw/close, their bodies' sites specialized on
    what is sent; `yield from` and `await` on a custom awaitable."""
    maker = rng.choice(["gen", "outer", "co"]) + "_" + tag
    starts, total = schedule(rng, rng.randint(2, 4))
    phases, kinds = [], []
    start_value = rng.choice(["0", "0.0", "''"])
    for start in starts:
        kind, v = pick(rng, SENT)
        phases.append(Phase(start, every=["v = " + v]))
        kinds.append(kind)
    events = [(iteration, statement.format(maker=maker)) for iteration, statement
              in events_between(rng, GENERATOR_EVENTS, total, rng.randint(0, 3))]
    return Driver(tag, total, phases, ["r = g.send(v)"], events=events,
                  setup=["g = %s(%s)" % (maker, start_value), "g.send(None)"],
                  finish=["g.send(0)"], restore=["g.close()"],
                  definitions=title(tag, "generator " + maker, kinds)
                  + GENERATOR_DEFINITIONS.format(t=tag)).render()


RECURSION_DEFINITIONS = '''\
def down_{t}(n, acc, step):
    if n <= 0:
        return acc
    return down_{t}(n - 1, acc + step, step)


class Deep_{t}(Base):
    def __getattr__(self, name):
        return getattr(self, name + 'x')
'''
STEPS = {"int": "1", "float": "0.5", "str": "'s'", "big int": "10**20", "Num": "Num(1)",
         "bool": "True", "Bad": "Bad(i)"}


def recursion(rng, tag):
    """Recursion with a specialized body and arguments that change type, up to and past the
    recursion limit (lowered for a while, so that runs stay fast), through calls and __getattr__."""
    starts, total = schedule(rng, rng.randint(2, 3))
    phases, kinds = [], []
    for start in starts:
        kind, step = pick(rng, STEPS)
        depth = rng.choice(["i % 7", "i % 30", "60"])
        phases.append(Phase(start, every=["step = " + step, "n = " + depth]))
        kinds.append(kind)
    events = events_between(rng, ["n = 10**6", "sys.setrecursionlimit(80)", "sys.setrecursionlimit(1000)",
                                  "r = Deep_%s().a" % tag], total, rng.randint(1, 3))
    return Driver(tag, total, phases, ["r = down_%s(n, step * 0, step)" % tag], events=events,
                  restore=["sys.setrecursionlimit(1000)"],
                  definitions=title(tag, "recursion", kinds) + RECURSION_DEFINITIONS.format(t=tag)).render()


FAMILIES = (binary_op, binary_op, compare, subscript, attributes, attributes, globals_and_builtins,
            calls, calls, unpack, iteration, iteration, generators, recursion)
