/* Exploding Dice's compiled kernel: whole games, random or greedy, for the simulation runner.
 *
 * Why C: a random game is only twenty-odd turns, so a designer's 200,000-game sweep is
 * bound by what each game costs around it (seeding, the record), and the Python fast path
 * (`engine._play_fast`) spends most of its time there. This kernel plays the same rules in
 * the same order as `rules.py` (and its table-driven twin `engine._play_fast`): the colour
 * deal (`deal_colours`), step 1's highest zone, step 2's draw (`draw_options`), the roll, step 3's entries and the same-colour restriction, the `redraw` and
 * `skip` stall rules, steps 4 and 5 (score, then every exploding die at once), and step
 * 6's end checks; the greedy bot rates each entry as `bots.entry_value` does. Each random
 * choice is drawn as `pnp.play.chance` draws it, so a seed gives the same game here and in the
 * readable rules (tests/test_ed_kernel.py and tests/conformance/exploding-dice.json).
 *
 * `play_seeded` also seeds the generator itself from each game's seed string, as
 * `random.Random(str)` does (SHA-512 of the text, then `init_by_array`), so a chunk of
 * the runner's games costs no Python generator at all.
 *
 * `playout` plays random turns from a position at the start of a turn (a tree search's
 * rollout, `kernel.playout`), on a generator seeded as `random.Random(n)` from one number;
 * `tree_search` (`_tree.h`) runs the whole tree search of `pnp.play.mcts` on these positions.
 *
 * The board comes from the play model (`kernel.board_fields`, by name): its lines, neighbours,
 * zones, start points, faces and reserve; grids up to 8 x 8 (cells are bits of a 64-bit
 * word). Reentrant: no mutable static data; a game lives on the caller's stack and heap
 * and runs without the GIL. Portable C99 (gcc, clang, MSVC): no compiler builtins.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#include "../../../play/_twister.h"
#include "../../../play/_seed.h"
#include "../../../play/_seed_text.h"
#include "../../../play/_seam.h"

#define MAXN 8          /* the largest grid side the kernel holds */
#define MAXC 64         /* cells */
#define MAXE (4 * MAXN) /* entries: both ends of every line */
#define NCOL 4          /* colours, one zone and start point each */
#define FACES 6

enum { PLAYING, END_FIFTY, END_FULL, END_RESERVE, END_STALLED, END_TIMEOUT };

/* --- the board ---------------------------------------------------------------------- */

typedef struct {
    int n, cells, entries, entry_bits, skip;
    uint64_t full, not_first_col, not_last_col;
    int8_t line[MAXE][MAXN]; /* per entry: cells from the far border to the entry */
    uint64_t lmask[MAXE];
    uint64_t nb[MAXC];       /* orthogonal neighbours */
    uint64_t zone[NCOL];     /* each zone's cells */
    int8_t zone_of[MAXC];    /* each cell's zone, -1 for none */
    int start[NCOL];
    int faces[NCOL][FACES];
    int reserve[NCOL];       /* dice of each colour off the board at the start */
    uint32_t genrand_init[MT_N]; /* init_genrand(19650218): where every seeding starts */
} Board;

static const char BOARD_NAME[] = "pnp.exploding_dice.board";

static uint64_t bit(int cell) { return (uint64_t)1 << cell; }

/* Cells next to a cell of m (the grid is n x n, row by row). */
static uint64_t around(const Board *b, uint64_t m) {
    return ((m << 1) & b->not_first_col) | ((m >> 1) & b->not_last_col) |
           ((m << b->n) & b->full) | (m >> b->n);
}

/* Cells of m with a neighbour in m. */
static uint64_t touching(const Board *b, uint64_t m) { return m & around(b, m); }

/* The index of m's lowest set bit (m != 0), by a de Bruijn sequence. */
static int lowest(uint64_t m) {
    static const int8_t debruijn[64] = {
        0,  1,  48, 2,  57, 49, 28, 3,  61, 58, 50, 42, 38, 29, 17, 4,  62, 55, 59, 36, 53, 51,
        43, 22, 45, 39, 33, 30, 24, 18, 12, 5,  63, 47, 56, 27, 60, 41, 37, 16, 54, 35, 52, 21,
        44, 32, 23, 11, 46, 26, 40, 15, 34, 20, 31, 10, 25, 14, 19, 9,  13, 8,  7,  6};
    return debruijn[((m & (0 - m)) * 0x03f79d71b4cb0a89ULL) >> 58];
}

