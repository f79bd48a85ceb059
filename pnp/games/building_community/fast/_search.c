/* Building Community's kernel: the compiled proof search, iterative deepening (IDA*) over
 * whole turns; and its games, through the one seam (`_play.h`, `_tree.h`).
 *
 * Why C: proving a radius-3 line shortest means exhausting every line one turn shorter
 * that the lower bound cannot cut, tens of millions of positions; the Python search over
 * big ints does a few hundred thousand a second. This is `FastBoard.options` (bitboard.py)
 * spelled out on 64-bit masks of cell indices (boards of at most 64 cells: R <= 4), rule
 * for rule, plus the bound and the transposition table of `solver_bound.py`:
 *
 * - the bound is `solver_bound.turns_needed` (its docstring proves it admissible);
 * - the table is keyed by a canonical position: the least, over the board's symmetries
 *   the caller passes (cell permutations), of (the three colour masks as an unordered
 *   set, the pawns' cells listed from the pawn to move on). Colour names and which seat
 *   is to move do not change the distance to a win; the turn order does, so it is kept.
 *   An entry says "no win within r turns from here"; a later visit with r or fewer turns
 *   left is cut.
 *
 * The tables (neighbour masks, swap pairs per pawn cell, distance-3 masks, symmetries)
 * come from the caller, built from the play model. No static mutable data: reentrant.
 *
 * After the search, the game's turn on the fast path's own padded axial bits (`_play.h`)
 * and the tree search over it (`_tree.h`, `pnp/play/_uct.h`), which `pnp/play/_seam.h`
 * turns into the module's `play`, `play_seeded`, `playout` and `tree_search` (`kernel.py`).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../../play/_twister.h"
#include "../../../play/_seed.h"
#include "../../../play/_seed_text.h"
#include "../../../play/_seam.h"

#define MAX_CELLS 64
#define MAX_PAWNS 6
#define MAX_SYMS 12
#define MAX_DEPTH 250
#define MAX_DROP 6

typedef uint64_t u64;

typedef struct {
    u64 k0, k1, k2; /* canonical key; k2 holds the pawns and a set bit, 0 = empty slot */
    int r;          /* no win within r turns */
} Entry;

typedef struct {
    u64 m[3];   /* colour masks */
    u64 iso;    /* isolated tiles */
    int8_t a, b, to; /* the turn that led here; a < 0 for a pass */
    int h;
} Child;

typedef struct {
    Child *items;
    Py_ssize_t len, cap;
} Kids;

typedef struct {
    int n, players;
    u64 board;
    u64 nb[MAX_CELLS], nbc[MAX_CELLS], far3[MAX_CELLS], ball2[MAX_CELLS];
    int16_t *pairs[2][MAX_CELLS]; /* [special][cell]: a, b per pair, -1 ends */
    int syms;
    u64 perm[MAX_SYMS][8][256];  /* per symmetry, per byte of a mask: the mapped bits */
    int8_t cellmap[MAX_SYMS][MAX_CELLS];
    Entry *table;
    u64 table_mask;
    long long nodes, budget, report_every, report_at;
    PyObject *progress;
    int aborted, failed, line_len;
    int pawns[MAX_PAWNS];
    int8_t line[MAX_DEPTH][3];
    Kids kids[MAX_DEPTH + 1];
} Search;

#if defined(__GNUC__) || defined(__clang__)
static inline int popc(u64 x) { return __builtin_popcountll(x); }
static inline int ctz(u64 x) { return __builtin_ctzll(x); }
#else
static int popc(u64 x) {
    x = x - ((x >> 1) & 0x5555555555555555ULL);
    x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
    return (int)((x * 0x0101010101010101ULL) >> 56);
}
static int ctz(u64 x) { /* x != 0 */
    int n = 0;
    while (!(x & 1)) { x >>= 1; n++; }
    return n;
}
#endif

static u64 flood(const Search *s, u64 seed, u64 mask) {
    u64 comp = seed, front = seed;
    while (front) {
        int b = ctz(front);
        front &= front - 1;
        u64 add = s->nb[b] & mask & ~comp;
        comp |= add;
        front |= add;
    }
    return comp;
}

/* Isolated tiles among `region`, with colour masks m. */
static u64 isolated_in(const Search *s, const u64 *m, u64 region) {
    u64 out = 0;
    while (region) {
        int x = ctz(region);
        region &= region - 1;
        u64 bit = (u64)1 << x;
        u64 own = (m[0] & bit) ? m[0] : (m[1] & bit) ? m[1] : m[2];
        if (!(s->nb[x] & own)) out |= bit;
    }
    return out;
}

