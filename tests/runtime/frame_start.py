# A frame that starts at RESUME_QUICK (runtime/patches/ceval.c.patch, start_frame): it goes on
# past the instruction only when nothing is traced and no eval-breaker work is pending. Here
# the work is pending at every start: _thread.interrupt_main() trips SIGINT from C without
# running the handler, and the next call starts a Python frame from C (itertools.starmap), so
# the handler must run at that frame's RESUME (at its start, or at the RESUME after a
# generator's YIELD_VALUE), as on 3.11.2: run past it, the handler would run later, in another frame. Then
# the same calls with nothing pending, with a profile function and with a trace function set
# while frames start (the call events come from RESUME).
import _thread
import itertools
import operator
import signal
import sys

log = []


def where(frame):
    """The line in the function and whether the frame is at its start (f_lasti 0): offsets
    further in depend on the code layout, which is not 3.11.2's (FOR_ITER has a cache)."""
    return frame.f_lineno - frame.f_code.co_firstlineno, frame.f_lasti == 0


def handler(signum, frame):
    log.append(("handler", frame.f_code.co_name, where(frame)))


def f(x):
    log.append(("f", x))
    return x


def g(x):
    return x + 1                         # no call: no later eval-breaker check in g


def gen():
    for i in range(3):
        yield i                          # resumed at the RESUME after YIELD_VALUE


def closure(y):
    def inner(x):
        return x + y                     # begins with COPY_FREE_VARS, not RESUME
    return inner


def pending_then(call, *args):
    return list(itertools.starmap(operator.call, [(_thread.interrupt_main,), (call, *args)]))


signal.signal(signal.SIGINT, handler)
for k in range(12):                      # past quickening (8 starts)
    pending_then(f, k)
    pending_then(g, k)
    pending_then(closure(k), k)
it = gen()
for k in range(3):
    pending_then(next, it)
signal.signal(signal.SIGINT, signal.default_int_handler)
for entry in log:
    print(*entry)

# Nothing pending: plain calls from C and from Python.
print(sum(map(g, range(100))), sum(g(i) for i in range(100)), list(gen()))

# Profile and trace functions set and removed between frame starts.
events = []


def profiler(frame, event, arg):
    if frame.f_code.co_name in ("f", "g", "gen", "inner"):
        events.append((event, frame.f_code.co_name, where(frame)))


def tracer(frame, event, arg):
    if frame.f_code.co_name in ("f", "g", "gen", "inner"):
        events.append(("trace", event, frame.f_code.co_name, where(frame)))
    return tracer


for k in range(12):
    if k % 3 == 0:
        sys.setprofile(profiler)
    elif k % 3 == 1:
        sys.settrace(tracer)
    g(k)
    list(map(f, [k]))
    closure(k)(k)
    list(itertools.islice(gen(), 2))
    sys.setprofile(None)
    sys.settrace(None)
for e in events:
    print(*e)
print(len(log), len(events))
