# LOAD_ATTR_WITH_HINT and STORE_ATTR_WITH_HINT on instances whose attributes live in a dict:
# a split dict (the instance's values turned into its __dict__ by reading __dict__, sharing
# the class's keys: its values are kept apart from the keys, which 3.11.2's members did not
# read, so they missed on every execution) and a combined one (a __dict__ assigned, or keys
# the class does not share). Then at the same sites: an attribute deleted, the dict replaced,
# the class changed, values whose types the garbage collector tracks, the dict's order and
# contents afterwards.
import gc


class Point:
    def __init__(self, x, y):
        self.x = x
        self.y = y
        self.z = 0


def materialized(n):
    p = Point(1, 2)
    p.__dict__                                 # split: the values move into a dict
    total = 0
    for i in range(n):
        p.x = i                                # STORE_ATTR_WITH_HINT
        p.y = p.x + 1                          # LOAD_ATTR_WITH_HINT, then a store
        total += p.x * p.y
    return total, vars(p), list(vars(p))


def combined(n):
    p = Point(1, 2)
    p.__dict__ = {"y": 5, "x": 4, "w": 3}      # not the class's keys
    total = 0
    for i in range(n):
        p.x = i
        p.y = p.x + 2
        total += p.x * p.y
    return total, vars(p), list(vars(p))


def changes(n):
    out = []
    p = Point(1, 2)
    p.__dict__
    for i in range(n):
        if i == n // 4:
            del p.y                            # the hinted entry deleted
        if i == n // 4 + 3:
            p.y = -1                           # and set again
        if i == n // 2:
            p.__dict__ = {"x": 10, "y": 20}    # a combined dict in its place
        if i == 3 * n // 4:
            Point.extra = 1                    # the class changed (its version)
        p.x = i
        try:
            out.append(p.y)
        except AttributeError as error:
            out.append("AttributeError: %s" % error)
    return out, vars(p)


def tracked(n):
    p = Point(1, 2)
    d = p.__dict__
    states = []
    for i in range(n):
        p.z = i                                # ints: nothing for the collector
        states.append(gc.is_tracked(d))
    p.z = [1, 2]                               # a list: the dict must be tracked
    states.append(gc.is_tracked(d))
    return states[-3:], p.z


for _ in range(3):   # quickened and specialized after the first rounds
    results = (materialized(200), combined(200), changes(200), tracked(50))
for part in results:
    print(part)
