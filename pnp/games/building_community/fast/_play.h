/* Building Community's turn on the fast path's bits, and what the seam (`pnp/play/_seam.h`)
 * plays with it: whole games, random or greedy; a playout from a position; the moves of a
 * position.
 *
 * `FastBoard.options` and `engine._play_fast` in C, on the fast path's own padded axial
 * bits (bit (r + R) * W + (q + R), W = 2R + 2, so boards up to R = 3 fit 64 bits): a
 * cell's neighbours are six shifts of its bit. Moves come out in the readable rules'
 * canonical order and one is drawn as `rng.choice` draws (a pass draws nothing); the
 * greedy bot draws the same way among the moves whose swap leaves the fewest isolated
 * tiles (`rules.bots`). One turn (`po_turn`) is the only loop body: a whole game, a
 * playout and the tree search's rollout (`_tree.h`) all play it. The positions seen
 * before (the repeat rule) cross the seam as keys. Included by `_search.c`.
 */
#ifndef BC_PLAY_H
#define BC_PLAY_H

#define PO_PAIRS 512
#define MAX_TURNS 100000 /* the longest turn cap a game or position may ask for */

typedef struct {
    int W, near_scope, npairs;
    u64 board;
    int8_t pa[PO_PAIRS], pb[PO_PAIRS];
    int16_t *near[64], *close[64]; /* per bit: pair indices, -1 ends */
    int16_t lists[];
} PlayBoard;

static const char PLAYBOARD[] = "pnp.building_community.playboard";

static u64 po_spread(const PlayBoard *t, u64 m) {
    int w = t->W, w1 = t->W - 1;
    return m << 1 | m >> 1 | m << w | m >> w | m << w1 | m >> w1;
}

static u64 po_flood(const PlayBoard *t, u64 seed, u64 mask) {
    u64 c = seed;
    for (;;) {
        u64 n = (c | po_spread(t, c)) & mask;
        if (n == c) return c;
        c = n;
    }
}

static int colour_at(const u64 *m, int bit) { return m[0] >> bit & 1 ? 0 : m[1] >> bit & 1 ? 1 : 2; }

typedef struct { int a, b, ca, cb, left; u64 dest; } PlayOption;

/* `FastBoard.options`: the pawn on bit p's swaps, each with its destinations. */
static int po_options(const PlayBoard *t, const u64 *m, u64 occ, int p, int special, PlayOption *out) {
    u64 ring = po_spread(t, (u64)1 << p) & t->board, n[3], x[3], y[3];
    int stood = colour_at(m, p), k = 0;
    for (int c = 0; c < 3; c++) n[c] = m[c] & po_spread(t, m[c]);
    int before = popc(ring & ~(n[0] | n[1] | n[2]));
    if (!before && !special) return 0;
    const int16_t *list = t->near_scope ? t->near[p] : special ? NULL : t->close[p];
    for (int i = 0; list ? list[i] >= 0 : i < t->npairs; i++) {
        int j = list ? list[i] : i, a = t->pa[j], b = t->pb[j];
        u64 ab = (u64)1 << a | (u64)1 << b;
        if (occ & ab) continue;
        int ca = colour_at(m, a), cb = colour_at(m, b);
        if (ca == cb) continue;
        for (int c = 0; c < 3; c++) {
            x[c] = m[c];
            y[c] = n[c];
            if (c == ca || c == cb) {
                x[c] ^= ab;
                y[c] = x[c] & po_spread(t, x[c]);
            }
        }
        u64 iso = t->board & ~(y[0] | y[1] | y[2]);
        if (!special && popc(iso & ring) >= before) continue;
        u64 first = po_flood(t, (u64)1 << a, x[cb]), second = po_flood(t, (u64)1 << b, x[ca]), target;
        if (special) target = first | second;
        else {
            int na = popc(first), nb = popc(second);
            target = na > nb ? first : nb > na ? second : first | second;
        }
        u64 dest = target & ~occ & ~x[stood];
        if (dest) out[k++] = (PlayOption){a, b, ca, cb, popc(iso), dest};
    }
    return k;
}

