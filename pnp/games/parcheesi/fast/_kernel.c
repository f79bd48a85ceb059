/* Parcheesi's compiled kernel: whole random and greedy games, for the simulation runner.
 *
 * Why C: a bot's turn needs every distinct position the complete plays of a roll lead to
 * (decisions 11-13), a game is a hundred turns or more, and a simulation plays thousands
 * of games (issue 9): that search is the cost, so it lives here. It is the reference
 * engine (`rules.py`, walked turn by turn by `state.py`) spelled out in C, rule for rule:
 * `legal_steps`, `take_step`, `complete_plays`, `allowed_positions`; a `State`'s turn is
 * the step machine in `_tree.h`, and whole games and playouts are `pnp/play/_drive.h`'s
 * over it (the random bot, the greedy one, the playouts' guided player).
 * It reads the board from the play model (each colour's path of nodes, the safe nodes),
 * never from numbers of its own, and it draws its chance from the caller's
 * `random.Random`: the Mersenne Twister state comes in and goes back out, and a uniform
 * int below n is drawn as `pnp.play.chance.below` draws it. So a seed gives the same game here and in the readable
 * rules (tests/test_conformance.py and test_parcheesi_kernel.py check that). For a
 * chunk of the runner's games (`play_seeded`) it seeds the generator from each game's seed
 * text itself, as `random.Random(text)` does (`_seed_text.h`): no generator state crosses.
 *
 * A part-played roll keeps the mover's pawns as (progress, lock) pairs sorted: pawns of
 * one colour are interchangeable except the two pawns of a blockade at the start of the
 * roll (decision 8), which carry a lock number. Sorting makes equal situations equal, so
 * each is searched once (a hash set keyed by the situation packed in two words); a play
 * with no value left is known by its pawns and captures alone, and the last die's steps
 * are read off without building their situations. The results are kept as one number
 * each (pawns, then captures), so sorting and deduplicating them compares numbers.
 *
 * Reentrant and portable: no mutable static data (the hash set belongs to the call that
 * plays, in its `Game`), plain C99 with no compiler extensions (128-bit masks are two
 * 64-bit words), so it builds with gcc, clang and MSVC.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../../play/_twister.h"
#include "../../../play/_seed.h"
#include "../../../play/_seed_text.h"
#include "../../../play/_seam.h"

#define COLOURS 4
#define PAWNS 4
#define NEST (-1)
#define MAX_HOME 126 /* progress + 1 packs in 7 bits */
#define MAX_NODES 128
#define CAPTURE_BONUS 20
#define HOME_BONUS 10
#define OUTLOOK (3 + COLOURS - 1) /* numbers of `outlook.win_chances` a player count */

/* --- the board ---------------------------------------------------------------------- */

typedef struct {
    int home;                          /* progress of a pawn at home */
    int nodes;
    int16_t path[COLOURS][MAX_HOME];   /* node of progress p < home */
    int16_t progress[COLOURS][MAX_NODES]; /* the progress of a node on a colour's path, or -1 */
    int strip[COLOURS];                /* first strip progress */
    uint8_t safe[MAX_NODES];
    uint8_t safe_at[COLOURS][MAX_HOME]; /* per colour, whether progress p is on a safe space */
    /* `outlook.WEIGHTS` then `outlook.TEMPO` (0 past the last seat), by players 2..4 */
    double outlook[COLOURS + 1][OUTLOOK];
    uint32_t genrand_init[MT_N]; /* init_genrand(19650218): where every seeding starts */
} Board;

static const char BOARD_NAME[] = "pnp.parcheesi.board";

static void board_free(PyObject *capsule) {
    PyMem_Free(PyCapsule_GetPointer(capsule, BOARD_NAME));
}

/* The board as `kernel.board_fields` names it: `paths`, each colour's path of nodes
 * (progress 0 .. home - 1), colour after colour; `safe`, per node whether it is safe;
 * `strips`, each colour's first strip progress; `outlook`, `outlook.win_chances`' `OUTLOOK`
 * numbers at 2, 3 and 4 players, row after row. */
typedef struct {
    int paths[COLOURS * MAX_HOME], safe[MAX_NODES], strips[COLOURS];
    int npaths, nodes;
    double outlook[(COLOURS - 1) * OUTLOOK];
} BoardFields;

static const SeamField BOARD[] = {
    SEAM_LIST(BoardFields, paths, npaths, 0, MAX_NODES - 1),
    SEAM_LIST(BoardFields, safe, nodes, 0, 1),
    SEAM_INTS(BoardFields, strips, 0, MAX_HOME),
    SEAM_DOUBLES(BoardFields, outlook),
    SEAM_END,
};

/* The board's fields (read) into b; 0, or -1 with a ValueError naming what is wrong. */
static int board_from(Board *b, const BoardFields *f) {
    int nodes = f->nodes, home = f->npaths / COLOURS;
    if (nodes < 1) return seam_bad("board", "safe", "expected one flag per node");
    if (home < 1 || f->npaths % COLOURS)
        return seam_bad("board", "paths", "expected four equally long paths");
    b->nodes = nodes;
    b->home = home;
    memset(b->progress, 0xff, sizeof b->progress); /* -1: not on that path */
    for (int n = 0; n < nodes; n++) b->safe[n] = (uint8_t)f->safe[n];
    for (int c = 0; c < COLOURS; c++) {
        for (int p = 0; p < home; p++) {
            int node = f->paths[c * home + p];
            if (node >= nodes) return seam_bad("board", "paths", "a node off the board");
            b->path[c][p] = (int16_t)node;
            b->progress[c][node] = (int16_t)p;
        }
        if (f->strips[c] > home) return seam_bad("board", "strips", "a strip off the path");
        b->strip[c] = f->strips[c];
        for (int q = 0; q < home; q++) b->safe_at[c][q] = b->safe[b->path[c][q]];
    }
    for (int n = 2; n <= COLOURS; n++)
        for (int k = 0; k < OUTLOOK; k++) b->outlook[n][k] = f->outlook[(n - 2) * OUTLOOK + k];
    genrand_init(b->genrand_init);
    return 0;
}

