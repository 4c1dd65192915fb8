"""A small program for the explain test (tests/check_explain.py): an attribute load that
specializes, a remainder that never can (int % float), and locals that quickening fuses."""


class Point:
    def __init__(self, x, y):
        self.x = x
        self.y = y


def norm1(p):
    return p.x + p.y


def remainders(n):
    total = 0
    for i in range(n):
        total += i % 7.0
    return total


def main():
    s = 0
    for i in range(200):
        s += norm1(Point(i, 2 * i))
    print(s, remainders(500))


if __name__ == "__main__":
    main()