/* A position's key: the first two colour masks and the pawns' bits (6 bits each) with the
 * pawn to move; the third mask is the rest of the board. */
typedef struct { u64 m0, m1, pk; } Key;

/* The positions seen, a hash table; it remembers the slots it fills (`added`) so that
 * `seen_undo` empties them again, and a table is used again without being cleared whole. */
typedef struct {
    Key *slots; /* pk == 0 marks an empty slot: pk always holds a set bit (see po_key) */
    u64 mask, *added;
    int n_added;
} Seen;

static Key po_key(const u64 *m, const int *pawns, int players, int k) {
    u64 pk = (u64)1 << 63 | (u64)k << 36;
    for (int i = 0; i < players; i++) pk |= (u64)pawns[i] << (6 * i);
    return (Key){m[0], m[1], pk};
}

static u64 seen_hash(Key key) {
    u64 h = (key.m0 * 0x9E3779B97F4A7C15ULL) ^ (key.m1 * 0xC2B2AE3D27D4EB4FULL) ^
            (key.pk * 0x165667B19E3779F9ULL);
    return h ^ h >> 29;
}

/* Is the key in the table? */
static int seen_has(const Seen *s, Key key) {
    for (u64 i = seen_hash(key) & s->mask;; i = (i + 1) & s->mask) {
        const Key *e = &s->slots[i];
        if (!e->pk) return 0;
        if (e->m0 == key.m0 && e->m1 == key.m1 && e->pk == key.pk) return 1;
    }
}

/* Add the key; 1 if it was there already. */
static int seen_add(Seen *s, Key key) {
    for (u64 i = seen_hash(key) & s->mask;; i = (i + 1) & s->mask) {
        Key *e = &s->slots[i];
        if (!e->pk) {
            *e = key;
            if (s->added) s->added[s->n_added++] = i;
            return 0;
        }
        if (e->m0 == key.m0 && e->m1 == key.m1 && e->pk == key.pk) return 1;
    }
}

/* Empty the slots filled since `added` was last emptied. */
static void seen_undo(Seen *s) {
    while (s->n_added) s->slots[s->added[--s->n_added]].pk = 0;
}

static void free_playboard(PyObject *cap) { PyMem_Free(PyCapsule_GetPointer(cap, PLAYBOARD)); }

/* The fast path's tables (`bitboard.FastBoard`) as `kernel.Tables` names them: the row
 * width `W`, the board's bits, the swap pairs as bits (a < b, two numbers a pair) in
 * canonical order, `near` and `close`: per bit, the indices of the pairs both next to it
 * and within two steps of it, each bit's list ended by -1, and `near_scope`. */
typedef struct {
    int W, near_scope, npairs, nnear, nclose;
    u64 board;
    int pairs[2 * PO_PAIRS], near[64 * (PO_PAIRS + 1)], close[64 * (PO_PAIRS + 1)];
} PlayFields;

static const SeamField PLAY_FIELDS[] = {
    SEAM_INT(PlayFields, W, 3, 10),
    SEAM_U64(PlayFields, board),
    SEAM_LIST(PlayFields, pairs, npairs, 0, 63),
    SEAM_LIST(PlayFields, near, nnear, -1, PO_PAIRS - 1),
    SEAM_LIST(PlayFields, close, nclose, -1, PO_PAIRS - 1),
    SEAM_BOOL(PlayFields, near_scope),
    SEAM_END,
};

/* One of `f`'s per-bit lists (`n` numbers, 64 runs each ended by -1, each below `npairs`)
 * into heads and store from `at`: the next free place, or -1 with a ValueError naming it. */
