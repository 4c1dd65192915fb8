# cython: language_level=3
# A Cython extension for tests/check_abi.py. Cython's generated C reaches further into the
# interpreter than hand-written extensions do: the digits of ints, the items of lists, the kind
# and data of strings, the thread state's exception stack (its own generators), frames and code
# objects it makes for tracebacks (internal/pycore_frame.h).

def fail(message):
    if not message:
        return None
    # The traceback's Cython frame names this file and this line (tests/abi/exercise.py).
    raise ValueError(message)


cdef class Point:
    cdef public double x, y
    cdef public object tag
    cdef readonly long moves

    def __init__(self, double x, double y, tag=None):
        self.x = x
        self.y = y
        self.tag = tag

    cpdef double norm2(self):
        return self.x * self.x + self.y * self.y

    def move(self, double dx, double dy=0.0, *, scale=1):
        self.x += dx * scale
        self.y += dy * scale
        self.moves += 1
        return self

    @property
    def pair(self):
        return (self.x, self.y)

    def __iter__(self):
        yield self.x
        yield self.y

    def __add__(self, other):
        if isinstance(self, Point) and isinstance(other, Point):
            return Point(self.x + other.x, self.y + other.y)
        return NotImplemented

    def __eq__(self, other):
        if not isinstance(other, Point):
            return NotImplemented
        return self.pair == (<Point>other).pair

    def __hash__(self):
        return hash(self.pair)

    def __repr__(self):
        return f"Point({self.x!r}, {self.y!r}, tag={self.tag!r})"


def call_back(f, *args, **kwargs):
    return f(*args, **kwargs)


def catch(f, exc_type):
    try:
        f()
    except exc_type as e:
        return e
    return None


cleanups = []

def with_finally(f, label):
    try:
        return f()
    finally:
        cleanups.append(label)


def with_context(manager, value):
    with manager as entered:
        return (entered, value)


def sum_iter(iterable):
    cdef long total = 0
    for item in iterable:
        total += item
    return total


def countdown(long n):
    while n > 0:
        received = yield n
        if received is not None:
            n = received
        else:
            n -= 1
    return "done"


def delegate(iterable):
    result = yield from iterable
    return result


def roundtrip_long(long value):
    # A C long from a Python int and back (Cython reads the int's digits directly).
    return value


def big_arith(n):
    # Python ints of any size, through Cython's fast paths for small ones.
    return n * 3 + 1, n // 7, -n, n << 65


def list_ops(int n):
    cdef list items = []
    for i in range(n):
        items.append(i * i)
    return items[n // 2], len(items), items[-1], items[1:4]


def dict_ops(d):
    return sorted((k, v) for k, v in d.items() if v), {v: k for k, v in d.items()}


def string_ops(str s):
    # ASCII, 2-byte and 4-byte strings; Cython reads their kind and data.
    return len(s), s.upper(), s[::-1], f"[{s}:{len(s):03d}]", [ord(c) for c in s[:3]]


def make_closure(base):
    def add(x):
        return base + x
    return add