/* board(fields) -> capsule: the board of `kernel.board_fields`, by name. */
static PyObject *make_board(PyObject *self, PyObject *fields) {
    (void)self;
    BoardFields *f = PyMem_Calloc(1, sizeof(BoardFields));
    Board *b = PyMem_Calloc(1, sizeof(Board));
    PyObject *capsule = NULL;
    if (!f || !b) PyErr_NoMemory();
    else if (seam_read(fields, BOARD, f, "board") == 0 && board_from(b, f) == 0)
        capsule = PyCapsule_New(b, BOARD_NAME, board_free);
    PyMem_Free(f);
    if (!capsule) PyMem_Free(b);
    return capsule;
}

/* --- one roll ------------------------------------------------------------------------ */

/* The index of the lowest set bit of x != 0 (a de Bruijn sequence: no compiler builtin). */
static int lowest_bit(uint64_t x) {
    static const uint8_t table[64] = {
        0,  1,  2,  53, 3,  7,  54, 27, 4,  38, 41, 8,  34, 55, 48, 28, 62, 5,  39, 46, 44, 42,
        22, 9,  24, 35, 59, 56, 49, 18, 29, 11, 63, 52, 6,  26, 37, 40, 33, 47, 61, 45, 43, 21,
        23, 58, 17, 10, 51, 25, 36, 32, 60, 20, 57, 16, 50, 31, 19, 15, 30, 14, 13, 12};
    return table[((x & (~x + 1)) * 0x022fdd63cc95386dULL) >> 58];
}

/* The number of set bits of x (the SWAR sum: no compiler builtin). */
static int bit_count(uint64_t x) {
    x -= x >> 1 & 0x5555555555555555ULL;
    x = (x & 0x3333333333333333ULL) + (x >> 2 & 0x3333333333333333ULL);
    x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0fULL;
    return (int)((x * 0x0101010101010101ULL) >> 56);
}

/* A roll's values by slot: its two dice values (a double n: n, then 7 - n), the capture
 * bonus, the home bonus. A situation counts the unused values of each slot. */
#define SLOTS 4
enum { CAPTURE_SLOT = 2, HOME_SLOT = 3 };

/* A part-played roll: the situation's hash key, two whole words. Captures are bits of
 * `capi`: each space holding a lone opposing pawn at the roll's start has its own bit
 * (`Roll.oi`). */
typedef struct {
    int8_t pos[PAWNS];    /* progress, NEST or home; sorted as (pos, lock) */
    uint8_t lock[PAWNS];  /* 0, or which start blockade it was in (decision 8) */
    uint8_t unused[SLOTS]; /* unused values by slot (`Roll.value`) */
    uint8_t pair;         /* the two dice may still enter together as a 5 */
    uint8_t left;         /* unused values in all */
    uint16_t capi;        /* the captured opposing spaces, bit `Roll.oi[q]` for progress q */
} Sit;

#define KEY_BYTES 16
typedef char sit_key_fits[sizeof(Sit) == KEY_BYTES && offsetof(Sit, capi) == 14 ? 1 : -1];

typedef struct {
    uint32_t key;         /* the pawns' progress + 1, a byte each: orders as the sorted tuple */
    int8_t own[PAWNS];
    uint64_t cap[2];      /* captured nodes, as the reference's number: low and high word */
} End;

typedef struct {
    uint64_t k[2];
    uint32_t stamp;
} Slot;

/* The hash set of situations seen in this roll, owned by the game being played. Most
 * rolls meet a few dozen, so each roll starts on a small table that stays in the cache and
 * grows only when it must; the slots are reused from roll to roll, and a new stamp empties
 * them. */
#define SEEN_START 1024

typedef struct {
    Slot *slots;
    uint32_t cap, size, used, stamp;
} Seen;

#define FAR 127 /* beyond every progress value: no blockade ahead */

typedef struct {
    const Board *b;
    const int16_t *path;
    int home, standard, nest0, pips0;
    int value[SLOTS];     /* each slot's value */
    int five;             /* the dice slot whose value is 5 (an entry), or -1 */
    uint8_t opp[MAX_HOME];   /* opposing pawns on each progress value of the mover's path */
    uint8_t oblk[MAX_HOME];  /* the nearest opposing blockade beyond each one, or FAR */
    const uint8_t *safe;     /* progress values on a safe space (`Board.safe_at`) */
    int8_t oi[MAX_HOME];  /* each opposing space's bit in `Sit.capi` (at most 12 spaces), in
                           * the order of their nodes: captures order as the reference's */
    int8_t oq[16];        /* and back: the progress value of each bit */
    End *ends;            /* the distinct results, once the search is done */
    uint64_t *found;      /* the best complete plays so far, as `pawns_key` << 16 | capi */
    uint64_t *spare;      /* room for as many: the merge sort's */
    int nends, cap_ends;  /* complete plays found (then results), room in the three */
    int most, pips;       /* their entries and dice pips */
    int failed;       /* out of memory */
    Seen seen;        /* the situations met this roll */
} Roll;


static inline uint32_t slot_hash(const uint64_t k[2], uint32_t size) {
    uint64_t h = k[0] * 0x9e3779b97f4a7c15ULL ^ k[1];
    h = (h ^ h >> 31) * 0xff51afd7ed558ccdULL;
    return (uint32_t)(h >> 40) & (size - 1);
}

static void next_stamp(Seen *t) {
    if (++t->stamp == 0) { /* wrapped: really empty the slots */
        memset(t->slots, 0, (size_t)t->cap * sizeof(Slot));
        t->stamp = 1;
    }
}

static void seen_put(Seen *t, const Slot *s) {
    uint32_t j = slot_hash(s->k, t->size);
    while (t->slots[j].stamp == t->stamp) j = (j + 1) & (t->size - 1);
    t->slots[j] = *s;
    t->slots[j].stamp = t->stamp;
}

