# Tracing starts and stops where Debian's python3.11 starts and stops it, opcode by opcode
# (f_trace_opcodes), in functions whose instructions are specialized first: the loads, the
# int and float arithmetic, the fused compares, the global loads, COPY/SWAP, KW_NAMES, the
# match instructions, an EXTENDED_ARG and the exception-handling entry; the instructions the
# generator lets dispatch without reading the tracing state (DISPATCH_NO_TRACE_CHECK) among
# them. Each event is printed as (event, line, function, instruction name).
import dis
import sys

FILE = sys._getframe().f_code.co_filename  # this program's, however it is run

SCALE = 3


def arith(n):
    total = 0
    x = 1.5
    for i in range(n):
        a, b = i, total
        total = total + i * 2 - 1
        x = x * 1.0001 + 0.5 - 0.25
        if i < 2:
            total += 1
        while a > 1:
            a -= 2
        b, a = a, b
    return total, round(x, 6), len(str(total)), abs(-n)


def shapes(items):
    out = []
    for item in items:
        match item:
            case {"k": v}:
                out.append(("map", v))
            case [first, *rest]:
                out.append(("seq", first, len(rest)))
            case _:
                out.append(("other", item))
        try:
            out.append(1 // (item == 0 and 1 or 0))
        except ZeroDivisionError as e:
            out.append(type(e).__name__)
    return out


def kwargs(n):
    return sorted(range(n), key=abs, reverse=True)


# More than 256 constants: the last ones are loaded with an EXTENDED_ARG prefix.
namespace = {}
exec(compile("def big_constants():\n" + "".join("    t = %d\n" % (1000 + k) for k in range(300))
     + "    u = t\n    return u + 1\n", FILE, "exec"), namespace)
big_constants = namespace["big_constants"]


def run():
    return [arith(8 * SCALE), shapes([{"k": 1}, [1, 2, 3], 0, "s"] * SCALE), kwargs(4 * SCALE),
            big_constants()]


def tracer(log):
    def trace(frame, event, arg):
        frame.f_trace_opcodes = True
        code = frame.f_code
        if code.co_filename == FILE:
            log.append((event, frame.f_lineno, code.co_name,
                        dis.opname[code.co_code[frame.f_lasti]]))
        return trace
    return trace


def main():
    for _ in range(60):  # specialized by now
        warm = run()
    log = []
    sys.settrace(tracer(log))
    traced = run()
    sys.settrace(None)
    after = run()
    print(warm == traced == after, traced)
    print(len(log))
    for entry in log:
        print(*entry)


main()
