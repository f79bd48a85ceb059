/* Parcheesi's step machine (`state.State` walked step by step), beside its kernel.
 *
 * A turn is a chance node (both dice, the lower first), then the mover's choice among the
 * roll's allowed results, listed as the kernel lists them (`roll_results`, the order of
 * `State.legal_actions()` on a compiled state); with option `standard` a double rolls
 * again and a third is penalised instead of played. A position is a plain struct (the
 * pawns, whose turn, the roll being played); the board, the seats and the kernel's `Game`
 * (its roll's scratch, the `Seen` table, the counters and the generator a playout plays
 * on) live in the context. Its hooks (`tree_steps`, a `UctGame`) serve the tree search
 * (`pnp/play/_uct.h`) and, through `pnp/play/_drive.h`, whole games and playouts: the
 * random bot is the driver's uniform draw, the greedy bot (`tree_greedy`) and the
 * playouts' guided player (`tree_guided`) draw as `rank.greedy_rank` and
 * `state.guided_action` do. The search lists a decision's results once and keeps them
 * (the root's for the whole search, the others' in a small table by position: every
 * playout passes through the root and the tree's first levels, and listing a mid-game
 * double's results is most of what a step costs); a whole game or a playout only goes
 * forward, so it lists each decision once into the scratch roll and keeps nothing.
 * Included by `_kernel.c` after the kernel's own functions and its packed position.
 */
#ifndef PARCHEESI_TREE_H
#define PARCHEESI_TREE_H

#include "../../../play/_drive.h"

enum { TREE_GOING = 0, TREE_HOME = 1, TREE_TIMEOUT = 2 }; /* `State.ended` */

typedef struct {
    int8_t pawns[COLOURS][PAWNS]; /* by colour, as `State.pawns` */
    int32_t turns;
    int8_t seat, doubles;          /* whose turn; doubles rolled so far this turn */
    int8_t a, b;                   /* the roll being played (lower first), 0 at a chance node */
    int8_t ended, winner;          /* TREE_*; the winning seat, or -1 */
} TreePos;

#define TREE_KEY (COLOURS * PAWNS + 3) /* a decision's pawns, seat and roll */

#define TREE_KEPT 256 /* slots of the table of listed decisions (a power of two) */

typedef struct {
    int8_t key[TREE_KEY];
    int n, cap; /* results (n < 0: an empty slot), room for them */
    End *ends;
} Listing;

typedef struct {
    Listing root;  /* the root's results */
    Listing kept[TREE_KEPT]; /* other decisions', each in the slot its position hashes to */
} Listings;

typedef struct {
    Game *g;       /* the kernel's scratch: its pawns are a position's while a call lasts,
                      its counters the game's or playout's */
    int max_turns; /* the game's own cut-off (`rules.MAX_TURNS`) */
    Listings *kept; /* the search's listed decisions; NULL going forward (a whole game, a
                       playout): the decision at hand listed in `g->roll` */
    int listed;    /* going forward: the results in `g->roll` of the decision at hand, or -1 */
    int *leaders;  /* where each turn's leader goes (turn `turns` at `leaders[turns - from]`),
                      or NULL */
    int from;
} TreeCtx;

static int tree_to_move(void *ctx, const void *pos) {
    const TreePos *p = pos;
    (void)ctx;
    if (p->ended) return UCT_TERMINAL;
    return p->a ? p->seat : UCT_CHANCE;
}

static int tree_turns(void *ctx, const void *pos) {
    (void)ctx;
    return ((const TreePos *)pos)->turns;
}

/* `State._end_turn`: the turn's end checks, then the next seat. */
static void tree_end_turn(TreeCtx *t, TreePos *p) {
    Game *g = t->g;
    p->turns++;
    if (t->leaders) t->leaders[p->turns - 1 - t->from] = leader(g);
    if (has_won(g, g->seats[p->seat])) p->ended = TREE_HOME, p->winner = p->seat;
    else if (p->turns >= t->max_turns) p->ended = TREE_TIMEOUT;
    p->seat = (int8_t)(p->seat + 1 < g->players ? p->seat + 1 : 0);
    p->doubles = 0;
}

static void tree_key(const TreePos *p, int8_t key[TREE_KEY]) {
    memcpy(key, p->pawns, sizeof p->pawns);
    key[COLOURS * PAWNS] = p->seat;
    key[COLOURS * PAWNS + 1] = p->a;
    key[COLOURS * PAWNS + 2] = p->b;
}

