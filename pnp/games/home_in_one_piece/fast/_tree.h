/* Home in One Piece's step machine: its positions for the compiled tree search
 * (`pnp/play/_uct.h`), the very search `pnp.play.mcts.MctsBot.search` runs on `state.State`,
 * and for the shared driver (`pnp/play/_drive.h`) that plays whole games and playouts.
 *
 * A position is a `TreePos`: both seats' blobs and the turn's few numbers (what the turn
 * under way has touched included), so a clone is a memcpy. Each step loads it into the
 * scratch `Game` (the model, the turn records, the groups' and candidates' scratch;
 * `ctx`), plays the kernel's own functions there and stores it back. The steps mirror the
 * state's: a chance node draws as `dice_model.roll` and plays `rules.roll` (a blank roll
 * ends the turn); a decision's actions are `State.legal_actions()` in their order (`END`,
 * then `touches.options`: each untouched blob's steps, then each group's join spots), and
 * one is played as `State.apply` plays it (a touch that leaves nothing to touch ends the
 * turn); a playout is `compiled.playout` (one 64-bit draw of the search's generator seeds
 * the greedy player's, nothing drawn when the position is over or at the cut-off); a
 * cut-off is scored on `State.win_chances()` (`outlook.py`) or `State.standing()`.
 *
 * The actions of every decision the tree lists are kept in `ctx` (`table`), and a child
 * is keyed by its action's place there (`UctGame.key`): a step of the tree plays the
 * action it names without listing the decision again. The root is listed first, so its
 * keys are its actions' places in `legal_actions()`.
 *
 * The bots play as `State.follow_plan` does: the random player (`UctGame.random`) and the
 * greedy one (a `DriveChoose`) plan the rest of the turn on the scratch game, drawing as
 * the old whole-turn functions drew, and hand its touches out one decision at a time,
 * keyed past the table (PLANNED + j). A planned touch is played by taking what it left
 * (`Plan.side`), so a turn is worked out once. While the driver walks a position
 * (`tree_drive`), the scratch game holds it whole and the position only the numbers the
 * steps read; it is stored whole when the walk ends. Included by _kernel.c, after its own
 * functions.
 */

typedef struct {
    Blob b[2][MAXB];
    int n[2];
    int seat, turns, budget, rolled, ended, winner, ntouched;
    unsigned char touched[MAXB]; /* of the seat's own blobs, by place */
} TreePos;

typedef struct {
    Act *items;
    int n, cap;
} Acts;

typedef struct {
    Game *g;         /* scratch: a position is loaded here to be played */
    const char *err; /* a chance step's failure, reported by the next step that can */
    int scoring;     /* a cut-off's score: 2 `win_chances()`, 1 `standing()`, 0 none */
    Acts listed;     /* the last decision listed */
    Acts table;      /* every action a child of the tree is keyed by, by key */
    Plan plan;       /* the turn a bot plans (`tree_planned`), its touches keyed PLANNED + j */
    int planned, plan_greedy, plan_seat, plan_turns; /* whose turn it is, if `planned` */
    TreePos *live;   /* a position the driver walks (`tree_drive`): `g` holds it whole */
    UctGame steps;   /* the hooks over this context (`tree_steps`), for the driver */
} TreeCtx;

/* The keys of a bot's planned touches (`Plan.acts[j]` is PLANNED + j), far past the
   tree's table. */
#define PLANNED ((int64_t)1 << 40)

static int acts_push(Acts *a, Act act) {
    if (a->n == a->cap) {
        int cap = a->cap ? 2 * a->cap : 256;
        Act *items = realloc(a->items, (size_t)cap * sizeof *items);
        if (!items) return -1;
        a->items = items;
        a->cap = cap;
    }
    a->items[a->n++] = act;
    return 0;
}

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
    memcpy(g->touched, p->touched, sizeof g->touched);
    g->ntouched = p->ntouched;
    g->turn_over = !p->rolled || p->budget == 0; /* a decision's turn goes on */
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
    memcpy(p->touched, g->touched, sizeof p->touched);
    p->ntouched = g->ntouched;
}

/* Position `p` into the scratch game, unless it is there already (the driver's). */
static void tree_at(TreeCtx *c, const TreePos *p) {
    if (p != c->live) tree_load(c->g, p);
}

/* The scratch game back into `p`; into the driver's only what the steps read of it (its
 * blobs stay in the game until the walk ends). */
