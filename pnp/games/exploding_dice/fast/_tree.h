/* Exploding Dice's step machine: the rules as the kernel plays them, step by step.
 *
 * A position is the readable `rules.State` as the kernel keeps a game: the grid by
 * colour and face (dice of one colour share their faces in a kit the kernel plays), the
 * reserve by colour, and the turn walked step by step as the readable rules walk it (a
 * colour chosen, a die taken, rolled, an entry chosen; the `redraw` stall rule's further
 * colours; steps 4-6 after the placement). A decision's options are a bit each, listed in
 * the rules' order (colours and entries ascending), so `apply(i)` plays the readable
 * `legal_actions()[i]`; an action's key is the colour or the entry itself. Its hooks
 * (`ed_steps`, a `UctGame`) serve the tree search (`pnp/play/_uct.h`) and the whole games
 * and playouts of `pnp/play/_drive.h`; the bots are `ed_random` (`State.random_action`'s
 * draws) and `ed_greedy` (`bots`' greedy bot). Only the search's nodes need an entry
 * decision's whole list (`Tree.lists`): elsewhere a roll checks that some entry fits, the
 * random bot tests just the entries it draws, and the greedy bot lists the ones it rates.
 * Included by `_kernel.c` after its grid and the packed position; `tree_begin` is its
 * hook for `pnp/play/_seam.h`'s `tree_search`.
 */
#ifndef ED_TREE_H
#define ED_TREE_H

#include "../../../play/_drive.h"

typedef struct {
    Grid grid;
    int reserve[NCOL], scores[NCOL];
    int seat, turns, quiet, end, step;
    uint64_t options; /* a decision's choices, a bit each (entries: where `Tree.lists`) */
    uint64_t own;     /* at an entry: cells the die in hand may not touch (0: restriction lifted) */
    int tried, ntried; /* the colours drawn this turn: a bit each, how many */
    int colour, face, first_colour, first_face; /* the die in hand; the turn's first */
} Position;

