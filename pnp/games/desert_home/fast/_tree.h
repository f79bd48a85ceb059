/* Desert Home's positions for the compiled tree search (`pnp/play/_uct.h`), included at the end
 * of `_kernel.c`.
 *
 * The tree walks the readable rules' steps (`state.State.apply`, `turn.apply`/`settle`/
 * `skip`/`roll`): one seat decision or one die at a time, whatever the phase of the turn,
 * with each decision's actions listed in `moves.legal_actions`' order, so an action's
 * index here is its index there. The kernel's own pieces of a turn do the work (the
 * spending list, moves, influx fields, boosts, the turn's end checks). The same steps play
 * whole games and playouts (`pnp/play/_drive.h`, each bot a `tree_choose`) on a live
 * position: the work game is then the game itself, never copied. A rollout of the search
 * is seeded by one draw of its generator as `State.playout` seeds it.
 *
 * A position is the kernel's game fields from `tile` up to its scratch (`acts`), copied as
 * bytes into one work `Game` (which holds the action list and the deck buffer)
 * for each step and back, plus the turn's phase and what it keeps, and the deck's tiles.
 * The turns' leaders (a record's history) are not kept: nothing in a search reads them.
 */

#include "../../../play/_uct.h"

#define GAME_HEAD (offsetof(Game, acts) - offsetof(Game, tile))

typedef struct {
    int ended, winners, seat, turns, ndeck; /* copies of the game's, read without a load */
    int progress[SEATS];                    /* goal.scores: the record's and the standing */
    int phase, back_phase, thrown, nrolling, npending, road_left, road_last, drawn;
    int rolling[NCOL], pending[NCOL], swaps_left[SEATS];
    unsigned char head[GAME_HEAD]; /* the Game's bytes from `tile` to `acts` */
    int8_t deck[];                 /* the deck, the top last */
} DhPos;

typedef struct {
    Game *g;       /* the work game: one position at a time, its scratch and deck buffer */
    int max_rounds;
    int scoring;   /* the search's cut-off: 2 on `value.cutoff_reward`, 1 on the lead on
                      `goal.scores` (State.standing), 0 on nothing (a State without them) */
    int nopt;
    int16_t opt[MAXC]; /* a decision's options other than spending: masks, cells, colours */
    int live;   /* 1: the work game is the position's game (a whole game, a playout): a
                   position keeps only its turn's phase and the copies read without a load */
    int listed; /* the options listed by the last `tree_settle` at a decision (0: none) */
} DhTree;

static void tree_load(DhTree *t, const DhPos *p) {
    if (t->live) return;
    Game *g = t->g;
    int8_t *deck = g->deck;
    int *leaders = g->leaders;
    memcpy((char *)g + offsetof(Game, tile), p->head, GAME_HEAD);
    g->deck = deck;
    g->leaders = leaders;
    g->nleaders = 0;
    memcpy(g->deck, p->deck, (size_t)g->ndeck);
}

static void tree_store(const DhTree *t, DhPos *p) {
    const Game *g = t->g;
    p->ended = g->ended;
    p->winners = g->winners;
    p->seat = g->seat;
    p->turns = g->turns;
    p->ndeck = g->ndeck;
    if (t->live) return;
    memcpy(p->head, (const char *)g + offsetof(Game, tile), GAME_HEAD);
    memcpy(p->deck, g->deck, (size_t)g->ndeck);
    for (int s = 0; s < SEATS; s++) p->progress[s] = progress(g, s);
}

/* fields.road_next: beside the last road tile, or anywhere on the frontier. */
static int tree_road_next(const Game *g, const DhPos *p, int16_t *out) {
    const Board *b = g->b;
    if (p->road_last < 0) return frontier(g, out);
    int m = 0;
    for (int j = 0; j < b->nnext[p->road_last]; j++)
        if (g->tile[b->next[p->road_last][j]] == NONE) out[m++] = b->next[p->road_last][j];
    return m;
}