static void tree_put(TreeCtx *c, TreePos *p) {
    const Game *g = c->g;
    if (p != c->live) {
        tree_store(p, g);
        return;
    }
    p->seat = g->seat;
    p->turns = g->turns;
    p->budget = g->budget;
    p->ended = g->ended;
    p->winner = g->winner;
    p->ntouched = g->ntouched;
}

/* -1 with a Python error set if the step failed (or an earlier step did). */
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

/* Whether (x, y) is among the first n points of `pts` (dict.fromkeys keeps the first). */
static int seen_point(double (*pts)[2], int n, double x, double y) {
    for (int k = 0; k < n; k++)
        if (pts[k][0] == x && pts[k][1] == y) return 1;
    return 0;
}

/* touches.step_spots: own blob `i`'s listed steps (fan, ring, the clear ones, each once;
 * else the clear spot of its reach nearest the rally); how many. */
static int step_spots(Game *g, int i, double (*out)[2]) {
    const Model *m = g->m;
    const Blob *b = &own(g)[i];
    double rx = m->rally[g->seat][0], ry = m->rally[g->seat][1], spots[128][2];
    Disc o[NDISC];
    int no = discs_except(g, i, NULL, o), ns = fan_spots(g, i, rx, ry, spots), n = 0;
    ns += ring_spots(g, i, spots + ns);
    for (int k = 0; k < ns; k++)
        if (clear(m, spots[k][0], spots[k][1], b->r, o, no) &&
            !seen_point(out, n, spots[k][0], spots[k][1])) {
            out[n][0] = spots[k][0];
            out[n++][1] = spots[k][1];
        }
    if (n) return n;
    Disc anchor = {b->ax, b->ay, reach_of(m, b->r, b->r)};
    return nearest_clear(m, rx, ry, b->r, o, no, &anchor, 1, g->cand, &out[0][0], &out[0][1]);
}

/* touches.join_spots: the group's listed join spots (the greedy player's targets' spots
 * clear of all dough, each once; the rally's replaced by the nearest clear spot of the
 * common reach when it is not clear); how many. */
static int join_spots(Game *g, const Group *gr, double (*out)[2]) {
    const Model *m = g->m;
    double rx = m->rally[g->seat][0], ry = m->rally[g->seat][1], cx, cy, spots[2 + 16][2];
    int ok[2 + 16] = {0}, nt = 2 + m->nring, n = 0;
    centroid(g, gr, &cx, &cy);
    double big = m->radii[group_units(g, gr)], away = 2 * big;
    for (int t = 0; t < nt; t++) {
        double tx = t == 0 ? rx : t == 1 ? cx : cx + away * m->ring[t - 2][0];
        double ty = t == 0 ? ry : t == 1 ? cy : cy + away * m->ring[t - 2][1];
        ok[t] = clear_spot(g, gr, tx, ty, 1, &spots[t][0], &spots[t][1]);
    }
    if (!ok[0]) {
        Disc anchors[MAXD], o[NDISC];
        int na = group_anchor_discs(g, gr, big, anchors), no = discs_except(g, -1, gr, o);
        ok[0] = nearest_clear(m, rx, ry, big, o, no, anchors, na, g->cand, &spots[0][0],
                              &spots[0][1]);
    }
    for (int t = 0; t < nt; t++)
        if (ok[t] && !seen_point(out, n, spots[t][0], spots[t][1])) {
            out[n][0] = spots[t][0];
            out[n++][1] = spots[t][1];
        }
    return n;
}

/* `State.legal_actions()` into c->listed: END (not before the turn's first touch when a
 * touch is listed), each untouched blob's steps, then each group of untouched blobs'
 * joins (pairs before triples); how many, -1 out of memory. */
static int tree_list(TreeCtx *c) {
    Game *g = c->g;
    double spots[2 + 16][2], steps[128][2];
    c->listed.n = 0;
    if (acts_push(&c->listed, (Act){END_TURN, -1, {0, {0}}, 0, 0}) < 0) return -1;
    int left = touches_left(g), idx[MAXB], n = fresh(g, idx);
    if (left == 0) return c->listed.n;
    for (int f = 0; f < n; f++) {
        int ns = step_spots(g, idx[f], steps);
        for (int k = 0; k < ns; k++)
            if (acts_push(&c->listed, (Act){STEP, idx[f], {0, {0}}, steps[k][0], steps[k][1]}) < 0)
                return -1;
    }
    int top = left < n ? left : n;
    for (int size = 2; size <= top; size++) {
        int ng = groups(g, size, g->buf);
        for (int i = 0; i < ng; i++) {
            int ns = join_spots(g, &g->buf[i], spots);
            for (int k = 0; k < ns; k++)
                if (acts_push(&c->listed, (Act){JOIN, -1, g->buf[i], spots[k][0], spots[k][1]}) < 0)
                    return -1;
        }
    }
    if (g->ntouched == 0 && c->listed.n > 1) { /* dice in hand: no END before a touch */
        c->listed.n--;
        memmove(c->listed.items, c->listed.items + 1, (size_t)c->listed.n * sizeof(Act));
    }
    return c->listed.n;
}

