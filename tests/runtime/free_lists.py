# quicken's free lists (runtime/quicken/quicken_freelists.h).
#
# Small ints keep their blocks on a free list (runtime/patches/longobject.c.patch): exact ints of at most two digits go onto it when they
# die, and _PyLong_New / _PyLong_FromMedium take blocks from it for ints of at most two
# digits. Values made from reused blocks across the digit boundaries (2**30, 2**60) and the
# sign; ints that grow to three digits right after many smaller ones died (a block reused
# for more digits than it has would be written past its end: valgrind and ASan see it with
# PYTHONMALLOC=malloc); instances of int
# subclasses, which their own deallocator frees through the int type's (a subclass instance
# with a __dict__ starts after a GC header: on the free list it would crash the next
# allocation); bool.
#
# List, tuple and range iterators: a few dead ones are kept for the next loop (their files'
# patches): reused iterators start at their sequence's beginning, are tracked by the GC again
# (a cycle through one is collected), report their length hint, pickle and resume; many alive
# at once (more than the list keeps), nested loops, loops left early, iterators kept by
# generators.
#
# A full collection empties the lists: ints made after it take new blocks
# (sys.getallocatedblocks).
import gc
import pickle
import sys


def churn(n):
    total = 0
    for i in range(n):
        a = i * 1000003 % 1073741789           # one digit, often
        b = -a - 7                             # the sign
        c = a * 4 + (1 << 30)                  # two digits from one-digit operands
        d = c // 3 - (1 << 29)                 # back to one digit
        e = c * c + a                          # three digits
        total += (a ^ b) + (c >> 2) - d + (e >> 59)
    return total


class Counter(int):
    """A subclass with a __dict__ (GC-tracked instances)."""


class Slotted(int):
    __slots__ = ()


print(churn(20_000))

values = [Counter(i * 37) for i in range(300)]
for v in values:
    v.note = int(v) + 1
print(sum(v.note for v in values))
del values, v
print(churn(2_000))
slotted = [Slotted(-i) for i in range(300)]
print(sum(slotted), type(slotted[5] + 1).__name__)
del slotted
print(churn(2_000))

# many ints alive at once, freed together, then bigger ones
many = [i * 65537 for i in range(5_000)]
print(sum(many) % 1_000_003)
del many
bigger = [(i + 1) << 40 for i in range(5_000)]
print(sum(bigger) % 1_000_003)
del bigger
biggest = [(i + 1) << 70 for i in range(5_000)]
print(sum(biggest) % 1_000_003)
del biggest

print(True + True, (True * 5).__class__.__name__, int(False) - 1, sum([True] * 100))
print(int("1073741823") + 1, int("-1073741824") - 1, 2 ** 30 - 1, -(2 ** 30) + 1)
print(2 ** 60 - 1 + 1, -(2 ** 60) - 1, (2 ** 60 + 5) // 3, (2 ** 60) * 2 - 2 ** 61)


def iterators(n):
    total = 0
    for k in range(n):
        row = [k, k + 1, k + 2]
        pair = (k, -k)
        for a in row:                           # list iterator
            for b in pair:                      # tuple iterator
                for c in range(a % 3):          # range iterator
                    total += a * b + c
        for a in row:
            if a == k + 1:
                break                           # left early: freed with its index part-way
        total += sum(iter(row)) + sum(iter(pair)) + sum(iter(range(k % 5)))
    return total


print(iterators(3_000))
kept = [iter(x) for _ in range(10) for x in ([1, 2], (3, 4), range(5, 7))]  # more than kept
print([next(it) for it in kept][:6], sum(sum(it) for it in kept))
del kept
for seq in ([10, 20, 30], (10, 20, 30), range(10, 40, 10)):
    it = iter(seq)
    print(type(it).__name__, gc.is_tracked(it), it.__length_hint__(), next(it), next(it),
          it.__length_hint__(), list(pickle.loads(pickle.dumps(it))), next(it, "end"),
          next(it, "end"), it.__length_hint__())
    del it
    it = iter(seq)
    print(next(it), it.__length_hint__(), gc.is_tracked(it))
    del it


def holder(seq):
    for x in seq:
        yield x


gens = [holder(s) for s in ([1, 2, 3], (4, 5, 6), range(7, 10)) for _ in range(5)]
print([next(g) for g in gens], sum(sum(g) for g in gens))
del gens

cycle = [1, 2]
cycle.append(iter(cycle))
del cycle
print("cycle through a list iterator collected:", gc.collect() > 0)

# A full collection empties the free lists: new ints made after it take new blocks, as
# upstream's do (ints left on the list would serve up to a hundred of them).
def new_blocks_after_collection():
    dead = [i * 1000003 for i in range(1, 2_000)]
    del dead
    gc.collect()
    before = sys.getallocatedblocks()
    kept = [i * 1000003 for i in range(1, 201)]
    return sys.getallocatedblocks() - before >= 190 and len(kept) == 200


print("new blocks after a full collection:", new_blocks_after_collection())