static int read_lists(const char *name, const int *flat, int n, int npairs, int16_t **heads,
                      int16_t *store, int at) {
    int bit = 0;
    heads[0] = store + at;
    for (int i = 0; i < n; i++) {
        if (bit == 64) return seam_bad("playboard", name, "more than 64 lists");
        if (flat[i] >= npairs) return seam_bad("playboard", name, "a pair out of range");
        store[at++] = (int16_t)flat[i];
        if (flat[i] < 0 && ++bit < 64) heads[bit] = store + at;
    }
    if (bit != 64) return seam_bad("playboard", name, "expected 64 lists, each ended by -1");
    return at;
}

/* The tables' fields (read) into a new PlayBoard, or NULL with a ValueError. */
static PlayBoard *playboard_from(const PlayFields *f) {
    if (f->npairs % 2) {
        seam_bad("playboard", "pairs", "two bits a pair");
        return NULL;
    }
    int np = f->npairs / 2, cap = f->nnear + f->nclose;
    PlayBoard *t = PyMem_Calloc(1, sizeof(PlayBoard) + sizeof(int16_t) * (size_t)cap);
    if (!t) {
        PyErr_NoMemory();
        return NULL;
    }
    t->W = f->W;
    t->board = f->board;
    t->near_scope = f->near_scope;
    t->npairs = np;
    for (int i = 0; i < np; i++) {
        int a = f->pairs[2 * i], b = f->pairs[2 * i + 1];
        if (!(f->board >> a & 1) || !(f->board >> b & 1)) {
            PyMem_Free(t);
            seam_bad("playboard", "pairs", "a pair off the board");
            return NULL;
        }
        t->pa[i] = (int8_t)a;
        t->pb[i] = (int8_t)b;
    }
    int at = read_lists("near", f->near, f->nnear, np, t->near, t->lists, 0);
    if (at >= 0) at = read_lists("close", f->close, f->nclose, np, t->close, t->lists, at);
    if (at < 0) {
        PyMem_Free(t);
        return NULL;
    }
    return t;
}

/* playboard(fields) -> capsule: the fast path's tables by name (`PLAY_FIELDS`). */
static PyObject *playboard(PyObject *self, PyObject *fields) {
    (void)self;
    PlayFields *f = PyMem_Calloc(1, sizeof(PlayFields));
    if (!f) return PyErr_NoMemory();
    PlayBoard *t = seam_read(fields, PLAY_FIELDS, f, "playboard") == 0 ? playboard_from(f) : NULL;
    PyMem_Free(f);
    if (!t) return NULL;
    PyObject *out = PyCapsule_New(t, PLAYBOARD, free_playboard);
    if (!out) PyMem_Free(t);
    return out;
}

enum { PO_PLAYING, PO_WIN, PO_STUCK, PO_REPEAT, PO_TIMEOUT };

/* A position in play: the colour masks, the pawns' bits, the pawn to move, the turns
 * played, the passes in a row and the end (PO_PLAYING while the game goes on). */
typedef struct {
    u64 m[3];
    int pawns[MAX_PAWNS];
    int players, k, turns, in_a_row, end;
} PoPos;

static u64 po_occupied(const PoPos *s) {
    u64 occ = 0;
    for (int i = 0; i < s->players; i++) occ |= (u64)1 << s->pawns[i];
    return occ;
}

/* The pawn to move's options (`po_options`), and whether its turn begins special. */
static int po_turn_options(const PlayBoard *t, const PoPos *s, PlayOption *opts, int *special) {
    int p = s->pawns[s->k];
    u64 pb = (u64)1 << p, occ = po_occupied(s);
    *special = (po_flood(t, pb, s->m[colour_at(s->m, p)]) & occ & ~pb) != 0;
    return po_options(t, s->m, occ, p, *special, opts);
}

/* The i-th move of the options (the canonical order: by option, then destination bit):
 * its option's index, and the destination's bit in *to. */
static int po_nth(const PlayOption *opts, int i, int *to) {
    int j = 0;
    while (i >= popc(opts[j].dest)) i -= popc(opts[j++].dest);
    u64 dest = opts[j].dest;
    while (i--) dest &= dest - 1;
    *to = ctz(dest);
    return j;
}

