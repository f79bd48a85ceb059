/* Building Community's positions for the compiled tree search (`pnp/play/_uct.h`).
 *
 * A position is the playout kernel's `PoPos` (colour masks, pawns, pawn to move, turns,
 * passes in a row, the end) and the keys of the positions reached since the search's root,
 * oldest first: with the root's positions seen (a hash table shared in the context, never
 * changed by the tree) they decide the repeat rule. A playout cannot run past the root's
 * turn plus the horizon, nor past the turn cap, so a position holds at most that many keys
 * and its size is fixed for one search (a clone is a memcpy).
 *
 * The callbacks are the kernel's own turn (`po_turn_options`, `po_nth`, `po_play`,
 * `po_random_turn`): a decision's i-th action is `legal_actions()[i]` (the kernel lists the
 * moves in the rules' canonical order; the state's legal actions are that list, or the one
 * pass), and a playout is `playout.playout`: one 64-bit draw from the search's twister
 * seeds `random.Random(n)`'s generator, and nothing is drawn when the game is over or the
 * cut-off reached. The game keeps no score besides the team's win: a cut-off, stuck or
 * repeated game scores nothing. Included at the end of `_search.c`.
 */

typedef struct {
    PoPos p;
    int depth; /* keys in `path` */
    Key path[];
} TreePos;

typedef struct {
    const PlayBoard *t;
    int max_turns, cap; /* cap: the keys a position can hold */
    Seen seen;          /* the root's positions seen; a playout adds its own, then takes them out */
    u64 *added;         /* the slots a playout filled, in order */
    int n_added;
    PlayOption opts[PO_PAIRS];
} TreeCtx;

/* The repeat rule along the tree: seen at the root or since. */
static int tree_seen(void *arg, Key key) {
    void **a = arg;
    const TreeCtx *c = a[0];
    const TreePos *s = a[1];
    u64 h = (key.m0 * 0x9E3779B97F4A7C15ULL) ^ (key.m1 * 0xC2B2AE3D27D4EB4FULL) ^ (key.pk * 0x165667B19E3779F9ULL);
    for (u64 i = (h ^ h >> 29) & c->seen.mask;; i = (i + 1) & c->seen.mask) {
        const Key *e = &c->seen.slots[i];
        if (!e->pk) break;
        if (e->m0 == key.m0 && e->m1 == key.m1 && e->pk == key.pk) return 1;
    }
    for (int i = 0; i < s->depth; i++)
        if (s->path[i].m0 == key.m0 && s->path[i].m1 == key.m1 && s->path[i].pk == key.pk) return 1;
    return 0;
}

/* `seen_add` on the shared table, remembering the slot filled so it can be emptied. */
static int tree_add(TreeCtx *c, Key key) {
    u64 h = (key.m0 * 0x9E3779B97F4A7C15ULL) ^ (key.m1 * 0xC2B2AE3D27D4EB4FULL) ^ (key.pk * 0x165667B19E3779F9ULL);
    for (u64 i = (h ^ h >> 29) & c->seen.mask;; i = (i + 1) & c->seen.mask) {
        Key *e = &c->seen.slots[i];
        if (!e->pk) {
            *e = key;
            c->added[c->n_added++] = i;
            return 0;
        }
        if (e->m0 == key.m0 && e->m1 == key.m1 && e->pk == key.pk) return 1;
    }
}

static int tree_add_hook(void *ctx, Key key) { return tree_add(ctx, key); }

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
        PyErr_SetString(PyExc_RuntimeError, "the tree ran past its horizon");
        return -1;
    }
    po_play(&s->p, o, to, c->max_turns, tree_seen, arg);
    s->path[s->depth++] = po_key(s->p.m, s->p.pawns, s->p.players, s->p.k);
    return 0;
}

