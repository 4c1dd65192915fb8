"""Generators: pipelines of generator functions, generator expressions, yield from over
a recursive structure, and generators driven with send().

A lazy pipeline filters and windows a number stream, an in-order walk of a
binary search tree uses nested `yield from`, and a running-average coroutine is
fed with send().  The check recomputes everything eagerly with lists.
"""

WALL_SCALE = 12
INSTRUCTIONS_SCALE = 1

STREAM_PER_SCALE = 25_000
TREE_KEYS_PER_SCALE = 5_000


def numbers(count):
    value = 7
    for _ in range(count):
        value = value * 1103515245 % 2147483648
        yield value >> 16


def keep_odd(stream):
    for x in stream:
        if x % 2:
            yield x


def window_sums(stream, width):
    window = []
    total = 0
    for x in stream:
        window.append(x)
        total += x
        if len(window) > width:
            total -= window.pop(0)
        if len(window) == width:
            yield total


def insert(node, key):
    if node is None:
        return [key, None, None]
    side = 1 if key < node[0] else 2
    node[side] = insert(node[side], key)
    return node


def in_order(node):
    if node is not None:
        yield from in_order(node[1])
        yield node[0]
        yield from in_order(node[2])


def averager():
    total = 0
    count = 0
    average = None
    while True:
        value = yield average
        total += value
        count += 1
        average = total / count


def run(scale):
    sums = list(window_sums(keep_odd(numbers(STREAM_PER_SCALE * scale)), 5))
    largest = max(x * x % 1000 for x in numbers(STREAM_PER_SCALE * scale))
    tree = None
    for key in numbers(TREE_KEYS_PER_SCALE * scale):
        tree = insert(tree, key)
    walk = list(in_order(tree))
    running = averager()
    next(running)
    averages = [running.send(x) for x in numbers(STREAM_PER_SCALE * scale)]
    return sums, largest, walk, averages[-1]


def check(result, scale):
    sums, largest, walk, last_average = result
    stream = []
    value = 7
    for _ in range(STREAM_PER_SCALE * scale):
        value = value * 1103515245 % 2147483648
        stream.append(value >> 16)
    odd = [x for x in stream if x % 2]
    assert sums == [sum(odd[i:i + 5]) for i in range(len(odd) - 4)]
    assert largest == max(x * x % 1000 for x in stream)
    assert walk == sorted(stream[: TREE_KEYS_PER_SCALE * scale])  # duplicates go right
    assert abs(last_average - sum(stream) / len(stream)) < 1e-9 * last_average
