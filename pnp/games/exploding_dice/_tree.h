/* Exploding Dice's positions for the compiled tree search (`pnp/_uct.h`).
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
 * functions; `tree_search` is its entry (`kernel.tree_search` calls it).
 */
#ifndef ED_TREE_H
#define ED_TREE_H

#include "../../_uct.h"

enum { STEP_COLOUR, STEP_TAKE, STEP_ROLL, STEP_ENTRY }; /* `rules.Step`, in its order */

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

/* tree_search(board, players, owners, cells, reserve, scores, seat, turns, quiet,
 * max_turns, target, step, options, tried, colour, face, first, words, budget, horizon,
 * exploration, cooperative, standing) -> ([(index, visits), ...], words): `MctsBot.search`
 * from a decision of the readable rules, described as `kernel.tree_search` gives it
 * (cells as colour * 8 + face or -1, the reserve by colour, `step` a `rules.Step` by its
 * order, the options and the colours tried in the rules' order, the first colour drawn
 * and its roll as `first`), drawing from the twister words and handing them back. */
static PyObject *tree_search(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *capsule, *owners, *cells, *reserve, *scores, *options, *tried, *words;
    PyObject *out = NULL, *visits = NULL;
    int players, seat, turns, quiet, max_turns, target, step, colour, face, first_colour;
    int first_face, budget, horizon, cooperative, standing, row[MAXC], list[MAXE];
    double exploration;
    if (!PyArg_ParseTuple(args, "OiOOOOiiiiiiOOii(ii)Oiidpp", &capsule, &players, &owners,
                          &cells, &reserve, &scores, &seat, &turns, &quiet, &max_turns,
                          &target, &step, &options, &tried, &colour, &face, &first_colour,
                          &first_face, &words, &budget, &horizon, &exploration, &cooperative,
                          &standing))
        return NULL;
    const Board *b = PyCapsule_GetPointer(capsule, BOARD_NAME);
    if (!b) return NULL;
    Py_ssize_t seats = PySequence_Size(owners), noptions = PySequence_Size(options);
    Py_ssize_t ntried = PySequence_Size(tried);
    if (seats < 0 || noptions < 0 || ntried < 0) return NULL;
    if (seats != players || seat < 0 || seat >= players || turns < 0 || turns >= max_turns ||
        quiet < 0 || (step != STEP_COLOUR && step != STEP_ENTRY) || noptions < 1 ||
        noptions > b->entries || ntried > NCOL || colour < -1 || colour >= NCOL || face < 0 ||
        face > FACES || first_colour < -1 || first_colour >= NCOL || budget < 1) {
        PyErr_SetString(PyExc_ValueError, "not a decision the compiled search takes");
        return NULL;
    }
    Tree t = {.b = b, .players = players, .max_turns = max_turns, .target = target,
              .standing = standing};
    Position p;
    Twister rng;
    memset(&p, 0, sizeof p);
    t.game = PyMem_Calloc(1, sizeof(Game));
    if (!t.game) return PyErr_NoMemory();
    PyObject *first = PySequence_GetItem(owners, 0);
    Py_ssize_t each = first ? PySequence_Size(first) : -1;
    Py_XDECREF(first);
    if (each < 0 || settings(t.game, players, (int)each, 0, max_turns, target) < 0) goto done;
    t.each = (int)each;
    for (int c = 0; c < NCOL; c++) t.game->owner[c] = -1;
    for (int s = 0; s < players; s++) {
        PyObject *mine = PySequence_GetItem(owners, s);
        int ok = mine && read_ints(mine, t.seat_colours[s], each, 0, NCOL - 1) == 0;
        Py_XDECREF(mine);
        if (!ok) goto done;
        t.game->seat_count[s] = (int)each;
        for (int k = 0; k < each; k++) {
            t.game->seat_colours[s][k] = t.seat_colours[s][k];
            t.game->owner[t.seat_colours[s][k]] = s;
        }
    }
    if (read_ints(cells, row, b->cells, -1, NCOL * 8 - 1) < 0 ||
        read_ints(reserve, p.reserve, NCOL, 0, 1000000) < 0 ||
        read_ints(scores, p.scores, NCOL, 0, 1000000000) < 0 ||
        read_ints(tried, list, ntried, 0, NCOL - 1) < 0)
        goto done;
    p.tried = colour_mask(list, (int)ntried);
    p.ntried = (int)ntried;
    if (read_ints(options, list, noptions, 0, step == STEP_COLOUR ? NCOL - 1 : b->entries - 1) < 0)
        goto done;
    for (int k = 0; k < noptions; k++) {
        if (k && list[k] <= list[k - 1]) { /* the bits list them in ascending order */
            PyErr_SetString(PyExc_ValueError, "the options are not in the rules' order");
            goto done;
        }
        p.options |= (uint64_t)1 << list[k];
    }
    for (int i = 0; i < b->cells; i++)
        if (row[i] >= 0) {
            if (row[i] % 8 < 1 || row[i] % 8 > FACES) {
                PyErr_SetString(PyExc_ValueError, "a face the kernel cannot hold");
                goto done;
            }
            put(b, &p.grid, i, row[i] / 8, row[i] % 8);
        }
    p.seat = seat;
    p.turns = turns;
    p.quiet = quiet;
    p.end = PLAYING;
    p.step = step;
    p.colour = colour;
    p.face = face;
    p.first_colour = first_colour;
    p.first_face = first_face;
    if (read_twister(words, &rng) < 0) goto done;
    UctGame game = {sizeof(Position), players, &t,        cb_to_move, cb_turns, cb_count,
                    cb_apply,         cb_chance, NULL,    cb_playout, cb_result, NULL, NULL};
    visits = uct_search(&game, &p, &rng, budget, horizon, exploration, cooperative);
    if (visits) out = Py_BuildValue("NN", visits, twister_words(&rng));
done:
    PyMem_Free(t.game->leaders);
    PyMem_Free(t.game);
    return out;
}

#endif
