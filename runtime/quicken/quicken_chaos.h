/* quicken: deopt chaos (-Dchaos=true), for the generated interpreter.
 *
 * Every guard (DEOPT_IF) of a specialized instruction also fails at random, and every adaptive
 * instruction also finds its counter run out at random, so that the miss paths, the deopts back
 * to the adaptive form and the re-specializations all run, in every program, far more often than
 * the operands alone would make them. That is safe by construction: nothing changes before a
 * guard (the generator checks it), so a miss taken at any guard re-runs the generic instruction
 * from the state on entry. A test suite that passes under chaos has exercised them.
 *
 * Included at file scope by the generated interpreter's pycore_code.h when QUICKEN_CHAOS is
 * defined (runtime/patches/pycore_code.h.patch); the generated cases then redefine ceval.c's
 * DEOPT_IF and ADAPTIVE_COUNTER_IS_ZERO to call it. Environment:
 *   QUICKEN_CHAOS_SEED  seed of the random sequence (default 1): a run is reproducible
 *   QUICKEN_CHAOS_RATE  one in how many guards or counters fails (default 16; rounded down to
 *                       a power of two, at least 2)
 */
#ifndef QUICKEN_CHAOS_H
#define QUICKEN_CHAOS_H

#include <stdint.h>
#include <stdlib.h>

/* The random sequence: xorshift64, seeded at first use from the environment. Its state is
 * the static of one inline function: the interpreter loop runs with the GIL held. */
static inline uint64_t *
_PyQuickenChaos_State(void)
{
    static uint64_t state[2];  /* {xorshift state (0: not seeded), failure mask} */
    if (state[0] == 0) {
        const char *seed = getenv("QUICKEN_CHAOS_SEED");
        const char *rate = getenv("QUICKEN_CHAOS_RATE");
        uint64_t s = seed ? strtoull(seed, NULL, 0) : 1;
        unsigned long long r = rate ? strtoull(rate, NULL, 0) : 16;
        uint64_t power = 2;
        while (power * 2 <= r) {
            power *= 2;
        }
        state[1] = power - 1;  /* one in `power` fails */
        /* splitmix64 of the seed: any seed, 0 included, gives a good non-zero state */
        s += 0x9E3779B97F4A7C15ull;
        s = (s ^ (s >> 30)) * 0xBF58476D1CE4E5B9ull;
        s = (s ^ (s >> 27)) * 0x94D049BB133111EBull;
        s ^= s >> 31;
        state[0] = s ? s : 1;
    }
    return state;
}

/* Whether chaos strikes this time. */
static inline int
_PyQuickenChaos_Strikes(void)
{
    uint64_t *state = _PyQuickenChaos_State();
    uint64_t x = state[0];
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    state[0] = x;
    return (x & state[1]) == 0;
}

#endif /* QUICKEN_CHAOS_H */
