# Huge unpacking: UNPACK_SEQUENCE into 100,000 names (and its specialized forms in a loop),
# UNPACK_EX around a million items, BUILD_TUPLE from a million items on the stack.
N = 100_000
names = [f"x{i}" for i in range(N)]
source = (f"def unpack(seq):\n    {', '.join(names)} = seq\n    return x0, x{N // 2}, x{N - 1}\n"
          "def stack(x):\n    return (" + "x, " * 1_000_000 + ")\n")
namespace = {}
exec(compile(source, "<unpacking>", "exec"), namespace)
unpack, stack = namespace["unpack"], namespace["stack"]
values = tuple(range(N))
as_list = list(values)
for i in range(20):
    result = unpack(values if i % 3 else as_list)
print("unpack", result)
try:
    unpack(values[:-1])
except ValueError as e:
    print("short", e)
first, *middle, last = range(1_000_000)
print("unpack_ex", first, len(middle), last, middle[500_000])
big = stack(7)
print("stack", len(big), big[0], big[-1])
del names, source, namespace, unpack, stack, values, as_list, middle, big