/* List the results of the roll being played at p (`roll_results`) into `into`, under
   `key`. 0, or -1 with a Python error set. */
static int tree_list(TreeCtx *t, const TreePos *p, const int8_t key[TREE_KEY], Listing *into) {
    Game *g = t->g;
    memcpy(g->pawns, p->pawns, sizeof p->pawns);
    int n = roll_results(g, g->seats[p->seat], p->a, p->b);
    if (n >= 0 && n > into->cap) {
        End *ends = PyMem_Realloc(into->ends, (size_t)n * sizeof(End));
        if (ends) into->ends = ends, into->cap = n;
        else n = -1;
    }
    if (n < 0) {
        into->n = -1;
        PyErr_NoMemory();
        return -1;
    }
    memcpy(into->ends, g->roll.ends, (size_t)n * sizeof(End));
    memcpy(into->key, key, TREE_KEY);
    into->n = n;
    return 0;
}

/* The results of the roll being played at p and their number (`*n`): going forward,
   those of `g->roll` (listed there at the decision's first call); in the search, the
   root's, or those kept in the slot p's position hashes to (listed anew into it when it
   holds another's); NULL with a Python error set. */
static const End *tree_results(TreeCtx *t, const TreePos *p, int *n) {
    if (!t->kept) {
        Game *g = t->g;
        if (t->listed < 0) {
            memcpy(g->pawns, p->pawns, sizeof p->pawns);
            if ((t->listed = roll_results(g, g->seats[p->seat], p->a, p->b)) < 0) {
                PyErr_NoMemory();
                return NULL;
            }
        }
        *n = t->listed;
        return g->roll.ends;
    }
    int8_t key[TREE_KEY];
    tree_key(p, key);
    Listing *at = &t->kept->root;
    if (at->n < 0 || memcmp(key, at->key, sizeof key)) {
        uint32_t h = 2166136261u; /* FNV-1a */
        for (int i = 0; i < TREE_KEY; i++) h = (h ^ (uint8_t)key[i]) * 16777619u;
        at = &t->kept->kept[h & (TREE_KEPT - 1)];
        if ((at->n < 0 || memcmp(key, at->key, sizeof key)) && tree_list(t, p, key, at) < 0)
            return NULL;
    }
    *n = at->n;
    return at->ends;
}

static int tree_count(void *ctx, const void *pos) {
    int n;
    return tree_results(ctx, pos, &n) ? n : -1;
}

/* `State._play` of `legal_actions()[i]`: `rules.apply_position`, then the turn ends
   unless a `standard` double rolls again. The counters move as `pnp.play.forward` counts:
   a decision and its options where the roll has several results. */
static int tree_apply(void *ctx, void *pos, int i) {
    TreeCtx *t = ctx;
    TreePos *p = pos;
    Game *g = t->g;
    int n;
    const End *ends = tree_results(t, p, &n);
    if (!ends) return -1;
    if (i < 0 || i >= n) {
        PyErr_SetString(PyExc_IndexError, "no such result of the roll");
        return -1;
    }
    int c = g->seats[p->seat], nest = 0;
    for (int k = 0; k < PAWNS; k++) nest += p->pawns[c][k] == NEST;
    if (n > 1) g->decisions++, g->legal += n;
    memcpy(g->pawns, p->pawns, sizeof p->pawns);
    apply_end(g, c, &ends[i], nest);
    t->listed = -1;
    memcpy(p->pawns, g->pawns, sizeof p->pawns);
    int doubled = p->a == p->b;
    p->a = p->b = 0;
    if (has_won(g, c) || !(g->standard && doubled)) tree_end_turn(t, p);
    return 0;
}

/* `State.sample_chance` then `State._roll`: two dice (drawn as `roll_die` draws), the
   lower first; a third `standard` double is penalised and ends the turn. */
static int64_t tree_chance(void *ctx, void *pos, Twister *rng) {
    TreeCtx *t = ctx;
    TreePos *p = pos;
    Game *g = t->g;
    int x = below(rng, 6) + 1, y = below(rng, 6) + 1;
    int lo = x < y ? x : y, hi = x < y ? y : x;
    if (g->standard && lo == hi && ++p->doubles == 3) {
        memcpy(g->pawns, p->pawns, sizeof p->pawns);
        three_doubles_penalty(g, g->seats[p->seat]);
        memcpy(p->pawns, g->pawns, sizeof p->pawns);
        tree_end_turn(t, p);
    } else {
        p->a = (int8_t)lo;
        p->b = (int8_t)hi;
    }
    return lo * 8 + hi;
}

