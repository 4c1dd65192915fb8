# Tracing and profiling switched on and off in the middle of a frame, by code the interpreter
# runs between instructions: a __del__ run by the Py_DECREF of a specialized instruction (a
# temporary's attribute read, a list item read, a local overwritten), a signal handler, a trace
# function that sets f_trace of a frame or calls settrace(None) in the middle of a loop. The
# events that follow (opcode by opcode) must be Debian python3.11's: an instruction that
# dispatches without reading the tracing state must never be one after which tracing starts.
import dis
import signal
import sys

FILE = sys._getframe().f_code.co_filename  # this program's, however it is run

LOG = []


def record(frame, event, arg):
    code = frame.f_code
    if code.co_filename == FILE:
        LOG.append((event, frame.f_lineno, code.co_name, dis.opname[code.co_code[frame.f_lasti]]))


def trace(frame, event, arg):
    frame.f_trace_opcodes = True
    record(frame, event, arg)
    return trace


def profile(frame, event, arg):
    record(frame, event, getattr(arg, "__name__", None))


class Switch:
    """Turns tracing (or profiling) on when it is released."""

    def __init__(self, how):
        self.how = how
        self.x = 1

    def __del__(self):
        if self.how == "trace":
            sys.settrace(trace)
            sys._getframe(1).f_trace = trace
        elif self.how == "profile":
            sys.setprofile(profile)


def attribute_of_temporary(n, how):
    total = 0
    for i in range(n):
        total += Switch(how if i == n - 3 else None).x  # LOAD_ATTR_INSTANCE_VALUE releases it
        total = total + i
    return total


def item_of_temporary(n, how):
    total = 0
    for i in range(n):
        total += [Switch(how if i == n - 3 else None), 2][1]  # BINARY_SUBSCR_LIST_INT
        total = total + i
    return total


def overwritten_local(n, how):
    total = 0
    keep = None
    for i in range(n):
        keep = Switch(how if i == n - 3 else None)  # STORE_FAST releases the previous one
        total = total + i * 2
    return total


def on_signal(signum, frame):
    sys.settrace(trace)
    frame.f_trace = trace


def signalled(n, how):
    total = 0
    for i in range(n):
        if how is not None and i == n - 3:
            signal.raise_signal(signal.SIGUSR1)
        total = total + i
        total = total - 1
    return total


def stops_itself(frame, event, arg):
    frame.f_trace_opcodes = True
    record(frame, event, arg)
    if len(LOG) > 40:
        sys.settrace(None)  # stops tracing new frames and, from here, this one
        frame.f_trace = None
    return stops_itself


def loop(n):
    total = 0
    for i in range(n):
        total = total + i
        total = total * 1
    return total


def local_trace_later(n):
    total = 0
    for i in range(n):
        if i == n - 2:
            sys._getframe().f_trace = trace  # the global trace function is set, this frame
        total = total + i                    # had none: its events start here
    return total


def scenario(name, function, *args):
    LOG.clear()
    for _ in range(40):  # specialized by now (with nothing to switch: `how` is None)
        function(*[a if not isinstance(a, str) else None for a in args])
    result = function(*args)
    sys.settrace(None)
    sys.setprofile(None)
    print(name, result, len(LOG))
    for entry in LOG:
        print("   ", *entry)


def main():
    signal.signal(signal.SIGUSR1, on_signal)
    for how in ("trace", "profile"):
        scenario("attribute " + how, attribute_of_temporary, 30, how)
        scenario("item " + how, item_of_temporary, 30, how)
        scenario("local " + how, overwritten_local, 30, how)
    scenario("signal", signalled, 30, "signal")
    for _ in range(40):
        loop(30)
    LOG.clear()
    sys.settrace(stops_itself)
    result = loop(30)
    sys.settrace(None)
    print("settrace(None) in the loop", result, len(LOG))
    for entry in LOG:
        print("   ", *entry)
    for _ in range(40):
        local_trace_later(10)
    LOG.clear()
    sys.settrace(lambda frame, event, arg: None)  # on, but no frame traced
    result = local_trace_later(10)
    sys.settrace(None)
    print("f_trace set in the frame", result, len(LOG))
    for entry in LOG:
        print("   ", *entry)


main()
