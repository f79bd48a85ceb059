/* The one seam between a game's compiled side and Python, written once for every game.
 *
 * A game's compiled side is its rules in C and two declarations: its positions and
 * settings as tables of named fields (`SeamField`), and its hooks (`SeamKernel`, filled
 * by name). The entry points Python calls are here: a whole game on the caller's
 * generator (`play`), one game per seed text (`play_seeded`), a playout from a position
 * (`playout`) and the tree search of `_uct.h` from a decision (`tree_search`). Each takes
 * dicts keyed by the fields' names, so a field left out, misspelt or extra is a clear
 * error naming it, not a wrong game: no game parses positional arguments of its own.
 * Include after `_twister.h`, `_seed.h` and `_seed_text.h`.
 */
#ifndef PNP_SEAM_H
#define PNP_SEAM_H

#include <limits.h>
#include <stddef.h>
#include <stdint.h>

#include "_uct.h"

/* --- named fields ------------------------------------------------------------------- */

typedef enum {
    SEAM_K_INT, SEAM_K_BOOL, SEAM_K_U64, SEAM_K_DOUBLE, SEAM_K_INTS, SEAM_K_HEAP, SEAM_K_U64S,
    SEAM_K_DOUBLES, SEAM_K_F64S
} SeamKind;

#define SEAM_EXACT ((size_t)-1) /* a list of exactly `len` ints */
#define SEAM_OUT 1              /* written, never read: a result of the kernel's */

typedef struct {
    const char *name;
    SeamKind kind;
    size_t offset; /* of the member in the struct the table describes */
    int len;       /* SEAM_K_INTS, _DOUBLES: the most numbers the member holds */
    size_t count;  /* SEAM_K_INTS, _DOUBLES, _HEAP, _U64S, _F64S: offset of the int holding how many,
                      or SEAM_EXACT */
    long long lo, hi;
    int flags;
} SeamField;

