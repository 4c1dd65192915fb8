"""Calls into C: builtins (len, isinstance, abs, min, max, divmod, ord, chr, str, int)
and methods of built-in types (list.append, dict.get, str.upper, str.startswith).

A stream of mixed values is classified and summarised.  The check recomputes
every figure with a second implementation that avoids the builtins under test.
"""

WALL_SCALE = 12
INSTRUCTIONS_SCALE = 1

ITEMS_PER_SCALE = 40_000


def make_items(count):
    items = []
    for i in range(count):
        kind = i % 4
        if kind == 0:
            items.append(i * 7 - count * 3)
        elif kind == 1:
            items.append("w" + str(i % 97) * (i % 5))
        elif kind == 2:
            items.append((i % 11, i % 7, i % 5))
        else:
            items.append(float(i) / 8)
    return items


def run(scale):
    items = make_items(ITEMS_PER_SCALE * scale)
    counts = {}
    magnitudes = []
    upper_letters = 0
    spreads = 0
    remainders = 0
    rounded = 0
    for item in items:
        name = type(item).__name__
        counts[name] = counts.get(name, 0) + 1
        if isinstance(item, int):
            magnitudes.append(abs(item))
            remainders += divmod(item, 7)[1]
        elif isinstance(item, str):
            if item.startswith("w1"):
                upper_letters += len(item.upper())
            upper_letters += ord(max(item)) - ord(min(item))
        elif isinstance(item, tuple):
            spreads += max(item) - min(item) + len(item)
        else:
            rounded += int(item) + len(str(int(item)))
    return counts, sum(magnitudes), upper_letters, spreads, remainders, rounded


def check(result, scale):
    items = make_items(ITEMS_PER_SCALE * scale)
    counts = {"int": 0, "str": 0, "tuple": 0, "float": 0}
    magnitude = upper = spreads = remainders = rounded = 0
    for item in items:
        if type(item) is int:
            counts["int"] += 1
            magnitude += item if item >= 0 else -item
            remainders += item - 7 * (item // 7)
        elif type(item) is str:
            counts["str"] += 1
            codes = sorted(item.encode())
            if item[:2] == "w1":
                upper += sum(1 for _ in item)
            upper += codes[-1] - codes[0]
        elif type(item) is tuple:
            counts["tuple"] += 1
            ordered = sorted(item)
            spreads += ordered[-1] - ordered[0] + 3
        else:
            counts["float"] += 1
            whole = item // 1
            rounded += whole + len("%d" % whole)
    expected = ({k: v for k, v in counts.items() if v}, magnitude, upper, spreads, remainders, rounded)
    assert result == expected, (result, expected)
