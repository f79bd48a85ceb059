/* Exploding Dice's positions for the compiled tree search (`pnp/play/_uct.h`).
 *
 * A tree position is the readable `rules.State` as the kernel keeps a game: the grid by
 * colour and face (dice of one colour share their faces in a kit the kernel plays), the
 * reserve by colour, and the turn walked step by step as the readable rules walk it (a
 * colour chosen, a die taken, rolled, an entry chosen; the `redraw` stall rule's further
 * colours; steps 4-6 after the placement). A decision's options are a bit each, listed in
 * the rules' order (colours and entries ascending), so `apply(i)` plays the readable
 * `legal_actions()[i]`. The rollout is `kernel.playout`: a redraw under way finished on
 * these steps drawing from the search's generator, then the kernel's `play_turn_from` on
 * a generator seeded by one 64-bit draw of it. Included by `_kernel.c` after its own
 * functions; `tree_begin` is its hook for `pnp/play/_seam.h`'s `tree_search`.
 */
#ifndef ED_TREE_H
#define ED_TREE_H

#include "../../../play/_uct.h"

typedef struct {
    Grid grid;
    int reserve[NCOL], scores[NCOL];
    int seat, turns, quiet, end, step;
    uint64_t options; /* a decision's choices, a bit each: colours or entries */
    int tried, ntried; /* the colours drawn this turn: a bit each, how many */
    int colour, face, first_colour, first_face; /* the die in hand; the turn's first */
} Position;

typedef struct {
    const Board *b;
    int players, each, max_turns, target, standing;
    int seat_colours[NCOL][NCOL];
    Game *game; /* the rollout's scratch game: its own generator, its leaders */
} Tree;

static int colour_mask(const int *colours, int n) {
    int m = 0;
    for (int k = 0; k < n; k++) m |= 1 << colours[k];
    return m;
}

static void seat_totals(const Tree *t, const Position *p, int *out) {
    for (int s = 0; s < t->players; s++) {
        out[s] = 0;
        for (int k = 0; k < t->each; k++) out[s] += p->scores[t->seat_colours[s][k]];
    }
}

/* `rules.begin_turn`: a full grid or an empty reserve ends the game, else the seat picks
 * the colour to draw among `draw_options`. */
static void tree_begin_turn(const Tree *t, Position *p) {
    p->tried = p->ntried = 0;
    if (p->grid.occ == t->b->full) {
        p->end = END_FULL;
        return;
    }
    p->step = STEP_COLOUR;
    p->options = (uint64_t)draw_options(p->grid.zv, p->reserve, p->scores);
    if (!p->options) p->end = END_RESERVE;
}

/* `rules.end_turn`: steps 4-6 (score, explode, the end checks), then the next turn. */
static void tree_end_turn(const Tree *t, Position *p, int placed) {
    const Board *b = t->b;
    int gains[NCOL], changed = 0, best = 0;
    uint64_t boom;
    gains_on(b, &p->grid, gains, &boom);
    for (uint64_t m = boom; m; m &= m - 1) { /* all at once, after every die scored */
        int i = lowest(m);
        p->reserve[p->grid.colour[i]]++;
        take(b, &p->grid, i);
    }
    for (int c = 0; c < NCOL; c++) {
        changed |= gains[c] != 0;
        p->scores[c] += gains[c];
        if (p->scores[c] > best) best = p->scores[c];
    }
    p->turns++;
    p->quiet = placed || changed ? 0 : p->quiet + 1;
    if (best >= t->target)
        p->end = END_FIFTY;
    else if (p->grid.occ == b->full)
        p->end = END_FULL;
    else if (p->quiet >= t->players)
        p->end = END_STALLED;
    else if (p->turns >= t->max_turns)
        p->end = END_TIMEOUT;
    p->seat = (p->seat + 1) % t->players;
    if (p->end == PLAYING) tree_begin_turn(t, p);
}

/* The entries where a die of a colour whose cells are `own` may go in (own = 0: the
 * restriction lifted), a bit each. */
static uint64_t entries_for(const Board *b, const Grid *g, uint64_t own) {
    uint64_t out = 0;
    for (int e = 0; e < b->entries; e++)
        if (fits(b, g, e, own)) out |= (uint64_t)1 << e;
    return out;
}

/* `rules.after_roll`: the entries for the die in hand, or the `redraw` rule's next colour
 * (the first die and roll going in unrestricted when every colour fails), or under the
 * `skip` rule the die back and the turn on to steps 4-6. */
