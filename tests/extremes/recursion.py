# Recursion up to the limit, through specialized calls, and past it.
import sys


def down(n):
    return n if n == 0 else down(n - 1) + 1


def depth_reached():
    depth = 0

    def probe():
        nonlocal depth
        depth += 1
        probe()
    try:
        probe()
    except RecursionError as e:
        return depth, str(e)


old = sys.getrecursionlimit()
try:
    sys.setrecursionlimit(120_000)
    print("down", down(100_000))
    print("limit", depth_reached())
    sys.setrecursionlimit(1_000)
    print("limit", depth_reached())
finally:
    sys.setrecursionlimit(old)