/* Double the table in use: keep what it holds, put it back under a new stamp. */
static int seen_grow(Seen *t) {
    uint32_t size = t->size * 2;
    Slot *kept = PyMem_Malloc((size_t)t->used * sizeof(Slot));
    if (!kept) return -1;
    uint32_t n = 0;
    for (uint32_t i = 0; i < t->size; i++)
        if (t->slots[i].stamp == t->stamp) kept[n++] = t->slots[i];
    if (size > t->cap) {
        Slot *slots = PyMem_Realloc(t->slots, (size_t)size * sizeof(Slot));
        if (!slots) { PyMem_Free(kept); return -1; }
        memset(slots + t->cap, 0, (size_t)(size - t->cap) * sizeof(Slot));
        t->slots = slots;
        t->cap = size;
    }
    t->size = size;
    next_stamp(t);
    for (uint32_t i = 0; i < n; i++) seen_put(t, &kept[i]);
    PyMem_Free(kept);
    return 0;
}

/* Empty the set for a new roll (the first time, make it). */
static int seen_clear(Seen *t) {
    if (!t->slots) {
        t->slots = PyMem_Calloc(SEEN_START, sizeof(Slot));
        if (!t->slots) return -1;
        t->cap = SEEN_START;
    }
    t->size = SEEN_START;
    t->used = 0;
    next_stamp(t);
    return 0;
}

/* Add a key; returns 1 if new, 0 if seen this roll, -1 out of memory. */
static inline int seen_add_key(Seen *t, const uint64_t k[2]) {
    if ((t->used + 1) * 2 > t->size && seen_grow(t) < 0) return -1;
    uint32_t j = slot_hash(k, t->size);
    while (t->slots[j].stamp == t->stamp) {
        const uint64_t *o = t->slots[j].k;
        if (o[0] == k[0] && o[1] == k[1]) return 0;
        j = (j + 1) & (t->size - 1);
    }
    t->slots[j].k[0] = k[0];
    t->slots[j].k[1] = k[1];
    t->slots[j].stamp = t->stamp;
    t->used++;
    return 1;
}

/* Add a situation (its bytes are its key); as `seen_add_key`. */
static inline int seen_add(Seen *t, const Sit *s) {
    uint64_t k[2];
    memcpy(k, s, KEY_BYTES);
    return seen_add_key(t, k);
}

/* The second word of a finished play's key in the set: no situation's (its `unused` would
 * be 255). A play with no value left is known by its pawns and captures alone. */
#define DONE_MARK (~(uint64_t)0)

/* The mover's pawns on progress q. */
static inline int own_on(const Sit *s, int q) {
    return (s->pos[0] == q) + (s->pos[1] == q) + (s->pos[2] == q) + (s->pos[3] == q);
}

/* Opposing pawns on progress q (0 <= q < home) not yet captured this roll. */
static inline int theirs_on(const Roll *r, const Sit *s, int q) {
    int n = r->opp[q];
    return n == 1 ? !(s->capi >> r->oi[q] & 1) : n;
}

/* The nearest blockade beyond progress p (decision 6: none is passed or landed on), the
 * mover's own (`blk0` < `blk1`, FAR where there are fewer) or an opposing one; FAR if none.
 * A pawn on p may go to q (<= home) past the blockades iff q < this. */
static inline int stop_at(const Roll *r, int p, int blk0, int blk1) {
    int own = blk0 > p ? blk0 : blk1 > p ? blk1 : FAR;
    return own < r->oblk[p] ? own : r->oblk[p];
}

/* `rules.can_move` past the blockades (`stop_at`): decisions 5, 7, 8 and 10 for pawn i
 * landing on q = its progress + the value (q < home; one on home may always go). */
static inline int may_land(const Roll *r, const Sit *s, int i, int q) {
    int mine = own_on(s, q);
    if (mine + theirs_on(r, s, q) >= 2) return 0;
    if (mine == 1 && s->lock[i])
        for (int j = 0; j < PAWNS; j++)
            if (s->pos[j] == q && s->lock[j] == s->lock[i]) return 0;
    return 1;
}

/* Keep the pawns sorted as (progress, lock) after pawn i moved forward: it only moves right. */
static inline void resort(Sit *s, int i) {
    for (; i + 1 < PAWNS; i++) {
        if (s->pos[i] * 4 + s->lock[i] <= s->pos[i + 1] * 4 + s->lock[i + 1]) break;
        int8_t tp = s->pos[i]; s->pos[i] = s->pos[i + 1]; s->pos[i + 1] = tp;
        uint8_t tl = s->lock[i]; s->lock[i] = s->lock[i + 1]; s->lock[i + 1] = tl;
    }
}

/* Sort the pawns as (progress, lock), at the start of a roll. */
static void sort_pawns(Sit *s) {
    for (int i = PAWNS - 2; i >= 0; i--) resort(s, i);
}

#define PAIR_SLOT (-1)

/* `rules.take_step`: spend a value (of a slot, or the 5-pair) on pawn i, a legal step (an
 * entry if it is in the nest). */
static inline Sit take_step(const Roll *r, const Sit *s, int i, int v, int slot) {
    Sit n = *s;
    int p = s->pos[i];
    int q = p == NEST ? 0 : p + v;
    if (slot == PAIR_SLOT) n.unused[0] = n.unused[1] = 0, n.left -= 2;
    else n.unused[slot]--, n.left--;
    n.pair = 0;
    if (q != r->home) {
        /* decision 9: legal, so a lone opposing pawn there is alone with this one (or,
           entering, beside one own pawn: decision 4) */
        if (r->opp[q] == 1 && !(s->capi >> r->oi[q] & 1) && (p == NEST || !r->safe[q])) {
            n.capi |= (uint16_t)(1u << r->oi[q]);
            n.unused[CAPTURE_SLOT]++;
            n.left++;
        }
    } else if (r->standard) {
        n.unused[HOME_SLOT]++;
        n.left++;
    }
    n.pos[i] = (int8_t)q;
    resort(&n, i);
    return n;
}

/* The key of a result: the pawns' progress + 1, a byte each, so that keys order as the
 * sorted tuples do. */
