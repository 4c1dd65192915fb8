# member: BINARY_SUBSCR_STR_INT
# `s[i]` for an exact str and an exact int, specialized, then: indexes out of range, negative,
# of more than one digit, bool and int subclasses, zeros made in several ways; str subclasses
# and other containers at the same site; characters of every width (the one-character string
# is shared for Latin-1 characters only).

class S(str):
    def __getitem__(self, i):
        return "sub:" + str.__getitem__(self, i)


class I(int):
    pass


class Index:
    def __index__(self):
        return 1


def show(value):
    return "!" + type(value).__name__ + ": " + str(value) if isinstance(value, Exception) \
        else repr(value)


def index_all(s, indexes):
    out = []
    for i in indexes:
        try:
            out.append(s[i])
        except Exception as e:
            out.append(show(e))
    return out


zeros = [0, 2 ** 100 - 2 ** 100, (1 << 100) >> 200, int("0"), int.from_bytes(b"\0\0", "big"),
         -0, 0 * 2 ** 90, abs(-0), 2 ** 64 % 2 ** 32, int(0.0), divmod(5, 7)[0], 10 // 11,
         int("-0"), ~-1, 7 & 8, True - True]
texts = ["abc", "h\xe9llo", "\u20ac\u4e2d", "\U0001f600x", "", "a" * 300, S("sub"), "\0"]
indexes = [0, 1, 2, -1, 3, 2 ** 30 - 1, 2 ** 30, 2 ** 40, -2 ** 40, True, False, I(1), 299, 300,
           1.0, "1", None, slice(1, 2), Index()] + zeros

results = []
for round in range(3):
    for t in texts:
        # a hot loop first: specialized on str and small ints
        for _ in range(40):
            t[0] if t else None
        results.append(index_all(t, indexes))
for row in results[:len(texts)]:
    print(row)
print(results[-len(texts):] == results[:len(texts)])


# The specialized site sees other containers after specializing.
def first(x):
    return x[0]


seen = []
for value in ["xyz"] * 50 + [[1, 2], (3,), {0: "zero"}, b"by", bytearray(b"ba"), S("qq"), "",
                             "last", range(4, 5), memoryview(b"m"), {1: 1}, 5]:
    try:
        seen.append(show(first(value)))
    except Exception as e:
        seen.append(show(e))
print(seen[-12:])

# Characters of every width, all positions; shared one-character strings for Latin-1 only.
wide = "a\xff\u0100\uffff\U00010000\U0010ffff"
print([ord(wide[i]) for i in range(len(wide))] * 2)
print([wide[i] is wide[i] for i in range(len(wide))])
print([wide[i] is chr(ord(wide[i])) for i in range(len(wide))])