static void board_free(PyObject *capsule) {
    PyMem_Free(PyCapsule_GetPointer(capsule, BOARD_NAME));
}

/* The board as `kernel.board_fields` names it: the grid side `n`; `lines`, per entry the
 * n cells from the far border to the entry, row after row; `neighbours`, per cell its
 * neighbour mask (checked against the grid's shape); `zones`, per colour its cells' mask;
 * `starts`, per colour its start cell; `faces`, per colour its dice's six faces, row after
 * row (the kernel plays kits whose dice of one colour share their faces); `reserve`, per
 * colour the dice off the board at the start; `skip`, the `skip` stall rule (else `redraw`). */
typedef struct {
    int n, skip;
    int lines[MAXE * MAXN], starts[NCOL], faces[NCOL * FACES], reserve[NCOL];
    int nlines;
    uint64_t *neighbours, *zones;
    int nneighbours, nzones;
} BoardFields;

static const SeamField BOARD[] = {
    SEAM_INT(BoardFields, n, 2, MAXN),
    SEAM_LIST(BoardFields, lines, nlines, 0, MAXC - 1),
    SEAM_U64_LIST(BoardFields, neighbours, nneighbours),
    SEAM_U64_LIST(BoardFields, zones, nzones),
    SEAM_INTS(BoardFields, starts, 0, MAXC - 1),
    SEAM_INTS(BoardFields, faces, 1, FACES),
    SEAM_INTS(BoardFields, reserve, 0, 1000000),
    SEAM_BOOL(BoardFields, skip),
    SEAM_END,
};

/* The board's fields (read) into b; 0, or -1 with a ValueError naming what is wrong. */
static int board_from(Board *b, const BoardFields *f) {
    int n = f->n, cells = n * n;
    b->n = n;
    b->cells = cells;
    b->skip = f->skip;
    b->full = cells == 64 ? ~(uint64_t)0 : bit(cells) - 1;
    b->not_first_col = b->full;
    b->not_last_col = b->full;
    for (int r = 0; r < n; r++) {
        b->not_first_col &= ~bit(r * n);
        b->not_last_col &= ~bit(r * n + n - 1);
    }
    if (f->nlines % n) return seam_bad("board", "lines", "wrong length (n cells an entry)");
    b->entries = f->nlines / n;
    if (b->entries < 1) return seam_bad("board", "lines", "expected at least one entry");
    for (int e = 0; e < b->entries; e++)
        for (int j = 0; j < n; j++) {
            int cell = f->lines[e * n + j];
            if (cell >= cells) return seam_bad("board", "lines", "a cell off the grid");
            b->line[e][j] = (int8_t)cell;
            b->lmask[e] |= bit(cell);
        }
    while ((b->entries - 1) >> b->entry_bits) b->entry_bits++;
    int ok = f->nneighbours == cells;
    for (int i = 0; i < cells && ok; i++) {
        b->nb[i] = f->neighbours[i];
        ok = b->nb[i] == around(b, bit(i));
    }
    if (!ok) return seam_bad("board", "neighbours", "not those of an n x n grid");
    ok = f->nzones == NCOL;
    for (int z = 0; z < NCOL && ok; z++) {
        b->zone[z] = f->zones[z];
        ok = !(b->zone[z] & ~b->full);
    }
    if (!ok) return seam_bad("board", "zones", "expected four masks of the grid's cells");
    for (int i = 0; i < cells; i++) {
        b->zone_of[i] = -1;
        for (int z = 0; z < NCOL; z++)
            if (b->zone[z] >> i & 1) b->zone_of[i] = (int8_t)z;
    }
    for (int c = 0; c < NCOL; c++) {
        if (f->starts[c] >= cells) return seam_bad("board", "starts", "a cell off the grid");
        b->start[c] = f->starts[c];
        b->reserve[c] = f->reserve[c];
        for (int k = 0; k < FACES; k++) b->faces[c][k] = f->faces[c * FACES + k];
    }
    genrand_init(b->genrand_init);
    return 0;
}