/* The lower bound from the isolated tiles alone: see solver_bound.turns_needed. */
static int cluster_bound(const Search *s, u64 iso) {
    int total = 0;
    while (iso) {
        u64 comp = iso & -iso, front = comp;
        while (front) {
            int b = ctz(front);
            front &= front - 1;
            u64 add = s->far3[b] & iso & ~comp;
            comp |= add;
            front |= add;
        }
        iso &= ~comp;
        int by_count = (popc(comp) + MAX_DROP - 1) / MAX_DROP, apart = 0;
        u64 rest = comp;
        while (rest) {
            rest &= ~s->far3[ctz(rest)];
            apart++;
        }
        total += by_count > apart ? by_count : apart;
    }
    return total;
}

/* The bound with the round to come: see solver_bound.turns_needed. `pawns` in seat
 * order, pawn k to move. The least T that the clusters, the idle turns among the first
 * T and (T within one round) the reach of the first T turns allow. */
static int bound(const Search *s, u64 iso, const int *pawns, int k) {
    int base = cluster_bound(s, iso), t = base;
    if (!t) return 0;
    for (;;) {
        int idle = 0;
        u64 covered = 0;
        for (int i = 0; i < s->players && i < t; i++) {
            u64 reach = s->ball2[pawns[(k + i) % s->players]];
            covered |= reach;
            idle += !(reach & iso);
        }
        if (t >= base + idle && (t >= s->players || !(iso & ~covered))) return t;
        t++;
    }
}

static inline u64 permute(const Search *s, int g, u64 m) {
    u64 out = 0;
    for (int i = 0; m; i++, m >>= 8) out |= s->perm[g][i][m & 0xff];
    return out;
}

static void canonical(const Search *s, const u64 *m, const int *pawns, int k, u64 *key) {
    int first = 1;
    for (int g = 0; g < s->syms; g++) {
        u64 t[3] = {permute(s, g, m[0]), permute(s, g, m[1]), 0};
        t[2] = s->board & ~(t[0] | t[1]);
        u64 x;
        if (t[0] > t[1]) { x = t[0]; t[0] = t[1]; t[1] = x; }
        if (t[1] > t[2]) { x = t[1]; t[1] = t[2]; t[2] = x; }
        if (t[0] > t[1]) { x = t[0]; t[0] = t[1]; t[1] = x; }
        u64 p = 1;
        for (int i = 0; i < s->players; i++)
            p = p << 6 | (u64)s->cellmap[g][pawns[(k + i) % s->players]];
        if (first || t[0] < key[0] || (t[0] == key[0] && (t[1] < key[1] ||
                                       (t[1] == key[1] && p < key[2])))) {
            key[0] = t[0];
            key[1] = t[1];
            key[2] = p;
            first = 0;
        }
    }
}

static Entry *slot(const Search *s, const u64 *key) {
    u64 h = key[0] * 0x9E3779B97F4A7C15ULL ^ key[1] * 0xC2B2AE3D27D4EB4FULL ^
            key[2] * 0x165667B19E3779F9ULL;
    h ^= h >> 29;
    return &s->table[h & s->table_mask];
}

static int push(Kids *kids, const Child *c) {
    if (kids->len == kids->cap) {
        Py_ssize_t cap = kids->cap ? 2 * kids->cap : 256;
        Child *items = PyMem_Realloc(kids->items, (size_t)cap * sizeof(Child));
        if (!items) return -1;
        kids->items = items;
        kids->cap = cap;
    }
    kids->items[kids->len++] = *c;
    return 0;
}

