# member: PRECALL_PY_EXACT_ARGS
# Calls of Python functions with exactly their number of positional parameters, made by the
# PRECALL: one site calling many such functions (the member guards the code's shape, not one
# version), method calls and plain calls, closures, cells, generator and coroutine functions,
# defaults not used, recursion to the limit; then every shape the member must leave to the
# generic call: another argument count, keyword-only parameters, `*args` and `**kwargs`,
# code without CO_OPTIMIZED (a function made from an `eval` code object, whose locals are its
# globals), `__code__` replaced after specializing, callables that are no function (a
# builtin, a class, a bound method object, a callable instance), errors raised by the callee
# and where the caller stands meanwhile (its line), tracing and profiling started inside,
# and 29 arguments (the compiler makes a call of more than 30 items a CALL_FUNCTION_EX).
import dis
import sys
import types


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


def call2(f, a, b):
    try:
        return show(f(a, b))
    except Exception as error:
        return where(error)


def add(a, b):
    return a + b


def pair(a, b):
    return (a, b)


def with_defaults(a, b, c=3):
    return (a, b, c)


def captures(a, b):
    def inner():
        return a * b
    return inner()


def counter(a, b):
    yield a
    yield b


async def coro(a, b):
    return a - b


def kwonly(a, b, *, c=5):
    return (a, b, c)


def star(a, b, *rest):
    return (a, b, rest)


def starstar(a, b, **kw):
    return (a, b, sorted(kw))


def one(a):
    return a


def kwrequired(a, b, *, c):
    return (a, b, c)


def zero():
    return "zero"


SITE = """
def site(f, *args):
    try:
        return show(f(%s))
    except Exception as error:
        return where(error)
"""


def new_site(count=2):
    """A function calling its first argument with `count` arguments, with code of its own:
    its call site is quickened and specialized apart from every other's."""
    namespace = {"show": show, "where": where}
    exec(SITE % ", ".join("args[%d]" % i for i in range(count)), namespace)
    return namespace["site"]


def fails(a, b):
    return a // b


def line_of_caller(a, b):
    caller = sys._getframe(1)
    return caller.f_lineno - caller.f_code.co_firstlineno


class Box:
    def __init__(self, value):
        self.value = value

    def scaled(self, factor):
        return self.value * factor

    def __call__(self, a, b):
        return ("called", self.value, a, b)


def closure_maker(k):
    def closure(a, b):
        return a + b + k
    return closure


NOT_OPTIMIZED = types.FunctionType(compile("x * 2", "<eval>", "eval"), {"x": 21})
x = "module x"


def drain(g):
    return list(g)


def run_coro(c):
    try:
        c.send(None)
    except StopIteration as stop:
        return stop.value


def round_():
    out = []
    # One site, many functions of two parameters: all taken by the member.
    for f in (add, pair, with_defaults, captures, closure_maker(1), closure_maker(2), fails,
              line_of_caller, add, pair):
        for i in range(3):
            out.append(call2(f, i + 1, 2))
    # Generators and coroutines made by the member's frame.
    for i in range(10):
        out.append(drain(counter(i, -i)))
        out.append(run_coro(coro(i, 3)))
    # Shapes the member must leave to the generic call, each at a site of its own that the
    # member took first (a site shared by them all would fail, back off and respecialize).
    for f in (one, kwonly, kwrequired, star, starstar, with_defaults, len, max, Box, Box(7),
              Box(3).scaled):
        site = new_site()
        out.append([site(g, 4, 5) for g in (add,) * 10 + (f, f, add)])
    site = new_site(0)
    out.append([site(g) for g in (zero,) * 10 + (NOT_OPTIMIZED, NOT_OPTIMIZED, zero)])
    # Method calls (LOAD_METHOD then PRECALL with `self`).
    box = Box(6)
    for i in range(12):
        out.append(box.scaled(i))
    # `__code__` replaced after specializing: the new code runs; another count, keyword-only
    # parameters, `*args` or no CO_OPTIMIZED deopt.
    for replacement in ((lambda a, b: "new %r" % ((a, b),)), (lambda a: "one"), kwrequired,
                        star, NOT_OPTIMIZED):
        def swapped(a, b):
            return "old"
        site = new_site()
        results = []
        for i in range(12):
            if i == 9:
                swapped.__code__ = replacement.__code__
            results.append(site(swapped, i, 0))
        out.append(results)
    # Errors in the callee, where the caller stands.
    out.append([call2(fails, i, 0) for i in range(10)])
    return out


def deep(n):
    # No compare at the deepest frames: deoptimized (a chaos build), 3.11.2's generic
    # COMPARE_OP checks the recursion depth itself and words its RecursionError otherwise.
    return deep(n - 1) if n else n


def recurse_to_limit():
    try:
        return deep(100000)
    except RecursionError as error:
        return show(error)


events = []


def tracer(frame, event, arg):
    if frame.f_code.co_name in ("traced_callee", "traced_site"):
        events.append((event, frame.f_code.co_name, frame.f_lineno - frame.f_code.co_firstlineno))
    return tracer


def traced_callee(a, b):
    if a == 10:
        sys.settrace(tracer)
    return a + b


def traced_site():
    total = 0
    for i in range(14):
        total += traced_callee(i, 1)
    sys.settrace(None)
    return total


profiled = []


def profiler(frame, event, arg):
    if frame.f_code.co_name in ("profiled_callee", "profiled_site"):
        profiled.append((event, frame.f_code.co_name))


def profiled_callee(a, b):
    if a == 10:
        sys.setprofile(profiler)
    return a * b


def profiled_site():
    total = 0
    for i in range(14):
        total += profiled_callee(i, 2)
    sys.setprofile(None)
    return total


params = ", ".join("p%d" % i for i in range(29))
namespace = {}
exec("def wide(%s):\n    return p0 + p14 + p28\n" % params, namespace)
exec("def wide_site(f, args):\n    return f(%s)\n" % ", ".join("args[%d]" % i for i in range(29)),
     namespace)


first = round_()
for _ in range(3):
    print(round_() == first)
for line in first:
    print(line)
print(recurse_to_limit())
print(recurse_to_limit() == recurse_to_limit())
print(traced_site(), events)
print(profiled_site(), profiled)
print([namespace["wide_site"](namespace["wide"], list(range(29))) for _ in range(12)])
print(namespace["wide_site"](lambda *a: len(a), list(range(29))))
