"""Generated programs: a fixed prelude, then chunks, each a self-contained scenario.

`generate(seed)` is a pure function of the seed (random.Random(seed), no other state), so a
seed names a program for good: `python3 -m tests.fuzz --show SEED` prints it again. Programs are
deterministic on any CPython 3.11 with PYTHONHASHSEED=0: they print values of built-in types and
type names, never addresses, ids, default reprs, times or anything about the interpreter's build,
and iterate no set or dict whose order depends on identity hashes.

A program is a sequence of chunks so that one can be dropped without breaking the others: each
chunk defines its own names (suffixed with its tag, c0, c1, ...) and undoes what it did to shared
state (builtins, the recursion limit) before it ends. The minimizer works on any file's syntax
tree, but its first, coarse cuts of the module's statements drop whole chunks because of this.
"""

import random
from dataclasses import dataclass

from tests.fuzz import scenarios
from tests.fuzz.execute import RECURSION_SUFFIXES

# Every program starts with these helpers. `show` turns any result into deterministic text and
# is the only way programs print values; the classes are operands that the scenarios swap in
# after a site has specialized: subclasses of built-in types (which fail the exact-type guards),
# Python-level numbers and containers, and an object whose every special method raises.
PRELUDE = '''\
import builtins
import sys

# What 3.11.2 appends to "maximum recursion depth exceeded": the C check that hit the limit,
# which depends on what was specialized at that moment (tests/fuzz/execute.py). show() drops it,
# so that what a program does next (it records a result only when it changed) cannot depend on
# it either.
RECURSION_SUFFIXES = @RECURSION_SUFFIXES@


def show(value):
    """Built-in values by repr (big ones shortened), other objects by their type's name."""
    kind = type(value)
    if isinstance(value, BaseException):
        text = str(value)
        if kind is RecursionError and text.startswith('maximum recursion depth exceeded'):
            if text[len('maximum recursion depth exceeded'):] in RECURSION_SUFFIXES:
                text = 'maximum recursion depth exceeded'
        return '!' + kind.__name__ + ': ' + text
    if kind is int and value.bit_length() > 256:
        return 'int(%d bits, %d mod 1000003)' % (value.bit_length(), value % 1000003)
    if kind in (int, float, complex, str, bytes, bool, type(None)):
        return repr(value)
    if kind in (list, tuple):
        return kind.__name__ + '[' + ', '.join([show(item) for item in value[:8]]) + ']'
    if kind is dict:
        return '{' + ', '.join([show(k) + ': ' + show(v) for k, v in list(value.items())[:8]]) + '}'
    if kind in (set, frozenset):
        return kind.__name__ + '{' + ', '.join(sorted([show(item) for item in value])) + '}'
    for base in (int, float, str, tuple, list, dict):
        if isinstance(value, base):
            return kind.__name__ + '(' + show(base(value)) + ')'
    return '<' + kind.__name__ + '>'


class Base:
    """A repr without an address for every object the programs make."""
    __slots__ = ()

    def __repr__(self):
        return '<' + type(self).__name__ + '>'


class MyInt(int):
    pass


class MyFloat(float):
    pass


class MyStr(str):
    def __eq__(self, other):
        return str.__eq__(self, other)

    __hash__ = str.__hash__


class MyList(list):
    pass


class MyTuple(tuple):
    pass


class MyDict(dict):
    def __missing__(self, key):
        if isinstance(key, int) and key < 0:
            raise LookupError('no negative keys: %r' % (key,))
        return ('missing', key)

    def __contains__(self, key):
        return key == 'always' or dict.__contains__(self, key)


class Num(Base):
    """A number implemented in Python."""
    __slots__ = ('v',)

    def __init__(self, v):
        self.v = v

    def __repr__(self):
        return 'Num(%r)' % (self.v,)

    def __add__(self, other):
        return Num(self.v + getattr(other, 'v', other))

    __radd__ = __add__

    def __mul__(self, other):
        return Num(self.v * getattr(other, 'v', other))

    def __lt__(self, other):
        return self.v < getattr(other, 'v', other)

    def __eq__(self, other):
        return self.v == getattr(other, 'v', other)

    def __hash__(self):
        return hash(self.v)

    def __index__(self):
        return int(self.v)


class Seq(Base):
    """A container implemented in Python (BINARY_SUBSCR_GETITEM runs __getitem__ as a frame)."""
    __slots__ = ('v',)

    def __init__(self, v):
        self.v = v

    def __getitem__(self, key):
        if isinstance(key, int) and not 0 <= key < 3:
            raise IndexError('Seq index %r' % (key,))
        return ('Seq', self.v, key)

    def __len__(self):
        return 3

    def __contains__(self, item):
        return item == self.v


class Bad(Base):
    """Every special method raises: exceptions from inside specialized operations."""
    __slots__ = ('v',)

    def __init__(self, v):
        self.v = v

    def __repr__(self):
        return 'Bad(%r)' % (self.v,)

    def refuse(self, *args):
        raise ValueError('Bad(%r) refuses' % (self.v,))

    __add__ = __radd__ = __sub__ = __mul__ = __lt__ = __eq__ = __hash__ = refuse
    __index__ = __len__ = __iter__ = __getitem__ = __setitem__ = __contains__ = refuse
    __bool__ = __call__ = __getattr__ = refuse
'''.replace("@RECURSION_SUFFIXES@", repr(RECURSION_SUFFIXES))

MIN_CHUNKS, MAX_CHUNKS = 4, 6


@dataclass(frozen=True)
class Program:
    """A program to run: a name for reports and for compile(), and its source text."""
    name: str
    source: str


def generate(seed):
    """The program of a seed."""
    rng = random.Random(seed)
    chunks = []
    for index in range(rng.randint(MIN_CHUNKS, MAX_CHUNKS)):
        family = rng.choice(scenarios.FAMILIES)
        chunks.append(family(rng, "c%d" % index))
    header = "# quicken fuzz program, seed %d\n" % seed
    source = header + PRELUDE + "".join("\n\n" + chunk for chunk in chunks)
    return Program(name="seed %d" % seed, source=source)