/* board(fields) -> capsule: the board of `kernel.board_fields`, by name. */
static PyObject *make_board(PyObject *self, PyObject *fields) {
    (void)self;
    BoardFields f;
    memset(&f, 0, sizeof f);
    Board *b = PyMem_Calloc(1, sizeof(Board));
    PyObject *capsule = NULL;
    if (!b) PyErr_NoMemory();
    else if (seam_read(fields, BOARD, &f, "board") == 0 && board_from(b, &f) == 0)
        capsule = PyCapsule_New(b, BOARD_NAME, board_free);
    seam_free(BOARD, &f);
    if (!capsule) PyMem_Free(b);
    return capsule;
}

/* --- a game ------------------------------------------------------------------------- */

typedef struct {
    uint8_t face[MAXC], colour[MAXC];
    uint64_t occ, cm[NCOL], fm[FACES + 1]; /* occupied, per colour, per face */
    int zv[NCOL];                          /* each zone's value: the faces on it */
} Grid;

typedef struct {
    Twister tw;
    Grid grid;
    int players, each, greedy, max_turns, target;
    int owner[NCOL]; /* seat of each colour, -1 when nobody plays it */
    int seat_colours[NCOL][NCOL], seat_count[NCOL];
    int reserve[NCOL], scores[NCOL];
    int deal, turns, seat, quiet, leader, end;
    int *leaders; /* per turn: the sole leading seat, or -1 */
} Game;

static void put(const Board *b, Grid *g, int cell, int colour, int face) {
    uint64_t m = bit(cell);
    if (b->zone_of[cell] >= 0) g->zv[b->zone_of[cell]] += face;
    g->face[cell] = (uint8_t)face;
    g->colour[cell] = (uint8_t)colour;
    g->occ |= m;
    g->cm[colour] |= m;
    g->fm[face] |= m;
}

static void take(const Board *b, Grid *g, int cell) {
    uint64_t m = bit(cell);
    if (b->zone_of[cell] >= 0) g->zv[b->zone_of[cell]] -= g->face[cell];
    g->occ &= ~m;
    g->cm[g->colour[cell]] &= ~m;
    g->fm[g->face[cell]] &= ~m;
}

/* Entry e's landing cell (right behind its line's dice), or -1 when the line is full;
 * *bad gets the cells where a die of the new die's colour would touch it after the push
 * (its neighbours off the line, and the old cell of the die that ends next to it). */
static int landing(const Board *b, uint64_t occ, int e, uint64_t *bad) {
    const int8_t *line = b->line[e];
    int held = 0, last = -1;
    for (int j = 0; j < b->n; j++)
        if (occ >> line[j] & 1) {
            held++;
            last = line[j];
        }
    if (held == b->n) return -1;
    int land = line[held];
    *bad = (b->nb[land] & ~b->lmask[e]) | (last >= 0 ? bit(last) : 0);
    return land;
}

/* Can a die whose colour's cells are `own` go in at e? (own = 0: the restriction lifted) */
static int fits(const Board *b, const Grid *g, int e, uint64_t own) {
    uint64_t bad = 0;
    return landing(b, g->occ, e, &bad) >= 0 && !(own & bad);
}

/* Slide the die in at e: the line's dice pack against the far border in their order, the
 * new die last (`grid.push`). */
static void push(const Board *b, Grid *g, int e, int colour, int face) {
    const int8_t *line = b->line[e];
    int k = 0;
    for (int j = 0; j < b->n; j++) {
        int cell = line[j];
        if (!(g->occ >> cell & 1)) continue;
        if (cell != line[k]) {
            int c = g->colour[cell], f = g->face[cell];
            take(b, g, cell);
            put(b, g, line[k], c, f);
        }
        k++;
    }
    put(b, g, line[k], colour, face);
}

/* Steps 4 and 5 on a grid: each colour's points (`rules.gains_on`); *boom gets the cells
 * whose die touches one showing the same number. */
static void gains_on(const Board *b, const Grid *g, int gains[NCOL], uint64_t *boom) {
    uint64_t same = 0, hit = 0, m;
    for (int c = 0; c < NCOL; c++) {
        gains[c] = 0;
        same |= touching(b, g->cm[c]);
    }
    for (int f = 1; f <= FACES; f++) hit |= touching(b, g->fm[f]);
    for (m = same; m; m &= m - 1) {
        int i = lowest(m);
        gains[g->colour[i]] += g->face[i];
    }
    for (m = hit; m; m &= m - 1) {
        int i = lowest(m);
        gains[g->colour[i]] += g->face[i];
    }
    *boom = hit;
}