static inline uint32_t pawns_key(const int8_t pos[PAWNS]) {
    return (uint32_t)(uint8_t)(pos[0] + 1) << 24 | (uint32_t)(uint8_t)(pos[1] + 1) << 16 |
           (uint32_t)(uint8_t)(pos[2] + 1) << 8 | (uint32_t)(uint8_t)(pos[3] + 1);
}

/* Room for twice as many complete plays. 0, or -1 out of memory. */
static int grow_ends(Roll *r) {
    int size = r->cap_ends ? r->cap_ends * 2 : 64;
    End *e = PyMem_Realloc(r->ends, (size_t)size * sizeof(End));
    if (!e) return -1;
    r->ends = e;
    uint64_t *f = PyMem_Realloc(r->found, (size_t)size * sizeof(uint64_t));
    if (!f) return -1;
    r->found = f;
    f = PyMem_Realloc(r->spare, (size_t)size * sizeof(uint64_t));
    if (!f) return -1;
    r->spare = f;
    r->cap_ends = size;
    return 0;
}

/* A complete play leaving the pawns `pos` (sorted), captures `capi` and `dice` pips
 * unused. Only the best by decision 12 are kept: the most entries, then the most dice
 * pips; a better one empties the list. */
static void add_end_at(Roll *r, const int8_t pos[PAWNS], uint16_t capi, int dice) {
    int nest = (pos[0] == NEST) + (pos[1] == NEST) + (pos[2] == NEST) + (pos[3] == NEST);
    int entries = r->nest0 - nest, pips = r->pips0 - dice;
    if (entries < r->most || (entries == r->most && pips < r->pips)) return;
    if (entries > r->most || pips > r->pips) {
        r->most = entries;
        r->pips = pips;
        r->nends = 0;
    }
    if (r->nends == r->cap_ends && grow_ends(r) < 0) {
        r->failed = 1;
        return;
    }
    r->found[r->nends++] = (uint64_t)pawns_key(pos) << 16 | capi;
}

/* A situation with no legal step: a complete play. */
static void add_end(Roll *r, const Sit *s) {
    add_end_at(r, s->pos, s->capi, s->unused[0] * r->value[0] + s->unused[1] * r->value[1]);
}

/* A complete play with no value left (all dice used), once per result. */
static inline void add_done(Roll *r, const int8_t pos[PAWNS], uint16_t capi) {
    uint64_t k[2] = {(uint64_t)pawns_key(pos) | (uint64_t)capi << 32, DONE_MARK};
    int a = seen_add_key(&r->seen, k);
    if (a < 0) r->failed = 1;
    else if (a) add_end_at(r, pos, capi, 0);
}

static void search(Roll *r, const Sit *s);

/* Search a situation a step leads to, unless it was searched this roll. One with no value
 * left is a complete play at once. */
static inline void visit(Roll *r, const Sit *n) {
    if (!n->left) {
        add_done(r, n->pos, n->capi);
        return;
    }
    int a = seen_add(&r->seen, n);
    if (a < 0) r->failed = 1;
    else if (a) search(r, n);
}

/* `rules.complete_plays`: every legal step from here, each new situation searched once. */
static void search(Roll *r, const Sit *s) {
    int any = 0, home = r->home, blk0 = FAR, blk1 = FAR;
    for (int i = 0; i + 1 < PAWNS; i++) { /* sorted: a blockade's two pawns are neighbours */
        int p = s->pos[i];
        if (p == s->pos[i + 1] && p != NEST && p < home) {
            if (blk0 == FAR) blk0 = p;
            else blk1 = p;
        }
    }
    if (s->pos[0] == NEST) { /* sorted: a nest pawn comes first; decision 4 */
        int mine = own_on(s, 0), theirs = theirs_on(r, s, 0);
        if (mine + theirs < 2 || (mine == 1 && theirs == 1)) { /* a mixed pair: capture */
            if (r->five >= 0 && s->unused[r->five]) {
                any = 1;
                Sit n = take_step(r, s, 0, 5, r->five);
                visit(r, &n);
            }
            if (s->pair) { any = 1; Sit n = take_step(r, s, 0, 5, PAIR_SLOT); visit(r, &n); }
        }
    }
    int movers[PAWNS], stop[PAWNS], nm = 0;
    for (int i = 0; i < PAWNS; i++) { /* pawns on the way, one of each equal pair */
        int p = s->pos[i];
        if (p == NEST || p == home) continue;
        if (i && p == s->pos[i - 1] && s->lock[i] == s->lock[i - 1]) continue;
        movers[nm] = i;
        stop[nm++] = stop_at(r, p, blk0, blk1);
    }
    /* the last die: a step ends the play unless it earns a bonus (a capture, or home
     * with `standard`), so its result is read off without the situation */
    int last = s->left == 1 && (s->unused[0] || s->unused[1]);
    for (int k = 0; k < SLOTS && !r->failed; k++) {
        if (!s->unused[k]) continue;
        int v = r->value[k];
        for (int m = 0; m < nm; m++) {
            int i = movers[m], q = s->pos[i] + v;
            if (q > home || q >= stop[m] || (q < home && !may_land(r, s, i, q))) continue;
            any = 1;
            if (last && (q < home ? r->opp[q] != 1 || s->capi >> r->oi[q] & 1 || r->safe[q]
                                  : !r->standard)) {
                int8_t pos[PAWNS];
                memcpy(pos, s->pos, sizeof pos);
                pos[i] = (int8_t)q;
                for (int j = i; j + 1 < PAWNS && pos[j] > pos[j + 1]; j++) {
                    int8_t t = pos[j]; pos[j] = pos[j + 1]; pos[j + 1] = t;
                }
                add_done(r, pos, s->capi);
                continue;
            }
            Sit n = take_step(r, s, i, v, k);
            visit(r, &n);
        }
    }
    if (!any) add_end(r, s);
}

/* Sort n numbers: runs of 8 by insertion, merged bottom-up through `tmp` (no library
 * call per compare). */
