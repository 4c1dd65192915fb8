# Traceback lines, which traceback.c.patch reads from the code's line array (built at the code
# object's second traceback entry) instead of walking its line table: long functions raising at many
# places, again and again; lines past 32,767 (the array's wide entries); code whose lines come
# from a compile() with line gaps; tb_lineno, tb_lasti and the traceback module's view of them.
import dis
import sys
import traceback


def where(error):
    tb = error.__traceback__
    out = []
    while tb is not None:
        code = tb.tb_frame.f_code
        # the instruction at tb_lasti by its name: offsets depend on the cache layout
        out.append((code.co_name, tb.tb_lineno - code.co_firstlineno,
                    dis.opname[code.co_code[tb.tb_lasti]]))
        tb = tb.tb_next
    return out


def build(name, lines, first_line=1, gap=1):
    """A function of `lines` statements, `gap` lines apart, the k-th raising when k == which."""
    body = []
    for k in range(lines):
        body.append("    if which == %d: raise KeyError(%d)" % (k, k))
        body.extend([""] * (gap - 1))
    source = "\n" * (first_line - 1) + "def %s(which):\n" % name + "\n".join(body) + "\n    return which\n"
    namespace = {}
    exec(compile(source, "<generated %s>" % name, "exec"), namespace)
    return namespace[name]


long_function = build("long_function", 400)
far_lines = build("far_lines", 50, first_line=40000, gap=7)
results = []
for round in range(3):
    for f, count in ((long_function, 400), (far_lines, 50)):
        for which in (count - 1, 0, count // 2, count - 2, 1):
            try:
                f(which)
            except KeyError as error:
                results.append(where(error)[-1])


def outer(n):
    return inner(n) + 1


def inner(n):
    values = {}
    for k in range(n):
        values[k] = k
    return values[n]


for n in range(5):
    try:
        outer(n)
    except KeyError as error:
        results.append(where(error))
        results.append([(frame.name, frame.lineno - frame.lineno + 0, frame.line)
                        for frame in traceback.extract_tb(error.__traceback__)])
print(results[:12])
print(results[12:])

# f_lineno of a frame whose code already has its line array, read while it runs
def running():
    return sys._getframe().f_lineno - running.__code__.co_firstlineno


try:
    running.__code__  # no traceback yet
    print(running())
    raise ValueError
except ValueError:
    pass
print(running())