typedef struct {
    const Board *b;
    int players, each, max_turns, target, standing;
    int seat_colours[NCOL][NCOL];
    int *leaders; /* per turn the sole leading seat or -1, where a game keeps them (else NULL) */
    int lists;    /* list a decision's entries (the search's nodes); else only the bots,
                     which test or rate each entry themselves, read an entry decision */
    Twister tw;   /* a playout's own generator, seeded from the search's */
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
    if (t->leaders) { /* `rules.end_turn`'s leader: the sole top seat, or -1 */
        int totals[NCOL], top = -1, leader = -1;
        seat_totals(t, p, totals);
        for (int s = 0; s < t->players; s++)
            if (totals[s] > top) {
                top = totals[s];
                leader = s;
            } else if (totals[s] == top) {
                leader = -1;
            }
        t->leaders[p->turns] = leader;
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

/* The first entry where such a die may go in, as a bit (0: none). */
static uint64_t any_entry(const Board *b, const Grid *g, uint64_t own) {
    for (int e = 0; e < b->entries; e++)
        if (fits(b, g, e, own)) return (uint64_t)1 << e;
    return 0;
}

/* The entries of an entry decision: listed, or found now. */
static uint64_t entry_options(const Tree *t, const Position *p) {
    return t->lists ? p->options : entries_for(t->b, &p->grid, p->own);
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
    p->own = p->grid.cm[p->colour];
    uint64_t legal = t->lists ? entries_for(b, &p->grid, p->own) : any_entry(b, &p->grid, p->own);
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
        p->own = 0;
        legal = t->lists ? entries_for(b, &p->grid, 0) : any_entry(b, &p->grid, 0);
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

/* An action's key: the colour or the entry itself (a node of the search keeps it; a
   whole game's bots name their choice so, no list needed). */
static int64_t cb_key(void *ctx, const void *pos, int i) {
    (void)ctx;
    return nth_bit(((const Position *)pos)->options, i);
}

static int cb_apply_key(void *ctx, void *pos, int64_t key) {
    tree_play(ctx, pos, (int)key);
    return 0;
}

static int64_t cb_chance(void *ctx, void *pos, Twister *rng) { return tree_chance(ctx, pos, rng); }

static UctGame ed_steps(Tree *t);

/* Is a redraw under way (`State.redrawing`: a second colour to choose or drawn)? */
static int redrawing(const Position *p) {
    return p->ntried > 1 || (p->ntried && p->step == STEP_COLOUR);
}

/* `State.playout`: a redraw under way finished on the search's generator, then random
 * play on `random.Random(rng.getrandbits(64))` (the tree's own generator). */
static int cb_playout(void *ctx, void *pos, Twister *rng, int stop) {
    Tree *t = ctx;
    Position *p = pos;
    UctGame steps = ed_steps(t);
    int lists = t->lists, status = 0;
    t->lists = 0; /* the random bot tests each entry it draws: no list to make */
    while (!status && p->end == PLAYING && p->turns < stop && redrawing(p))
        status = drive_step(&steps, p, rng, NULL);
    if (!status && p->end == PLAYING && p->turns < stop) {
        uint64_t seed = genrand(rng);
        seed |= (uint64_t)genrand(rng) << 32;
        uint32_t key[2] = {(uint32_t)seed, (uint32_t)(seed >> 32)}; /* `random.Random(seed)` */
        init_by_array(&t->tw, t->b->genrand_init, key, key[1] ? 2 : 1);
        status = drive_play(&steps, p, &t->tw, NULL, stop);
    }
    t->lists = lists;
    return status;
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

/* `State.random_action`: a colour by `pick`, an entry by rejection (any entry until a
 * legal one); the colour or the entry (`cb_key`). */
static int64_t ed_random(void *ctx, const void *pos, Twister *rng) {
    const Tree *t = ctx;
    const Position *p = pos;
    if (p->step == STEP_COLOUR) return nth_bit(p->options, below(rng, bit_count(p->options)));
    int e;
    if (t->lists) {
        do e = below(rng, t->b->entries);
        while (!(p->options >> e & 1));
    } else {
        do e = below(rng, t->b->entries);
        while (!fits(t->b, &p->grid, e, p->own));
    }
    return e;
}

/* The greedy bot's rating of entry e: the seat's own colours' gain minus the best
 * opponent's (`bots.entry_value`). */
static int entry_value(const Tree *t, const Position *p, int e) {
    Grid after = p->grid;
    int gains[NCOL], mine = 0, best = 0, first = 1;
    uint64_t boom;
    push(t->b, &after, e, p->colour, p->face);
    gains_on(t->b, &after, gains, &boom);
    for (int s = 0; s < t->players; s++) {
        int v = 0;
        for (int k = 0; k < t->each; k++) v += gains[t->seat_colours[s][k]];
        if (s == p->seat) {
            mine = v;
        } else if (first || v > best) {
            best = v;
            first = 0;
        }
    }
    return mine - best;
}

/* The greedy bot (`bots`): a colour as the random bot draws it; the best-rated entry,
 * ties by `pick` (the colour or the entry, `cb_key`). */
static int64_t ed_greedy(void *ctx, const void *pos, Twister *rng) {
    const Tree *t = ctx;
    const Position *p = pos;
    if (p->step == STEP_COLOUR) return ed_random(ctx, pos, rng);
    uint64_t legal = entry_options(t, p);
    int best[MAXE], nbest = 0, top = 0;
    if (bit_count(legal) == 1) return lowest(legal);
    for (uint64_t m = legal; m; m &= m - 1) {
        int e = lowest(m), v = entry_value(t, p, e);
        if (nbest == 0 || v > top) {
            top = v;
            nbest = 0;
        }
        if (v == top) best[nbest++] = e;
    }
    return best[below(rng, nbest)];
}

/* The step machine's hooks on the context `t`. */
static UctGame ed_steps(Tree *t) {
    return (UctGame){.size = sizeof(Position), .players = t->players, .ctx = t,
                     .to_move = cb_to_move, .turns = cb_turns, .count = cb_count,
                     .apply = cb_apply, .chance = cb_chance, .playout = cb_playout,
                     .result = cb_result, .key = cb_key, .apply_key = cb_apply_key,
                     .random = ed_random};
}

/* The step machine and its position from a position of the readable rules
 * (`kernel.position`'s fields); a decision's options as listed, else none. 0, or -1
 * with a ValueError. */
static int position_from(const Board *b, const Packed *q, Tree *t, Position *p) {
    if (q->nowners != q->players * q->each || q->seat >= q->players ||
        q->leader >= q->players || q->turns >= q->max_turns || q->ncells != b->cells) {
        PyErr_SetString(PyExc_ValueError, "not a position the kernel plays on from");
        return -1;
    }
    *t = (Tree){.b = b, .players = q->players, .each = q->each, .max_turns = q->max_turns,
                .target = q->target, .standing = q->standing};
    for (int s = 0; s < q->players; s++)
        for (int k = 0; k < q->each; k++) t->seat_colours[s][k] = q->owners[s * q->each + k];
    memset(p, 0, sizeof *p);
    for (int i = 0; i < b->cells; i++)
        if (q->cells[i] >= 0) {
            if (q->cells[i] % 8 < 1 || q->cells[i] % 8 > FACES) {
                PyErr_SetString(PyExc_ValueError, "a face the kernel cannot hold");
                return -1;
            }
            put(b, &p->grid, i, q->cells[i] / 8, q->cells[i] % 8);
        }
    if (q->step == STEP_COLOUR || q->step == STEP_ENTRY) {
        int limit = q->step == STEP_COLOUR ? NCOL : b->entries;
        for (int k = 0; k < q->noptions; k++) {
            if (q->options[k] >= limit || (k && q->options[k] <= q->options[k - 1])) {
                PyErr_SetString(PyExc_ValueError, "the options are not in the rules' order");
                return -1;
            }
            p->options |= (uint64_t)1 << q->options[k];
        }
    }
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
    if (p->step == STEP_ENTRY) { /* restricted, unless nothing fitted and the first die went in */
        p->own = p->grid.cm[p->colour];
        if (!any_entry(b, &p->grid, p->own)) p->own = 0;
    }
    return 0;
}

/* `SeamKernel.tree`: the search's context and root from a decision of the readable rules. */
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
    if (!t || !p) {
        PyErr_NoMemory();
        return -1;
    }
    if (position_from(b, q, t, p) < 0) return -1;
    t->lists = 1;
    *uct = ed_steps(t);
    return 0;
}

static void tree_end(UctGame *uct, void *root) {
    PyMem_Free(uct->ctx);
    PyMem_Free(root);
}

#endif