static void sort_keys(uint64_t *e, uint64_t *tmp, int n) {
    for (int lo = 0; lo < n; lo += 8) {
        int hi = lo + 8 < n ? lo + 8 : n;
        for (int i = lo + 1; i < hi; i++) {
            uint64_t x = e[i];
            int j = i;
            for (; j > lo && e[j - 1] > x; j--) e[j] = e[j - 1];
            e[j] = x;
        }
    }
    for (int width = 8; width < n; width *= 2) {
        for (int lo = 0; lo < n; lo += 2 * width) {
            int mid = lo + width < n ? lo + width : n, hi = lo + 2 * width < n ? lo + 2 * width : n;
            int i = lo, j = mid, k = lo;
            while (i < mid && j < hi) tmp[k++] = e[j] < e[i] ? e[j++] : e[i++];
            while (i < mid) tmp[k++] = e[i++];
            while (j < hi) tmp[k++] = e[j++];
        }
        memcpy(e, tmp, (size_t)n * sizeof *e); /* the merged runs are in tmp: copy back */
    }
}

/* --- the game -------------------------------------------------------------------------- */

typedef struct {
    const Board *b;
    int players, standard;
    int seats[COLOURS];
    int8_t pawns[COLOURS][PAWNS];
    long captures, decisions, legal, entries, passes;
    Twister tw;
    Roll roll;
    int explore; /* a guided player (the playouts'): percent of choices made at random, the
                    rest greedy's; -1: none (a whole game's bot) */
} Game;

/* A game's memory: what its rolls grew, then the game. */
static void free_game(Game *g) {
    PyMem_Free(g->roll.ends);
    PyMem_Free(g->roll.found);
    PyMem_Free(g->roll.spare);
    PyMem_Free(g->roll.seen.slots);
    PyMem_Free(g);
}

static int popcount2(const uint64_t cap[2]) {
    return bit_count(cap[0]) + bit_count(cap[1]);
}

/* `rank.greedy_rank` compared: captures, then progress, then safe pawns. */
static void greedy_rank(const Game *g, int c, const End *e, int rank[3]) {
    const Board *b = g->b;
    int progress = 0, safe = 0;
    for (int i = 0; i < PAWNS; i++) {
        int p = e->own[i];
        progress += p;
        if (p == NEST) continue;
        int twice = 0;
        for (int j = 0; j < PAWNS; j++) twice += e->own[j] == p;
        if (p >= b->strip[c] || b->safe[b->path[c][p]] || twice == 2) safe++;
    }
    rank[0] = popcount2(e->cap);
    rank[1] = progress;
    rank[2] = safe;
}

static int rank_cmp(const int a[3], const int b[3]) {
    for (int i = 0; i < 3; i++)
        if (a[i] != b[i]) return a[i] < b[i] ? -1 : 1;
    return 0;
}

/* `rules.allowed_positions` for colour c rolling a and b (decisions 2-3, 11-12): the
 * distinct results in `g->roll.ends`, in the reference's order; their number, or -1. */
static int roll_results(Game *g, int c, int a, int b) {
    const Board *bd = g->b;
    Roll *r = &g->roll;
    int home = bd->home;
    int8_t *own = g->pawns[c];
    Sit s;
    memset(&s, 0, sizeof s);
    int nest = 0;
    for (int i = 0; i < PAWNS; i++) nest += own[i] == NEST;
    r->value[0] = a < b ? a : b;
    r->value[1] = a < b ? b : a;
    r->value[CAPTURE_SLOT] = CAPTURE_BONUS;
    r->value[HOME_SLOT] = HOME_BONUS;
    if (a != b) {
        s.unused[0] = s.unused[1] = 1;
        s.pair = a + b == 5;
    } else {
        r->value[1] = 7 - a;
        s.unused[0] = 2;
        s.unused[1] = g->standard && nest ? 0 : 2;
    }
    r->five = r->value[0] == 5 ? 0 : r->value[1] == 5 && s.unused[1] ? 1 : -1;
    r->b = bd;
    r->path = bd->path[c];
    r->home = home;
    r->standard = g->standard;
    r->nest0 = nest;
    r->pips0 = s.unused[0] * r->value[0] + s.unused[1] * r->value[1];
    s.left = (uint8_t)(s.unused[0] + s.unused[1]);
    r->nends = 0;
    r->most = r->pips = -1;
    r->failed = 0;
    r->safe = bd->safe_at[c];
    memset(r->opp, 0, (size_t)home);
    memset(r->oblk, FAR, (size_t)home);
    int lone[3 * PAWNS], nlone = 0; /* the opposing pawns' progress values */
    for (int k = 0; k < g->players; k++) {
        int d = g->seats[k];
        if (d == c) continue;
        for (int i = 0; i < PAWNS; i++) {
            int p = g->pawns[d][i];
            if (p == NEST || p == home) continue;
            int q = bd->progress[c][bd->path[d][p]];
            if (q < 0) continue; /* off the mover's path: never in its way */
            if (r->opp[q]++ == 0) lone[nlone++] = q;
            for (int j = i + 1; j < PAWNS; j++) /* two of one colour: a blockade */
                if (g->pawns[d][j] == p)
                    for (int b = q - 1; b >= 0 && r->oblk[b] > q; b--) r->oblk[b] = (uint8_t)q;
        }
    }
    int spaces = 0; /* each lone opposing pawn's space a bit of `capi`, by node */
    for (int k = 0; k < nlone; k++) {
        int q = lone[k];
        if (r->opp[q] != 1) continue;
        int j = spaces++;
        for (; j > 0 && r->path[r->oq[j - 1]] > r->path[q]; j--) r->oq[j] = r->oq[j - 1];
        r->oq[j] = (int8_t)q;
    }
    for (int k = 0; k < spaces; k++) r->oi[r->oq[k]] = (int8_t)k;
    int locks = 0;
    for (int i = 0; i < PAWNS; i++) {
        s.pos[i] = own[i];
        s.lock[i] = 0;
    }
    for (int i = 0; i < PAWNS; i++)
        for (int j = i + 1; j < PAWNS; j++)
            if (s.pos[i] == s.pos[j] && s.pos[i] != NEST && s.pos[i] != home && !s.lock[i])
                s.lock[i] = s.lock[j] = (uint8_t)++locks;
    sort_pawns(&s);
    if (seen_clear(&r->seen) < 0 || seen_add(&r->seen, &s) < 0) return -1;
    search(r, &s);
    if (r->failed) return -1;

    /* decision 12 kept the best plays; their distinct results, in the reference's order
     * (the pawns, then the captured nodes: `capi`'s bits go in the nodes' order) */
    int n = r->nends, m = 0;
    uint64_t *f = r->found;
    if (n > 1) sort_keys(f, r->spare, n);
    for (int k = 0; k < n; k++)
        if (!m || f[m - 1] != f[k]) f[m++] = f[k];
    for (int k = 0; k < m; k++) {
        End *e = &r->ends[k];
        e->key = (uint32_t)(f[k] >> 16);
        for (int i = 0; i < PAWNS; i++) e->own[i] = (int8_t)((e->key >> (24 - 8 * i) & 0xff) - 1);
        e->cap[0] = e->cap[1] = 0;
        for (unsigned c = (unsigned)(f[k] & 0xffff); c; c &= c - 1) {
            int node = r->path[r->oq[lowest_bit(c)]];
            e->cap[node >> 6] |= (uint64_t)1 << (node & 63);
        }
    }
    r->nends = m;
    return m;
}

