/* Seeding a kernel's Mersenne Twister from one 64-bit number, as `random.Random(n)` does.
 *
 * A tree search's playout hands a kernel one draw of its own generator (`pnp.play.state`'s
 * `playout(rng, stop)`); the kernel seeds its generator from it exactly as
 * `random.Random(n)` would (`init_by_array` over n's 32-bit words, low word first), so a
 * test can play the readable rules from `random.Random(n)` and meet the kernel's very
 * draws. Include after `_twister.h`.
 */
#ifndef PNP_SEED_H
#define PNP_SEED_H

#include <stdint.h>
#include <string.h>

#include "_genrand_init.h"

/* The state `init_genrand(19650218)` leaves, which `init_by_array` starts from (mt[0] =
 * 19650218, mt[i] = 1812433253 * (mt[i-1] ^ (mt[i-1] >> 30)) + i): the same for every
 * seed, so it is a table (`_genrand_init.h`), copied, not computed per seeding. */
static void genrand_init(uint32_t mt[MT_N]) { memcpy(mt, GENRAND_INIT, sizeof GENRAND_INIT); }

/* CPython's `init_by_array` from `start` (`genrand_init`'s state; it may be `t->mt`
 * itself): a string seed's key (`_seed_text.h`), or a number's 32-bit words, low first. */
static void init_by_array(Twister *t, const uint32_t start[MT_N], const uint32_t *key, size_t used) {
    size_t i = 1, j = 0, k;
    uint32_t *mt = t->mt;
    if (start != mt) memcpy(mt, start, sizeof t->mt);
    for (k = MT_N > used ? MT_N : used; k; k--) {
        mt[i] = (mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1664525U)) + key[j] + (uint32_t)j;
        i++;
        j++;
        if (i >= MT_N) {
            mt[0] = mt[MT_N - 1];
            i = 1;
        }
        if (j >= used) j = 0;
    }
    for (k = MT_N - 1; k; k--) {
        mt[i] = (mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1566083941U)) - (uint32_t)i;
        i++;
        if (i >= MT_N) {
            mt[0] = mt[MT_N - 1];
            i = 1;
        }
    }
    mt[0] = 0x80000000U;
    t->index = MT_N;
}

/* `random.Random(n)` for a 64-bit n, from a kept copy of `genrand_init`'s state. */
static void twister_seed64_from(Twister *t, const uint32_t start[MT_N], uint64_t n) {
    uint32_t key[2] = {(uint32_t)n, (uint32_t)(n >> 32)};
    init_by_array(t, start, key, key[1] ? 2 : 1);
}

/* `random.Random(n)` for a 64-bit n. */
static void twister_seed64(Twister *t, uint64_t n) { twister_seed64_from(t, GENRAND_INIT, n); }

#endif