/* Play the move (option o, to the bit `to`), or a pass (o NULL), hand the turn on and run
 * the end checks in the rules' order (win, stuck, repeat, timeout). `seen` says whether
 * the position reached was seen before: it is called with the new position's key. */
static void po_play(PoPos *s, const PlayOption *o, int to, int max_turns,
                    int (*seen)(void *, Key), void *arg) {
    if (o) {
        u64 ab = (u64)1 << o->a | (u64)1 << o->b;
        s->m[o->ca] ^= ab;
        s->m[o->cb] ^= ab;
        s->pawns[s->k] = to;
        s->in_a_row = 0;
    } else {
        s->in_a_row++;
    }
    s->turns++;
    s->k = (s->k + 1) % s->players;
    int again = seen(arg, po_key(s->m, s->pawns, s->players, s->k));
    if (o && o->left == 0) s->end = PO_WIN;
    else if (s->in_a_row == s->players) s->end = PO_STUCK;
    else if (again) s->end = PO_REPEAT;
    else if (s->turns >= max_turns) s->end = PO_TIMEOUT;
}

/* A turn's move as one number: a | b << 8 | to << 16 (bits), or PASSED. */
#define PASSED (-1)

/* One turn of a random or greedy player (`rng.choice` over the moves, greedy's over those
 * leaving the fewest isolated tiles; a pass draws nothing), counted in cnt (passes, legal
 * moves, decisions, special turns) and played by `po_play`; the move played. */
static int po_turn(const PlayBoard *t, PoPos *s, Twister *tw, PlayOption *opts, int greedy,
                   int *cnt, int max_turns, int (*seen)(void *, Key), void *arg) {
    int special, nopt = po_turn_options(t, s, opts, &special);
    cnt[3] += special;
    if (!nopt) {
        cnt[0]++;
        po_play(s, NULL, 0, max_turns, seen, arg);
        return PASSED;
    }
    int total = 0, bits = 0, to;
    for (int i = 0; i < nopt; i++) total += popc(opts[i].dest);
    cnt[2]++;
    cnt[1] += total;
    if (greedy) { /* the options whose swap leaves the fewest isolated tiles, in order */
        int fewest = opts[0].left, kept = 0;
        for (int i = 1; i < nopt; i++)
            if (opts[i].left < fewest) fewest = opts[i].left;
        total = 0;
        for (int i = 0; i < nopt; i++)
            if (opts[i].left == fewest) {
                opts[kept++] = opts[i];
                total += popc(opts[i].dest);
            }
    }
    while (total >> bits) bits++;
    uint32_t r;
    do r = genrand(tw) >> (32 - bits);
    while (r >= (uint32_t)total);
    const PlayOption *o = &opts[po_nth(opts, (int)r, &to)];
    po_play(s, o, to, max_turns, seen, arg);
    return o->a | o->b << 8 | to << 16;
}

static int seen_hook(void *seen, Key key) { return seen_add(seen, key); }

/* Isolated tiles on the board (`FastBoard.isolated`). */
static int po_isolated(const PlayBoard *t, const u64 *m) {
    u64 joined = 0;
    for (int c = 0; c < 3; c++) joined |= m[c] & po_spread(t, m[c]);
    return popc(t->board & ~joined);
}

/* A hash table for at least `keys` keys; its slots NULL out of memory. */
static Seen seen_table(Py_ssize_t keys) {
    u64 size = 16;
    while (size < 2 * (u64)(keys + 1)) size <<= 1;
    return (Seen){PyMem_Calloc(size, sizeof(Key)), size - 1, NULL, 0};
}

/* From now on remember the slots of up to `keys` keys added, for `seen_undo`; -1 out of
 * memory. */
static int seen_track(Seen *s, Py_ssize_t keys) {
    s->added = PyMem_Malloc(sizeof(u64) * (size_t)keys);
    return s->added ? 0 : -1;
}

