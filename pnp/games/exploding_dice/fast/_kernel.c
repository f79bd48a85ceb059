/* Exploding Dice's compiled kernel: whole games, random or greedy, for the simulation runner.
 *
 * Why C: a random game is only twenty-odd turns, so a designer's 200,000-game sweep is
 * bound by what each game costs around it (seeding, the record), and the Python fast path
 * (`engine._play_fast`) spends most of its time there. The kernel's rules are its step
 * machine (`_tree.h`): the readable `rules.State` walked step by step, the colour dealt
 * (`deal_colours`), step 1's highest zone, step 2's draw (`draw_options`), the roll, step
 * 3's entries and the same-colour restriction, the `redraw` and `skip` stall rules, steps
 * 4 and 5 (score, then every exploding die at once) and step 6's end checks. Whole games
 * and playouts are `pnp/play/_drive.h`'s, over that machine's hooks: the random bot draws
 * as `State.random_action` does, the greedy bot rates each entry as `bots.entry_value`
 * does, so a seed gives the same game here and in the readable rules
 * (tests/test_ed_kernel.py and tests/conformance/exploding-dice.json).
 *
 * `play_seeded` also seeds the generator itself from each game's seed string, as
 * `random.Random(str)` does (SHA-512 of the text, then `init_by_array`), so a chunk of
 * the runner's games costs no Python generator at all.
 *
 * `playout` plays random turns from a position of the readable rules (a tree search's
 * rollout, `kernel.playout`), on a generator seeded as `random.Random(n)` from one number;
 * `tree_search` runs the whole tree search of `pnp.play.mcts` on the same machine.
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
#include "../../../play/_drive.h"

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
    uint64_t side[MAXE][MAXN]; /* per entry and dice on its line: the landing cell's
                                  neighbours off the line (`fits`) */
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

