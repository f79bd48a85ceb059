/* Home in One Piece's positions for the compiled tree search (`pnp/_uct.h`): the very
 * search `pnp.mcts.MctsBot.search` runs on `state.State`, on the kernel's own turns.
 *
 * A position is a `TreePos`: both seats' blobs and the turn's few numbers, so a clone is
 * a memcpy. Each step loads it into the scratch `Game` (the model, the turn records, the
 * groups' and candidates' scratch; `ctx`), plays the kernel's own functions there and
 * stores it back. The steps mirror the state's: a chance node draws as
 * `dice_model.roll` and plays `rules.roll` (a blank roll ends the turn); a decision's
 * actions are `State.legal_actions()` in their order (pass, each blob towards the rally,
 * then each group `join` accepts there, smallest groups first) and an action is played
 * as `rules.play` plays that `Turn`; a playout is `compiled.playout` (one 64-bit draw of
 * the search's generator seeds the random player's, nothing drawn when the position is
 * over or at the cut-off). Included by _kernel.c, after its own functions.
 */

typedef struct {
    Blob b[2][MAXB];
    int n[2];
    int seat, turns, budget, rolled, ended, winner;
} TreePos;

typedef struct {
    Game *g;         /* scratch: a position is loaded here to be played */
    const char *err; /* a chance step's failure, reported by the next step that can */
    int standing;    /* score the search's cut-off on `State.standing()` */
} TreeCtx;

static void tree_load(Game *g, const TreePos *p) {
    for (int s = 0; s < 2; s++) {
        memcpy(g->b[s], p->b[s], (size_t)p->n[s] * sizeof(Blob));
        g->n[s] = p->n[s];
    }
    g->seat = p->seat;
    g->turns = p->turns;
    g->budget = p->budget;
    g->ended = p->ended;
    g->winner = p->winner;
    g->err = NULL;
    begin_touches(g); /* a tree's decision has nothing touched yet */
}

static void tree_store(TreePos *p, const Game *g) {
    for (int s = 0; s < 2; s++) {
        memcpy(p->b[s], g->b[s], (size_t)g->n[s] * sizeof(Blob));
        p->n[s] = g->n[s];
    }
    p->seat = g->seat;
    p->turns = g->turns;
    p->budget = g->budget;
    p->ended = g->ended;
    p->winner = g->winner;
}

/* -1 with a Python error set if the step failed (or an earlier chance step did). */
static int tree_failed(TreeCtx *c) {
    const char *err = c->err ? c->err : c->g->err;
    if (!err && !PyErr_Occurred()) return 0;
    if (!PyErr_Occurred()) PyErr_Format(PyExc_RuntimeError, "home-in-one-piece kernel: %s", err);
    return -1;
}

static int tree_to_move(void *ctx, const void *pos) {
    (void)ctx;
    const TreePos *p = pos;
    return p->ended ? UCT_TERMINAL : p->rolled ? p->seat : UCT_CHANCE;
}

static int tree_turns(void *ctx, const void *pos) {
    (void)ctx;
    return ((const TreePos *)pos)->turns;
}

/* The groups `State.legal_actions()` lists (those `join` accepts at the rally), in its
 * order, into g->opts; how many. */
static int tree_joins(Game *g) {
    const Model *m = g->m;
    double rx = m->rally[g->seat][0], ry = m->rally[g->seat][1], sx, sy;
    int n = g->n[g->seat], top = g->budget < n ? g->budget : n, count = 0;
    for (int size = 2; size <= top; size++) {
        int ng = groups(g, size, g->buf);
        for (int i = 0; i < ng; i++)
            if (clear_spot(g, &g->buf[i], rx, ry, 0, &sx, &sy)) g->opts[count++] = g->buf[i];
    }
    return count;
}

static int tree_count(void *ctx, const void *pos) {
    TreeCtx *c = ctx;
    if (tree_failed(c) < 0) return -1;
    tree_load(c->g, pos);
    int count = 1 + c->g->n[c->g->seat] + tree_joins(c->g);
    return tree_failed(c) < 0 ? -1 : count;
}

/* `apply(legal_actions()[i])`: pass, a blob towards the rally, or a join there. */
static int tree_apply(void *ctx, void *pos, int i) {
    TreeCtx *c = ctx;
    Game *g = c->g;
    if (tree_failed(c) < 0) return -1;
    tree_load(g, pos);
    const Model *m = g->m;
    double rx = m->rally[g->seat][0], ry = m->rally[g->seat][1];
    int n = g->n[g->seat];
    if (i >= 1 && i <= n) {
        shift(g, i - 1, rx, ry);
    } else if (i > n) {
        if (i - n - 1 >= tree_joins(g)) g->err = "no such action";
        else join(g, &g->opts[i - n - 1], rx, ry);
    }
    if (tree_failed(c) < 0) return -1;
    end_turn(g);
    tree_store(pos, g);
    ((TreePos *)pos)->rolled = 0;
    return 0;
}