/* The greedy bot's rating of entry e: its own colours' gain minus the best opponent's
 * (`bots.entry_value`). */
static int entry_value(const Board *b, const Game *g, int e, int colour, int face) {
    Grid after = g->grid;
    int gains[NCOL], mine = 0, best = 0, first = 1;
    uint64_t boom;
    push(b, &after, e, colour, face);
    gains_on(b, &after, gains, &boom);
    for (int s = 0; s < g->players; s++) {
        int v = 0;
        for (int k = 0; k < g->seat_count[s]; k++) v += gains[g->seat_colours[s][k]];
        if (s == g->seat) {
            mine = v;
        } else if (first || v > best) {
            best = v;
            first = 0;
        }
    }
    return mine - best;
}

/* A uniform entry where the die may go in: greedy's best (ties uniform), or random's by
 * rejection (any entry until one fits), as `State.random_action` draws. */
static int choose_entry(const Board *b, Game *g, uint64_t own, int colour, int face) {
    if (!g->greedy) {
        for (;;) {
            int e = b->entry_bits ? (int)(genrand(&g->tw) >> (32 - b->entry_bits)) : 0;
            if (e < b->entries && fits(b, &g->grid, e, own)) return e;
        }
    }
    int legal[MAXE], best[MAXE], nlegal = 0, nbest = 0, top = 0;
    for (int e = 0; e < b->entries; e++)
        if (fits(b, &g->grid, e, own)) legal[nlegal++] = e;
    if (nlegal == 1) return legal[0];
    for (int k = 0; k < nlegal; k++) {
        int v = entry_value(b, g, legal[k], colour, face);
        if (nbest == 0 || v > top) {
            top = v;
            nbest = 0;
        }
        if (v == top) best[nbest++] = legal[k];
    }
    return best[below(&g->tw, nbest)];
}

static int any_fits(const Board *b, const Grid *g, uint64_t own) {
    for (int e = 0; e < b->entries; e++)
        if (fits(b, g, e, own)) return 1;
    return 0;
}

/* The lowest-scoring colours among `among` (a bit per colour), in colour order. */
static int lowest_scoring(const int scores[NCOL], int among, int *out) {
    int low = 0, n = 0, any = 0;
    for (int c = 0; c < NCOL; c++)
        if (among >> c & 1 && (!any || scores[c] < low)) {
            low = scores[c];
            any = 1;
        }
    for (int c = 0; c < NCOL; c++)
        if (among >> c & 1 && scores[c] == low) out[n++] = c;
    return n;
}

static int in_reserve(const int reserve[NCOL]) {
    int m = 0;
    for (int c = 0; c < NCOL; c++)
        if (reserve[c]) m |= 1 << c;
    return m;
}

static int bit_count(uint64_t m) {
    int n = 0;
    for (; m; m &= m - 1) n++;
    return n;
}

/* The i-th set bit of m (the i-th option in the rules' order). */
static int nth_bit(uint64_t m, int i) {
    for (; i; i--) m &= m - 1;
    return lowest(m);
}

/* Steps 1 and 2 (`rules.draw_options`): the colours the player may draw, a bit each. The
 * highest zone's, alone at the top with a reserve die; else the colours lowest on the
 * score track (all of them) that have a reserve die; else any colour in the reserve; 0
 * when the reserve is empty. */
static int draw_options(const int zv[NCOL], const int reserve[NCOL], const int scores[NCOL]) {
    int top = -1, zone = 0, tied = 0, low = scores[0], lowest_colours = 0;
    for (int z = 0; z < NCOL; z++) {
        if (zv[z] > top) {
            top = zv[z];
            zone = z;
            tied = 0;
        } else if (zv[z] == top) {
            tied = 1;
        }
    }
    if (!tied && reserve[zone]) return 1 << zone;
    for (int c = 1; c < NCOL; c++)
        if (scores[c] < low) low = scores[c];
    for (int c = 0; c < NCOL; c++)
        if (scores[c] == low) lowest_colours |= 1 << c;
    int avail = in_reserve(reserve);
    return avail & lowest_colours ? avail & lowest_colours : avail;
}

