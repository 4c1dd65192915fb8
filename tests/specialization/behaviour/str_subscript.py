# BINARY_SUBSCR_STR_INT: str[int] for an exact str and a small non-negative int.

class S(str):
    def __getitem__(self, i):
        return "sub:" + str.__getitem__(self, i)


class I(int):
    pass


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


texts = ["abc", "h\xe9llo", "\u20ac\u4e2d", "\U0001f600x", "", "a" * 300, S("sub")]
indexes = [0, 1, 2, -1, 3, 2 ** 40, -2 ** 40, True, I(1), 2 ** 30, 299]

results = []
for round in range(3):
    for t in texts:
        # a hot loop first: specialized on str and small ints
        for _ in range(40):
            t[0] if t else None
        results.append(index_all(t, indexes))
print(results[:7])
print(results[-7:])

# The specialized site sees other containers after specializing.
def first(x):
    return x[0]

seen = []
for value in ["xyz"] * 50 + [[1, 2], (3,), {0: "zero"}, b"by", bytearray(b"ba"), S("qq"), "", "last"]:
    try:
        seen.append(show(first(value)))
    except Exception as e:
        seen.append(show(e))
print(seen[-9:])

# Characters of every width, all positions.
wide = "a\xff\u0100\uffff\U00010000\U0010ffff"
print([ord(wide[i]) for i in range(len(wide))] * 2)
print(all(wide[i] is wide[i] for i in range(2)))  # Latin-1 characters are shared strings