static void tree_after_roll(const Tree *t, Position *p, int face) {
    const Board *b = t->b;
    p->face = face;
    if (p->ntried == 1) {
        p->first_colour = p->colour;
        p->first_face = face;
    }
    uint64_t legal = entries_for(b, &p->grid, p->grid.cm[p->colour]);
    if (!legal && !b->skip) {
        p->reserve[p->colour]++;
        int untried = in_reserve(p->reserve) & ~p->tried, options[NCOL];
        if (untried) {
            p->step = STEP_COLOUR;
            p->options = (uint64_t)colour_mask(options, lowest_scoring(p->scores, untried, options));
            return;
        }
        p->colour = p->first_colour; /* nothing fits: the first die goes in anyway */
        p->face = p->first_face;
        p->reserve[p->colour]--;
        legal = entries_for(b, &p->grid, 0);
    }
    if (legal) {
        p->step = STEP_ENTRY;
        p->options = legal;
    } else { /* the die goes back and the turn goes on */
        p->reserve[p->colour]++;
        tree_end_turn(t, p, 0);
    }
}

/* `State.apply` at a decision: a colour to draw, or the entry the die goes in at. */
static void tree_play(const Tree *t, Position *p, int choice) {
    if (p->step == STEP_COLOUR) {
        p->colour = choice;
        p->tried |= 1 << choice;
        p->ntried++;
        p->step = STEP_TAKE;
    } else {
        push(t->b, &p->grid, choice, p->colour, p->face);
        tree_end_turn(t, p, 1);
    }
}

/* `State.apply(State.sample_chance(rng))`: the die taken (one outcome: its colour's dice
 * share their faces, no draw) or rolled (`pick` among its faces); the outcome's key. */
static int64_t tree_chance(const Tree *t, Position *p, Twister *rng) {
    if (p->step == STEP_TAKE) {
        p->reserve[p->colour]--;
        p->step = STEP_ROLL;
        return -1;
    }
    int face = t->b->faces[p->colour][below(rng, FACES)];
    tree_after_roll(t, p, face);
    return face;
}

/* --- the UctGame callbacks ---------------------------------------------------------- */

static int cb_to_move(void *ctx, const void *pos) {
    (void)ctx;
    const Position *p = pos;
    if (p->end != PLAYING) return UCT_TERMINAL;
    return p->step == STEP_TAKE || p->step == STEP_ROLL ? UCT_CHANCE : p->seat;
}

static int cb_turns(void *ctx, const void *pos) {
    (void)ctx;
    return ((const Position *)pos)->turns;
}

static int cb_count(void *ctx, const void *pos) {
    (void)ctx;
    return bit_count(((const Position *)pos)->options);
}

static int cb_apply(void *ctx, void *pos, int i) {
    Position *p = pos;
    tree_play(ctx, p, nth_bit(p->options, i));
    return 0;
}

static int64_t cb_chance(void *ctx, void *pos, Twister *rng) { return tree_chance(ctx, pos, rng); }

/* `kernel.playout`: a redraw under way finished on the rules' steps (`random_action`'s
 * draws: a colour by `pick`, an entry by rejection), then the kernel's turns on
 * `random.Random(rng.getrandbits(64))`, then the next turn begun as `rules.begin_turn`. */
static int cb_playout(void *ctx, void *pos, Twister *rng, int stop) {
    const Tree *t = ctx;
    const Board *b = t->b;
    Position *p = pos;
    while (p->end == PLAYING && p->turns < stop &&
           (p->ntried > 1 || (p->ntried && p->step == STEP_COLOUR))) {
        if (p->step == STEP_TAKE || p->step == STEP_ROLL) {
            tree_chance(t, p, rng);
        } else if (p->step == STEP_COLOUR) {
            tree_play(t, p, nth_bit(p->options, below(rng, bit_count(p->options))));
        } else {
            int e;
            do e = below(rng, b->entries);
            while (!(p->options >> e & 1));
            tree_play(t, p, e);
        }
    }
    if (p->end != PLAYING || p->turns >= stop) return 0;
    int under_way = p->ntried > 0;
    int colour = under_way ? p->colour : -1, taken = under_way && p->step != STEP_TAKE;
    int face = under_way && p->step == STEP_ENTRY ? p->face : 0;
    uint64_t seed = genrand(rng);
    seed |= (uint64_t)genrand(rng) << 32;
    Game *g = t->game;
    g->grid = p->grid;
    memcpy(g->reserve, p->reserve, sizeof g->reserve);
    memcpy(g->scores, p->scores, sizeof g->scores);
    g->seat = p->seat;
    g->turns = p->turns;
    g->quiet = p->quiet;
    g->leader = -1; /* only the leaders' list reads it, and the search reads no list */
    g->end = PLAYING;
    uint32_t key[2] = {(uint32_t)seed, (uint32_t)(seed >> 32)}; /* `random.Random(seed)` */
    init_by_array(&g->tw, b->genrand_init, key, key[1] ? 2 : 1);
    if (colour >= 0) play_turn_from(g, b, colour, taken, face);
    while (g->end == PLAYING && g->turns < stop) play_turn(g, b);
    p->grid = g->grid;
    memcpy(p->reserve, g->reserve, sizeof p->reserve);
    memcpy(p->scores, g->scores, sizeof p->scores);
    p->seat = g->seat;
    p->turns = g->turns;
    p->quiet = g->quiet;
    p->end = g->end;
    if (p->end == PLAYING) tree_begin_turn(t, p);
    return 0;
}