/* moves.legal_actions of the loaded position, in its order: spending in g->acts, the
   others in t->opt. Their count; -1 with a Python error for a phase the rules lack. */
static int tree_list(DhTree *t, const DhPos *p) {
    Game *g = t->g;
    const Board *b = g->b;
    int n = 0;
    if (g->ended || p->phase == P_ROLL) return 0;
    switch (p->phase) {
    case P_SPEND:
        spend_actions(g);
        return g->nacts;
    case P_REROLL:
        return 1 << NCOL; /* rules.REROLLS: the mask is the index */
    case P_INFLUX_COLOUR: { /* moves.influx_choices */
        int low = 7;
        int16_t room[MAXC];
        for (int c = 0; c < NCOL; c++)
            if (g->dice[c] < low) low = g->dice[c];
        for (int c = 0; c < NCOL; c++)
            if (g->dice[c] == low && c != b->blue && g->camp_figs[c] && influx_cells(g, c, room))
                t->opt[n++] = (int16_t)c;
        break;
    }
    case P_INFLUX:
        n = influx_fields(g, p->pending, p->npending, t->opt);
        break;
    case P_NUMBER:
        for (int v = 1; v <= 6; v++)
            for (int c = 0; c < NCOL; c++)
                if (g->dice[c] == v) {
                    t->opt[n++] = (int16_t)v;
                    break;
                }
        break;
    case P_ROAD: { /* moves.road_actions */
        if (g->ndeck && has_frontier(g)) t->opt[n++] = ROAD_TILES;
        for (int r = 0; r < b->rows; r++) {
            int full = 1, used = 0;
            for (int cell = r * b->width; cell < (r + 1) * b->width; cell++) {
                if (b->kind[cell] == K_PATH && g->tile[cell] == NONE) full = 0;
                if (g->colour[cell] >= 0) used = 1;
            }
            if (full && used) t->opt[n++] = (int16_t)r;
        }
        if (n && b->road_optional) t->opt[n++] = ROAD_DECLINE;
        break;
    }
    case P_ROAD_TILE:
        n = p->drawn != NONE ? tree_road_next(g, p, t->opt) : 0;
        break;
    case P_PLACE:
        n = frontier(g, t->opt);
        break;
    case P_SWAP:
        for (int c = 0; c < NCOL; c++)
            if (c != b->blue && g->camp_figs[c] > 0) t->opt[n++] = (int16_t)c;
        break;
    default:
        PyErr_Format(PyExc_ValueError, "unknown phase %d", p->phase);
        return -1;
    }
    t->nopt = n;
    return n;
}

/* turn.throw: the dice of `mask` are to be thrown, lowest first. */
static void tree_throw(DhPos *p, int mask) {
    p->thrown = mask;
    p->nrolling = 0;
    for (int i = 0; i < NCOL; i++)
        if (mask >> i & 1) p->rolling[p->nrolling++] = i;
    p->phase = P_ROLL;
}

/* turn.start_turn */
static void tree_start_turn(DhTree *t, DhPos *p) {
    Game *g = t->g;
    if (g->seat == 0) start_round(g);
    g->may_stop = 0;
    g->points = 0;
    tree_throw(p, (1 << NCOL) - 1);
}

/* turn.end_turn */
static void tree_end_turn(DhTree *t, DhPos *p) {
    Game *g = t->g;
    g->turns++;
    g->points = 0;
    record_leader(g);
    int last = g->seat == SEATS - 1;
    if (last) end_round(g);
    if (!g->ndeck && nobody_can_win(g)) {
        g->ended = END_DECK;
        return;
    }
    if (last && g->round >= t->max_rounds) {
        g->ended = END_TIMEOUT;
        return;
    }
    g->seat = (g->seat + 1) % SEATS;
    tree_start_turn(t, p);
}