static int tree_count(void *ctx, const void *pos) {
    TreeCtx *c = ctx;
    if (tree_failed(c) < 0) return -1;
    tree_at(c, pos);
    int count = tree_list(c);
    if (count < 0) {
        PyErr_NoMemory();
        return -1;
    }
    return tree_failed(c) < 0 ? -1 : count;
}

/* The key of the last listing's action `i`: its place in the table. */
static int64_t tree_key(void *ctx, const void *pos, int i) {
    (void)pos;
    TreeCtx *c = ctx;
    if (acts_push(&c->table, c->listed.items[i]) < 0) {
        c->err = "out of memory";
        return 0;
    }
    return c->table.n - 1;
}

/* `State.apply` of a touch or END on the loaded position: a touch that leaves nothing to
 * touch ends the turn. */
static void tree_play(Game *g, const Act *a) {
    if (a->kind == STEP) shift(g, a->blob, a->x, a->y);
    else if (a->kind == JOIN) join(g, &a->group, a->x, a->y);
    if (g->err) return;
    int idx[MAXB];
    if (a->kind == END_TURN || touches_left(g) == 0 || fresh(g, idx) == 0) end_turn(g);
}

/* The loaded game, played on, back into `p`. */
static void tree_stored(TreeCtx *c, TreePos *p) {
    const Game *g = c->g;
    int over = g->seat != p->seat || g->ended;
    tree_put(c, p);
    if (over) p->rolled = 0;
}

/* (The driver's position needs no look for an earlier failure: it stops at the first.) */
static int tree_step(TreeCtx *c, void *pos, const Act *a) {
    if (pos != c->live && tree_failed(c) < 0) return -1;
    tree_at(c, pos);
    tree_play(c->g, a);
    if (tree_failed(c) < 0) return -1;
    tree_stored(c, pos);
    return 0;
}

/* Planned touch j played by taking the turn as the plan left it after that touch (the
 * plan was made from this very position), and its counts; as `tree_play` ends it. */
static int tree_follow(TreeCtx *c, TreePos *p, int j) {
    Game *g = c->g;
    const Side *from = &c->plan.side[j], *to = &c->plan.side[j + 1];
    if (p != c->live && tree_failed(c) < 0) return -1;
    tree_at(c, p);
    side_set(g, to);
    for (int k = 0; k < NC; k++) g->counters[k] += to->counters[k] - from->counters[k];
    int idx[MAXB];
    if (touches_left(g) == 0 || fresh(g, idx) == 0) end_turn(g); /* which cannot fail */
    tree_stored(c, p);
    return 0;
}

/* `apply(legal_actions()[i])` (the last listing's). */
static int tree_apply(void *ctx, void *pos, int i) {
    TreeCtx *c = ctx;
    return tree_step(c, pos, &c->listed.items[i]);
}

/* `apply` of the action a key names. */
static int tree_apply_key(void *ctx, void *pos, int64_t key) {
    TreeCtx *c = ctx;
    if (key >= PLANNED && c->planned && key - PLANNED <= c->plan.n) {
        int j = (int)(key - PLANNED);
        if (j < c->plan.n) return tree_follow(c, pos, j);
        Act a = c->plan.acts[j];
        return tree_step(c, pos, &a);
    }
    if (key < 0 || key >= c->table.n) {
        PyErr_SetString(PyExc_RuntimeError, "home-in-one-piece kernel: no such action");
        return -1;
    }
    Act a = c->table.items[key];
    return tree_step(c, pos, &a);
}

/* `apply(sample_chance(rng))`: the roll, keyed by the blobs showing. */
static int64_t tree_chance(void *ctx, void *pos, Twister *rng) {
    TreeCtx *c = ctx;
    Game *g = c->g;
    TreePos *p = pos;
    tree_at(c, p);
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
    tree_put(c, p);
    return g->budget;
}

/* --- the bots, for whole games and playouts (`pnp/play/_drive.h`) ---------------------- */

/* `State.follow_plan`: the next touch of the turn the bot (`greedy`, else the random
 * player) plans, as a key (PLANNED + j), the planned END once it is played out. The turn
 * is planned on the scratch game the first time the bot is asked this turn, drawing from
 * `rng` as the readable planner draws (nothing when the roll leaves nothing to touch);
 * a touch the plan did not make is planned afresh. -1 with a Python error set. */
