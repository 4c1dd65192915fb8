# member: FOR_ITER_GEN
# `for` over a generator, its frame resumed in the caller's evaluation loop, then: generators
# that return a value, raise, raise StopIteration (PEP 479), are left early and resumed by
# next() or another loop, closed or thrown into between iterations, iterate themselves, read
# the exception being handled, look at their frames, use `yield from`, turn tracing and
# profiling on while they run, nest deeply up to the recursion limit, and a loop too long for
# the member; other iterators at the same site.
import dis
import sys


def show(value):
    return "!" + type(value).__name__ + ": " + str(value) if isinstance(value, BaseException) \
        else repr(value)


def where(error):
    """The functions of an exception's traceback, each with its line counted from the
    function's first line and the instruction it stopped at (its generic name)."""
    out = []
    tb = error.__traceback__
    while tb is not None:
        code = tb.tb_frame.f_code
        out.append("%s+%d:%s" % (code.co_name, tb.tb_lineno - code.co_firstlineno,
                                 dis.opname[code.co_code[tb.tb_lasti]]))
        tb = tb.tb_next
    return show(error) + " at " + " < ".join(out)


def collect(iterable):
    out = []
    for x in iterable:
        out.append(x)
    return out


def count(n, result=None):
    for i in range(n):
        yield i
    return result


def warm():
    for _ in range(30):
        collect(count(3))


def raising(n, error):
    yield from range(n)
    raise error


def stop_inside():
    yield 1
    raise StopIteration("inside")


events = []


def run(name, thunk, times=30):
    """Runs `thunk` `times` times (so that its own loops specialize too) and prints what the
    last run returned or raised, and the events it recorded."""
    warm()
    for _ in range(times):
        events.clear()
        try:
            line = show(thunk())
        except BaseException as error:
            line = where(error) + " cause: " + show(error.__cause__)
    print(name, line)
    if events:
        print(" ", events)


# Values, returns (ignored by `for`), exceptions and PEP 479.
run("plain", lambda: collect(count(5)))
run("returns", lambda: collect(count(2, "value")))
run("returns tuple", lambda: collect(count(1, (1, 2))))
run("empty", lambda: collect(count(0, 3)))
run("raises", lambda: collect(raising(2, KeyError("k"))))
run("raises at once", lambda: collect(raising(0, ValueError("v"))))
run("stop inside", lambda: collect(stop_inside()))
run("genexpr", lambda: collect(x * x for x in range(6)))
run("nested genexpr", lambda: collect(y + 1 for y in (x * 2 for x in range(4))))


# Left early, then resumed by next() and by another loop; closed and thrown into between
# iterations; its own loop over itself.
def left_early():
    g = count(6, "done")
    out = []
    for x in g:
        out.append(x)
        if x == 2:
            break
    out.append(next(g))
    for x in g:
        out.append(x)
    out.append(show(g.gi_frame))
    try:
        next(g)
    except StopIteration as e:
        out.append(show(e.value))
    return out


def closed_between():
    log = []

    def guarded():
        try:
            for i in range(5):
                yield i
        finally:
            log.append("finally")
    g = guarded()
    out = []
    for x in g:
        out.append(x)
        if x == 1:
            g.close()
    return out, log


def thrown_between():
    def catching():
        for i in range(6):
            try:
                yield i
            except KeyError:
                yield "caught"
    g = catching()
    out = []
    for x in g:
        out.append(x)
        if x == 2:
            out.append(g.throw(KeyError))
    return out


def itself():
    def walker():
        yield 1
        for x in g:
            yield x
    g = walker()
    return collect(g)


run("left early", left_early)
run("closed between", closed_between)
run("thrown between", thrown_between)
run("iterates itself", itself)


# The exception being handled, in the caller and inside the generator across its yields.
def exc_info_gen():
    yield show(sys.exc_info()[1])
    try:
        raise KeyError("inner")
    except KeyError:
        yield show(sys.exc_info()[1])
        yield show(sys.exc_info()[1])
    yield show(sys.exc_info()[1])


def exc_info_caller():
    out = []
    try:
        raise ValueError("outer")
    except ValueError:
        for x in exc_info_gen():
            out.append(x)
            out.append(show(sys.exc_info()[1]))
    out.append(show(sys.exc_info()[1]))
    return out


run("exc info", exc_info_caller)


# Frames: the caller is the generator's f_back while it runs and not after; the caller's
# position while the generator runs is its FOR_ITER.
def frames_gen():
    me = sys._getframe()
    caller = me.f_back
    yield caller.f_code.co_name
    yield dis.opname[caller.f_code.co_code[caller.f_lasti]]
    yield sys._getframe(1) is caller
    yield g_frames.gi_running