/* The greedy bot's pick among the n > 1 results `ends` at p (`rank.greedy_rank`: the
   best, ties uniform), as an index into them. The tied best's indices go in the roll's
   spare words (room for every result listed). */
static int64_t tree_best(TreeCtx *t, const TreePos *p, const End *ends, int n, Twister *rng) {
    Game *g = t->g;
    uint64_t *best = g->roll.spare;
    int c = g->seats[p->seat], m = 0, top[3], rank[3];
    for (int k = 0; k < n; k++) {
        greedy_rank(g, c, &ends[k], rank);
        int cmp = m ? rank_cmp(rank, top) : 1;
        if (cmp > 0) {
            memcpy(top, rank, sizeof top);
            m = 0;
        }
        if (cmp >= 0) best[m++] = (uint64_t)k;
    }
    return (int64_t)best[below(rng, m)];
}

/* The greedy bot (a `DriveChoose`): a roll with one result needs no draw. */
static int64_t tree_greedy(void *ctx, const void *pos, Twister *rng) {
    int n;
    const End *ends = tree_results(ctx, pos, &n);
    if (!ends) return -1;
    return n == 1 ? 0 : tree_best(ctx, pos, ends, n, rng);
}

/* The playouts' guided player (`state.guided_action`, a `DriveChoose`): where the roll
   has several results, a draw below 100 says whether this choice is random (below
   `explore`) or the greedy bot's. */
static int64_t tree_guided(void *ctx, const void *pos, Twister *rng) {
    TreeCtx *t = ctx;
    int n;
    const End *ends = tree_results(t, pos, &n);
    if (!ends) return -1;
    if (n == 1) return 0;
    if ((int)below(rng, 100) < t->g->explore) return below(rng, n);
    return tree_best(t, pos, ends, n, rng);
}

/* Who plays a playout or whole game: the guided player where the game's `explore` names
   one, else the greedy bot or the random one (NULL). */
static DriveChoose tree_player(const Game *g, int greedy) {
    if (g->explore >= 0) return tree_guided;
    return greedy ? tree_greedy : NULL;
}

static UctGame tree_steps(TreeCtx *t);

/* Play on from p, in place, on g's generator (already seeded), every seat by `choose`,
   going forward (nothing listed kept): `pnp/play/_drive.h` over the step machine. 0, or
   -1 with a Python error set. */
static int tree_forward(TreeCtx *t, TreePos *p, DriveChoose choose, int stop) {
    Listings *kept = t->kept;
    UctGame steps = tree_steps(t);
    t->kept = NULL;
    t->listed = -1;
    int status = drive_play(&steps, p, &t->g->tw, choose, stop);
    t->kept = kept;
    t->listed = -1;
    return status;
}

/* `State.playout(rng, stop)`: one `getrandbits(64)` of the search's generator (low word
   first, drawn even where the game is over) seeds the playout's own, then the guided or
   random player plays whole turns (`tree_forward`). */
static int tree_playout(void *ctx, void *pos, Twister *rng, int stop) {
    TreeCtx *t = ctx;
    TreePos *p = pos;
    uint64_t seed = genrand(rng);
    seed |= (uint64_t)genrand(rng) << 32;
    if (p->ended || p->turns >= stop) return 0;
    twister_seed64(&t->g->tw, seed);
    return tree_forward(t, p, tree_player(t->g, 0), stop);
}

/* The C library's exp as Python's `math.exp` calls it, through a volatile pointer so the
   compiler cannot swap in a vector or inlined version of its own. */
static double (*const volatile tree_exp)(double) = exp;

/* `outlook.win_chances`: each seat's chance to win, the seat to move next `seat`; the
   same terms in the same order, so the same floats. */