/* turn.after_action */
static void tree_after_action(DhTree *t, DhPos *p) {
    if (p->phase == P_SPEND && t->g->points <= 0 && !t->g->ended) tree_end_turn(t, p);
}

/* turn.next_road_tile */
static void tree_next_road_tile(DhTree *t, DhPos *p) {
    int16_t cells[MAXC];
    if (p->road_left > 0 && t->g->ndeck && tree_road_next(t->g, p, cells))
        p->drawn = draw(t->g);
    else
        p->phase = P_SPEND;
}

/* turn.next_influx */
static void tree_next_influx(DhTree *t, DhPos *p) {
    int16_t cells[MAXC];
    while (p->npending) {
        int c = p->pending[0];
        if (t->g->camp_figs[c] && influx_cells(t->g, c, cells)) {
            p->phase = P_INFLUX;
            return;
        }
        memmove(p->pending, p->pending + 1, (size_t)--p->npending * sizeof(int));
    }
    p->phase = P_NUMBER;
}

/* turn.begin_influx */
static void tree_begin_influx(DhTree *t, DhPos *p) {
    Game *g = t->g;
    int low = 7, nlowest = 0, blue_low = 0;
    for (int c = 0; c < NCOL; c++)
        if (g->dice[c] < low) low = g->dice[c];
    for (int c = 0; c < NCOL; c++)
        if (g->dice[c] == low) {
            nlowest++;
            blue_low |= c == g->b->blue;
        }
    p->npending = 0;
    if (blue_low && nlowest >= 3) {
        p->phase = P_INFLUX_COLOUR;
        if (tree_list(t, p) > 0) return;
    } else {
        for (int c = 0; c < NCOL; c++)
            if (g->dice[c] == low && c != g->b->blue) p->pending[p->npending++] = c;
    }
    tree_next_influx(t, p);
}

/* turn.roll: the next die of `rolling` shows `number`. */
static void tree_roll(DhTree *t, DhPos *p, int number) {
    t->g->dice[p->rolling[0]] = number;
    memmove(p->rolling, p->rolling + 1, (size_t)--p->nrolling * sizeof(int));
    if (p->nrolling) return;
    if (has_triple(t->g->dice, p->thrown))
        p->phase = P_REROLL;
    else
        tree_begin_influx(t, p);
}

/* turn.start_shortage */
static void tree_start_shortage(DhTree *t, DhPos *p) {
    Game *g = t->g;
    int blue = g->b->blue, top = 0;
    for (int s = 0; s < SEATS; s++)
        if (g->rfigs[s][blue] > top) top = g->rfigs[s][blue];
    if (top < 2) return;
    for (int s = 0; s < SEATS; s++) p->swaps_left[s] = g->rfigs[s][blue] == top ? top / 2 : 0;
    p->back_phase = p->phase;
    p->phase = P_SWAP;
}

static int tree_swapper(const DhPos *p) {
    for (int s = 0; s < SEATS; s++)
        if (p->swaps_left[s] > 0) return s;
    return -1;
}

/* turn.swap */
static void tree_swap(DhTree *t, DhPos *p, int colour) {
    Game *g = t->g;
    int seat = tree_swapper(p), blue = g->b->blue;
    g->rfigs[seat][blue]--;
    g->camp_figs[blue]++;
    g->camp_figs[colour]--;
    g->rfigs[seat][colour]++;
    p->swaps_left[seat]--;
    if (tree_swapper(p) < 0) p->phase = p->back_phase;
}