static int tree_playout(void *ctx, void *pos, Twister *rng, int stop) {
    TreeCtx *c = ctx;
    TreePos *s = pos;
    if (s->p.end || s->p.turns >= stop) return 0; /* `playout.playout` draws nothing then */
    u64 lo = genrand(rng), hi = genrand(rng); /* rng.getrandbits(64): the low word first */
    Twister tw;
    twister_seed64(&tw, lo | hi << 32);
    u64 cnt[4] = {0, 0, 0, 0};
    unsigned char step[3];
    c->n_added = 0;
    for (int i = 0; i < s->depth; i++) tree_add(c, s->path[i]);
    while (s->p.end == PO_PLAYING && s->p.turns < stop)
        po_random_turn(c->t, &s->p, &tw, c->opts, cnt, step, c->max_turns, tree_add_hook, c);
    while (c->n_added) c->seen.slots[c->added[--c->n_added]].pk = 0; /* the root's table again */
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

/* tree_search(playboard, (m0, m1, m2), pawns, to_move, turns, in_a_row, seen, max_turns,
 * words, budget, horizon, exploration, cooperative) -> ([(index, visits), ...], words):
 * `pnp.play.mcts.MctsBot.search` from this decision (see `playout.tree_search`), the arguments
 * as `playout` takes them, the twister as `random.Random.getstate()`'s 625 numbers. */
static PyObject *tree_search(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *cap, *masks, *pawn_list, *seen_list, *words;
    int k, turns, in_a_row, max_turns, budget, horizon, cooperative;
    double exploration;
    if (!PyArg_ParseTuple(args, "OOOiiiOiO!iidp", &cap, &masks, &pawn_list, &k, &turns, &in_a_row,
                          &seen_list, &max_turns, &PyTuple_Type, &words, &budget, &horizon,
                          &exploration, &cooperative))
        return NULL;
    const PlayBoard *t = PyCapsule_GetPointer(cap, PLAYBOARD);
    if (!t) return NULL;
    Py_ssize_t players = PySequence_Size(pawn_list), nseen = PySequence_Size(seen_list);
    if (players < 0 || nseen < 0) return NULL;
    TreePos *root = NULL;
    TreeCtx *c = NULL;
    PyObject *out = NULL, *visits = NULL;
    Twister tw;
    if (players < 2 || players > MAX_PAWNS || k < 0 || k >= players || turns < 0 ||
        turns >= max_turns || in_a_row < 0 || in_a_row >= players || budget < 0 || horizon < 0) {
        PyErr_SetString(PyExc_ValueError, "not a position the kernel searches from");
        return NULL;
    }
    if (read_twister(words, &tw) < 0) return NULL;
    if (horizon > max_turns) horizon = max_turns; /* the cap ends every game first anyway */
    int keys = horizon < max_turns - turns ? horizon : max_turns - turns;
    size_t size = sizeof(TreePos) + sizeof(Key) * (size_t)keys;
    root = PyMem_Calloc(1, size);
    c = PyMem_Calloc(1, sizeof(TreeCtx));
    if (!root || !c) {
        PyErr_NoMemory();
        goto done;
    }
    if (read_masks(masks, root->p.m, 3, "colour masks") < 0 ||
        read_pawn_cells(t, pawn_list, (int)players, root->p.pawns) < 0)
        goto done;
    root->p.players = (int)players;
    root->p.k = k;
    root->p.turns = turns;
    root->p.in_a_row = in_a_row;
    c->t = t;
    c->max_turns = max_turns;
    c->cap = keys;
    u64 slots = 16;
    while (slots < 2 * (u64)(nseen + keys + 1)) slots <<= 1;
    c->seen = (Seen){PyMem_Calloc(slots, sizeof(Key)), slots - 1};
    c->added = PyMem_Malloc(sizeof(u64) * (size_t)(keys + 1));
    if (!c->seen.slots || !c->added) {
        PyErr_NoMemory();
        goto done;
    }
    if (read_seen(seen_list, nseen, &c->seen) < 0) goto done;
    UctGame g = {size, (int)players, c, tree_to_move, tree_turns, tree_count, tree_apply,
                 NULL, NULL, tree_playout, tree_result, NULL, NULL};
    visits = uct_search(&g, root, &tw, budget, horizon, exploration, cooperative);
    if (visits) out = Py_BuildValue("(NN)", visits, twister_words(&tw));
done:
    if (c) {
        PyMem_Free(c->seen.slots);
        PyMem_Free(c->added);
    }
    PyMem_Free(c);
    PyMem_Free(root);
    return out;
}