/* Every child of the position (m, iso, pawns, k), as FastBoard.options makes them. */
static int children(Search *s, const u64 *m, u64 iso, int k, Kids *out) {
    out->len = 0;
    int p = s->pawns[k];
    u64 pb = (u64)1 << p, occ = 0;
    for (int i = 0; i < s->players; i++) occ |= (u64)1 << s->pawns[i];
    int stood = (m[0] & pb) ? 0 : (m[1] & pb) ? 1 : 2;
    int special = (flood(s, pb, m[stood]) & occ & ~pb) != 0;
    u64 ring = s->nb[p];
    int before = popc(ring & iso);
    if (before || special) {
        for (const int16_t *q = s->pairs[special][p]; *q >= 0; q += 2) {
            int a = q[0], b = q[1];
            u64 ab = (u64)1 << a | (u64)1 << b;
            if (occ & ab) continue;
            int ca = (m[0] >> a & 1) ? 0 : (m[1] >> a & 1) ? 1 : 2;
            int cb = (m[0] >> b & 1) ? 0 : (m[1] >> b & 1) ? 1 : 2;
            if (ca == cb) continue;
            Child c;
            c.m[0] = m[0];
            c.m[1] = m[1];
            c.m[2] = m[2];
            c.m[ca] ^= ab;
            c.m[cb] ^= ab;
            u64 region = s->nbc[a] | s->nbc[b];
            c.iso = (iso & ~region) | isolated_in(s, c.m, region);
            if (!special && popc(c.iso & ring) >= before) continue;
            u64 first = flood(s, (u64)1 << a, c.m[cb]);
            u64 second = flood(s, (u64)1 << b, c.m[ca]);
            u64 target;
            if (special) {
                target = first | second;
            } else {
                int na = popc(first), nb = popc(second);
                target = na > nb ? first : nb > na ? second : first | second;
            }
            u64 dest = target & ~occ & ~c.m[stood];
            c.a = (int8_t)a;
            c.b = (int8_t)b;
            c.h = c.iso ? -1 : 0; /* the bound is filled in by the caller */
            while (dest) {
                c.to = (int8_t)ctz(dest);
                dest &= dest - 1;
                if (push(out, &c) < 0) return -1;
            }
        }
    }
    if (out->len == 0) { /* a pass */
        Child c;
        c.m[0] = m[0];
        c.m[1] = m[1];
        c.m[2] = m[2];
        c.iso = iso;
        c.a = c.b = c.to = -1;
        c.h = -1;
        if (push(out, &c) < 0) return -1;
    }
    s->nodes += out->len;
    return 0;
}

static int report(Search *s) {
    s->report_at = s->nodes + s->report_every;
    if (PyErr_CheckSignals() < 0) return -1;
    if (s->progress != Py_None) {
        PyObject *r = PyObject_CallFunction(s->progress, "LL", s->nodes, s->budget);
        if (!r) return -1;
        Py_DECREF(r);
    }
    return 0;
}

static int by_bound(const void *x, const void *y) {
    const Child *a = x, *b = y;
    return (a->h > b->h) - (a->h < b->h);
}

/* Depth-first below the position: 1 = a win within `left` turns (the line is filled in),
 * 0 = none, -1 = stopped (budget, error). */
static int dfs(Search *s, const u64 *m, u64 iso, int k, int depth, int left) {
    if (s->nodes >= s->report_at && report(s) < 0) { s->failed = 1; return -1; }
    if (s->nodes >= s->budget) { s->aborted = 1; return -1; }
    u64 key[3] = {0, 0, 0};
    canonical(s, m, s->pawns, k, key);
    Entry *e = slot(s, key);
    if (e->k2 == key[2] && e->k0 == key[0] && e->k1 == key[1] && e->r >= left) return 0;
    Kids *kids = &s->kids[depth];
    if (children(s, m, iso, k, kids) < 0) { s->failed = 1; PyErr_NoMemory(); return -1; }
    for (Py_ssize_t i = 0; i < kids->len; i++) {
        Child *c = &kids->items[i];
        if (c->a >= 0 && !c->iso) { /* a win */
            s->line_len = depth + 1;
            s->line[depth][0] = c->a;
            s->line[depth][1] = c->b;
            s->line[depth][2] = c->to;
            return 1;
        }
        int moved = s->pawns[k];
        if (c->a >= 0) s->pawns[k] = c->to;
        c->h = bound(s, c->iso, s->pawns, (k + 1) % s->players);
        s->pawns[k] = moved;
    }
    qsort(kids->items, (size_t)kids->len, sizeof(Child), by_bound);
    int next = (k + 1) % s->players;
    for (Py_ssize_t i = 0; i < kids->len; i++) {
        Child c = kids->items[i];  /* a copy: the deeper calls reuse only their own level */
        if (1 + c.h > left) break;  /* sorted: every later child is cut too */
        int moved = s->pawns[k];
        if (c.a >= 0) s->pawns[k] = c.to;
        int found = dfs(s, c.m, c.iso, next, depth + 1, left - 1);
        s->pawns[k] = moved;
        if (found) {
            if (found > 0) {
                s->line[depth][0] = c.a;
                s->line[depth][1] = c.b;
                s->line[depth][2] = c.to;
            }
            return found;
        }
    }
    e = slot(s, key);
    e->k0 = key[0];
    e->k1 = key[1];
    e->k2 = key[2];
    e->r = left;
    return 0;
}