static int64_t tree_planned(TreeCtx *c, const TreePos *p, Twister *rng, int greedy) {
    Plan *plan = &c->plan;
    int j = 0;
    if (c->planned && c->plan_greedy == greedy && c->plan_seat == p->seat &&
        c->plan_turns == p->turns)
        while (j <= plan->n && plan->side[j].ntouched != p->ntouched) j++;
    if (!c->planned || c->plan_greedy != greedy || c->plan_seat != p->seat ||
        c->plan_turns != p->turns || j > plan->n) {
        if (p != c->live && tree_failed(c) < 0) return -1;
        Game *g = c->g;
        Side start; /* the planner plays on the game itself: then it is put back */
        tree_at(c, p);
        side_of(g, &start);
        plan->n = 0;
        if (touches_left(g) > 0) {
            g->planning = plan;
            if (greedy) greedy_turn(g, rng);
            else random_turn(g, rng);
            g->planning = NULL;
        }
        if (tree_failed(c) < 0) return -1;
        plan->acts[plan->n] = (Act){END_TURN, -1, {0, {0}}, 0, 0};
        side_of(g, &plan->side[plan->n]);
        side_set(g, &start);
        memcpy(g->counters, start.counters, sizeof start.counters);
        c->planned = 1;
        c->plan_greedy = greedy;
        c->plan_seat = p->seat;
        c->plan_turns = p->turns;
        j = 0;
    }
    return PLANNED + j;
}

/* The random player (`State.random_action`): `UctGame.random`. */
static int64_t tree_random(void *ctx, const void *pos, Twister *rng) {
    return tree_planned(ctx, pos, rng, 0);
}

/* The greedy player (`State.rollout_action`, the greedy bot): a `DriveChoose`. */
static int64_t tree_greedy(void *ctx, const void *pos, Twister *rng) {
    return tree_planned(ctx, pos, rng, 1);
}

/* Play on from `p` in place by `choose` (NULL: the random player) until the game ends or
 * `stop` turns are played, a plan of an earlier walk forgotten. 0, or -1 with a Python
 * error set (a failed roll's included). */
static int tree_drive(TreeCtx *c, TreePos *p, Twister *rng, DriveChoose choose, int stop) {
    c->planned = 0;
    tree_load(c->g, p);
    c->live = p;
    int status = drive_play(&c->steps, p, rng, choose, stop);
    c->live = NULL;
    if (status < 0 || tree_failed(c) < 0) return -1;
    tree_store(p, c->g); /* the game stays the position reached, for `pack` */
    return 0;
}

/* `State.standing()`: each seat's score, and under one point its dough's nearness to its
 * rally point. */
static void tree_standing(Game *g, double *scores) {
    const Model *m = g->m;
    double far = m->blobs * hypot2(m, m->width, m->height), spread[MAXB];
    for (int s = 0; s < 2; s++) {
        double rx = m->rally[s][0], ry = m->rally[s][1];
        for (int i = 0; i < g->n[s]; i++) {
            const Blob *b = &g->b[s][i];
            spread[i] = b->units * hypot2(m, b->x - rx, b->y - ry);
        }
        scores[s] = (double)(score(g, s) + 1) - py_sum(spread, g->n[s]) / far;
    }
}

/* outlook.features of seat `s`'s blobs. */
static void features(Game *g, int s, double *f) {
    const Model *m = g->m;
    const Blob *bl = g->b[s];
    double rx = m->rally[s][0], ry = m->rally[s][1], total = m->blobs;
    double mean = 0.0, most = 0.0, cx = 0.0, cy = 0.0, spread = 0.0;
    int far = 0, home = 0, pairs = 0, n = g->n[s];
    for (int i = 0; i < n; i++) {
        double d = hypot2(m, bl[i].x - rx, bl[i].y - ry);
        mean += bl[i].units * d;
        if (d > most) most = d;
        far += d > reach_of(m, bl[i].r, bl[i].r);
        cx += bl[i].units * bl[i].x;
        cy += bl[i].units * bl[i].y;
        home += at_home(m, &bl[i]) ? bl[i].units : 0;
    }
    cx = cx / total;
    cy = cy / total;
    for (int i = 0; i < n; i++) {
        spread += bl[i].units * hypot2(m, bl[i].x - cx, bl[i].y - cy);
        for (int j = i + 1; j < n; j++) {
            double limit = m->reach * (bl[i].r + bl[j].r + 2 * m->radii[bl[i].units + bl[j].units]);
            double dx = bl[i].x - bl[j].x, dy = bl[i].y - bl[j].y;
            pairs += dx * dx + dy * dy <= limit * limit;
        }
    }
    f[0] = (double)(n - 1);
    f[1] = mean / total / 100;
    f[2] = most / 100;
    f[3] = (double)(pairs < m->most_pairs ? pairs : m->most_pairs);
    f[4] = spread / total / 100;
    f[5] = (double)far;
    f[6] = home / total;
}