static void tree_chances(const Game *g, const TreePos *p, double *out) {
    const Board *b = g->b;
    int players = g->players, total = 0, found[COLOURS][3];
    const double *w = b->outlook[players];
    for (int k = 0; k < players; k++) {
        int c = g->seats[k], progress = 0, nest = 0, exposed = 0;
        const int8_t *own = p->pawns[c];
        for (int i = 0; i < PAWNS; i++) {
            int q = own[i], twice = 0;
            progress += q + 1;
            if (q == NEST) {
                nest++;
                continue;
            }
            for (int j = 0; j < PAWNS; j++) twice += own[j] == q;
            if (q < b->strip[c] && !b->safe_at[c][q] && twice < 2) exposed++;
        }
        found[k][0] = progress, found[k][1] = nest, found[k][2] = exposed;
        total += progress;
    }
    double left = (double)(PAWNS * (b->home + 1)) - (double)total / (double)players;
    double scale = sqrt(left > 1.0 ? left : 1.0), top = -INFINITY, norm = 0.0;
    for (int k = 0; k < players; k++) {
        int d = (k - p->seat + players) % players;
        double z = w[0] * found[k][0] + w[1] * found[k][1] + w[2] * found[k][2];
        out[k] = z / scale + (d ? w[2 + d] : 0.0);
        if (out[k] > top) top = out[k];
    }
    for (int k = 0; k < players; k++) {
        out[k] = tree_exp(out[k] - top);
        norm += out[k];
    }
    for (int k = 0; k < players; k++) out[k] /= norm;
}

/* `MctsBot.reward`'s view of a position: a win; at the turn limit each seat's pawns home
   (`record().scores`); otherwise `State.win_chances()` (`tree_chances`). */
static int tree_result(void *ctx, const void *pos, double *scores) {
    TreeCtx *t = ctx;
    const TreePos *p = pos;
    Game *g = t->g;
    if (p->ended == TREE_GOING) {
        tree_chances(g, p, scores);
        return UCT_CHANCES;
    }
    for (int k = 0; k < g->players; k++) {
        const int8_t *own = p->pawns[g->seats[k]];
        int total = 0;
        for (int i = 0; i < PAWNS; i++) total += own[i] == g->b->home;
        scores[k] = p->ended == TREE_HOME ? k == p->winner : total;
    }
    return p->ended == TREE_HOME ? UCT_WON : UCT_CUT;
}

/* The step machine's hooks. Nothing hidden: no resample, and an action's key is its
   index. */
static UctGame tree_steps(TreeCtx *t) {
    return (UctGame){.size = sizeof(TreePos), .players = t->g->players, .ctx = t,
                     .to_move = tree_to_move, .turns = tree_turns, .count = tree_count,
                     .apply = tree_apply, .chance = tree_chance, .playout = tree_playout,
                     .result = tree_result};
}

/* `SeamKernel.tree`: the search's context and root from a decision (the roll a, b
 * drawn) of a packed position (`compiled.position`), its playouts by the player
 * `explore` names (`position_playout`'s). */
static int tree_begin(const void *board, const void *position, UctGame *uct, void **root) {
    const Packed *q = position;
    if (q->turns >= q->max_turns || q->a < 1 || q->b < q->a) {
        PyErr_SetString(PyExc_ValueError, "not a decision of a game under way");
        return -1;
    }
    TreeCtx *t = PyMem_Calloc(1, sizeof(TreeCtx));
    uct->ctx = t;
    if (!t) {
        PyErr_NoMemory();
        return -1;
    }
    if (!(t->kept = PyMem_Calloc(1, sizeof(Listings)))) {
        PyErr_NoMemory();
        return -1;
    }
    t->kept->root.n = -1;
    for (int k = 0; k < TREE_KEPT; k++) t->kept->kept[k].n = -1;
    t->listed = -1;
    t->max_turns = q->max_turns;
    if (!(t->g = game_at(board, q))) return -1;
    TreePos *p = PyMem_Calloc(1, sizeof(TreePos));
    *root = p;
    if (!p) {
        PyErr_NoMemory();
        return -1;
    }
    memcpy(p->pawns, t->g->pawns, sizeof p->pawns);
    p->turns = q->turns;
    p->seat = (int8_t)q->seat;
    p->doubles = (int8_t)q->doubles;
    p->a = (int8_t)q->a;
    p->b = (int8_t)q->b;
    p->winner = -1;
    int8_t key[TREE_KEY];
    tree_key(p, key);
    if (tree_list(t, p, key, &t->kept->root) < 0) return -1;
    *uct = tree_steps(t);
    return 0;
}

static void tree_end(UctGame *uct, void *root) {
    TreeCtx *t = uct->ctx;
    if (t) {
        if (t->kept) {
            PyMem_Free(t->kept->root.ends);
            for (int k = 0; k < TREE_KEPT; k++) PyMem_Free(t->kept->kept[k].ends);
            PyMem_Free(t->kept);
        }
        if (t->g) free_game(t->g);
        PyMem_Free(t);
    }
    PyMem_Free(root);
}

#endif
