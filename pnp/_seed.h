/* Seeding a kernel's Mersenne Twister from one 64-bit number, as `random.Random(n)` does.
 *
 * A tree search's playout hands a kernel one draw of its own generator (`pnp.state`'s
 * `playout(rng, stop)`); the kernel seeds its generator from it exactly as
 * `random.Random(n)` would (`init_by_array` over n's 32-bit words, low word first), so a
 * test can play the readable rules from `random.Random(n)` and meet the kernel's very
 * draws. Include after `_twister.h`.
 */
#ifndef PNP_SEED_H
#define PNP_SEED_H

#include <stdint.h>

static void twister_seed64(Twister *t, uint64_t n) {
    uint32_t key[2] = {(uint32_t)n, (uint32_t)(n >> 32)}, *mt = t->mt;
    int used = key[1] ? 2 : 1, i = 1, j = 0, k;
    mt[0] = 19650218U;
    for (k = 1; k < MT_N; k++) mt[k] = 1812433253U * (mt[k - 1] ^ (mt[k - 1] >> 30)) + (uint32_t)k;
    for (k = MT_N; k; k--) {
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

#endif