/* `rules.apply_position`: colour c's pawns become the chosen result's, each pawn of
 * another colour on a space the result captures goes back to its nest, and the counters
 * (passes, entries from the `nest` pawns that stood there, captures) move on. */
static void apply_end(Game *g, int c, const End *chosen, int nest) {
    const Board *bd = g->b;
    int home = bd->home;
    int8_t *own = g->pawns[c];
    int8_t before[PAWNS];
    memcpy(before, own, sizeof before);
    for (int i = 1; i < PAWNS; i++) /* the reference compares with the sorted pawns */
        for (int j = i; j > 0 && before[j - 1] > before[j]; j--) {
            int8_t t = before[j]; before[j] = before[j - 1]; before[j - 1] = t;
        }
    if (!memcmp(before, chosen->own, sizeof before)) g->passes++;
    int after = 0;
    for (int i = 0; i < PAWNS; i++) after += chosen->own[i] == NEST;
    g->entries += nest - after;
    memcpy(own, chosen->own, sizeof before);
    for (int node = 0; node < bd->nodes; node++) {
        if (!(chosen->cap[node >> 6] >> (node & 63))) { /* no capture here or beyond in this word */
            node |= 63;
            continue;
        }
        if (!(chosen->cap[node >> 6] >> (node & 63) & 1)) continue;
        g->captures++;
        for (int k = 0; k < g->players; k++) {
            int d = g->seats[k];
            if (d == c) continue;
            for (int i = 0; i < PAWNS; i++) {
                int p = g->pawns[d][i];
                if (p >= 0 && p < home && bd->path[d][p] == node) g->pawns[d][i] = NEST;
            }
        }
    }
}

static int has_won(const Game *g, int c) {
    for (int i = 0; i < PAWNS; i++)
        if (g->pawns[c][i] != g->b->home) return 0;
    return 1;
}

/* Option `standard`: the mover's most advanced pawn not yet home goes back to its nest. */
static void three_doubles_penalty(Game *g, int c) {
    int best = -1;
    for (int i = 0; i < PAWNS; i++) {
        int p = g->pawns[c][i];
        if (p != NEST && p != g->b->home && (best < 0 || p > g->pawns[c][best])) best = i;
    }
    if (best >= 0) g->pawns[c][best] = NEST;
}

/* `rules.progress`' leader after a turn: the seat with the most progress, -1 if tied. */
static int leader(const Game *g) {
    int top = -1, lead = -1;
    for (int k = 0; k < g->players; k++) {
        int total = 0;
        for (int i = 0; i < PAWNS; i++) total += g->pawns[g->seats[k]][i] + 1;
        if (total > top) { top = total; lead = k; }
        else if (total == top) lead = -1;
    }
    return lead;
}

/* --- the seam (`pnp/play/_seam.h`): whole games, playouts and the search, by named fields -- */

/* A whole game: its settings by name (`engine.settings`), the game, and what it gave
 * (`RECORD`). */
typedef struct {
    Game g;
    int seats[COLOURS], players, greedy, standard, max_turns;
    int turns, end, pawns[COLOURS * PAWNS];
    uint64_t captures, decisions, legal_moves, entries, passes; /* the game's longs, not cut */
    int *leaders;
} Whole;

static const SeamField SETTINGS[] = {
    SEAM_LIST(Whole, seats, players, 0, COLOURS - 1),
    SEAM_BOOL(Whole, greedy),
    SEAM_BOOL(Whole, standard),
    SEAM_INT(Whole, max_turns, 1, 100000000),
    SEAM_END,
};

/* A played game by name (`engine._record`): the turns, the end code (a playout's: 1 home,
 * 2 timeout), each colour's four pawns (an unplayed colour's NEST), the leader after each
 * turn, and the counters by `engine.COUNTERS`' names. */
static const SeamField RECORD[] = {
    SEAM_OUT_INT(Whole, turns),
    SEAM_OUT_INT(Whole, end),
    SEAM_INTS(Whole, pawns, 0, 0),
    SEAM_HEAP_OUT(Whole, leaders, turns),
    SEAM_U64(Whole, captures),
    SEAM_U64(Whole, decisions),
    SEAM_U64(Whole, legal_moves),
    SEAM_U64(Whole, entries),
    SEAM_U64(Whole, passes),
    SEAM_END,
};

/* The seats' colours into g; 0, or -1 with an exception set. */
static int set_seats(Game *g, const int *seats, int players) {
    if (players < 2 || players > COLOURS) {
        PyErr_SetString(PyExc_ValueError, "2 to 4 seats");
        return -1;
    }
    for (int k = 0; k < players; k++) {
        for (int j = 0; j < k; j++)
            if (seats[j] == seats[k]) {
                PyErr_SetString(PyExc_ValueError, "two seats with one colour");
                return -1;
            }
        g->seats[k] = seats[k];
    }
    g->players = players;
    return 0;
}

