"""Exceptions: raising and catching built-in and user-defined exceptions, handlers several
frames up, try/finally, exception chaining, and with-statement context managers.

Inputs are generated so that the number of failures of each kind is known in
advance; the check compares every counter with its closed form.
"""

WALL_SCALE = 12
INSTRUCTIONS_SCALE = 1

ITEMS_PER_SCALE = 25_000


class ValidationError(Exception):
    def __init__(self, field, value):
        super().__init__(field)
        self.field = field
        self.value = value


class Budget:
    """Context manager that counts entries, exits and the exceptions passing through."""

    def __init__(self):
        self.entered = 0
        self.exited = 0
        self.seen = 0

    def __enter__(self):
        self.entered += 1
        return self

    def __exit__(self, kind, value, traceback):
        self.exited += 1
        if kind is not None:
            self.seen += 1
        return kind is KeyError  # swallow KeyError only


def validate(value, depth):
    if depth:
        return validate(value, depth - 1)
    if value % 7 == 0:
        raise ValidationError("multiple of seven", value)
    return value


def parse_all(texts):
    good = 0
    bad = 0
    for text in texts:
        try:
            good += int(text)
        except ValueError:
            bad += 1
    return good, bad


def run(scale):
    n = ITEMS_PER_SCALE * scale
    rejected = 0
    accepted = 0
    cleanups = 0
    chained = 0
    for i in range(n):
        try:
            try:
                accepted += validate(i, i % 4)
            finally:
                cleanups += 1
        except ValidationError as error:
            rejected += error.value
            if error.value % 5 == 0:
                try:
                    raise LookupError("chained") from error
                except LookupError as outer:
                    chained += outer.__cause__ is error
    texts = [str(i) if i % 3 else "x%d" % i for i in range(n)]
    parsed, unparsable = parse_all(texts)
    budget = Budget()
    table = {i: i for i in range(0, n, 2)}
    found = 0
    for i in range(n):
        with budget:
            found += table[i]
    return rejected, accepted, cleanups, chained, parsed, unparsable, found, budget.entered, budget.seen


def check(result, scale):
    n = ITEMS_PER_SCALE * scale
    sevens = range(0, n, 7)
    expected = (
        sum(sevens),
        n * (n - 1) // 2 - sum(sevens),
        n,
        len(range(0, n, 35)),
        sum(i for i in range(n) if i % 3),
        len(range(0, n, 3)),
        sum(range(0, n, 2)),
        n,
        n // 2,
    )
    assert result == expected, (result, expected)
