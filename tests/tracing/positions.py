# The position a frame shows (traceback lines, the instruction at tb_lasti, f_lineno, the lines
# tracemalloc records) must be Debian python3.11's, though the generated interpreter stores it
# only where something can observe it (docs/dsl.md 4.7): an error in the second part of a
# superinstruction (upstream reports the first part's position), an unbound cell, f_lineno
# read by code a finalizer runs, allocations of ints and floats in a loop.
import dis
import sys
import tracemalloc


def where(error):
    tb = error.__traceback__
    while tb.tb_next is not None:
        tb = tb.tb_next
    code = tb.tb_frame.f_code
    return "%s: %s (line +%d, %s)" % (type(error).__name__, error,
                                      tb.tb_lineno - code.co_firstlineno,
                                      dis.opname[code.co_code[tb.tb_lasti]])


def second_part_unbound(n, fail):
    total = 0
    for i in range(n):
        x = i
        y = 2
        if fail and i == n - 1:
            del y
        z = (x +
             y)   # LOAD_FAST__LOAD_FAST: y is its second part
        total += z
    return total


def unbound_cell(n, fail):
    results = []
    for i in range(n):
        c = i

        def inner():
            return c
        results.append(inner())
        if fail and i == n - 2:
            del c
            results.append(c)
    return results


class Reporter:
    lines = []

    def __del__(self):
        frame = sys._getframe(1)
        Reporter.lines.append((frame.f_code.co_name, frame.f_lineno - frame.f_code.co_firstlineno))


def lines_seen_by_finalizers(n):
    keep = None
    total = 0
    for i in range(n):
        keep = Reporter()
        total = total + i
        total = total * 1
    return total


def allocations(n):
    floats = []
    for i in range(n):
        x = i * 1.5
        y = x + 0.25
        floats.append(y - i)
    ints = [i + 1000000 for i in range(n)]
    return floats, ints


def attempt(function, *args):
    try:
        return function(*args)
    except Exception as error:
        return where(error)


def main():
    for _ in range(30):  # specialized by now
        second_part_unbound(3, False)
        unbound_cell(3, False)
    print(attempt(second_part_unbound, 50, True))
    print(attempt(unbound_cell, 50, True))
    print(lines_seen_by_finalizers(20), Reporter.lines[-3:])
    allocations(50)
    tracemalloc.start()
    kept = allocations(2000)
    snapshot = tracemalloc.take_snapshot()
    tracemalloc.stop()
    first = allocations.__code__.co_firstlineno
    mine = [stat for stat in snapshot.statistics("lineno")
            if stat.traceback[0].filename == allocations.__code__.co_filename]
    print(len(kept[0]), sorted(stat.traceback[0].lineno - first for stat in mine
                               if stat.count > 100))


main()
