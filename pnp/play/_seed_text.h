/* Seeding a kernel's Mersenne Twister from a seed text, as `random.Random(text)` does.
 *
 * The runner seeds game i of a run with the text "<seed>:<i>" (`pnp.sim.worker.game_seed`);
 * a kernel that plays a chunk of games at once seeds its generator from each text itself
 * (SHA-512 of the text, then `init_by_array`), so no Python generator is built, read or
 * written back per game. Include after `_twister.h` and `_seed.h`.
 */
#ifndef PNP_SEED_TEXT_H
#define PNP_SEED_TEXT_H

#include <stdint.h>
#include <string.h>

static uint64_t rotr(uint64_t x, int n) { return (x >> n) | (x << (64 - n)); }

/* SHA-512 (FIPS 180-4) of len bytes into out[64]. */
static void sha512(const unsigned char *data, size_t len, unsigned char out[64]) {
    static const uint64_t K[80] = {
        0x428a2f98d728ae22ULL, 0x7137449123ef65cdULL, 0xb5c0fbcfec4d3b2fULL, 0xe9b5dba58189dbbcULL,
        0x3956c25bf348b538ULL, 0x59f111f1b605d019ULL, 0x923f82a4af194f9bULL, 0xab1c5ed5da6d8118ULL,
        0xd807aa98a3030242ULL, 0x12835b0145706fbeULL, 0x243185be4ee4b28cULL, 0x550c7dc3d5ffb4e2ULL,
        0x72be5d74f27b896fULL, 0x80deb1fe3b1696b1ULL, 0x9bdc06a725c71235ULL, 0xc19bf174cf692694ULL,
        0xe49b69c19ef14ad2ULL, 0xefbe4786384f25e3ULL, 0x0fc19dc68b8cd5b5ULL, 0x240ca1cc77ac9c65ULL,
        0x2de92c6f592b0275ULL, 0x4a7484aa6ea6e483ULL, 0x5cb0a9dcbd41fbd4ULL, 0x76f988da831153b5ULL,
        0x983e5152ee66dfabULL, 0xa831c66d2db43210ULL, 0xb00327c898fb213fULL, 0xbf597fc7beef0ee4ULL,
        0xc6e00bf33da88fc2ULL, 0xd5a79147930aa725ULL, 0x06ca6351e003826fULL, 0x142929670a0e6e70ULL,
        0x27b70a8546d22ffcULL, 0x2e1b21385c26c926ULL, 0x4d2c6dfc5ac42aedULL, 0x53380d139d95b3dfULL,
        0x650a73548baf63deULL, 0x766a0abb3c77b2a8ULL, 0x81c2c92e47edaee6ULL, 0x92722c851482353bULL,
        0xa2bfe8a14cf10364ULL, 0xa81a664bbc423001ULL, 0xc24b8b70d0f89791ULL, 0xc76c51a30654be30ULL,
        0xd192e819d6ef5218ULL, 0xd69906245565a910ULL, 0xf40e35855771202aULL, 0x106aa07032bbd1b8ULL,
        0x19a4c116b8d2d0c8ULL, 0x1e376c085141ab53ULL, 0x2748774cdf8eeb99ULL, 0x34b0bcb5e19b48a8ULL,
        0x391c0cb3c5c95a63ULL, 0x4ed8aa4ae3418acbULL, 0x5b9cca4f7763e373ULL, 0x682e6ff3d6b2b8a3ULL,
        0x748f82ee5defb2fcULL, 0x78a5636f43172f60ULL, 0x84c87814a1f0ab72ULL, 0x8cc702081a6439ecULL,
        0x90befffa23631e28ULL, 0xa4506cebde82bde9ULL, 0xbef9a3f7b2c67915ULL, 0xc67178f2e372532bULL,
        0xca273eceea26619cULL, 0xd186b8c721c0c207ULL, 0xeada7dd6cde0eb1eULL, 0xf57d4f7fee6ed178ULL,
        0x06f067aa72176fbaULL, 0x0a637dc5a2c898a6ULL, 0x113f9804bef90daeULL, 0x1b710b35131c471bULL,
        0x28db77f523047d84ULL, 0x32caab7b40c72493ULL, 0x3c9ebe0a15c9bebcULL, 0x431d67c49c100d4cULL,
        0x4cc5d4becb3e42b6ULL, 0x597f299cfc657e2aULL, 0x5fcb6fab3ad6faecULL, 0x6c44198c4a475817ULL};
    uint64_t h[8] = {0x6a09e667f3bcc908ULL, 0xbb67ae8584caa73bULL, 0x3c6ef372fe94f82bULL,
                     0xa54ff53a5f1d36f1ULL, 0x510e527fade682d1ULL, 0x9b05688c2b3e6c1fULL,
                     0x1f83d9abfb41bd6bULL, 0x5be0cd19137e2179ULL};
    size_t blocks = (len + 17 + 127) / 128; /* the text, 0x80, the 128-bit length */
    for (size_t blk = 0; blk < blocks; blk++) {
        unsigned char chunk[128];
        uint64_t w[80];
        for (int i = 0; i < 128; i++) {
            size_t at = blk * 128 + (size_t)i;
            chunk[i] = at < len ? data[at] : at == len ? 0x80 : 0;
        }
        if (blk == blocks - 1) /* the length in bits, big-endian, in the last 16 bytes */
            for (int i = 0; i < 8; i++) chunk[127 - i] = (unsigned char)(((uint64_t)len * 8) >> (8 * i));
        for (int t = 0; t < 16; t++) {
            w[t] = 0;
            for (int i = 0; i < 8; i++) w[t] = w[t] << 8 | chunk[8 * t + i];
        }
        for (int t = 16; t < 80; t++) {
            uint64_t s0 = rotr(w[t - 15], 1) ^ rotr(w[t - 15], 8) ^ (w[t - 15] >> 7);
            uint64_t s1 = rotr(w[t - 2], 19) ^ rotr(w[t - 2], 61) ^ (w[t - 2] >> 6);
            w[t] = w[t - 16] + s0 + w[t - 7] + s1;
        }
        uint64_t a = h[0], b = h[1], c = h[2], d = h[3], e = h[4], f = h[5], g = h[6], hh = h[7];
        for (int t = 0; t < 80; t++) {
            uint64_t t1 = hh + (rotr(e, 14) ^ rotr(e, 18) ^ rotr(e, 41)) + ((e & f) ^ (~e & g)) +
                          K[t] + w[t];
            uint64_t t2 = (rotr(a, 28) ^ rotr(a, 34) ^ rotr(a, 39)) + ((a & b) ^ (a & c) ^ (b & c));
            hh = g;
            g = f;
            f = e;
            e = d + t1;
            d = c;
            c = b;
            b = a;
            a = t1 + t2;
        }
        h[0] += a;
        h[1] += b;
        h[2] += c;
        h[3] += d;
        h[4] += e;
        h[5] += f;
        h[6] += g;
        h[7] += hh;
    }
    for (int i = 0; i < 64; i++) out[i] = (unsigned char)(h[i / 8] >> (56 - 8 * (i % 8)));
}