static void seen_free(Seen *s) {
    PyMem_Free(s->slots);
    PyMem_Free(s->added);
}

/* --- a position, as the seam names it ----------------------------------------------- */

/* A position of the readable rules as `kernel.position` packs it: the cells of colours 0
 * and 1 (the rest hold colour 2) and the pawns' cells, as bits; whose turn, the turns
 * played, the passes in a row, the turn cap; the keys (`po_key`: three words each) of the
 * positions seen. After a playout: how it ended (0 still playing, then win, stuck, repeat,
 * timeout), what it counted, the isolated tiles left and each turn's move (`po_turn`). */
typedef struct {
    u64 colour0, colour1;
    int pawns[MAX_PAWNS], players;
    int to_move, turns, in_a_row, max_turns;
    u64 *seen;
    int nseen;
    int end, passes, legal_moves, decisions, special_turns, isolated_left;
    int *moves, nmoves;
} Packed;

static const SeamField POSITION[] = {
    SEAM_U64(Packed, colour0),
    SEAM_U64(Packed, colour1),
    SEAM_LIST(Packed, pawns, players, 0, 63),
    SEAM_INT(Packed, to_move, 0, MAX_PAWNS - 1),
    SEAM_INT(Packed, turns, 0, MAX_TURNS),
    SEAM_INT(Packed, in_a_row, 0, MAX_PAWNS),
    SEAM_INT(Packed, max_turns, 1, MAX_TURNS),
    SEAM_U64_LIST(Packed, seen, nseen),
    SEAM_END,
};

/* What a playout hands back (the rest of the position is as it was). */
static const SeamField AFTER[] = {
    SEAM_OUT_INT(Packed, turns),
    SEAM_OUT_INT(Packed, to_move),
    SEAM_OUT_INT(Packed, in_a_row),
    SEAM_OUT_INT(Packed, end),
    SEAM_OUT_INT(Packed, passes),
    SEAM_OUT_INT(Packed, legal_moves),
    SEAM_OUT_INT(Packed, decisions),
    SEAM_OUT_INT(Packed, special_turns),
    SEAM_OUT_INT(Packed, isolated_left),
    SEAM_HEAP_OUT(Packed, moves, nmoves),
    SEAM_END,
};

/* What `moves` reads of a position: the tiles, the pawns and whose turn. */
static const SeamField MOVER[] = {
    SEAM_U64(Packed, colour0),
    SEAM_U64(Packed, colour1),
    SEAM_LIST(Packed, pawns, players, 0, 63),
    SEAM_INT(Packed, to_move, 0, MAX_PAWNS - 1),
    SEAM_END,
};

/* The tiles and pawns of a packed position into s, each checked against the board (0, or
 * -1 with a ValueError). */
static int po_from(const PlayBoard *t, const Packed *q, int least, PoPos *s) {
    memset(s, 0, sizeof *s);
    if ((q->colour0 | q->colour1) & ~t->board || q->colour0 & q->colour1) {
        PyErr_SetString(PyExc_ValueError, "colours off the board, or two on one cell");
        return -1;
    }
    if (q->players < least || q->to_move >= q->players) {
        PyErr_SetString(PyExc_ValueError, "not a position the kernel plays on from");
        return -1;
    }
    for (int i = 0; i < q->players; i++)
        if (!(t->board >> q->pawns[i] & 1)) {
            PyErr_SetString(PyExc_ValueError, "a pawn off the board");
            return -1;
        }
    s->m[0] = q->colour0;
    s->m[1] = q->colour1;
    s->m[2] = t->board & ~(q->colour0 | q->colour1);
    memcpy(s->pawns, q->pawns, sizeof s->pawns);
    s->players = q->players;
    s->k = q->to_move;
    return 0;
}

