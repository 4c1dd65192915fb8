# Calls with 100,000 arguments: written out in the source (PRECALL/CALL with an argument that
# needs two EXTENDED_ARGs), spread from a sequence, to Python functions and to builtins.
N = 100_000


def count(*args):
    return len(args), args[0], args[-1], sum(args)


def fixed(a, b, c):
    return a + b + c


source = "def call_out(g):\n    return g(" + ", ".join(str(i) for i in range(N)) + ")\n"
namespace = {}
exec(compile(source, "<many arguments>", "exec"), namespace)
call_out = namespace["call_out"]
for _ in range(10):
    literal = call_out(count)
print("literal", literal)
print("literal builtin", call_out(max), call_out(min))
print("spread", count(*range(N)))
print("spread builtin", max(*range(N)))
print("keywords", len(dict(**{f"k{i}": i for i in range(N)})))
try:
    fixed(*range(N))
except TypeError as e:
    print("too many", e)
del call_out, namespace, source
