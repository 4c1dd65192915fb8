"""The eval breaker at the end of calls made in PRECALL: members that call C check it after
their result is pushed and their inline caches and the fused CALL are skipped, so a thread
switch, a signal handler or a pending GC run there resumes at the instruction after the CALL.
Two threads call builtins, builtin classes and method descriptors of every kind in loops
while the switch interval is tiny and a timer signal's handler runs Python code; their
results are checked and printed (the counts of switches and signals are not: they vary)."""

import signal
import sys
import threading

sys.setswitchinterval(1e-6)
ticks = []


def on_alarm(signum, frame):
    ticks.append(signum)


def work(seed, out):
    total = 0
    text = "a,b,c" * (seed % 3 + 1)
    items = []
    for i in range(20000):
        total += len(text)                      # PRECALL_NO_KW_LEN
        total += abs(-i)                        # PRECALL_NO_KW_BUILTIN_O
        total += isinstance(i, int)             # PRECALL_NO_KW_ISINSTANCE
        total += divmod(i, 7)[1]                # PRECALL_NO_KW_BUILTIN_FAST
        total += int("12")                      # PRECALL_BUILTIN_CLASS
        total += max(i, 3, key=None)            # PRECALL_BUILTIN_FAST_WITH_KEYWORDS
        total += len(text.upper())              # PRECALL_NO_KW_METHOD_DESCRIPTOR_NOARGS
        total += text.count("a")                # PRECALL_NO_KW_METHOD_DESCRIPTOR_FAST
        total += len(text.split(",", maxsplit=1))  # ..._METHOD_DESCRIPTOR_FAST_WITH_KEYWORDS
        total += text.startswith("a")           # METH_FASTCALL again
        items.append(i)                         # PRECALL_NO_KW_LIST_APPEND
        total += len(str(i))                    # PRECALL_NO_KW_STR_1
        total += type(i) is int                 # PRECALL_NO_KW_TYPE_1
        total += [1].count(1)                   # PRECALL_NO_KW_METHOD_DESCRIPTOR_O
    out.append((seed, total, len(items)))


if hasattr(signal, "setitimer"):
    signal.signal(signal.SIGALRM, on_alarm)
    signal.setitimer(signal.ITIMER_REAL, 0.0005, 0.0005)
results = []
threads = [threading.Thread(target=work, args=(seed, results)) for seed in range(3)]
for t in threads:
    t.start()
work(3, results)
for t in threads:
    t.join()
if hasattr(signal, "setitimer"):
    signal.setitimer(signal.ITIMER_REAL, 0, 0)
results.sort()
for seed, total, count in results:
    print(seed, total, count)
# (the final globals are compared too: how many signals came, and the threads' ids, vary)
ticks = len(ticks) > 0
del threads, t
print("signals seen:", ticks)