/* turn.spend: one use of the points (the seat to move is the spender). */
static void tree_spend(DhTree *t, DhPos *p, const Act *x) {
    Game *g = t->g;
    const Board *b = g->b;
    switch (x->kind) {
    case A_MOVE:
        if (spend_move(g, x)) return;
        break;
    case A_ENTER:
        if (spend_enter(g, x)) tree_start_shortage(t, p);
        break;
    case A_SEND: { /* the chooser's water bearer */
        int seat = p->phase == P_SWAP ? tree_swapper(p) : g->seat;
        g->rfigs[seat][b->blue]--;
        put(g, b->blue, 1, 0, 0, x->a);
        g->water_missions++;
        g->points -= 1;
        break;
    }
    case A_PROTECT:
        g->tile[x->a] = GUARDED;
        g->cards--;
        g->points -= b->protect_cost;
        break;
    case A_STOP:
        g->points = 0;
        break;
    default: /* A_DRAW: the tile in hand waits for its slot */
        p->drawn = draw(g);
        g->points -= 1;
        p->phase = P_PLACE;
        return;
    }
    tree_after_action(t, p);
}

/* An action named by a key, as `rules.py` names it: its kind, then up to six numbers of
   ten bits each (the first offset by 2: a road's -1 and -2; the last below 512, a move's
   tents, so that the key stays positive). */
enum { K_REROLL, K_INFLUX_COLOUR, K_INFLUX, K_NUMBER, K_ROAD, K_TILE, K_ENTER, K_MOVE,
       K_SEND, K_PROTECT, K_STOP, K_SWAP, K_DRAW };

static int64_t tree_encode(int kind, int f0, int f1, int f2, int f3, int f4, int f5) {
    return kind | (int64_t)(f0 + 2) << 4 | (int64_t)f1 << 14 | (int64_t)f2 << 24 |
           (int64_t)f3 << 34 | (int64_t)f4 << 44 | (int64_t)f5 << 54;
}

/* The key of the i-th legal action of the loaded position (listed by tree_list). */
static int64_t tree_key(const DhTree *t, const DhPos *p, int i) {
    static const int spent[] = {K_DRAW, K_ENTER, K_MOVE, K_SEND, K_PROTECT, K_STOP};
    int o = p->phase == P_SPEND || p->phase == P_REROLL ? 0 : t->opt[i];
    switch (p->phase) {
    case P_SPEND: {
        const Act *x = &t->g->acts[i];
        return tree_encode(spent[x->kind], x->a, x->b, x->c, x->d, x->e, x->f);
    }
    case P_REROLL: return tree_encode(K_REROLL, i, 0, 0, 0, 0, 0);
    case P_INFLUX_COLOUR: return tree_encode(K_INFLUX_COLOUR, o, 0, 0, 0, 0, 0);
    case P_INFLUX: return tree_encode(K_INFLUX, o, 0, 0, 0, 0, 0);
    case P_NUMBER: return tree_encode(K_NUMBER, o, 0, 0, 0, 0, 0);
    case P_ROAD: return tree_encode(K_ROAD, o, 0, 0, 0, 0, 0);
    case P_SWAP: return tree_encode(K_SWAP, o, 0, 0, 0, 0, 0);
    default: return tree_encode(K_TILE, o, 0, 0, 0, 0, 0); /* P_ROAD_TILE, P_PLACE */
    }
}

/* turn.apply of the action `key` names, by its kind as `turn.apply` goes (a tree's node
   may stand for positions whose hidden tiles differ: the readable search plays there the
   action it tried first, listed or not). 0, or -1 with a Python error where the readable
   rules would raise. */