static int roll(Game *g, const Board *b, int colour) {
    return b->faces[colour][below(&g->tw, FACES)];
}

/* Set-up (`rules.new_game`): the start dice showing 1, and the colours dealt at random:
 * one of the 24 orderings of the colours (`rules._deals`, in itertools' order). */
static void new_game(Game *g, const Board *b) {
    int order[NCOL], left[NCOL] = {0, 1, 2, 3}, nleft = NCOL, k;
    memset(&g->grid, 0, sizeof g->grid);
    for (int c = 0; c < NCOL; c++) {
        put(b, &g->grid, b->start[c], c, 1);
        g->reserve[c] = b->reserve[c];
        g->scores[c] = 0;
        g->owner[c] = -1;
    }
    g->deal = below(&g->tw, 24);
    k = g->deal;
    for (int i = 0, f = 6; i < NCOL; i++) { /* the deal-th permutation, lexicographic */
        int j = k / f;
        k %= f;
        order[i] = left[j];
        for (int m = j; m < nleft - 1; m++) left[m] = left[m + 1];
        nleft--;
        if (i < NCOL - 1) f /= NCOL - 1 - i;
    }
    for (int s = 0; s < g->players; s++) {
        g->seat_count[s] = g->each;
        for (int j = 0; j < g->each; j++) {
            g->seat_colours[s][j] = order[s * g->each + j];
            g->owner[order[s * g->each + j]] = s;
        }
    }
    g->turns = g->seat = g->quiet = 0;
    g->leader = -1;
    g->end = g->grid.occ == b->full ? END_FULL : PLAYING;
}

/* Steps 1 and 2: the colour to draw (`draw_options`, a uniform choice among them), or -1
 * when the reserve is empty. */
static int draw_colour(Game *g) {
    int options = draw_options(g->grid.zv, g->reserve, g->scores);
    if (!options) return -1;
    return nth_bit((uint64_t)options, below(&g->tw, bit_count((uint64_t)options)));
}

/* One turn (steps 1 to 6; `rules.begin_turn` .. `end_turn`), or the rest of one under way
 * when `colour` >= 0: the turn's first colour drawn, its die out of the reserve if
 * `taken`, showing `face` if face > 0 (then the entry is all that is left to choose). */
static void play_turn_from(Game *g, const Board *b, int colour, int taken, int face) {
    int placed = 0, gains[NCOL];
    uint64_t own, boom;
    if (colour < 0) colour = draw_colour(g);
    if (colour < 0) {
        g->end = END_RESERVE;
        return;
    }
    if (!taken) g->reserve[colour]--;
    if (face <= 0) face = roll(g, b, colour);
    own = g->grid.cm[colour];
    int ok = any_fits(b, &g->grid, own);
    if (!ok && !b->skip) { /* the redraw stall rule, colour by colour */
        int first_colour = colour, first_face = face, tried = 1 << colour, options[NCOL];
        g->reserve[colour]++;
        while (!ok) {
            int untried = in_reserve(g->reserve) & ~tried;
            if (!untried) break;
            colour = options[below(&g->tw, lowest_scoring(g->scores, untried, options))];
            tried |= 1 << colour;
            g->reserve[colour]--;
            face = roll(g, b, colour);
            own = g->grid.cm[colour];
            ok = any_fits(b, &g->grid, own);
            if (!ok) g->reserve[colour]++;
        }
        if (!ok) { /* nothing fits: the first die and roll go in, the restriction lifted */
            colour = first_colour;
            face = first_face;
            g->reserve[colour]--;
            own = 0;
            ok = 1;
        }
    }
    if (ok) {
        push(b, &g->grid, choose_entry(b, g, own, colour, face), colour, face);
        placed = 1;
    } else { /* skip: the die goes back, the turn goes on */
        g->reserve[colour]++;
    }
    gains_on(b, &g->grid, gains, &boom);
    int gained = boom != 0, best = 0;
    for (int c = 0; c < NCOL; c++) {
        gained |= gains[c] != 0;
        g->scores[c] += gains[c];
        if (g->scores[c] > best) best = g->scores[c];
    }
    for (uint64_t m = boom; m; m &= m - 1) { /* all at once, after every die scored */
        int i = lowest(m);
        g->reserve[g->grid.colour[i]]++;
        take(b, &g->grid, i);
    }
    if (gained) {
        int top = -1, leader = -1;
        for (int s = 0; s < g->players; s++) {
            int v = 0;
            for (int k = 0; k < g->seat_count[s]; k++) v += g->scores[g->seat_colours[s][k]];
            if (v > top) {
                top = v;
                leader = s;
            } else if (v == top) {
                leader = -1;
            }
        }
        g->leader = leader;
    }
    g->quiet = gained || placed ? 0 : g->quiet + 1;
    g->leaders[g->turns++] = g->leader;
    if (gained && best >= g->target)
        g->end = END_FIFTY;
    else if (g->grid.occ == b->full)
        g->end = END_FULL;
    else if (g->quiet >= g->players)
        g->end = END_STALLED;
    else if (g->turns >= g->max_turns)
        g->end = END_TIMEOUT;
    g->seat = (g->seat + 1) % g->players;
}