#define SEAM_MEMBER_LEN(T, m) ((int)(sizeof(((T *)0)->m) / sizeof(((T *)0)->m[0])))
/* An int member in [lo, hi]; a flag; a 64-bit mask; a double. */
#define SEAM_INT(T, m, lo, hi) {#m, SEAM_K_INT, offsetof(T, m), 1, SEAM_EXACT, lo, hi, 0}
#define SEAM_BOOL(T, m) {#m, SEAM_K_BOOL, offsetof(T, m), 1, SEAM_EXACT, 0, 1, 0}
#define SEAM_U64(T, m) {#m, SEAM_K_U64, offsetof(T, m), 1, SEAM_EXACT, 0, 0, 0}
#define SEAM_DOUBLE(T, m) {#m, SEAM_K_DOUBLE, offsetof(T, m), 1, SEAM_EXACT, 0, 0, 0}
/* An int array member read whole; or up to its size, how many into member `n`. */
#define SEAM_INTS(T, m, lo, hi) \
    {#m, SEAM_K_INTS, offsetof(T, m), SEAM_MEMBER_LEN(T, m), SEAM_EXACT, lo, hi, 0}
#define SEAM_LIST(T, m, n, lo, hi) \
    {#m, SEAM_K_INTS, offsetof(T, m), SEAM_MEMBER_LEN(T, m), offsetof(T, n), lo, hi, 0}
/* The same for a double array member (a two-dimensional one counts its doubles, row by row). */
#define SEAM_DOUBLES_LEN(T, m) ((int)(sizeof(((T *)0)->m) / sizeof(double)))
#define SEAM_DOUBLES(T, m) \
    {#m, SEAM_K_DOUBLES, offsetof(T, m), SEAM_DOUBLES_LEN(T, m), SEAM_EXACT, 0, 0, 0}
#define SEAM_DOUBLE_LIST(T, m, n) \
    {#m, SEAM_K_DOUBLES, offsetof(T, m), SEAM_DOUBLES_LEN(T, m), offsetof(T, n), 0, 0, 0}
/* A result only: an int array the kernel holds elsewhere (`int *m`, `n` of them). */
#define SEAM_HEAP_OUT(T, m, n) {#m, SEAM_K_HEAP, offsetof(T, m), 0, offsetof(T, n), 0, 0, SEAM_OUT}
#define SEAM_OUT_INT(T, m) {#m, SEAM_K_INT, offsetof(T, m), 1, SEAM_EXACT, 0, 0, SEAM_OUT}
/* A list of 64-bit words of any length, read into memory the seam takes (`uint64_t *m`,
   `n` of them) and gives back after the call (`seam_free`). */
#define SEAM_U64_LIST(T, m, n) {#m, SEAM_K_U64S, offsetof(T, m), 0, offsetof(T, n), 0, 0, 0}
/* The same for a list of numbers of any length read as doubles (`double *m`, `n` of them). */
#define SEAM_F64_LIST(T, m, n) {#m, SEAM_K_F64S, offsetof(T, m), 0, offsetof(T, n), 0, 0, 0}
#define SEAM_END {NULL, SEAM_K_INT, 0, 0, 0, 0, 0, 0}

static int *seam_int(void *base, size_t offset) { return (int *)((char *)base + offset); }

static int seam_bad(const char *what, const char *name, const char *why) {
    PyErr_Format(PyExc_ValueError, "%s field %s: %s", what, name, why);
    return -1;
}

/* Fill the struct at `out` from `dict`, by the fields' names; every field (but results)
   must be there and nothing else. 0, or -1 with a ValueError naming the field. */
static int seam_read(PyObject *dict, const SeamField *fields, void *out, const char *what) {
    if (!PyDict_Check(dict)) {
        PyErr_Format(PyExc_TypeError, "%s: expected a dict of named fields", what);
        return -1;
    }
    Py_ssize_t wanted = 0;
    for (const SeamField *f = fields; f->name; f++) {
        if (f->flags & SEAM_OUT) continue;
        wanted++;
        PyObject *item = PyDict_GetItemString(dict, f->name); /* borrowed */
        if (!item) return seam_bad(what, f->name, "missing");
        char *at = (char *)out + f->offset;
        if (f->kind == SEAM_K_INT) {
            long long v = PyLong_AsLongLong(item);
            if (v == -1 && PyErr_Occurred()) return -1;
            if (v < f->lo || v > f->hi) return seam_bad(what, f->name, "out of range");
            *(int *)at = (int)v;
        } else if (f->kind == SEAM_K_BOOL) {
            int v = PyObject_IsTrue(item);
            if (v < 0) return -1;
            *(int *)at = v;
        } else if (f->kind == SEAM_K_U64) {
            unsigned long long v = PyLong_AsUnsignedLongLong(item);
            if (v == (unsigned long long)-1 && PyErr_Occurred()) return -1;
            *(uint64_t *)at = v;
        } else if (f->kind == SEAM_K_DOUBLE) {
            double v = PyFloat_AsDouble(item);
            if (v == -1.0 && PyErr_Occurred()) return -1;
            *(double *)at = v;
        } else if (f->kind == SEAM_K_INTS) {
            PyObject *fast = PySequence_Fast(item, "expected a sequence of ints");
            if (!fast) return -1;
            Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
            int ok = f->count == SEAM_EXACT ? n == f->len : n <= f->len;
            for (Py_ssize_t i = 0; ok && i < n; i++) {
                long long v = PyLong_AsLongLong(PySequence_Fast_GET_ITEM(fast, i));
                ok = v >= f->lo && v <= f->hi;
                ((int *)at)[i] = (int)v;
            }
            Py_DECREF(fast);
            if (!ok) {
                if (PyErr_Occurred()) return -1;
                return seam_bad(what, f->name, "wrong length or a number out of range");
            }
            if (f->count != SEAM_EXACT) *seam_int(out, f->count) = (int)n;
        } else if (f->kind == SEAM_K_DOUBLES) {
            PyObject *fast = PySequence_Fast(item, "expected a sequence of numbers");
            if (!fast) return -1;
            Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
            int ok = f->count == SEAM_EXACT ? n == f->len : n <= f->len;
            for (Py_ssize_t i = 0; ok && i < n; i++) {
                double v = PyFloat_AsDouble(PySequence_Fast_GET_ITEM(fast, i));
                ok = !(v == -1.0 && PyErr_Occurred());
                ((double *)at)[i] = v;
            }
            Py_DECREF(fast);
            if (!ok) {
                if (PyErr_Occurred()) return -1;
                return seam_bad(what, f->name, "wrong length");
            }
            if (f->count != SEAM_EXACT) *seam_int(out, f->count) = (int)n;
        } else if (f->kind == SEAM_K_U64S || f->kind == SEAM_K_F64S) {
            /* 64-bit words or doubles: either way eight bytes a number */
            int words = f->kind == SEAM_K_U64S;
            PyObject *fast = PySequence_Fast(item, "expected a sequence of numbers");
            if (!fast) return -1;
            Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
            void *v = n < INT_MAX ? PyMem_Malloc((size_t)(n ? n : 1) * sizeof(uint64_t)) : NULL;
            *(void **)at = v; /* `seam_free` frees it, whatever happens next */
            for (Py_ssize_t i = 0; v && i < n; i++) {
                PyObject *x = PySequence_Fast_GET_ITEM(fast, i);
                if (words) ((uint64_t *)v)[i] = PyLong_AsUnsignedLongLong(x);
                else ((double *)v)[i] = PyFloat_AsDouble(x);
                if (PyErr_Occurred()) {
                    Py_DECREF(fast);
                    return -1;
                }
            }
            Py_DECREF(fast);
            if (!v) {
                PyErr_NoMemory();
                return -1;
            }
            *seam_int(out, f->count) = (int)n;
        } else {
            return seam_bad(what, f->name, "a result, not an argument");
        }
    }
    if (PyDict_Size(dict) != wanted) {
        PyObject *key;
        Py_ssize_t pos = 0;
        while (PyDict_Next(dict, &pos, &key, NULL)) {
            const char *name = PyUnicode_Check(key) ? PyUnicode_AsUTF8(key) : NULL;
            int known = 0;
            for (const SeamField *f = fields; name && f->name && !known; f++)
                known = !(f->flags & SEAM_OUT) && strcmp(f->name, name) == 0;
            if (!known) {
                PyErr_Clear();
                return seam_bad(what, name ? name : "(not a name)", "not one the kernel knows");
            }
        }
    }
    return 0;
}

/* Give back what `seam_read` took for the struct at `base` (its lists of words and of
   doubles; a list the caller has taken over and set to NULL stays its own). */
static void seam_free(const SeamField *fields, void *base) {
    for (const SeamField *f = fields; f->name; f++)
        if (f->kind == SEAM_K_U64S || f->kind == SEAM_K_F64S) {
            void **at = (void **)((char *)base + f->offset);
            PyMem_Free(*at);
            *at = NULL;
        }
}

static PyObject *seam_doubles(const double *v, Py_ssize_t n) {
    PyObject *out = PyTuple_New(n);
    for (Py_ssize_t i = 0; out && i < n; i++) {
        PyObject *x = PyFloat_FromDouble(v[i]);
        if (!x) Py_CLEAR(out);
        else PyTuple_SET_ITEM(out, i, x);
    }
    return out;
}

static PyObject *seam_ints(const int *v, Py_ssize_t n) {
    PyObject *out = PyTuple_New(n);
    for (Py_ssize_t i = 0; out && i < n; i++) {
        PyObject *x = PyLong_FromLong(v[i]);
        if (!x) Py_CLEAR(out);
        else PyTuple_SET_ITEM(out, i, x);
    }
    return out;
}

/* The struct at `in` as a dict of its named fields (results included). */
static PyObject *seam_write(const SeamField *fields, const void *in) {
    PyObject *out = PyDict_New();
    for (const SeamField *f = fields; out && f->name; f++) {
        const char *at = (const char *)in + f->offset;
        Py_ssize_t n = f->count == SEAM_EXACT ? f->len : *seam_int((void *)in, f->count);
        if (f->kind == SEAM_K_U64S || f->kind == SEAM_K_F64S) continue; /* arguments only */
        PyObject *v = f->kind == SEAM_K_INT    ? PyLong_FromLong(*(const int *)at)
                      : f->kind == SEAM_K_BOOL ? PyBool_FromLong(*(const int *)at)
                      : f->kind == SEAM_K_U64  ? PyLong_FromUnsignedLongLong(*(const uint64_t *)at)
                      : f->kind == SEAM_K_DOUBLE ? PyFloat_FromDouble(*(const double *)at)
                      : f->kind == SEAM_K_INTS   ? seam_ints((const int *)at, n)
                      : f->kind == SEAM_K_DOUBLES ? seam_doubles((const double *)at, n)
                                                  : seam_ints(*(int *const *)at, n);
        if (!v || PyDict_SetItemString(out, f->name, v) < 0) Py_CLEAR(out);
        Py_XDECREF(v);
    }
    return out;
}

/* --- the search's settings, named once for every game --------------------------------- */

typedef struct {
    int budget, horizon, cooperative;
    double exploration;
} SeamSearch;

static const SeamField SEAM_SEARCH[] = {
    SEAM_INT(SeamSearch, budget, 1, 1000000000),
    SEAM_INT(SeamSearch, horizon, 0, 2147483647),
    SEAM_DOUBLE(SeamSearch, exploration),
    SEAM_BOOL(SeamSearch, cooperative),
    SEAM_END,
};

/* --- a game's hooks --------------------------------------------------------------------- */

typedef struct {
    const char *board; /* the name of the game's board capsule */
    /* Whole games: a game struct of `game_size` bytes (zeroed), its generator at offset
       `twister`, its settings read into it by `settings`; `begin` checks them and
       allocates (0, or -1 with a Python error), `play` plays one game from the start (0,
       or -1 out of memory), `record` gives it to Python, `end` frees what `begin` took
       (also after a failed `begin`). With `nogil` set, `play` touches nothing of
       Python's (not even PyMem) and runs with the GIL let go. `seed_start` is where
       seeding from a text starts (`genrand_init`'s table, kept on the board). */
    size_t game_size, twister;
    int nogil;
    const SeamField *settings;
    int (*begin)(const void *board, void *game);
    int (*play)(const void *board, void *game);
    PyObject *(*record)(const void *board, const void *game);
    void (*end)(void *game);
    const uint32_t *(*seed_start)(const void *board);
    /* Positions: read into a struct of `position_size` bytes by `position`. `playout`
       plays on from it in place on `random.Random(seed)`, filling its results (0, or -1
       with a Python error); `release` frees what a playout left there. `tree` sets up the
       search from a decision: `uct` (its `ctx` the game's own) and the root (a buffer of
       `uct->size` bytes it allocates); 0, or -1 with a Python error; `tree_end` frees
       them (also after a failed `tree`). */
    size_t position_size;
    const SeamField *position, *after; /* `after`: the fields a playout hands back */
    int (*playout)(const void *board, void *position, uint64_t seed, int stop);
    void (*release)(void *position);
    int (*tree)(const void *board, const void *position, UctGame *uct, void **root);
    void (*tree_end)(UctGame *uct, void *root);
    /* Set where the tree's keys (`UctGame.key`) are not the root's indices: the seam
       looks each root child's key up among the root's actions (`seam_root_indices`). */
    int root_keys;
} SeamKernel;

static const void *seam_board(const SeamKernel *k, PyObject *capsule) {
    return PyCapsule_GetPointer(capsule, k->board);
}

/* play(board, settings, words) -> (record, words): one game on the caller's generator. */
static PyObject *seam_play(const SeamKernel *k, PyObject *args) {
    PyObject *capsule, *settings, *words, *out = NULL;
    if (!PyArg_ParseTuple(args, "OO!O", &capsule, &PyDict_Type, &settings, &words)) return NULL;
    const void *board = seam_board(k, capsule);
    if (!board) return NULL;
    void *game = PyMem_Calloc(1, k->game_size);
    if (!game) return PyErr_NoMemory();
    Twister *tw = (Twister *)((char *)game + k->twister);
    if (seam_read(settings, k->settings, game, "settings") == 0 && k->begin(board, game) == 0 &&
        read_twister(words, tw) == 0) {
        int status;
        if (k->nogil) {
            Py_BEGIN_ALLOW_THREADS
            status = k->play(board, game);
            Py_END_ALLOW_THREADS
        } else {
            status = k->play(board, game);
        }
        if (status < 0) {
            PyErr_NoMemory();
        } else {
            PyObject *record = k->record(board, game), *after = twister_words(tw);
            if (record && after) out = Py_BuildValue("NN", record, after);
            else {
                Py_XDECREF(record);
                Py_XDECREF(after);
            }
        }
    }
    k->end(game);
    seam_free(k->settings, game);
    PyMem_Free(game);
    return out;
}

/* play_seeded(board, settings, seeds) -> [record, ...]: a game per seed text, each on
   `random.Random(text)`'s draws (the kernel seeds its own generator). */
static PyObject *seam_play_seeded(const SeamKernel *k, PyObject *args) {
    PyObject *capsule, *settings, *seeds, *fast, *out = NULL;
    if (!PyArg_ParseTuple(args, "OO!O", &capsule, &PyDict_Type, &settings, &seeds)) return NULL;
    const void *board = seam_board(k, capsule);
    if (!board) return NULL;
    fast = PySequence_Fast(seeds, "expected a sequence of seed texts");
    if (!fast) return NULL;
    void *game = PyMem_Calloc(1, k->game_size);
    if (!game) {
        Py_DECREF(fast);
        return PyErr_NoMemory();
    }
    Twister *tw = (Twister *)((char *)game + k->twister);
    Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
    if (seam_read(settings, k->settings, game, "settings") == 0 && k->begin(board, game) == 0 &&
        (out = PyList_New(n))) {
        for (Py_ssize_t i = 0; i < n; i++) {
            Py_ssize_t len;
            const char *text = PyUnicode_AsUTF8AndSize(PySequence_Fast_GET_ITEM(fast, i), &len);
            PyObject *record = NULL;
            if (text && seed_twister(tw, k->seed_start(board), text, (size_t)len) == 0) {
                if (k->play(board, game) < 0) PyErr_NoMemory();
                else record = k->record(board, game);
            } else if (text) {
                PyErr_SetString(PyExc_ValueError, "a seed text of at most 1,000 bytes");
            }
            if (!record) {
                Py_CLEAR(out);
                break;
            }
            PyList_SET_ITEM(out, i, record);
        }
    }
    k->end(game);
    seam_free(k->settings, game);
    PyMem_Free(game);
    Py_DECREF(fast);
    return out;
}

/* playout(board, position, stop, seed) -> after: random play from `position` until the
   game ends or `stop` turns are played, on `random.Random(seed)`; the position after, as
   a dict of the `after` fields' names. */
static PyObject *seam_playout(const SeamKernel *k, PyObject *args) {
    PyObject *capsule, *position, *out = NULL;
    int stop;
    unsigned long long seed;
    if (!PyArg_ParseTuple(args, "OO!iK", &capsule, &PyDict_Type, &position, &stop, &seed))
        return NULL;
    const void *board = seam_board(k, capsule);
    if (!board) return NULL;
    void *p = PyMem_Calloc(1, k->position_size);
    if (!p) return PyErr_NoMemory();
    if (seam_read(position, k->position, p, "position") == 0 &&
        k->playout(board, p, (uint64_t)seed, stop) == 0)
        out = seam_write(k->after, p);
    if (k->release) k->release(p);
    seam_free(k->position, p);
    PyMem_Free(p);
    return out;
}

/* A game whose tree keys its actions otherwise than by index (`SeamKernel.root_keys`)
   gets the root's visits back by index in `legal_actions()`, as every other game does:
   each (key, visits) of `visits` becomes (index, visits), in place. 0, or -1 with a
   Python error. */
static int seam_root_indices(const UctGame *g, const void *root, PyObject *visits) {
    int n = g->count(g->ctx, root);
    if (n < 0) return -1;
    int64_t *keys = PyMem_Malloc((size_t)(n ? n : 1) * sizeof *keys);
    if (!keys) {
        PyErr_NoMemory();
        return -1;
    }
    for (int i = 0; i < n; i++) keys[i] = g->key(g->ctx, root, i);
    int rc = 0;
    for (Py_ssize_t k = 0; !rc && k < PyList_GET_SIZE(visits); k++) {
        PyObject *pair = PyList_GET_ITEM(visits, k);
        int64_t key = PyLong_AsLongLong(PyTuple_GET_ITEM(pair, 0));
        int i = 0;
        while (i < n && keys[i] != key) i++;
        PyObject *index = i < n ? Py_BuildValue("(iO)", i, PyTuple_GET_ITEM(pair, 1)) : NULL;
        if (!index) {
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_RuntimeError, "a root key is unknown");
            rc = -1;
        } else {
            PyList_SET_ITEM(visits, k, index); /* takes `index`'s reference */
            Py_DECREF(pair);
        }
    }
    PyMem_Free(keys);
    return rc;
}

/* tree_search(board, position, search, words) -> ([(index, visits), ...], words):
   `pnp.play.mcts.MctsBot.search` from a decision (`uct_search`), drawing from the twister
   words and handing them back; `search` names the budget, horizon, exploration and
   whether the game is cooperative; `index` an action's in `legal_actions()`
   (`seam_root_indices`). */
static PyObject *seam_tree_search(const SeamKernel *k, PyObject *args) {
    PyObject *capsule, *position, *search, *words, *out = NULL;
    if (!PyArg_ParseTuple(args, "OO!O!O", &capsule, &PyDict_Type, &position, &PyDict_Type,
                          &search, &words))
        return NULL;
    const void *board = seam_board(k, capsule);
    if (!board) return NULL;
    SeamSearch s;
    Twister rng;
    UctGame uct;
    void *root = NULL;
    memset(&uct, 0, sizeof uct);
    void *p = PyMem_Calloc(1, k->position_size);
    if (!p) return PyErr_NoMemory();
    if (seam_read(position, k->position, p, "position") == 0 &&
        seam_read(search, SEAM_SEARCH, &s, "search") == 0 && read_twister(words, &rng) == 0 &&
        k->tree(board, p, &uct, &root) == 0) {
        PyObject *visits = uct_search(&uct, root, &rng, s.budget, s.horizon, s.exploration,
                                      s.cooperative);
        if (visits && k->root_keys && seam_root_indices(&uct, root, visits) < 0) Py_CLEAR(visits);
        if (visits) out = Py_BuildValue("NN", visits, twister_words(&rng));
    }
    k->tree_end(&uct, root);
    seam_free(k->position, p);
    PyMem_Free(p);
    return out;
}

/* The SHA-256 of the C files a kernel was compiled from, defined by setup.py's build hook
   ("" where something else compiled it): tests/test_kernel_sources.py holds it to the
   checkout's files, so a kernel left from an earlier build is caught, not played. */
#ifndef PNP_SOURCES
#define PNP_SOURCES ""
#endif

/* The module functions of a game's `SeamKernel` (`kernel`): put SEAM_ENTRIES(kernel) after
   it and SEAM_METHODS in the module's method table. */
#define SEAM_ENTRIES(kernel)                                                                 \
    static PyObject *seam_entry_sources(PyObject *self, PyObject *unused) {                  \
        (void)self;                                                                          \
        (void)unused;                                                                        \
        return PyUnicode_FromString(PNP_SOURCES);                                            \
    }                                                                                        \
    static PyObject *seam_entry_play(PyObject *self, PyObject *args) {                       \
        (void)self;                                                                          \
        return seam_play(&kernel, args);                                                     \
    }                                                                                        \
    static PyObject *seam_entry_play_seeded(PyObject *self, PyObject *args) {                \
        (void)self;                                                                          \
        return seam_play_seeded(&kernel, args);                                              \
    }                                                                                        \
    static PyObject *seam_entry_playout(PyObject *self, PyObject *args) {                    \
        (void)self;                                                                          \
        return seam_playout(&kernel, args);                                                  \
    }                                                                                        \
    static PyObject *seam_entry_tree_search(PyObject *self, PyObject *args) {                \
        (void)self;                                                                          \
        return seam_tree_search(&kernel, args);                                              \
    }

#define SEAM_METHODS                                                                          \
    {"sources", seam_entry_sources, METH_NOARGS,                                              \
     "sources(): the SHA-256 of the C files this kernel was compiled from."},                \
    {"play", seam_entry_play, METH_VARARGS,                                                   \
     "play(board, settings, words): one whole game on the caller's generator; (record, words)."}, \
    {"play_seeded", seam_entry_play_seeded, METH_VARARGS,                                     \
     "play_seeded(board, settings, seeds): a game per seed text; [record, ...]."},            \
    {"playout", seam_entry_playout, METH_VARARGS,                                             \
     "playout(board, position, stop, seed): random play from a position; the position after."}, \
    {"tree_search", seam_entry_tree_search, METH_VARARGS,                                     \
     "tree_search(board, position, search, words): pnp.play.mcts's search from a decision."}

#endif