static int tree_act(DhTree *t, DhPos *p, int64_t key) {
    Game *g = t->g;
    const Board *b = g->b;
    int kind = (int)(key & 15), o = (int)(key >> 4 & 1023) - 2;
    int f1 = (int)(key >> 14 & 1023), f2 = (int)(key >> 24 & 1023), f3 = (int)(key >> 34 & 1023);
    int f4 = (int)(key >> 44 & 1023), f5 = (int)(key >> 54 & 1023);
    switch (kind) {
    case K_ENTER: case K_MOVE: case K_SEND: case K_PROTECT: case K_STOP: case K_DRAW: {
        static const int spent[] = {0, 0, 0, 0, 0, 0, A_ENTER, A_MOVE, A_SEND, A_PROTECT,
                                    A_STOP, 0, A_DRAW};
        Act x = {(uint8_t)spent[kind], (int16_t)o, (int16_t)f1, (int16_t)f2, (int16_t)f3,
                 (int16_t)f4, (int16_t)f5};
        tree_spend(t, p, &x);
        return 0;
    }
    case K_SWAP:
        if (tree_swapper(p) < 0) goto missing;
        tree_swap(t, p, o);
        return 0;
    case K_REROLL:
        if (o == 0)
            tree_begin_influx(t, p);
        else
            tree_throw(p, o);
        break;
    case K_INFLUX_COLOUR:
        p->pending[0] = o;
        p->npending = 1;
        tree_next_influx(t, p);
        break;
    case K_INFLUX: {
        if (!p->npending) goto missing;
        int c = p->pending[0];
        memmove(p->pending, p->pending + 1, (size_t)--p->npending * sizeof(int));
        influx(g, c, o);
        tree_next_influx(t, p);
        break;
    }
    case K_NUMBER: {
        int k = 0;
        for (int c = 0; c < NCOL; c++) k += g->usable[c] = g->dice[c] == o;
        if (!k) goto missing;
        g->points = b->points[o - 1][k - 1];
        p->phase = road_bonus(g) ? P_ROAD : P_SPEND;
        break;
    }
    case K_ROAD:
        if (o == ROAD_DECLINE) {
            p->phase = P_SPEND;
        } else if (o == ROAD_TILES) {
            p->road_left = road_bonus(g);
            p->road_last = -1;
            p->phase = P_ROAD_TILE;
            tree_next_road_tile(t, p);
        } else {
            boost(g, o, road_bonus(g));
            p->phase = P_SPEND;
            if (check_win(g)) return 0;
        }
        break;
    default: /* K_TILE */
        lay(g, o, p->drawn);
        p->drawn = NONE;
        if (p->phase == P_ROAD_TILE) {
            p->road_left--;
            p->road_last = b->tiles_chain ? o : -1;
            tree_next_road_tile(t, p);
        } else {
            p->phase = P_SPEND;
        }
        break;
    }
    tree_after_action(t, p);
    return 0;
missing:
    PyErr_SetString(PyExc_IndexError, "the action is not one of this position's");
    return -1;
}

/* turn.settle: phases with nothing to choose move on (turn.skip) up to a seat's decision,
   a die to throw or the end. 0, or -1 with a Python error. */
static int tree_settle(DhTree *t, DhPos *p) {
    Game *g = t->g;
    t->listed = 0;
    while (!g->ended && p->phase != P_ROLL) {
        int n = tree_list(t, p);
        if (n < 0) return -1;
        if (n) {
            t->listed = n;
            return 0;
        }
        switch (p->phase) {
        case P_ROAD:
        case P_ROAD_TILE:
            p->phase = P_SPEND;
            tree_after_action(t, p);
            break;
        case P_SWAP:
            p->swaps_left[0] = p->swaps_left[1] = 0;
            p->phase = p->back_phase;
            tree_after_action(t, p);
            break;
        case P_SPEND:
            tree_end_turn(t, p);
            break;
        default:
            PyErr_Format(PyExc_RuntimeError, "phase %d has no action", p->phase);
            return -1;
        }
    }
    return 0;
}

/* --- the UctGame callbacks */

static int dh_to_move(void *ctx, const void *pos) {
    (void)ctx;
    const DhPos *p = pos;
    if (p->ended) return UCT_TERMINAL;
    if (p->phase == P_ROLL) return UCT_CHANCE;
    return p->phase == P_SWAP ? tree_swapper(p) : p->seat;
}

static int dh_turns(void *ctx, const void *pos) {
    (void)ctx;
    return ((const DhPos *)pos)->turns;
}