static void play_turn(Game *g, const Board *b) { play_turn_from(g, b, -1, 0, 0); }

static void play_game(Game *g, const Board *b) {
    new_game(g, b);
    while (g->end == PLAYING) play_turn(g, b);
}

/* (turns, end, scores by seat, winners, deal, leaders): the GameRecord `kernel._record`
 * makes (`rules.game_record`'s seat scores and `top_seats`); the end is an index into
 * `kernel.ENDS` from END_FIFTY on, the deal one into `rules._deals`. */
static PyObject *game_result(const Game *g) {
    int seat_scores[NCOL], top = 0, nwin = 0, k = 0;
    for (int s = 0; s < g->players; s++) {
        seat_scores[s] = 0;
        for (int j = 0; j < g->seat_count[s]; j++) seat_scores[s] += g->scores[g->seat_colours[s][j]];
        if (s == 0 || seat_scores[s] > top) top = seat_scores[s];
    }
    for (int s = 0; s < g->players; s++) nwin += seat_scores[s] == top;
    PyObject *scores = PyTuple_New(g->players), *winners = PyTuple_New(nwin);
    PyObject *leaders = PyTuple_New(g->turns);
    if (!scores || !winners || !leaders) {
        Py_XDECREF(scores);
        Py_XDECREF(winners);
        Py_XDECREF(leaders);
        return NULL;
    }
    for (int s = 0; s < g->players; s++) {
        PyTuple_SET_ITEM(scores, s, PyLong_FromLong(seat_scores[s]));
        if (seat_scores[s] == top) PyTuple_SET_ITEM(winners, k++, PyLong_FromLong(s));
    }
    for (int t = 0; t < g->turns; t++) PyTuple_SET_ITEM(leaders, t, PyLong_FromLong(g->leaders[t]));
    return Py_BuildValue("iiNNiN", g->turns, g->end - 1, scores, winners, g->deal, leaders);
}

/* --- the seam (`pnp/play/_seam.h`): whole games, playouts and the search, by named fields -- */

/* A whole game's settings, by name (`kernel.settings`). */
static const SeamField SETTINGS[] = {
    SEAM_INT(Game, players, 2, NCOL),
    SEAM_INT(Game, each, 1, NCOL),
    SEAM_BOOL(Game, greedy),
    SEAM_INT(Game, max_turns, 1, 10000000),
    SEAM_INT(Game, target, 0, 1000000000),
    SEAM_END,
};

/* Check a game's settings and take its leaders' list; 0, or -1 with an exception set. */
static int game_begin(const void *board, void *game) {
    (void)board;
    Game *g = game;
    if (g->players * g->each > NCOL) {
        PyErr_SetString(PyExc_ValueError, "2 to 4 players, each with at least one colour");
        return -1;
    }
    g->leaders = PyMem_Malloc((size_t)g->max_turns * sizeof(int));
    if (!g->leaders) {
        PyErr_NoMemory();
        return -1;
    }
    return 0;
}

static void game_end(void *game) { PyMem_Free(((Game *)game)->leaders); }

static int game_play(const void *board, void *game) {
    play_game(game, board);
    return 0;
}

static PyObject *game_record(const void *board, const void *game) {
    (void)board;
    return game_result(game);
}

static const uint32_t *seed_start(const void *board) { return ((const Board *)board)->genrand_init; }