/* How many bits of m are set (a few shifts and masks, whatever their number). */
static int bit_count(uint64_t m) {
    m -= (m >> 1) & 0x5555555555555555ULL;
    m = (m & 0x3333333333333333ULL) + ((m >> 2) & 0x3333333333333333ULL);
    m = (m + (m >> 4)) & 0x0f0f0f0f0f0f0f0fULL;
    return (int)((m * 0x0101010101010101ULL) >> 56);
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
    for (int e = 0; e < b->entries; e++)
        for (int j = 0; j < n; j++) b->side[e][j] = b->nb[b->line[e][j]] & ~b->lmask[e];
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

/* --- the grid ------------------------------------------------------------------------- */

typedef struct {
    uint8_t face[MAXC], colour[MAXC];
    uint64_t occ, cm[NCOL], fm[FACES + 1]; /* occupied, per colour, per face */
    int zv[NCOL];                          /* each zone's value: the faces on it */
} Grid;

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

/* Can a die whose colour's cells are `own` go in at e (own = 0: the restriction lifted)?
 * Its line must have room, and after the push no die of its colour may touch it: none on
 * the landing cell's neighbours off the line (right behind the line's dice, `side`), nor
 * the line's die nearest the entry, which ends next to it. */
static int fits(const Board *b, const Grid *g, int e, uint64_t own) {
    uint64_t on = g->occ & b->lmask[e];
    int held = 0, j = b->n - 1;
    for (uint64_t m = on; m; m &= m - 1) held++;
    if (held == b->n || (own & b->side[e][held])) return 0;
    if (!(own & on)) return 1;
    while (!(on >> b->line[e][j] & 1)) j--; /* the die nearest the entry */
    return !(own >> b->line[e][j] & 1);
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

#include "_tree.h" /* the step machine: the rules, turn by turn, step by step */

/* --- whole games ---------------------------------------------------------------------- */

typedef struct {
    Twister tw;
    int players, each, greedy, max_turns, target;
    int seat_colours[NCOL][NCOL]; /* each seat's colours, `each` of them */
    int scores[NCOL], winners[NCOL], nwinners; /* by seat, at the end (`seat_results`) */
    int deal, turns, end;
    int *leaders; /* per turn: the sole leading seat, or -1 */
} Game;

/* Set-up (`rules.new_game`): the colours dealt at random, one of the 24 orderings of the
 * colours (`rules._deals`, in itertools' order); the start dice showing 1; the first
 * turn begun. `t` and `p` become the game's step machine and its position. */
static void new_game(Game *g, const Board *b, Tree *t, Position *p) {
    int order[NCOL], left[NCOL] = {0, 1, 2, 3}, nleft = NCOL, k;
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
    for (int s = 0; s < g->players; s++)
        for (int j = 0; j < g->each; j++) g->seat_colours[s][j] = order[s * g->each + j];
    t->b = b;
    t->players = g->players;
    t->each = g->each;
    t->max_turns = g->max_turns;
    t->target = g->target;
    t->standing = 0;
    memcpy(t->seat_colours, g->seat_colours, sizeof t->seat_colours);
    t->leaders = g->leaders;
    t->lists = 0; /* the bots test or rate each entry themselves */
    memset(p, 0, sizeof *p);
    for (int c = 0; c < NCOL; c++) {
        put(b, &p->grid, b->start[c], c, 1);
        p->reserve[c] = b->reserve[c];
    }
    p->end = PLAYING;
    tree_begin_turn(t, p);
}

/* The record's scores by seat (`seat_totals`, as `rules.game_record` adds them up) and
 * winners (the seats sharing the top score, `top_seats`) at the end of a game. */
static void seat_results(Game *g, const Tree *t, const Position *p) {
    int top = 0;
    seat_totals(t, p, g->scores);
    for (int s = 0; s < g->players; s++)
        if (s == 0 || g->scores[s] > top) top = g->scores[s];
    g->nwinners = 0;
    for (int s = 0; s < g->players; s++)
        if (g->scores[s] == top) g->winners[g->nwinners++] = s;
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

/* A whole game by name (`kernel._records`, into a GameRecord): the turns, the end code (a
   playout's, from END_FIFTY on), the scores by seat, the winners, the deal (an index into
   `rules._deals`) and each turn's leader. */
static const SeamField RECORD[] = {
    SEAM_OUT_INT(Game, turns),
    SEAM_OUT_INT(Game, end),
    SEAM_LIST(Game, scores, players, 0, 0),
    SEAM_LIST(Game, winners, nwinners, 0, 0),
    SEAM_OUT_INT(Game, deal),
    SEAM_HEAP_OUT(Game, leaders, turns),
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

/* One whole game from the set-up: `_drive.h` over the step machine, every seat the
 * random bot or the greedy one. */
static int game_play(const void *board, void *game) {
    Game *g = game;
    Tree t;
    Position p;
    new_game(g, board, &t, &p);
    UctGame steps = ed_steps(&t);
    drive_play(&steps, &p, &g->tw, g->greedy ? ed_greedy : NULL, INT_MAX);
    g->turns = p.turns;
    g->end = p.end;
    seat_results(g, &t, &p);
    return 0;
}

static PyObject *game_record(const void *board, const void *game) {
    (void)board;
    return seam_write(RECORD, game);
}

static const uint32_t *seed_start(const void *board) { return ((const Board *)board)->genrand_init; }

/* Random play from a position of the readable rules (at a turn's start, or under way from
 * its first colour drawn) until the game ends or `stop` turns are played, on
 * `random.Random(seed)`. */
static int position_playout(const void *board, void *position, uint64_t seed, int stop) {
    const Board *b = board;
    Packed *q = position;
    Tree *t = PyMem_Calloc(1, sizeof(Tree));
    Position p;
    int status = -1, *leaders = PyMem_Malloc((size_t)q->max_turns * sizeof(int));
    if (!t || !leaders) {
        PyErr_NoMemory();
    } else if (position_from(b, q, t, &p) == 0) {
        if (p.step == STEP_TAKE && q->ntried && !p.reserve[p.colour]) {
            PyErr_SetString(PyExc_ValueError, "no die of that colour left to draw");
        } else {
            int turns = p.turns;
            UctGame steps = ed_steps(t);
            t->leaders = leaders;
            twister_seed64(&t->tw, seed);
            Py_BEGIN_ALLOW_THREADS
            if (!q->ntried && p.turns < stop) tree_begin_turn(t, &p); /* options anew */
            drive_play(&steps, &p, &t->tw, NULL, stop);
            Py_END_ALLOW_THREADS
            for (int i = 0; i < b->cells; i++)
                q->cells[i] = p.grid.occ >> i & 1 ? p.grid.colour[i] * 8 + p.grid.face[i] : -1;
            memcpy(q->reserve, p.reserve, sizeof q->reserve);
            memcpy(q->scores, p.scores, sizeof q->scores);
            q->seat = p.seat;
            q->turns = p.turns;
            q->quiet = p.quiet;
            q->end = p.end;
            q->nleaders = p.turns - turns;
            memmove(leaders, leaders + turns, (size_t)q->nleaders * sizeof(int));
            q->leaders = leaders;
            leaders = NULL;
            status = 0;
        }
    }
    PyMem_Free(leaders);
    PyMem_Free(t);
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
    .root_keys = 1, /* the tree keys an action by its colour or entry (`cb_key`) */
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