static int dh_count(void *ctx, const void *pos) {
    tree_load(ctx, pos);
    return tree_list(ctx, pos);
}

/* The key naming the i-th legal action. */
static int64_t dh_key(void *ctx, const void *pos, int i) {
    tree_load(ctx, pos);
    tree_list(ctx, pos);
    return tree_key(ctx, pos, i);
}

/* `apply` of the action a key names, then `turn.settle`. */
static int dh_apply_key(void *ctx, void *pos, int64_t key) {
    DhTree *t = ctx;
    tree_load(t, pos);
    int rc = tree_act(t, pos, key);
    if (!rc) rc = tree_settle(t, pos);
    tree_store(t, pos);
    return rc;
}

static int dh_apply(void *ctx, void *pos, int i) {
    DhTree *t = ctx;
    tree_load(t, pos);
    int n = tree_list(t, pos);
    if (n < 0) return -1;
    if (i < 0 || i >= n) {
        PyErr_SetString(PyExc_IndexError, "no such legal action");
        return -1;
    }
    return dh_apply_key(ctx, pos, tree_key(t, pos, i));
}

/* `sample_chance` (a die, `below(rng, 6)`), applied: the number is the key. */
static int64_t dh_chance(void *ctx, void *pos, Twister *rng) {
    DhTree *t = ctx;
    int number = 1 + below(rng, 6);
    tree_load(t, pos);
    t->g->throws++;
    tree_roll(t, pos, number);
    tree_settle(t, pos); /* a phase's listing raises only for a phase the rules lack */
    tree_store(t, pos);
    return number;
}

/* `random.getrandbits(64)`: the low word drawn first. */
static uint64_t tree_bits64(Twister *rng) {
    uint64_t low = genrand(rng);
    return low | (uint64_t)genrand(rng) << 32;
}

/* `State.resample`: the deck sorted, then shuffled as `shuffle` shuffles on `getrandbits(64)`. */
static void dh_resample(void *ctx, void *pos, Twister *rng) {
    DhTree *t = ctx;
    DhPos *p = pos;
    int safe = 0;
    for (int i = 0; i < p->ndeck; i++) safe += p->deck[i] == SAFE;
    for (int i = 0; i < p->ndeck; i++) p->deck[i] = i < safe ? SAFE : THIRST;
    Twister *tw = &t->g->tw;
    twister_seed64(tw, tree_bits64(rng));
    for (int i = p->ndeck - 1; i > 0; i--) {
        int j = below(tw, i + 1);
        int8_t x = p->deck[i];
        p->deck[i] = p->deck[j];
        p->deck[j] = x;
    }
}

/* --- the bots of whole games and playouts (`_drive.h`), on a live position */

/* bots.Judge's ratings of the listed decision's n options into g->score (the chooser is
   the seat to move, or the seat swapping). */
static void tree_rate(DhTree *t, const DhPos *p, int n) {
    Game *g = t->g;
    int me = g->seat;
    for (int i = 0; i < n; i++) {
        int o = t->opt[i];
        switch (p->phase) {
        case P_SPEND: g->score[i] = rate_spend(g, me, &g->acts[i]); break;
        case P_INFLUX_COLOUR: g->score[i] = gain(g, me, o, 1, 0); break; /* one figure */
        case P_INFLUX: g->score[i] = -abs(o / g->b->width - home_row(g, me)); break;
        case P_NUMBER: g->score[i] = rate_number(g, me, o); break;
        case P_ROAD: g->score[i] = rate_road(g, me, o); break;
        case P_SWAP: g->score[i] = gain(g, tree_swapper(p), o, 1, 0); break;
        default: g->score[i] = rate_tile(g, me, o, p->drawn); /* P_ROAD_TILE, P_PLACE */
        }
    }
}