/* The proof search's arguments, by name (`solver_proof.prove`): the board's tables, per
 * cell (neighbour, distance-3 and reach masks; the swap pairs an ordinary and a special
 * turn may make from it, flat as a, b, a, b, ..., with how many each cell has), the
 * symmetries (cell permutations, one after another), the start (each cell's colour, the
 * pawns' cells, pawn 0 to move), the thresholds, the node budget, the table's size (bits)
 * and the nodes between two progress reports. `bound` reads the tables, a mask of isolated
 * tiles and the pawns' cells in turn order from the pawn to move. */
typedef struct {
    u64 *nb, *far3, *ball2, *pairs, *special_pairs, *syms;
    int n_nb, n_far3, n_ball2, n_pairs, n_special_pairs, n_syms;
    int pairs_per_cell[MAX_CELLS], n_pairs_per_cell;
    int special_per_cell[MAX_CELLS], n_special_per_cell;
    int colours[MAX_CELLS], n_colours;
    int pawns[MAX_PAWNS], players;
    int lo, hi, table_bits;
    u64 budget, every, isolated;
} Proof;

static const SeamField PROOF[] = {
    SEAM_U64_LIST(Proof, nb, n_nb),
    SEAM_U64_LIST(Proof, far3, n_far3),
    SEAM_U64_LIST(Proof, ball2, n_ball2),
    SEAM_U64_LIST(Proof, pairs, n_pairs),
    SEAM_LIST(Proof, pairs_per_cell, n_pairs_per_cell, 0, MAX_CELLS * 3),
    SEAM_U64_LIST(Proof, special_pairs, n_special_pairs),
    SEAM_LIST(Proof, special_per_cell, n_special_per_cell, 0, MAX_CELLS * 3),
    SEAM_U64_LIST(Proof, syms, n_syms),
    SEAM_LIST(Proof, colours, n_colours, 0, 2),
    SEAM_LIST(Proof, pawns, players, 0, MAX_CELLS - 1),
    SEAM_INT(Proof, lo, 0, MAX_DEPTH - 1),
    SEAM_INT(Proof, hi, 0, MAX_DEPTH - 1),
    SEAM_U64(Proof, budget),
    SEAM_INT(Proof, table_bits, 4, 30),
    SEAM_U64(Proof, every),
    SEAM_END,
};

static const SeamField BOUND[] = {
    SEAM_U64_LIST(Proof, nb, n_nb),
    SEAM_U64_LIST(Proof, far3, n_far3),
    SEAM_U64_LIST(Proof, ball2, n_ball2),
    SEAM_U64(Proof, isolated),
    SEAM_LIST(Proof, pawns, players, 0, MAX_CELLS - 1),
    SEAM_END,
};

/* The board's masks from `q` into s (1 to 64 cells, the three tables alike); 0, or -1
 * with a ValueError. */
static int read_board(const Proof *q, Search *s) {
    if (q->n_nb < 1 || q->n_nb > MAX_CELLS || q->n_far3 != q->n_nb || q->n_ball2 != q->n_nb) {
        PyErr_SetString(PyExc_ValueError, "the board: 1 to 64 cells, a mask of each kind each");
        return -1;
    }
    s->n = q->n_nb;
    s->board = s->n == 64 ? ~(u64)0 : (((u64)1 << s->n) - 1);
    for (int c = 0; c < s->n; c++) {
        s->nb[c] = q->nb[c];
        s->far3[c] = q->far3[c];
        s->ball2[c] = q->ball2[c];
        s->nbc[c] = s->nb[c] | (u64)1 << c;
    }
    return 0;
}

static void search_free(Search *s) {
    for (int sp = 0; sp < 2; sp++)
        for (int c = 0; c < MAX_CELLS; c++) PyMem_Free(s->pairs[sp][c]);
    for (int d = 0; d <= MAX_DEPTH; d++) PyMem_Free(s->kids[d].items);
    PyMem_Free(s->table);
    PyMem_Free(s);
}

/* One kind of swap pairs (flat `flat`, `total` numbers; `per_cell[c]` pairs for cell c)
 * into s->pairs[sp]; 0, or -1 with an error set. */
