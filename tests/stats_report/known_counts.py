"""Known counts for the statistics report (tests/check_stats_report.py).

run(scale) makes CALLS * scale calls of each function below, one function after the other, so
that 3.11's quickening rules fix every count of the LOAD_ATTR, BINARY_OP and COMPARE_OP
families: an attribute load that specializes at its function's 8th call, an addition that
specializes for ints, meets floats, deoptimizes after 53 misses and specializes again for
floats, and a comparison that never specializes (nothing jumps on its result, and no member
takes tuples). The expected
figures and how they follow from the rules are in tests/check_stats_report.py.

It follows the benchmark contract (docs/benchmarks.md), so that `python3 -m workbench stats
--suite tests/stats_report` counts one call of run(scale) alone; run as a script it makes
that call and the check.
"""

WALL_SCALE = 1
INSTRUCTIONS_SCALE = 1
CALLS = 100


class Point:
    def __init__(self, value):
        self.value = value


POINT = None


def read():
    # LOAD_ATTR after a LOAD_GLOBAL: after a LOAD_FAST, the superinstruction LOAD_FAST__LOAD_ATTR
    # would run the member's executions under its own opcode.
    return POINT.value


def add(a, b):
    return a + b            # BINARY_OP (+)


def below(a, b):
    return a < b            # COMPARE_OP on tuples, followed by no jump


def run(scale):
    # Nothing here but calls: no other LOAD_ATTR, BINARY_OP or COMPARE_OP is executed.
    global POINT
    POINT = Point(3)
    for _ in range(scale):
        for _ in range(CALLS):
            value = read()
    for _ in range(scale):
        for _ in range(CALLS):
            whole = add(1, 2)
    for _ in range(scale):
        for _ in range(CALLS):
            real = add(0.5, 0.25)
    for _ in range(scale):
        for _ in range(CALLS):
            less = below((1,), (2,))
    return value, whole, real, less


def check(result, scale):
    # `in` (CONTAINS_OP) rather than `==`: no COMPARE_OP outside below().
    assert result in ((3, 3, 0.75, True),), result


if __name__ == "__main__":
    check(run(1), 1)