/* A `DriveChoose` for every bot of the kernel, as `g->greedy` and `g->epsilon` say: the
   random bot (`pick`), the greedy one (`bots.Judge`, `reroll_mask`, ties by `pick`), or
   `bots.PlayoutBot` (greedy, but `epsilon` percent of choices among several at random).
   Each decision is counted as `rules.play_game` counts it. The key of the choice. */
static int64_t tree_choose(void *ctx, const void *pos, Twister *rng) {
    DhTree *t = ctx;
    const DhPos *p = pos;
    Game *g = t->g;
    int n = t->listed > 0 ? t->listed : tree_list(t, p), i = 0;
    if (n < 1) return -1;
    g->decisions++;
    g->legal_moves += n;
    if (n > 1) {
        if (g->greedy && !(g->epsilon && (int)below(rng, 100) < g->epsilon)) {
            if (p->phase == P_REROLL) {
                i = reroll_mask(g); /* rated above the 63 others: no draw */
            } else {
                tree_rate(t, p, n);
                i = best(g, rng, n);
            }
        } else {
            i = below(rng, n);
        }
    }
    return tree_key(t, p, i);
}

static UctGame tree_game(DhTree *t, size_t size);

/* `State.playout`: one draw seeds `bots.PlayoutBot`'s play (`tree_choose`) from the
   position, whatever the phase of its turn. */
static int dh_playout(void *ctx, void *pos, Twister *rng, int stop) {
    DhTree *t = ctx;
    DhPos *p = pos;
    uint64_t seed = tree_bits64(rng);
    if (p->ended || p->turns >= stop || p->turns >= 2 * t->max_rounds + 1) return 0;
    Game *g = t->g;
    tree_load(t, p);
    g->dist_at = -1; /* the distances kept were another position's */
    twister_seed64(&g->tw, seed);
    t->live = 1;
    t->listed = 0;
    UctGame live = tree_game(t, 0);
    int rc = drive_play(&live, p, &g->tw, tree_choose, stop);
    t->live = 0;
    if (g->ended) p->phase = P_SPEND;
    tree_store(t, p);
    return rc;
}

/* value.keep: what thirst leaves of the worth of the piece on cell to seat, by the seat's
   turns left before it dies (on a face-up thirst field: once it turns black). */
static double keep(const Game *g, int seat, int cell) {
    const Board *b = g->b;
    int rounds;
    if (g->tile[cell] == BLACK)
        rounds = g->deadline[cell] - g->round;
    else if (g->tile[cell] == THIRST)
        rounds = 1 + b->grace;
    else
        return 1.0;
    int turns = rounds + (seat >= g->seat ? 1 : 0);
    return b->keep[turns < 0 ? 0 : turns < b->nkeep - 1 ? turns : b->nkeep - 1];
}

/* value.value: seat's refuge progress plus what the pieces on the fields would add to it,
   nearest first (a tie by field), each weighed by NEAR to the power of its distance and by
   `keep`. */
static double value_of(Game *g, int seat) {
    const Board *b = g->b;
    int order[MAXC], n = 0, values[NCOL];
    const int *dist = g->dist[seat];
    for (int cell = 0; cell < b->cells; cell++) {
        if (g->colour[cell] < 0 || dist[cell] >= 1000000) continue;
        int j = n++; /* insertion by distance, after the fields as near as it */
        while (j > 0 && dist[order[j - 1]] > dist[cell]) {
            order[j] = order[j - 1];
            j--;
        }
        order[j] = cell;
    }
    refuge_values(g, seat, values);
    int before = counted(b, values);
    double total = (double)before;
    for (int i = 0; i < n; i++) {
        int cell = order[i];
        values[g->colour[cell]] += g->figs[cell] + b->tent_value * g->tents[cell];
        values[b->blue] += g->bearer[cell];
        int now = counted(b, values);
        total += (now - before) * b->near[dist[cell]] * keep(g, seat, cell);
        before = now;
    }
    return total;
}

