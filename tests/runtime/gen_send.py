# SEND resumes an exact generator or coroutine in the caller's evaluation loop (`yield from`,
# `await`; instructions/control.inst), and the generator's YIELD_VALUE, RETURN_VALUE and
# exceptions end there (runtime/patches/ceval.c.patch). Each case runs many times so that
# the code is quickened; what it prints must be Debian's.
import asyncio
import sys
import types


def show(value):
    if isinstance(value, BaseException):
        return "!%s: %s (cause %s)" % (type(value).__name__, value,
                                      type(value.__cause__).__name__)
    return repr(value)


def run(name, thunk, times=20):
    for _ in range(times):
        try:
            result = show(thunk())
        except BaseException as error:
            result = show(error)
    print(name, result)


def sub(n, result):
    got = []
    for i in range(n):
        got.append((yield i))
    return result, got


def outer(n):
    r = yield from sub(n, "sub-result")
    yield r


def drive(g, values):
    out = [next(g)]
    for v in values:
        try:
            out.append(g.send(v))
        except StopIteration as e:
            out.append(("stop", e.value))
            break
    return out


run("yield from values", lambda: list(outer(3)))
run("yield from send", lambda: drive(outer(3), ["a", "b", "c", "d", "e"]))


def raising_sub():
    yield 1
    raise KeyError("sub")


def catching_outer():
    try:
        yield from raising_sub()
    except KeyError as e:
        yield "caught " + str(e)
    yield "after"


run("exception through yield from", lambda: list(catching_outer()))


def stop_sub():
    yield 1
    raise StopIteration("x")




def gen_outer_stop():
    yield from stop_sub()


run("PEP 479 in sub", lambda: list(gen_outer_stop()))


def throw_close():
    g = outer(5)
    out = [next(g), next(g)]
    try:
        out.append(g.throw(ValueError("thrown")))
    except ValueError as e:
        out.append(show(e))
    g = outer(5)
    next(g)
    g.close()
    out.append(g.gi_frame)
    return out


run("throw and close", throw_close)


def just_started():
    def inner():
        x = yield 1
        yield x

    def outer2(i):
        yield from i
    i = inner()
    g = outer2(i)
    out = [next(g), g.send("v")]
    i2 = inner()
    g2 = outer2(i2)
    try:
        next(i2)
        out.append(next(g2))
    except BaseException as e:
        out.append(show(e))
    return out


run("just started and running", just_started)


def yieldfrom_attrs():
    g = outer(3)
    next(g)
    return (type(g.gi_yieldfrom).__name__, g.gi_yieldfrom.gi_running, g.gi_running,
            g.gi_yieldfrom.gi_frame.f_back)


run("gi_yieldfrom", yieldfrom_attrs)


# Coroutines awaiting coroutines, driven by send() and by asyncio.
async def leaf(x):
    return x * 2


async def middle(x):
    a = await leaf(x)
    b = await leaf(a)
    return a + b


async def top(n):
    total = 0
    for i in range(n):
        total += await middle(i)
    return total


def drive_coro(c):
    try:
        c.send(None)
    except StopIteration as e:
        return e.value


run("await chain", lambda: drive_coro(top(10)))


async def raising_leaf():
    raise StopIteration("in coroutine")


async def awaiting_raiser():
    return await raising_leaf()


run("coroutine raised StopIteration", lambda: drive_coro(awaiting_raiser()))


async def reuse():
    c = leaf(1)
    await c
    return await c


run("awaited twice", lambda: drive_coro(reuse()))


async def sleeper(i):
    await asyncio.sleep(0)
    return i


async def gathered():
    return await asyncio.gather(*(middle_sleep(i) for i in range(5)))


async def middle_sleep(i):
    a = await sleeper(i)
    b = await sleeper(a + 1)
    return a + b


run("asyncio", lambda: asyncio.run(gathered()), times=5)


@types.coroutine
def old_style():
    x = yield "old"
    return x


async def uses_old():
    return await old_style()


def drive_old():
    c = uses_old()
    first = c.send(None)
    try:
        c.send("sent")
    except StopIteration as e:
        return first, e.value


run("generator-based coroutine", drive_old)


# Tracing turned on inside a resumed generator; the recursion limit through yield from.
events = []


def tracer(frame, event, arg):
    events.append("%s %s" % (event, frame.f_code.co_name))
    return tracer


def traced_sub():
    yield 1
    sys.settrace(tracer)
    yield 2
    return 3


def traced_outer():
    r = yield from traced_sub()
    sys.settrace(None)
    yield r


def traced():
    events.clear()
    return list(traced_outer()), list(events)


run("traced", traced)


def chain(n):
    if not n:  # no comparison: a generic one would check the recursion depth itself
        yield 0
        return "bottom"
    r = yield from chain(n - 1)
    return r


def deepest(limit):
    old = sys.getrecursionlimit()
    sys.setrecursionlimit(limit)
    try:
        n = 10
        while True:
            try:
                list(chain(n))
            except RecursionError as e:
                return n, show(e)
            n += 1
    finally:
        sys.setrecursionlimit(old)


run("deepest", lambda: deepest(150), times=3)


async def deep_await(n):
    if not n:  # no comparison: a generic one would check the recursion depth itself
        return 0
    return 1 + await deep_await(n - 1)


run("deep await", lambda: drive_coro(deep_await(50)))