/* A position of the readable rules as `kernel.position` packs it, and what a playout
 * hands back: the cells as colour * 8 + face or -1, the reserve by colour, `step` a
 * `rules.Step` by its order, the options and the colours tried in the rules' order, the
 * first colour drawn and its roll; after a playout, `end` (0 while playing, else 1 + an
 * index into `kernel.ENDS`) and the leaders of the turns it played. */
enum { STEP_COLOUR, STEP_TAKE, STEP_ROLL, STEP_ENTRY }; /* `rules.Step`, in its order */

typedef struct {
    int players, each, max_turns, target, standing;
    int owners[NCOL], nowners; /* each seat's colours, seat after seat */
    int cells[MAXC], ncells;
    int reserve[NCOL], scores[NCOL];
    int seat, turns, quiet, leader, step;
    int options[MAXE], noptions;
    int tried[NCOL], ntried;
    int colour, face, first_colour, first_face;
    int end, nleaders;
    int *leaders;
} Packed;

static const SeamField POSITION[] = {
    SEAM_INT(Packed, players, 2, NCOL),
    SEAM_INT(Packed, each, 1, NCOL),
    SEAM_INT(Packed, max_turns, 1, 10000000),
    SEAM_INT(Packed, target, 0, 1000000000),
    SEAM_BOOL(Packed, standing),
    SEAM_LIST(Packed, owners, nowners, 0, NCOL - 1),
    SEAM_LIST(Packed, cells, ncells, -1, NCOL * 8 - 1),
    SEAM_INTS(Packed, reserve, 0, 1000000),
    SEAM_INTS(Packed, scores, 0, 1000000000),
    SEAM_INT(Packed, seat, 0, NCOL - 1),
    SEAM_INT(Packed, turns, 0, 10000000),
    SEAM_INT(Packed, quiet, 0, 10000000),
    SEAM_INT(Packed, leader, -1, NCOL - 1),
    SEAM_INT(Packed, step, 0, 3),
    SEAM_LIST(Packed, options, noptions, 0, MAXE - 1),
    SEAM_LIST(Packed, tried, ntried, 0, NCOL - 1),
    SEAM_INT(Packed, colour, -1, NCOL - 1),
    SEAM_INT(Packed, face, 0, FACES),
    SEAM_INT(Packed, first_colour, -1, NCOL - 1),
    SEAM_INT(Packed, first_face, 0, FACES),
    SEAM_END,
};

/* What a playout hands back (the rest of the position is as it was). */
static const SeamField AFTER[] = {
    SEAM_LIST(Packed, cells, ncells, 0, 0),
    SEAM_INTS(Packed, reserve, 0, 0),
    SEAM_INTS(Packed, scores, 0, 0),
    SEAM_OUT_INT(Packed, seat),
    SEAM_OUT_INT(Packed, turns),
    SEAM_OUT_INT(Packed, quiet),
    SEAM_OUT_INT(Packed, end),
    SEAM_HEAP_OUT(Packed, leaders, nleaders),
    SEAM_END,
};

/* A game in the middle from a packed position: its settings, seats, grid and counts
 * (0, or -1 with an exception set; `game_end` frees it either way). */
static int game_from(const Board *b, const Packed *q, Game *g) {
    if (q->nowners != q->players * q->each || q->seat >= q->players ||
        q->leader >= q->players || q->turns >= q->max_turns || q->ncells != b->cells) {
        PyErr_SetString(PyExc_ValueError, "not a position the kernel plays on from");
        return -1;
    }
    g->players = q->players;
    g->each = q->each;
    g->max_turns = q->max_turns;
    g->target = q->target;
    if (game_begin(b, g) < 0) return -1;
    for (int c = 0; c < NCOL; c++) g->owner[c] = -1;
    for (int s = 0; s < q->players; s++) {
        g->seat_count[s] = q->each;
        for (int k = 0; k < q->each; k++) {
            g->seat_colours[s][k] = q->owners[s * q->each + k];
            g->owner[g->seat_colours[s][k]] = s;
        }
    }
    for (int i = 0; i < b->cells; i++)
        if (q->cells[i] >= 0) {
            if (q->cells[i] % 8 < 1 || q->cells[i] % 8 > FACES) {
                PyErr_SetString(PyExc_ValueError, "a face the kernel cannot hold");
                return -1;
            }
            put(b, &g->grid, i, q->cells[i] / 8, q->cells[i] % 8);
        }
    memcpy(g->reserve, q->reserve, sizeof g->reserve);
    memcpy(g->scores, q->scores, sizeof g->scores);
    g->seat = q->seat;
    g->turns = q->turns;
    g->quiet = q->quiet;
    g->leader = q->leader;
    return 0;
}

