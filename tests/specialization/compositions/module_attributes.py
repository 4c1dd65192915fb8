# LOAD_ATTR_MODULE and LOAD_METHOD_MODULE, compositions with a symbolic stack whose second part
# (_LOAD_MODULE_ENTRY) guards that the cached entry is set: module attributes read and called
# (specialized after the first runs), then changed, deleted, re-added and shadowed by a module
# __getattr__, so that each guard misses and the generic instruction raises or answers;
# the results and the errors (type, message, line) must be Debian python3.11's.
import dis
import sys
import types


def where(error):
    tb = error.__traceback__
    while tb.tb_next is not None:
        tb = tb.tb_next
    return "%s: %s (line +%d)" % (type(error).__name__, error,
                                  tb.tb_lineno - tb.tb_frame.f_code.co_firstlineno)


def read(m, n):
    total = 0
    for _ in range(n):
        total += m.value
    return total


def call(m, n):
    total = 0
    for _ in range(n):
        total += m.double(3)
    return total


def attempt(function, *args):
    try:
        return function(*args)
    except Exception as error:  # what the generic instruction raises after the miss
        return where(error)


def forms():
    """The attribute instructions' current forms (the same names on Debian's python3.11)."""
    return [i.opname for f in (read, call) for i in dis.get_instructions(f, adaptive=True)
            if i.opname.startswith(("LOAD_ATTR", "LOAD_METHOD"))]


def main():
    m = types.ModuleType("m")
    m.value = 1
    m.double = lambda x: 2 * x
    results = [read(m, 20), call(m, 20), forms()]
    m.value = 5                      # same keys: the entry changes
    m.double = lambda x: 3 * x
    results += [read(m, 3), call(m, 3)]
    del m.value                      # the entry is removed
    del m.double
    results += [attempt(read, m, 3), attempt(call, m, 3)]
    m.value = 7                      # added again
    m.double = lambda x: 4 * x
    results += [read(m, 3), call(m, 3)]
    for k in range(40):              # more keys: another keys version
        setattr(m, "extra%d" % k, k)
    results += [read(m, 3), call(m, 3)]
    del m.value
    m.__getattr__ = lambda name: "from __getattr__ " + name
    results += [attempt(read, m, 2), attempt(call, m, 2)]
    other = types.ModuleType("other")  # another module at the same sites
    other.value = 100
    other.double = lambda x: x
    results += [read(other, 3), call(other, 3), read(sys, 0)]
    results += [attempt(read, 42, 2), attempt(call, None, 2)]  # not a module at all
    results.append(forms())
    for r in results:
        print(r)


main()