/* A whole position (`POSITION`) into s, the game under way: 0, or -1 with a ValueError. */
static int po_position(const PlayBoard *t, const Packed *q, PoPos *s) {
    if (po_from(t, q, 2, s) < 0) return -1;
    if (q->turns >= q->max_turns || q->in_a_row >= q->players || q->nseen % 3) {
        PyErr_SetString(PyExc_ValueError, "not a position the kernel plays on from");
        return -1;
    }
    s->turns = q->turns;
    s->in_a_row = q->in_a_row;
    return 0;
}

/* The packed keys of the positions seen into `seen`. */
static void po_seen(const Packed *q, Seen *seen) {
    for (int i = 0; i < q->nseen; i += 3)
        seen_add(seen, (Key){q->seen[i], q->seen[i + 1], q->seen[i + 2] | (u64)1 << 63});
}

/* `SeamKernel.playout`: random play from the position until the game ends or `stop`
 * turns are played, on `random.Random(seed)`'s draws. */
static int position_playout(const void *board, void *position, uint64_t seed, int stop) {
    const PlayBoard *t = board;
    Packed *q = position;
    PoPos s;
    if (po_position(t, q, &s) < 0) return -1;
    int steps = stop > s.turns ? (stop < q->max_turns ? stop : q->max_turns) - s.turns : 0;
    Seen seen = seen_table(q->nseen / 3 + steps);
    PlayOption *opts = PyMem_Malloc(sizeof(PlayOption) * PO_PAIRS);
    q->moves = PyMem_Malloc(sizeof(int) * (size_t)(steps + 1));
    int status = -1;
    if (!seen.slots || !opts || !q->moves) {
        PyErr_NoMemory();
    } else {
        int cnt[4] = {0, 0, 0, 0};
        Twister tw;
        po_seen(q, &seen);
        twister_seed64(&tw, seed);
        while (s.end == PO_PLAYING && s.turns < stop)
            q->moves[q->nmoves++] =
                po_turn(t, &s, &tw, opts, 0, cnt, q->max_turns, seen_hook, &seen);
        q->turns = s.turns;
        q->to_move = s.k;
        q->in_a_row = s.in_a_row;
        q->end = s.end;
        q->passes = cnt[0];
        q->legal_moves = cnt[1];
        q->decisions = cnt[2];
        q->special_turns = cnt[3];
        q->isolated_left = po_isolated(t, s.m);
        status = 0;
    }
    seen_free(&seen);
    PyMem_Free(opts);
    return status;
}

static void position_release(void *position) { PyMem_Free(((Packed *)position)->moves); }

/* moves(playboard, position) -> (special, [(a, b, to), ...]): the pawn to move's legal
 * moves (bits) in the readable rules' canonical order, and whether it begins a special
 * turn (`rules.legal_moves`, `rules.is_special`); the position's fields as `MOVER` names
 * them. */
static PyObject *moves(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *cap, *fields;
    Packed q;
    PoPos s;
    memset(&q, 0, sizeof q);
    if (!PyArg_ParseTuple(args, "OO!", &cap, &PyDict_Type, &fields)) return NULL;
    const PlayBoard *t = PyCapsule_GetPointer(cap, PLAYBOARD);
    if (!t || seam_read(fields, MOVER, &q, "position") < 0 || po_from(t, &q, 1, &s) < 0)
        return NULL;
    int special;
    PlayOption *opts = PyMem_Malloc(sizeof(PlayOption) * PO_PAIRS);
    if (!opts) return PyErr_NoMemory();
    int nopt = po_turn_options(t, &s, opts, &special);
    PyObject *list = PyList_New(0), *out = NULL;
    for (int i = 0; list && i < nopt; i++)
        for (u64 d = opts[i].dest; d; d &= d - 1) {
            PyObject *move = Py_BuildValue("(iii)", opts[i].a, opts[i].b, ctz(d));
            if (!move || PyList_Append(list, move) < 0) Py_CLEAR(list);
            Py_XDECREF(move);
            if (!list) break;
        }
    PyMem_Free(opts);
    if (list) out = Py_BuildValue("(NN)", PyBool_FromLong(special), list);
    return out;
}