/* The generator as `random.Random(text)` leaves it: the int of the text's bytes followed
 * by their SHA-512, cut into 32-bit words from the low end, through `init_by_array`.
 * `start` is `init_genrand(19650218)`'s state (`genrand_init`), the same for every seed.
 * Returns -1 when the key would not fit `key` (a seed text over 1,000 bytes). */
static int seed_twister(Twister *t, const uint32_t start[MT_N], const char *text, size_t len) {
    unsigned char bytes[1064];
    uint32_t key[266];
    size_t n = len + 64, skip = 0;
    if (len > 1000) return -1;
    memcpy(bytes, text, len);
    sha512((const unsigned char *)text, len, bytes + len);
    while (skip < n && bytes[skip] == 0) skip++; /* int.from_bytes drops leading zeros */
    size_t used = (n - skip + 3) / 4, k;
    if (used == 0) {
        key[0] = 0;
        used = 1;
    }
    for (k = 0; k < used && n - skip > 0; k++) { /* word k holds bytes from the low end */
        uint32_t w = 0;
        for (int b = 3; b >= 0; b--) {
            size_t back = 4 * k + (size_t)b; /* byte `back` counted from the last */
            w = w << 8 | (back < n - skip ? bytes[n - 1 - back] : 0);
        }
        key[k] = w;
    }
    init_by_array(t, start, key, used);
    return 0;
}

#endif