/* `MctsBot.reward`'s reading: a finished game's winners (the top seats), the seats'
 * scores at the game's own cut-off (`stalled`, `timeout`), or, where the search keeps
 * one, the standing at its own. */
static int cb_result(void *ctx, const void *pos, double *scores) {
    const Tree *t = ctx;
    const Position *p = pos;
    int totals[NCOL], top = 0;
    if (p->end == PLAYING && !t->standing) return UCT_GOING;
    seat_totals(t, p, totals);
    if (p->end == PLAYING || p->end == END_STALLED || p->end == END_TIMEOUT) {
        for (int s = 0; s < t->players; s++) scores[s] = totals[s];
        return p->end == PLAYING ? UCT_STANDING : UCT_CUT;
    }
    for (int s = 0; s < t->players; s++)
        if (s == 0 || totals[s] > top) top = totals[s];
    for (int s = 0; s < t->players; s++) scores[s] = totals[s] == top;
    return UCT_WON;
}

/* `SeamKernel.tree`: the search's context and root from a decision of the readable rules
 * (`kernel.position`'s fields). */
static int tree_begin(const void *board, const void *position, UctGame *uct, void **root) {
    const Board *b = board;
    const Packed *q = position;
    if ((q->step != STEP_COLOUR && q->step != STEP_ENTRY) || q->noptions < 1 ||
        q->noptions > b->entries) {
        PyErr_SetString(PyExc_ValueError, "not a decision the compiled search takes");
        return -1;
    }
    Tree *t = PyMem_Calloc(1, sizeof(Tree));
    Position *p = PyMem_Calloc(1, sizeof(Position));
    *root = p;
    uct->ctx = t;
    if (!t || !p || !(t->game = PyMem_Calloc(1, sizeof(Game)))) {
        PyErr_NoMemory();
        return -1;
    }
    if (game_from(b, q, t->game) < 0) return -1;
    *t = (Tree){.b = b, .players = q->players, .each = q->each, .max_turns = q->max_turns,
                .target = q->target, .standing = q->standing, .game = t->game};
    memcpy(t->seat_colours, t->game->seat_colours, sizeof t->seat_colours);
    int limit = q->step == STEP_COLOUR ? NCOL : b->entries;
    for (int k = 0; k < q->noptions; k++) {
        if (q->options[k] >= limit || (k && q->options[k] <= q->options[k - 1])) {
            PyErr_SetString(PyExc_ValueError, "the options are not in the rules' order");
            return -1;
        }
        p->options |= (uint64_t)1 << q->options[k];
    }
    p->grid = t->game->grid;
    memcpy(p->reserve, q->reserve, sizeof p->reserve);
    memcpy(p->scores, q->scores, sizeof p->scores);
    p->tried = colour_mask(q->tried, q->ntried);
    p->ntried = q->ntried;
    p->seat = q->seat;
    p->turns = q->turns;
    p->quiet = q->quiet;
    p->end = PLAYING;
    p->step = q->step;
    p->colour = q->colour;
    p->face = q->face;
    p->first_colour = q->first_colour;
    p->first_face = q->first_face;
    *uct = (UctGame){.size = sizeof(Position), .players = q->players, .ctx = t,
                     .to_move = cb_to_move, .turns = cb_turns, .count = cb_count,
                     .apply = cb_apply, .chance = cb_chance, .playout = cb_playout,
                     .result = cb_result};
    return 0;
}

static void tree_end(UctGame *uct, void *root) {
    Tree *t = uct->ctx;
    if (t && t->game) {
        game_end(t->game);
        PyMem_Free(t->game);
    }
    PyMem_Free(t);
    PyMem_Free(root);
}

#endif