/* --- whole games ------------------------------------------------------------------------ */

/* A whole game: its settings (the start position: the tiles of colours 0 and 1 and the
 * pawns' cells, as bits; the bot; the turn cap), its generator, the position in play, its
 * counts and the positions seen, and the scratch its turns list their options in. */
typedef struct {
    Twister tw;
    u64 colour0, colour1;
    int pawns[MAX_PAWNS], players, greedy, max_turns;
    PoPos s;
    int cnt[4];
    Seen seen;
    PlayOption *opts;
} Game;

static const SeamField SETTINGS[] = {
    SEAM_U64(Game, colour0),
    SEAM_U64(Game, colour1),
    SEAM_LIST(Game, pawns, players, 0, 63),
    SEAM_BOOL(Game, greedy),
    SEAM_INT(Game, max_turns, 1, MAX_TURNS),
    SEAM_END,
};

/* A finished game as `kernel.record` reads it: the turns, the end code, the counters. */
typedef struct {
    int turns, end, passes, legal_moves, decisions, special_turns, isolated_left;
} Result;

static const SeamField RECORD[] = {
    SEAM_OUT_INT(Result, turns),
    SEAM_OUT_INT(Result, end),
    SEAM_OUT_INT(Result, passes),
    SEAM_OUT_INT(Result, legal_moves),
    SEAM_OUT_INT(Result, decisions),
    SEAM_OUT_INT(Result, special_turns),
    SEAM_OUT_INT(Result, isolated_left),
    SEAM_END,
};

/* `SeamKernel.begin`: the start position checked, the game's tables taken. */
static int game_begin(const void *board, void *game) {
    const PlayBoard *t = board;
    Game *g = game;
    Packed start = {.colour0 = g->colour0, .colour1 = g->colour1, .players = g->players};
    memcpy(start.pawns, g->pawns, sizeof start.pawns);
    if (po_from(t, &start, 2, &g->s) < 0) return -1;
    g->seen = seen_table(g->max_turns + 1);
    g->opts = PyMem_Malloc(sizeof(PlayOption) * PO_PAIRS);
    if (!g->seen.slots || !g->opts || seen_track(&g->seen, g->max_turns + 1) < 0) {
        PyErr_NoMemory();
        return -1;
    }
    return 0;
}

static void game_end(void *game) {
    Game *g = game;
    seen_free(&g->seen);
    PyMem_Free(g->opts);
}

/* `SeamKernel.play`: one game from the start (`engine._play_fast`), no Python touched. */
static int game_play(const void *board, void *game) {
    const PlayBoard *t = board;
    Game *g = game;
    PoPos *s = &g->s;
    s->m[0] = g->colour0;
    s->m[1] = g->colour1;
    s->m[2] = t->board & ~(g->colour0 | g->colour1);
    memcpy(s->pawns, g->pawns, sizeof s->pawns);
    s->k = s->turns = s->in_a_row = 0;
    s->end = PO_PLAYING;
    memset(g->cnt, 0, sizeof g->cnt);
    seen_undo(&g->seen); /* the last game's */
    seen_add(&g->seen, po_key(s->m, s->pawns, s->players, 0));
    while (s->end == PO_PLAYING)
        po_turn(t, s, &g->tw, g->opts, g->greedy, g->cnt, g->max_turns, seen_hook, &g->seen);
    return 0;
}

static PyObject *game_record(const void *board, const void *game) {
    const Game *g = game;
    Result r = {.turns = g->s.turns, .end = g->s.end, .passes = g->cnt[0],
                .legal_moves = g->cnt[1], .decisions = g->cnt[2], .special_turns = g->cnt[3],
                .isolated_left = po_isolated(board, g->s.m)};
    return seam_write(RECORD, &r);
}

static const uint32_t *seed_start(const void *board) {
    (void)board;
    return GENRAND_INIT;
}

#endif
