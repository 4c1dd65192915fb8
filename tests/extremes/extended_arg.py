# Long chains of EXTENDED_ARG: jumps over more than 65,536 code units forward and back, and
# specialized instructions (LOAD_ATTR, LOAD_GLOBAL, LOAD_METHOD, STORE_ATTR) whose name index
# needs one.
BODY = 40_000
lines = ["def jumps(k):", "    total = 0", "    for i in range(k):", "        if i % 2:"]
lines += [f"            total += {j}" for j in range(BODY)]
lines += ["        else:", "            total -= i"]
lines += ["    return total"]
namespace = {}
exec(compile("\n".join(lines) + "\n", "<jumps>", "exec"), namespace)
print("jumps", namespace["jumps"](9))


class Box:
    pass


NAMES = 1_000
source = ["def attributes(box, k):", "    total = 0"]
source += [f"    box.a{i} = {i}" for i in range(NAMES)]  # 1,000 names before the hot ones
source += ["    for _ in range(k):",
           "        box.hot = box.a999 + len(box.__dict__)",
           "        total += box.hot + g999",
           "        total += box.__class__.__name__.count('o')"]
source += ["    return total"]
glob = {f"g{i}": i for i in range(NAMES)}
exec(compile("\n".join(source) + "\n", "<names>", "exec"), glob)
print("attributes", glob["attributes"](Box(), 100))
del lines, namespace, source, glob