static int read_pairs(const u64 *flat, int total, const int *per_cell, int cells, Search *s,
                      int sp) {
    int at = 0;
    if (cells != s->n) {
        PyErr_SetString(PyExc_ValueError, "pairs: a count for each cell");
        return -1;
    }
    for (int c = 0; c < s->n; c++) {
        int len = per_cell[c];
        if (2 * (at + len) > total) {
            PyErr_SetString(PyExc_ValueError, "pairs: fewer than the counts say");
            return -1;
        }
        s->pairs[sp][c] = PyMem_Malloc((size_t)(2 * len + 1) * sizeof(int16_t));
        if (!s->pairs[sp][c]) {
            PyErr_NoMemory();
            return -1;
        }
        for (int i = 0; i < len; i++, at++) {
            u64 a = flat[2 * at], b = flat[2 * at + 1];
            if (a >= (u64)s->n || b >= (u64)s->n) {
                PyErr_SetString(PyExc_ValueError, "a pair off the board");
                return -1;
            }
            s->pairs[sp][c][2 * i] = (int16_t)a;
            s->pairs[sp][c][2 * i + 1] = (int16_t)b;
        }
        s->pairs[sp][c][2 * len] = -1;
    }
    if (2 * at != total) {
        PyErr_SetString(PyExc_ValueError, "pairs: more than the counts say");
        return -1;
    }
    return 0;
}

/* search(fields, progress) -> (line | None, nodes, proven, per-threshold nodes): the
 * fields as `PROOF` names them; `progress(nodes, budget)` is called now and then (None:
 * never).
 *
 * Thresholds lo..hi in turn: the first that holds a win gives the line (a list of
 * (a, b, to) cell triples, None for a pass). `proven` is the largest threshold
 * exhausted without a win (lo - 1 if none). */
static PyObject *search(PyObject *self, PyObject *args) {
    PyObject *fields, *progress;
    Proof q;
    (void)self;
    memset(&q, 0, sizeof q);
    if (!PyArg_ParseTuple(args, "O!O", &PyDict_Type, &fields, &progress)) return NULL;
    Search *s = PyMem_Calloc(1, sizeof(Search));
    if (!s) return PyErr_NoMemory();
    if (seam_read(fields, PROOF, &q, "proof") < 0 || read_board(&q, s) < 0) goto fail;
    if (q.players < 1 || q.n_colours != s->n || q.n_syms < s->n || q.n_syms % s->n ||
        q.n_syms / s->n > MAX_SYMS) {
        PyErr_SetString(PyExc_ValueError, "proof: pawns, colours or symmetries out of range");
        goto fail;
    }
    if (read_pairs(q.pairs, q.n_pairs, q.pairs_per_cell, q.n_pairs_per_cell, s, 0) < 0 ||
        read_pairs(q.special_pairs, q.n_special_pairs, q.special_per_cell,
                   q.n_special_per_cell, s, 1) < 0)
        goto fail;
    s->players = q.players;
    s->syms = q.n_syms / s->n;
    s->budget = q.budget > (u64)LLONG_MAX ? LLONG_MAX : (long long)q.budget;
    s->report_every = q.every > 0 && q.every < (u64)LLONG_MAX ? (long long)q.every : 1 << 15;
    s->report_at = s->report_every;
    s->progress = progress;
    int lo = q.lo, hi = q.hi, table_bits = q.table_bits;
    u64 m[3] = {0, 0, 0};
    for (int c = 0; c < s->n; c++) m[q.colours[c]] |= (u64)1 << c;
    for (int i = 0; i < s->players; i++) {
        if (q.pawns[i] >= s->n) { PyErr_SetString(PyExc_ValueError, "pawn off board"); goto fail; }
        s->pawns[i] = q.pawns[i];
    }
    for (int g = 0; g < s->syms; g++) {
        const u64 *map = q.syms + (size_t)g * (size_t)s->n;
        for (int c = 0; c < s->n; c++) {
            if (map[c] >= (u64)s->n) { PyErr_SetString(PyExc_ValueError, "symmetry"); goto fail; }
            s->cellmap[g][c] = (int8_t)map[c];
        }
        for (int byte = 0; byte < 8; byte++)
            for (int v = 0; v < 256; v++) {
                u64 out = 0;
                for (int j = 0; j < 8; j++) {
                    int c = byte * 8 + j;
                    if ((v >> j & 1) && c < s->n) out |= (u64)1 << s->cellmap[g][c];
                }
                s->perm[g][byte][v] = out;
            }
    }
    s->table = PyMem_Calloc((size_t)1 << table_bits, sizeof(Entry));
    if (!s->table) { PyErr_NoMemory(); goto fail; }
    s->table_mask = ((u64)1 << table_bits) - 1;
    u64 iso = isolated_in(s, m, s->board);
    PyObject *per = PyList_New(0);
    if (!per) goto fail;
    int found = 0, proven = lo - 1;
    for (int t = lo; t <= hi && !found; t++) {
        long long before = s->nodes;
        if (iso == 0)
            found = 1; /* won already: the empty line */
        else if (bound(s, iso, s->pawns, 0) <= t)
            found = dfs(s, m, iso, 0, 0, t);
        PyObject *v = PyLong_FromLongLong(s->nodes - before);
        if (!v || PyList_Append(per, v) < 0) { Py_XDECREF(v); Py_DECREF(per); goto fail; }
        Py_DECREF(v);
        if (found < 0) break;
        if (found == 0) proven = t;
        else {
            PyObject *line = PyList_New(s->line_len);
            if (!line) { Py_DECREF(per); goto fail; }
            for (int d = 0; d < s->line_len; d++) {
                PyObject *step = s->line[d][0] < 0 ? Py_NewRef(Py_None)
                                 : Py_BuildValue("(iii)", s->line[d][0], s->line[d][1],
                                                 s->line[d][2]);
                if (!step) { Py_DECREF(line); Py_DECREF(per); goto fail; }
                PyList_SET_ITEM(line, d, step);
            }
            PyObject *out = Py_BuildValue("(NLiN)", line, s->nodes, proven, per);
            search_free(s);
            seam_free(PROOF, &q);
            return out;
        }
    }
    if (s->failed) { Py_DECREF(per); goto fail; }
    {
        PyObject *out = Py_BuildValue("(OLiN)", Py_None, s->nodes, proven, per);
        search_free(s);
        seam_free(PROOF, &q);
        return out;
    }
fail:
    search_free(s);
    seam_free(PROOF, &q);
    return NULL;
}

