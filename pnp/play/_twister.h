/* CPython's Mersenne Twister for the compiled game kernels, drawn as the rules draw.
 *
 * A kernel takes the caller's `random.Random` state (`getstate()`'s 625 numbers), draws
 * from it exactly as `random.getrandbits` does, and hands the state back for `setstate()`,
 * so a seed gives the same game in C as in the Python rules. `below(n)` is
 * `pnp.play.chance.below`: getrandbits((n - 1).bit_length()) until the draw is below n.
 * Included by each kernel (static functions, one copy per extension module).
 */
#ifndef PNP_TWISTER_H
#define PNP_TWISTER_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>

#define MT_N 624
#define MT_M 397

typedef struct {
    uint32_t mt[MT_N];
    int index;
} Twister;

static uint32_t genrand(Twister *t) {
    static const uint32_t mag01[2] = {0x0U, 0x9908b0dfU};
    uint32_t y, *mt = t->mt;
    if (t->index >= MT_N) {
        int k;
        for (k = 0; k < MT_N - MT_M; k++) {
            y = (mt[k] & 0x80000000U) | (mt[k + 1] & 0x7fffffffU);
            mt[k] = mt[k + MT_M] ^ (y >> 1) ^ mag01[y & 1U];
        }
        for (; k < MT_N - 1; k++) {
            y = (mt[k] & 0x80000000U) | (mt[k + 1] & 0x7fffffffU);
            mt[k] = mt[k + (MT_M - MT_N)] ^ (y >> 1) ^ mag01[y & 1U];
        }
        y = (mt[MT_N - 1] & 0x80000000U) | (mt[0] & 0x7fffffffU);
        mt[MT_N - 1] = mt[MT_M - 1] ^ (y >> 1) ^ mag01[y & 1U];
        t->index = 0;
    }
    y = mt[t->index++];
    y ^= (y >> 11);
    y ^= (y << 7) & 0x9d2c5680U;
    y ^= (y << 15) & 0xefc60000U;
    y ^= (y >> 18);
    return y;
}

/* A uniform int in [0, n), n >= 1: getrandbits((n - 1).bit_length()) until below n. */
static int below(Twister *t, int n) {
    int k = 0;
    while ((n - 1) >> k) k++;
    if (k == 0) return 0;
    uint32_t r;
    do r = genrand(t) >> (32 - k);
    while (r >= (uint32_t)n);
    return (int)r;
}

static int read_twister(PyObject *words, Twister *t) {
    if (!PyTuple_Check(words) || PyTuple_GET_SIZE(words) != MT_N + 1) {
        PyErr_SetString(PyExc_ValueError, "expected the 625 numbers of random.Random.getstate()");
        return -1;
    }
    for (int i = 0; i < MT_N; i++) {
        unsigned long w = PyLong_AsUnsignedLong(PyTuple_GET_ITEM(words, i));
        if (w == (unsigned long)-1 && PyErr_Occurred()) return -1;
        t->mt[i] = (uint32_t)w;
    }
    long index = PyLong_AsLong(PyTuple_GET_ITEM(words, MT_N));
    if (index < 0 || index > MT_N) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "bad twister index");
        return -1;
    }
    t->index = (int)index;
    return 0;
}

static PyObject *twister_words(const Twister *t) {
    PyObject *out = PyTuple_New(MT_N + 1);
    if (!out) return NULL;
    for (int i = 0; i < MT_N; i++) PyTuple_SET_ITEM(out, i, PyLong_FromUnsignedLong(t->mt[i]));
    PyTuple_SET_ITEM(out, MT_N, PyLong_FromLong(t->index));
    return out;
}

#endif