def frames_caller():
    global g_frames
    g_frames = frames_gen()
    out = collect(g_frames)
    g_frames = frames_gen()
    for x in g_frames:
        out.append(g_frames.gi_frame.f_back)
        break
    return out


run("frames", frames_caller)


# `yield from` (SEND) inside a generator the loop resumes, over generators and other iterators.
def delegating():
    r = yield from count(3, "sub")
    yield r
    yield from [10, 11]
    yield from iter((12,))


run("yield from", lambda: collect(delegating()))


# Tracing and profiling turned on while the generator runs, off again in the caller.


def tracer(frame, event, arg):
    events.append("%s %s+%d %s" % (event, frame.f_code.co_name,
                                   frame.f_lineno - frame.f_code.co_firstlineno,
                                   show(arg) if event in ("return", "exception") else ""))
    return tracer


def profiler(frame, event, arg):
    events.append("P %s %s" % (event, frame.f_code.co_name if event in ("call", "return")
                               else getattr(arg, "__name__", "?")))


def starts_tracing():
    yield 1
    sys.settrace(tracer)
    sys._getframe(1).f_trace = tracer  # the caller's lines, and the StopIteration of "end"
    yield 2
    yield 3
    return "end"


def traced_loop(g):
    out = []
    for x in g:
        out.append(x)
    sys.settrace(None)
    return out


def traces_at_end():
    yield 1
    sys.settrace(tracer)
    sys._getframe(1).f_trace = tracer
    return "end"  # in the resumption that turned tracing on


def traced_at_end_loop(g):
    out = []
    for x in g:
        out.append(x)
    sys.settrace(None)
    return out


def starts_profiling():
    yield 1
    sys.setprofile(profiler)
    yield 2


def profiled_loop(g):
    out = []
    for x in g:
        out.append(x)
    sys.setprofile(None)
    return out


def warmed(loop, generator):
    # the loop's site specialized on generators first, then the one that turns tracing on
    for _ in range(30):
        loop(count(3))
    return loop(generator())


for name, loop, generator in [("traced", traced_loop, starts_tracing),
                              ("traced at end", traced_at_end_loop, traces_at_end),
                              ("profiled", profiled_loop, starts_profiling)]:
    run(name, lambda: warmed(loop, generator), times=3)


# Deep nesting: each generator loops over the next, up to the recursion limit.
def chain(n):
    if not n:  # no comparison: a generic one would check the recursion depth itself
        yield 0
        return
    for x in chain(n - 1):
        yield x + 1


def deepest(limit):
    old = sys.getrecursionlimit()
    sys.setrecursionlimit(limit)
    try:
        n = 10
        while True:
            try:
                collect(chain(n))
            except RecursionError as error:
                return n, show(error)
            n += 1
    finally:
        sys.setrecursionlimit(old)


run("chain", lambda: collect(chain(30)))
run("deepest", lambda: deepest(120), times=3)


# A loop whose jump does not fit in one byte: FOR_ITER_GEN is not installed there.
def long_loop(g):
    total = 0
    for x in g:
        total += x; total += x; total += x; total += x; total += x; total += x; total += x
        total += x; total += x; total += x; total += x; total += x; total += x; total += x
        total += x; total += x; total += x; total += x; total += x; total += x; total += x
        total += x; total += x; total += x; total += x; total += x; total += x; total += x
        total += x; total += x; total += x; total += x; total += x; total += x; total += x
        total += x; total += x; total += x; total += x; total += x; total += x; total += x
        total += x; total += x; total += x; total += x; total += x; total += x; total += x
        total += x; total += x; total += x; total += x; total += x; total += x; total += x
        total += x; total += x; total += x; total += x; total += x; total += x; total += x
        total += x; total += x; total += x; total += x; total += x; total += x; total += x
    return total


for _ in range(30):
    long_loop(count(3))
run("long loop", lambda: long_loop(count(4)))
print("long loop site", sorted({i.opname for i in dis.get_instructions(long_loop, adaptive=True)
                                if i.opname.startswith("FOR_ITER")}))


# Other iterators at a site specialized for generators.
class Iter:
    def __init__(self):
        self.n = 0

    def __iter__(self):
        return self

    def __next__(self):
        self.n += 1
        if self.n > 2:
            raise StopIteration
        return self.n


class GenIter:
    def __iter__(self):
        yield "a"
        yield "b"


async def coro_gen():
    yield 1


for other in [[1, 2], (3,), range(2), "xy", Iter(), GenIter(), iter([5]), map(str, [6])]:
    run("other " + type(other).__name__, lambda: collect(other))
run("async gen", lambda: collect(coro_gen()))
run("after others", lambda: collect(count(3)))