/* A test's query (`kernel.results`): the seats' colours, each colour's four pawns
 * (progress, NEST in the nest), the mover's colour, the two dice, the rules. */
typedef struct {
    int seats[COLOURS], players, pawns[COLOURS * PAWNS], colour, a, b, standard;
} Query;

static const SeamField QUERY[] = {
    SEAM_LIST(Query, seats, players, 0, COLOURS - 1),
    SEAM_INTS(Query, pawns, NEST, MAX_HOME),
    SEAM_INT(Query, colour, 0, COLOURS - 1),
    SEAM_INT(Query, a, 1, 6),
    SEAM_INT(Query, b, 1, 6),
    SEAM_BOOL(Query, standard),
    SEAM_END,
};

/* results(board, query) -> [(own, captured), ...]: the allowed results of one roll from
 * a given position, as `rules.allowed_positions` lists them (for tests on hand-made
 * positions); the query by name (`QUERY`). */
static PyObject *results(PyObject *self, PyObject *args) {
    PyObject *capsule, *fields;
    Query q;
    (void)self;
    if (!PyArg_UnpackTuple(args, "results", 2, 2, &capsule, &fields)) return NULL;
    Board *bd = PyCapsule_GetPointer(capsule, BOARD_NAME);
    if (!bd || seam_read(fields, QUERY, &q, "query") < 0) return NULL;
    Game *g = PyMem_Calloc(1, sizeof(Game));
    if (!g) return PyErr_NoMemory();
    PyObject *out = NULL;
    g->explore = -1;
    g->b = bd;
    g->standard = q.standard;
    if (set_seats(g, q.seats, q.players) < 0) goto done;
    int mover = 0;
    for (int k = 0; k < g->players; k++) mover |= g->seats[k] == q.colour;
    if (!mover) {
        seam_bad("query", "colour", "the mover has no seat");
        goto done;
    }
    for (int c = 0; c < COLOURS; c++)
        for (int i = 0; i < PAWNS; i++) {
            int p = q.pawns[c * PAWNS + i];
            if (p > bd->home) {
                seam_bad("query", "pawns", "a pawn is off its path");
                goto done;
            }
            g->pawns[c][i] = (int8_t)p;
        }
    int n = roll_results(g, q.colour, q.a, q.b);
    if (n < 0) { PyErr_NoMemory(); goto done; }
    out = PyList_New(n);
    for (int k = 0; out && k < n; k++) {
        const End *e = &g->roll.ends[k];
        PyObject *hi = PyLong_FromUnsignedLongLong(e->cap[1]), *lo = PyLong_FromUnsignedLongLong(e->cap[0]);
        PyObject *sh = PyLong_FromLong(64), *up = hi && sh ? PyNumber_Lshift(hi, sh) : NULL;
        PyObject *cap = up && lo ? PyNumber_Or(up, lo) : NULL;
        PyObject *item = cap ? Py_BuildValue("((iiii)N)", e->own[0], e->own[1], e->own[2], e->own[3], cap) : NULL;
        Py_XDECREF(hi); Py_XDECREF(lo); Py_XDECREF(sh); Py_XDECREF(up);
        if (!item) { Py_CLEAR(out); break; }
        PyList_SET_ITEM(out, k, item);
    }
done:
    free_game(g);
    return out;
}

static int whole_begin(const void *board, void *game) {
    Whole *w = game;
    w->g.b = board;
    w->g.standard = w->standard;
    w->g.explore = -1;
    if (set_seats(&w->g, w->seats, w->players) < 0) return -1;
    w->leaders = PyMem_Malloc((size_t)w->max_turns * sizeof(int));
    if (!w->leaders) {
        PyErr_NoMemory();
        return -1;
    }
    return 0;
}

static PyObject *whole_record(const void *board, const void *game) {
    (void)board;
    return seam_write(RECORD, game);
}

/* What a game's rolls grew, and its leaders (the game itself is the caller's). */
static void free_rolls(Game *g) {
    PyMem_Free(g->roll.ends);
    PyMem_Free(g->roll.found);
    PyMem_Free(g->roll.spare);
    PyMem_Free(g->roll.seen.slots);
}

static void whole_end(void *game) {
    Whole *w = game;
    free_rolls(&w->g);
    PyMem_Free(w->leaders);
}

static const uint32_t *seed_start(const void *board) { return ((const Board *)board)->genrand_init; }

/* A position as `compiled.position` packs it: the seats' colours, each colour's four
 * pawns (an unplayed colour's NEST), the seat to move, turns, doubles, the roll drawn (0,
 * 0 before it), the rules, the turn limit and the playouts' player (`explore`: -1
 * random, else the guided one's percent of random choices). After a playout: how it
 * ended (0 going, 1 home, 2 timeout), the winning seat or -1, the leader after each turn
 * played, and its counts. */
typedef struct {
    int seats[COLOURS], players;
    int pawns[COLOURS * PAWNS];
    int seat, turns, doubles, a, b, standard, max_turns, explore;
    int ended, winner, captures, entries, passes, nleaders;
    int *leaders;
} Packed;

static const SeamField POSITION[] = {
    SEAM_LIST(Packed, seats, players, 0, COLOURS - 1),
    SEAM_INTS(Packed, pawns, NEST, 127),
    SEAM_INT(Packed, seat, 0, COLOURS - 1),
    SEAM_INT(Packed, turns, 0, 100000000),
    SEAM_INT(Packed, doubles, 0, 2),
    SEAM_INT(Packed, a, 0, 6),
    SEAM_INT(Packed, b, 0, 6),
    SEAM_BOOL(Packed, standard),
    SEAM_INT(Packed, max_turns, 1, 100000000),
    SEAM_INT(Packed, explore, -1, 100),
    SEAM_END,
};

static const SeamField AFTER[] = {
    SEAM_INTS(Packed, pawns, 0, 0),
    SEAM_OUT_INT(Packed, seat),
    SEAM_OUT_INT(Packed, turns),
    SEAM_OUT_INT(Packed, ended),
    SEAM_OUT_INT(Packed, winner),
    SEAM_HEAP_OUT(Packed, leaders, nleaders),
    SEAM_OUT_INT(Packed, captures),
    SEAM_OUT_INT(Packed, entries),
    SEAM_OUT_INT(Packed, passes),
    SEAM_END,
};