static int dh_result(void *ctx, const void *pos, double *scores) {
    DhTree *t = ctx;
    const DhPos *p = pos;
    if (p->ended == END_REFUGE || p->ended == END_DECK) { /* finished: the winners, if any */
        for (int s = 0; s < SEATS; s++) scores[s] = p->ended == END_REFUGE && p->winners >> s & 1;
        return UCT_WON;
    }
    if (!p->ended && t->scoring == 2) { /* value.cutoff_reward */
        tree_load(t, p);
        t->g->dist_at = -1;
        distances(t->g);
        double x = (value_of(t->g, 0) - value_of(t->g, 1)) / t->g->b->scale;
        scores[0] = 0.5 + 0.5 * x / (1.0 + fabs(x));
        scores[1] = 1.0 - scores[0];
        return UCT_CHANCES;
    }
    for (int s = 0; s < SEATS; s++) scores[s] = p->progress[s];
    if (p->ended) return UCT_CUT;
    return t->scoring ? UCT_STANDING : UCT_GOING;
}

/* The hooks over positions of the context t, `size` bytes each. */
static UctGame tree_game(DhTree *t, size_t size) {
    return (UctGame){
        .size = size, .players = SEATS, .ctx = t,
        .to_move = dh_to_move, .turns = dh_turns, .count = dh_count, .apply = dh_apply,
        .chance = dh_chance, .resample = dh_resample, .playout = dh_playout,
        .result = dh_result, .key = dh_key, .apply_key = dh_apply_key,
    };
}

/* The packed position q into the work game and p (its turn's phase and what it keeps);
   0, or -1 with a ValueError for what the board cannot hold. */
static int tree_resume(DhTree *t, DhPos *p, const Packed *q) {
    Resume r;
    if (game_from(t->g, &r, q) < 0) return -1;
    p->phase = r.phase;
    p->back_phase = q->back_phase;
    p->thrown = r.thrown;
    p->nrolling = r.nrolling;
    p->npending = r.npending;
    p->road_left = r.road_left;
    p->road_last = r.road_last;
    p->drawn = r.drawn;
    memcpy(p->rolling, r.rolling, sizeof r.rolling);
    memcpy(p->pending, r.pending, sizeof r.pending);
    memcpy(p->swaps_left, r.swaps_left, sizeof r.swaps_left);
    tree_store(t, p);
    return 0;
}

/* `SeamKernel.tree`: the search's context and root from a decision of a packed position
 * (`kernel.position`), its cut-off scored as `scoring` says; the seam turns the root's
 * keys back into indices in `legal_actions()`. */
static int tree_begin(const void *board, const void *position, UctGame *uct, void **root) {
    const Board *b = board;
    const Packed *q = position;
    int total = b->deck_safe + b->deck_thirst;
    DhTree *t = PyMem_Calloc(1, sizeof(DhTree));
    uct->ctx = t;
    DhPos *p = t ? PyMem_Calloc(1, sizeof(DhPos) + (size_t)total + 1) : NULL;
    *root = p;
    if (p) t->g = game_new(b, total);
    if (!t || !p || !t->g) {
        PyErr_NoMemory();
        return -1;
    }
    t->scoring = q->scoring;
    t->max_rounds = q->max_rounds;
    Game *g = t->g;
    g->greedy = 1; /* bots.PlayoutBot plays the playouts (`greedy` lies beyond the head) */
    g->epsilon = b->playout_random;
    if (tree_resume(t, p, q) < 0) return -1;
    if (p->phase == P_ROLL || tree_list(t, p) < 1) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "the position is no decision");
        return -1;
    }
    *uct = tree_game(t, sizeof(DhPos) + (size_t)total + 1);
    return 0;
}

static void tree_end(UctGame *uct, void *root) {
    DhTree *t = uct->ctx;
    if (t) game_free(t->g);
    PyMem_Free(t);
    PyMem_Free(root);
}
