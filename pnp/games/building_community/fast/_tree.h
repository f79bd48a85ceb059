/* Building Community's positions for the compiled tree search (`pnp/play/_uct.h`).
 *
 * A position is the turn's `PoPos` (colour masks, pawns, pawn to move, turns, passes in a
 * row, the end) and how many turns it is from the search's root. The keys of the positions
 * reached since the root live in the context, in order: `uct_search` keeps one position
 * alive at a time (each playout's copy of the root, walked down and played out), so the
 * first `depth` keys there are that position's own. With the root's positions seen (a
 * hash table in the context, never changed by the tree) they decide the repeat rule. A
 * game under way cannot pass the turn cap, so the context holds at most `max_turns -
 * turns` keys, and a position is small and fixed in size (a clone is a memcpy).
 *
 * The callbacks are the kernel's own turn (`po_turn_options`, `po_nth`, `po_play`,
 * `po_turn`): a decision's i-th action is `legal_actions()[i]` (the kernel lists the moves
 * in the rules' canonical order; the state's legal actions are that list, or the one
 * pass), and a playout is `kernel.playout`: one 64-bit draw from the search's twister
 * seeds `random.Random(n)`'s generator, and nothing is drawn when the game is over or the
 * cut-off reached. The game keeps no score besides the team's win: a cut-off, stuck or
 * repeated game scores nothing. Included by `_search.c` after `_play.h`; `tree_begin` is
 * its hook for `pnp/play/_seam.h`'s `tree_search`.
 */
#ifndef BC_TREE_H
#define BC_TREE_H

typedef struct {
    PoPos p;
    int depth; /* keys of this position's walk from the root: the context's first `depth` */
} TreePos;

typedef struct {
    const PlayBoard *t;
    int max_turns, cap; /* cap: the keys a walk can reach */
    Seen seen;          /* the root's positions seen; a playout adds its own, then takes them out */
    Key *path;          /* the keys reached since the root by the position in play */
    PlayOption opts[PO_PAIRS];
} TreeCtx;

/* The repeat rule along the tree: seen at the root or since. */
static int tree_seen(void *arg, Key key) {
    void **a = arg;
    const TreeCtx *c = a[0];
    const TreePos *s = a[1];
    if (seen_has(&c->seen, key)) return 1;
    for (int i = 0; i < s->depth; i++)
        if (c->path[i].m0 == key.m0 && c->path[i].m1 == key.m1 && c->path[i].pk == key.pk) return 1;
    return 0;
}

static int tree_to_move(void *ctx, const void *pos) {
    (void)ctx;
    const TreePos *s = pos;
    return s->p.end ? UCT_TERMINAL : s->p.k;
}

static int tree_turns(void *ctx, const void *pos) {
    (void)ctx;
    return ((const TreePos *)pos)->p.turns;
}

static int tree_count(void *ctx, const void *pos) {
    TreeCtx *c = ctx;
    int special, nopt = po_turn_options(c->t, &((const TreePos *)pos)->p, c->opts, &special), n = 0;
    for (int i = 0; i < nopt; i++) n += popc(c->opts[i].dest);
    return n ? n : 1; /* no move: the one pass */
}

static int tree_apply(void *ctx, void *pos, int i) {
    TreeCtx *c = ctx;
    TreePos *s = pos;
    int special, to = 0, nopt = po_turn_options(c->t, &s->p, c->opts, &special);
    const PlayOption *o = nopt ? &c->opts[po_nth(c->opts, i, &to)] : NULL;
    void *arg[2] = {c, s};
    if (s->depth >= c->cap) {
        PyErr_SetString(PyExc_RuntimeError, "the tree ran past the turn cap");
        return -1;
    }
    po_play(&s->p, o, to, c->max_turns, tree_seen, arg);
    c->path[s->depth++] = po_key(s->p.m, s->p.pawns, s->p.players, s->p.k);
    return 0;
}

static int tree_playout(void *ctx, void *pos, Twister *rng, int stop) {
    TreeCtx *c = ctx;
    TreePos *s = pos;
    if (s->p.end || s->p.turns >= stop) return 0; /* `kernel.playout` draws nothing then */
    u64 lo = genrand(rng), hi = genrand(rng); /* rng.getrandbits(64): the low word first */
    Twister tw;
    twister_seed64(&tw, lo | hi << 32);
    int cnt[4] = {0, 0, 0, 0};
    for (int i = 0; i < s->depth; i++) seen_add(&c->seen, c->path[i]);
    while (s->p.end == PO_PLAYING && s->p.turns < stop)
        po_turn(c->t, &s->p, &tw, c->opts, 0, cnt, c->max_turns, seen_hook, &c->seen);
    seen_undo(&c->seen); /* the root's table again */
    return 0;
}

static int tree_result(void *ctx, const void *pos, double *scores) {
    (void)ctx;
    const TreePos *s = pos;
    if (s->p.end == PO_PLAYING) return UCT_GOING;
    if (s->p.end == PO_TIMEOUT) return UCT_UNSCORED; /* the turn cap: a cut-off, no scores */
    for (int i = 0; i < s->p.players; i++) scores[i] = s->p.end == PO_WIN; /* all or none */
    return UCT_WON;
}

/* `SeamKernel.tree`: the search's context and root from a decision (`kernel.position`'s
 * fields; the game not over). */
static int tree_begin(const void *board, const void *position, UctGame *uct, void **root) {
    const PlayBoard *t = board;
    const Packed *q = position;
    TreePos *p = PyMem_Calloc(1, sizeof(TreePos));
    TreeCtx *c = PyMem_Calloc(1, sizeof(TreeCtx));
    *root = p;
    uct->ctx = c;
    if (!p || !c) {
        PyErr_NoMemory();
        return -1;
    }
    if (po_position(t, q, &p->p) < 0) return -1;
    c->t = t;
    c->max_turns = q->max_turns;
    c->cap = q->max_turns - q->turns;
    c->seen = seen_table(q->nseen / 3 + c->cap);
    c->path = PyMem_Malloc(sizeof(Key) * (size_t)c->cap);
    if (!c->seen.slots || !c->path) {
        PyErr_NoMemory();
        return -1;
    }
    po_seen(q, &c->seen); /* the root's keys, kept for the whole search */
    if (seen_track(&c->seen, c->cap + 1) < 0) {
        PyErr_NoMemory();
        return -1;
    }
    *uct = (UctGame){.size = sizeof(TreePos), .players = q->players, .ctx = c,
                     .to_move = tree_to_move, .turns = tree_turns, .count = tree_count,
                     .apply = tree_apply, .playout = tree_playout, .result = tree_result};
    return 0;
}

static void tree_end(UctGame *uct, void *root) {
    TreeCtx *c = uct->ctx;
    if (c) {
        seen_free(&c->seen);
        PyMem_Free(c->path);
    }
    PyMem_Free(c);
    PyMem_Free(root);
}

#endif
