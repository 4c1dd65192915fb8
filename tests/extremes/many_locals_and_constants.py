# A function with 70,000 locals and 70,000 constants: LOAD_FAST, STORE_FAST and LOAD_CONST
# behind one and two EXTENDED_ARGs, in loops long enough to quicken.
N = 70_000
lines = ["def f(k):", "    total = 0", "    for _ in range(k):"]
lines += [f"        v{i} = {i * 3 + 1}" for i in range(N)]
lines += ["        total += " + " + ".join(f"v{i}" for i in range(0, N, 997)),
          f"        total += v{N - 1} - v0"]
lines += ["    return total"]
namespace = {}
exec(compile("\n".join(lines) + "\n", "<many locals>", "exec"), namespace)
f = namespace["f"]
print("locals", f.__code__.co_nlocals, "consts", len(f.__code__.co_consts))
print("result", f(12))
del f, namespace, lines