/* Random play from the seat's turn (at its start, or under way from its first colour
 * drawn, as `play_turn_from` says) until the game ends or `stop` turns are played, on
 * `random.Random(seed)`. */
static int position_playout(const void *board, void *position, uint64_t seed, int stop) {
    const Board *b = board;
    Packed *q = position;
    int under_way = q->ntried > 0;
    int colour = under_way ? q->colour : -1, taken = under_way && q->step != STEP_TAKE;
    int face = under_way && q->step == STEP_ENTRY ? q->face : 0;
    Game *g = PyMem_Calloc(1, sizeof(Game));
    if (!g) {
        PyErr_NoMemory();
        return -1;
    }
    int status = game_from(b, q, g);
    if (!status && colour >= 0 && !taken && !g->reserve[colour]) {
        PyErr_SetString(PyExc_ValueError, "no die of that colour left to draw");
        status = -1;
    }
    if (!status) {
        int turns = g->turns;
        twister_seed64(&g->tw, seed);
        Py_BEGIN_ALLOW_THREADS
        if (colour >= 0 && g->turns < stop) play_turn_from(g, b, colour, taken, face);
        while (g->end == PLAYING && g->turns < stop) play_turn(g, b);
        Py_END_ALLOW_THREADS
        for (int i = 0; i < b->cells; i++)
            q->cells[i] = g->grid.occ >> i & 1 ? g->grid.colour[i] * 8 + g->grid.face[i] : -1;
        memcpy(q->reserve, g->reserve, sizeof q->reserve);
        memcpy(q->scores, g->scores, sizeof q->scores);
        q->seat = g->seat;
        q->turns = g->turns;
        q->quiet = g->quiet;
        q->end = g->end;
        q->nleaders = g->turns - turns;
        q->leaders = PyMem_Malloc((size_t)(q->nleaders ? q->nleaders : 1) * sizeof(int));
        if (!q->leaders) {
            PyErr_NoMemory();
            status = -1;
        } else {
            memcpy(q->leaders, g->leaders + turns, (size_t)q->nleaders * sizeof(int));
        }
    }
    game_end(g);
    PyMem_Free(g);
    return status;
}

static void position_release(void *position) { PyMem_Free(((Packed *)position)->leaders); }

/* seed(text) -> the twister words `random.Random(text).getstate()[1]` holds (a check). */
static PyObject *seeded(PyObject *self, PyObject *args) {
    (void)self;
    const char *text;
    Py_ssize_t len;
    Twister t;
    uint32_t start[MT_N];
    if (!PyArg_ParseTuple(args, "s#", &text, &len)) return NULL;
    genrand_init(start);
    if (seed_twister(&t, start, text, (size_t)len) < 0) {
        PyErr_SetString(PyExc_ValueError, "a seed text of at most 1,000 bytes");
        return NULL;
    }
    return twister_words(&t);
}

#include "_tree.h" /* the compiled tree search over these positions */

static const SeamKernel KERNEL = {
    .board = BOARD_NAME,
    .game_size = sizeof(Game),
    .twister = offsetof(Game, tw),
    .nogil = 1, /* a game allocates nothing */
    .settings = SETTINGS,
    .begin = game_begin,
    .play = game_play,
    .record = game_record,
    .end = game_end,
    .seed_start = seed_start,
    .position_size = sizeof(Packed),
    .position = POSITION,
    .after = AFTER,
    .playout = position_playout,
    .release = position_release,
    .tree = tree_begin,
    .tree_end = tree_end,
};

SEAM_ENTRIES(KERNEL)

static PyMethodDef methods[] = {
    {"board", make_board, METH_O, "board(fields): the board for play(), by name."},
    SEAM_METHODS,
    {"seeded", seeded, METH_VARARGS, "seeded(text): random.Random(text)'s twister words."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_kernel", "Exploding Dice's compiled game kernel (see _kernel.c).",
    -1, methods, NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__kernel(void) { return PyModule_Create(&module); }