/* bound(fields) -> the lower bound, for the tests: the fields as `BOUND` names them. */
static PyObject *py_bound(PyObject *self, PyObject *args) {
    PyObject *fields, *out = NULL;
    Proof q;
    (void)self;
    memset(&q, 0, sizeof q);
    if (!PyArg_ParseTuple(args, "O!", &PyDict_Type, &fields)) return NULL;
    Search *s = PyMem_Calloc(1, sizeof(Search));
    if (!s) return PyErr_NoMemory();
    if (seam_read(fields, BOUND, &q, "bound") == 0 && read_board(&q, s) == 0) {
        int pawns[MAX_PAWNS];
        s->players = q.players;
        for (int i = 0; i < s->players; i++) pawns[i] = q.pawns[i] % s->n;
        out = PyLong_FromLong(bound(s, q.isolated, pawns, 0));
    }
    seam_free(BOUND, &q);
    PyMem_Free(s);
    return out;
}

#include "_play.h" /* the turn on the fast path's bits: whole games, playouts, moves */
#include "_tree.h" /* the compiled tree search over these positions */

static const SeamKernel KERNEL = {
    .board = PLAYBOARD,
    .game_size = sizeof(Game),
    .twister = offsetof(Game, tw),
    .nogil = 1, /* `begin` takes every table a game needs */
    .settings = SETTINGS,
    .begin = game_begin,
    .play = game_play,
    .record = game_record,
    .end = game_end,
    .seed_start = seed_start,
    .position_size = sizeof(Packed),
    .position = POSITION,
    .after = AFTER,
    .playout = position_playout,
    .release = position_release,
    .tree = tree_begin,
    .tree_end = tree_end,
};

SEAM_ENTRIES(KERNEL)


static PyMethodDef METHODS[] = {
    {"search", search, METH_VARARGS, "IDA* from the start position (see the module header)."},
    {"bound", py_bound, METH_VARARGS, "The lower bound on turns left, for an isolated mask."},
    {"playboard", playboard, METH_O, "The fast path's tables for the game's play, by name."},
    {"moves", moves, METH_VARARGS, "A position's legal moves in canonical order, and is it special."},
    SEAM_METHODS,
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef MODULE = {
    PyModuleDef_HEAD_INIT, "_search", "Building Community's kernel: proof search and games (see _search.c).", -1, METHODS,
    NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__search(void) { return PyModule_Create(&MODULE); }
