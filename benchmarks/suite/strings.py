"""String building and slicing: f-strings, concatenation with +=, str.join, slicing,
reversal, find/replace, split, and string comparisons.

Records are rendered as text lines, parsed back, run-length encoded and
decoded.  The round trips and an itertools.groupby count serve as the check.
"""

import itertools

WALL_SCALE = 12
INSTRUCTIONS_SCALE = 1

RECORDS_PER_SCALE = 5_500


def render(index):
    name = "item" + str(index % 37)
    return f"{index:06d};{name};{index * 3 % 1000 / 10:.1f};{'yes' if index % 3 else 'no'}"


def parse(line):
    number, name, price, flag = line.split(";")
    return int(number), name, float(price), flag == "yes"


def run_length_encode(text):
    pieces = []
    i = 0
    while i < len(text):
        j = i
        while j < len(text) and text[j] == text[i]:
            j += 1
        pieces.append(f"{j - i}{text[i]}")
        i = j
    return "".join(pieces)


def run_length_decode(encoded):
    out = ""
    count = 0
    for ch in encoded:
        if "0" <= ch <= "9":
            count = count * 10 + ord(ch) - 48
        else:
            out += ch * count
            count = 0
    return out


def run(scale):
    lines = [render(i) for i in range(RECORDS_PER_SCALE * scale)]
    document = "\n".join(lines)
    parsed = [parse(line) for line in document.split("\n")]
    palindromes = 0
    reversed_total = 0
    for line in lines:
        key = line[:6]
        if key == key[::-1]:
            palindromes += 1
        reversed_total += line[::-1].find(";")
    shouting = document.replace("item", "ITEM").upper()
    squeezed = "".join(line[7:11] + "aaab" * (len(line) % 4) for line in lines)
    encoded = run_length_encode(squeezed)
    decoded = run_length_decode(encoded)
    return lines, parsed, palindromes, reversed_total, shouting.count("ITEM"), squeezed, encoded, decoded


def check(result, scale):
    lines, parsed, palindromes, reversed_total, shouted, squeezed, encoded, decoded = result
    count = RECORDS_PER_SCALE * scale
    assert len(lines) == len(parsed) == count
    for i, (number, name, price, flag) in enumerate(parsed):
        assert number == i and name == "item%d" % (i % 37), (i, number, name)
        assert abs(price - (i * 3 % 1000) / 10) < 1e-9 and flag == (i % 3 != 0)
    digits = [[i // 10**k % 10 for k in range(6)] for i in range(count)]
    assert palindromes == sum(1 for d in digits if d[0] == d[5] and d[1] == d[4] and d[2] == d[3])
    assert reversed_total == sum(len(line) - 1 - line.rindex(";") for line in lines)
    assert shouted == count
    assert decoded == squeezed, "run-length round trip failed"
    runs = sum(1 for ch in encoded if not ch.isdigit())
    assert runs == sum(1 for _ in itertools.groupby(squeezed)), "wrong number of runs"
