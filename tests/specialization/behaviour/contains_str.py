# member: CONTAINS_OP_STR
# `in` / `not in` on an exact str, specialized, then: substrings of every width and length
# (empty, longer than the text, at the ends, absent), left operands that are not str (the
# TypeError) or are str subclasses, and at the same site str subclasses and other containers.
import dis


def show(value):
    return "!" + type(value).__name__ + ": " + str(value) if isinstance(value, BaseException) \
        else repr(value)


def where(error):
    """An exception and where its innermost frame stopped: the line counted from the function's
    first line and the instruction there (its generic name)."""
    tb = error.__traceback__
    while tb.tb_next is not None:
        tb = tb.tb_next
    code = tb.tb_frame.f_code
    return "%s (line +%d, %s)" % (show(error), tb.tb_lineno - code.co_firstlineno,
                                  dis.opname[code.co_code[tb.tb_lasti]])


def test(x, s):
    try:
        return x in s, x not in s
    except Exception as error:
        return where(error)


def warm(s):
    for _ in range(40):
        test("a", s)


class Sub(str):
    pass


class Overrides(str):
    def __contains__(self, sub):
        return sub == "magic"


class Eq:
    def __eq__(self, other):
        return True


texts = ["", "a", "hello world", "h\xe9llo", "\u20ac\u4e2d\u6587", "\U0001f600 smile", "a\0b",
         "x" * 1000 + "needle" + "y" * 1000, "\ud800", Sub("sub text")]
subs = ["", "a", "o w", "\xe9", "\u4e2d", "\U0001f600", "\0", "needle", "needlf", "x" * 1001,
        "\ud800", "hello world!", Sub("a"), Sub(""), 1, None, b"a", ["a"], Eq(), "magic"]

# Specialized on a str, then every kind of left operand, three times.
rows = []
for round in range(3):
    out = []
    for text in texts:
        warm(text if type(text) is str else "a")
        out.append([test(sub, text) for sub in subs])
    rows.append(out)
for row in rows[0]:
    print(row)
print(rows[1] == rows[0] == rows[2])

# The same site after specializing: subclasses and other containers.
others = [Sub("abc"), Overrides("abc"), ["a"], ("a",), {"a"}, {"a": 1}, b"abc", bytearray(b"a"),
          1, None]
for round in range(3):
    out = []
    for other in others:
        warm("abc")
        out.append((type(other).__name__, test("a", other), test(b"a", other),
                    test("magic", other)))
    print(out)

# Many sites, many calls: counts only.
pangram = "the quick brown fox jumps over the lazy dog"
print(sum(ch in pangram for ch in "abcdefghijklmnopqrstuvwxyz" * 20),
      sum(pangram[i:i + 3] not in pangram[::-1] for i in range(len(pangram))))