/* A game at a packed position (its generator not yet seeded); NULL with an exception. */
static Game *game_at(const Board *b, const Packed *q) {
    Game *g = PyMem_Calloc(1, sizeof(Game));
    if (!g) return (Game *)PyErr_NoMemory();
    g->b = b;
    g->standard = q->standard;
    g->explore = q->explore;
    if (set_seats(g, q->seats, q->players) < 0) {
        free_game(g);
        return NULL;
    }
    for (int c = 0; c < COLOURS; c++)
        for (int i = 0; i < PAWNS; i++) {
            int p = q->pawns[c * PAWNS + i];
            if (p > b->home) {
                PyErr_SetString(PyExc_ValueError, "a pawn is off its path");
                free_game(g);
                return NULL;
            }
            g->pawns[c][i] = (int8_t)p;
        }
    if (q->seat >= g->players) {
        PyErr_SetString(PyExc_ValueError, "not a position of a game under way");
        free_game(g);
        return NULL;
    }
    return g;
}

static void position_release(void *position) { PyMem_Free(((Packed *)position)->leaders); }

#include "_tree.h" /* the step machine: a turn step by step */

/* --- whole games and playouts: `pnp/play/_drive.h` over the step machine ---------------- */

/* A whole game from the start on the game's generator, every seat the random or greedy
 * bot; each turn's leader in `leaders`. */
static int whole_play(const void *board, void *game) {
    (void)board;
    Whole *w = game;
    Game *g = &w->g;
    TreeCtx t = {.g = g, .max_turns = w->max_turns, .listed = -1, .leaders = w->leaders};
    TreePos p;
    memset(&p, 0, sizeof p);
    memset(p.pawns, NEST, sizeof p.pawns);
    p.winner = -1;
    g->captures = g->decisions = g->legal = g->entries = g->passes = 0;
    if (tree_forward(&t, &p, tree_player(g, w->greedy), INT_MAX) < 0) return -1;
    for (int c = 0; c < COLOURS; c++)
        for (int i = 0; i < PAWNS; i++) w->pawns[c * PAWNS + i] = p.pawns[c][i];
    w->turns = p.turns;
    w->end = p.ended;
    w->captures = (uint64_t)g->captures;
    w->decisions = (uint64_t)g->decisions;
    w->legal_moves = (uint64_t)g->legal;
    w->entries = (uint64_t)g->entries;
    w->passes = (uint64_t)g->passes;
    return 0;
}

/* Play from a position, as `State.playout` asks: whole turns while the game goes on and
 * fewer than `stop` turns are played (a turn under way, its roll (a, b) drawn, is
 * finished first; a = 0 at a chance node), by the random player (`explore` -1) or the
 * guided one (`explore` percent of its choices random, the rest greedy's), on
 * `random.Random(seed)`'s generator: the same law as the readable rules' play by the same
 * player (`state.play_randomly`, `state.play_guided`), and the same draws. */
static int position_playout(const void *board, void *position, uint64_t seed, int stop) {
    Packed *q = position;
    if (q->a != 0 && (q->a < 1 || q->b < 1)) {
        PyErr_SetString(PyExc_ValueError, "not a position of a game under way");
        return -1;
    }
    Game *g = game_at(board, q);
    if (!g) return -1;
    twister_seed64(&g->tw, seed);
    int most = stop - q->turns < q->max_turns - q->turns ? stop - q->turns : q->max_turns - q->turns;
    q->leaders = PyMem_Malloc((size_t)(most > 0 ? most : 1) * sizeof(int));
    if (!q->leaders) {
        free_game(g);
        PyErr_NoMemory();
        return -1;
    }
    TreeCtx t = {.g = g, .max_turns = q->max_turns, .listed = -1, .leaders = q->leaders,
                 .from = q->turns};
    TreePos p;
    memset(&p, 0, sizeof p);
    memcpy(p.pawns, g->pawns, sizeof p.pawns);
    p.turns = q->turns;
    p.seat = (int8_t)q->seat;
    p.doubles = (int8_t)q->doubles;
    p.a = (int8_t)q->a;
    p.b = (int8_t)q->b;
    p.winner = -1;
    int status = tree_forward(&t, &p, tree_player(g, 0), stop);
    if (!status) {
        for (int c = 0; c < COLOURS; c++)
            for (int i = 0; i < PAWNS; i++) q->pawns[c * PAWNS + i] = p.pawns[c][i];
        q->seat = p.seat;
        q->nleaders = p.turns - q->turns;
        q->turns = p.turns;
        q->ended = p.ended;
        q->winner = p.winner;
        q->captures = (int)g->captures;
        q->entries = (int)g->entries;
        q->passes = (int)g->passes;
    }
    free_game(g);
    return status;
}


static const SeamKernel KERNEL = {
    .board = BOARD_NAME,
    .game_size = sizeof(Whole),
    .twister = offsetof(Whole, g.tw),
    .nogil = 0, /* a roll's search grows its tables with PyMem */
    .settings = SETTINGS,
    .begin = whole_begin,
    .play = whole_play,
    .record = whole_record,
    .end = whole_end,
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

static PyMethodDef methods[] = {
    {"board", make_board, METH_O, "board(fields): the board for play(), by name."},
    {"results", results, METH_VARARGS,
     "results(board, query): one roll's allowed results, the query by name."},
    SEAM_METHODS,
    {NULL, NULL, 0, NULL},
};

/* No module state: every call owns what it uses (m_size 0). */
static struct PyModuleDef module = {PyModuleDef_HEAD_INIT,
                                    "_kernel",
                                    "Parcheesi's compiled game kernel (see _kernel.c).",
                                    0,
                                    methods,
                                    NULL,
                                    NULL,
                                    NULL,
                                    NULL};

PyMODINIT_FUNC PyInit__kernel(void) { return PyModule_Create(&module); }