/* outlook.win_chances: each seat's chance to win, by the model. */
static void tree_chances(Game *g, double *out) {
    const Model *m = g->m;
    int me = g->seat, other = 1 - g->seat;
    double mine[NWEIGHTS], theirs[NWEIGHTS], z = 0.0;
    features(g, me, mine);
    features(g, other, theirs);
    for (int k = 0; k < m->nweights; k++) z += m->weights[k] * (mine[k] - theirs[k]);
    z += m->tempo;
    double p = 1.0 / (1.0 + lib_exp(-z));
    out[me] = p;
    out[other] = 1.0 - p;
}

/* `MctsBot.reward`'s reading: the winner, the scores at the turn limit, or the win
 * chances or the standing at the search's cut-off. */
static int tree_result(void *ctx, const void *pos, double *scores) {
    TreeCtx *c = ctx;
    const TreePos *p = pos;
    if (p->ended == 1) {
        for (int s = 0; s < 2; s++) scores[s] = s == p->winner;
        return UCT_WON;
    }
    if (p->ended != 2 && !c->scoring) return UCT_GOING;
    tree_load(c->g, p);
    if (p->ended != 2 && c->scoring == 2) {
        tree_chances(c->g, scores);
        return PyErr_Occurred() ? UCT_GOING : UCT_CHANCES;
    }
    if (p->ended != 2) {
        tree_standing(c->g, scores);
        return PyErr_Occurred() ? UCT_GOING : UCT_STANDING;
    }
    for (int s = 0; s < 2; s++) scores[s] = score(c->g, s);
    return UCT_CUT;
}

/* `compiled.playout(state, rng, stop)`: the greedy player on a generator seeded from one
 * 64-bit draw of the search's. */
static int tree_playout(void *ctx, void *pos, Twister *rng, int stop) {
    TreeCtx *c = ctx;
    TreePos *p = pos;
    if (tree_failed(c) < 0) return -1;
    if (p->ended || p->turns >= stop) return 0;
    uint64_t lo = genrand(rng), hi = genrand(rng); /* getrandbits(64): low word first */
    Twister tw;
    twister_seed64(&tw, lo | hi << 32);
    return tree_drive(c, p, &tw, tree_greedy, stop);
}

/* The step hooks over `c`'s scratch game, kept in `c` for the driver too. */
static UctGame tree_steps(TreeCtx *c) {
    c->steps = (UctGame){.size = sizeof(TreePos), .players = 2, .ctx = c,
                         .to_move = tree_to_move, .turns = tree_turns, .count = tree_count,
                         .apply = tree_apply, .chance = tree_chance, .playout = tree_playout,
                         .result = tree_result, .key = tree_key, .apply_key = tree_apply_key,
                         .random = tree_random};
    return c->steps;
}

/* `SeamKernel.tree`: the search's context and root from a packed position (between turns,
 * or at a seat's decision), a cut-off scored as its `scoring` says. */
static int tree_begin(const void *board, const void *position, UctGame *uct, void **root) {
    const Packed *q = position;
    if (q->turns > q->max_turns || (!q->ended && q->turns == q->max_turns)) {
        PyErr_SetString(PyExc_ValueError, "not a position the kernel searches from");
        return -1;
    }
    TreeCtx *c = PyMem_Calloc(1, sizeof(TreeCtx));
    uct->ctx = c;
    if (!c) {
        PyErr_NoMemory();
        return -1;
    }
    c->scoring = q->scoring;
    if (!(c->g = game_at(board, q))) return -1;
    TreePos *p = PyMem_Calloc(1, sizeof(TreePos));
    *root = p;
    if (!p) {
        PyErr_NoMemory();
        return -1;
    }
    tree_store(p, c->g);
    p->rolled = q->rolled;
    *uct = tree_steps(c);
    return 0;
}

static void tree_end(UctGame *uct, void *root) {
    TreeCtx *c = uct->ctx;
    if (c) {
        free(c->listed.items);
        free(c->table.items);
        game_free(c->g);
        PyMem_Free(c);
    }
    PyMem_Free(root);
}