/* `apply(sample_chance(rng))`: the roll, keyed by the blobs showing. */
static int64_t tree_chance(void *ctx, void *pos, Twister *rng) {
    TreeCtx *c = ctx;
    Game *g = c->g;
    TreePos *p = pos;
    tree_load(g, p);
    if (roll_dice(g, rng) < 0) { /* dice the kit's checks refuse: stop the walk here */
        c->err = g->err;
        p->ended = 2;
        return -1;
    }
    begin_touches(g);
    p->rolled = 1;
    if (g->budget == 0) {
        end_turn(g);
        p->rolled = 0;
    }
    tree_store(p, g);
    return g->budget;
}

/* `compiled.playout(state, rng, stop)`. */
static int tree_playout(void *ctx, void *pos, Twister *rng, int stop) {
    TreeCtx *c = ctx;
    TreePos *p = pos;
    if (tree_failed(c) < 0) return -1;
    if (p->ended || p->turns >= stop) return 0;
    uint64_t lo = genrand(rng), hi = genrand(rng); /* getrandbits(64): low word first */
    Twister tw;
    twister_seed64(&tw, lo | hi << 32);
    tree_load(c->g, p);
    play_game(c->g, 0, &tw, stop, p->rolled);
    if (tree_failed(c) < 0) return -1;
    tree_store(p, c->g);
    p->rolled = 0;
    return 0;
}

/* `State.standing()`: each seat's score, and under one point its dough's nearness to its
 * rally point. */
static void tree_standing(Game *g, double *scores) {
    const Model *m = g->m;
    double far = m->blobs * hypot2(m->hypot, m->width, m->height), spread[MAXB];
    for (int s = 0; s < 2; s++) {
        double rx = m->rally[s][0], ry = m->rally[s][1];
        for (int i = 0; i < g->n[s]; i++) {
            const Blob *b = &g->b[s][i];
            spread[i] = b->units * hypot2(m->hypot, b->x - rx, b->y - ry);
        }
        scores[s] = (double)(score(g, s) + 1) - py_sum(spread, g->n[s]) / far;
    }
}

/* `MctsBot.reward`'s reading: the winner, the scores at the turn limit, or the standing
 * at the search's cut-off. */
static int tree_result(void *ctx, const void *pos, double *scores) {
    TreeCtx *c = ctx;
    const TreePos *p = pos;
    if (p->ended == 1) {
        for (int s = 0; s < 2; s++) scores[s] = s == p->winner;
        return UCT_WON;
    }
    if (p->ended != 2 && !c->standing) return UCT_GOING;
    tree_load(c->g, p);
    if (p->ended != 2) {
        tree_standing(c->g, scores);
        return PyErr_Occurred() ? UCT_GOING : UCT_STANDING;
    }
    for (int s = 0; s < 2; s++) scores[s] = score(c->g, s);
    return UCT_CUT;
}

/* tree_search(model, blobs by seat, seat, turns, rolled, budget, max_turns, ended, winner,
 * standing, twister, playouts, horizon, exploration, cooperative) -> ([(index, visits)],
 * twister after): `uct_search` from a position between turns or at a seat's decision with
 * nothing touched (`ended` 0 playing, 1 home, 2 timeout; `winner` -1 for none;
 * `standing`: the state offers `standing()`, as `MctsBot.reward` asks). */
static PyObject *k_tree_search(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *cap, *blobs, *words;
    int seat, turns, rolled, budget, max_turns, ended, winner, standing, playouts, horizon;
    int cooperative;
    double exploration;
    if (!PyArg_ParseTuple(args, "OOiipiiiipOiidp", &cap, &blobs, &seat, &turns, &rolled,
                          &budget, &max_turns, &ended, &winner, &standing, &words, &playouts,
                          &horizon, &exploration, &cooperative))
        return NULL;
    const Model *m = PyCapsule_GetPointer(cap, "hiop.Model");
    if (!m) return NULL;
    if (seat < 0 || seat > 1 || turns < 0 || turns > max_turns || budget < 0 || budget > 3 ||
        ended < 0 || ended > 2 || winner < -1 || winner > 1 || (!ended && turns == max_turns)) {
        PyErr_SetString(PyExc_ValueError, "not a position the kernel searches from");
        return NULL;
    }
    Twister tw;
    if (read_twister(words, &tw) < 0) return NULL;
    Game *g = game_new(m, max_turns);
    if (!g) return NULL;
    TreePos root = {0};
    PyObject *out = NULL;
    if (read_blobs(g, blobs)) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "blobs the kernel cannot hold");
    } else {
        g->seat = seat;
        g->turns = turns;
        g->budget = budget;
        g->ended = ended;
        g->winner = winner;
        tree_store(&root, g);
        root.rolled = rolled;
        TreeCtx ctx = {g, NULL, standing};
        UctGame game = {sizeof(TreePos), 2, &ctx, tree_to_move, tree_turns, tree_count,
                        tree_apply, tree_chance, NULL, tree_playout, tree_result, NULL, NULL};
        PyObject *children = uct_search(&game, &root, &tw, playouts, horizon, exploration,
                                        cooperative);
        PyObject *after = children ? twister_words(&tw) : NULL;
        if (after) out = Py_BuildValue("(NN)", children, after);
        else Py_XDECREF(children);
    }
    game_free(g);
    return out;
}
