/* Desert Home's compiled kernel: whole random and greedy games, for the simulation runner.
 *
 * Why C: a random game is hundreds of turns and thousands of decisions, each listing a
 * dozen legal actions, and a designer's sweep wants many games a second (`make bench`).
 * This is the readable rules (`state.py`, `moves.py`, `turn.py`, `goal.py`) with their
 * bots spelled out in C, rule for rule and in the same order: the pieces of a turn here
 * (`influx_cells`/`influx`, `road_bonus`/`boost`, `spend_actions`/`escorted_moves`, the
 * moves and entries, `end_round`, `check_win` and `nobody_can_win`), the turn itself as the
 * step machine of `_tree.h` (`turn.py`'s phases, one decision or one die at a time), and
 * whole games and playouts as `pnp/play/_drive.h`'s over those steps, every bot a
 * `DriveChoose` (`tree_choose`). Every action list is built in the order
 * `moves.legal_actions` builds it; the random bot draws one as `pnp.play.chance.pick` draws it,
 * the greedy bot rates each as `bots.Judge` does and draws among the best as
 * `pnp.play.forward.GreedyBot` does; each die is thrown as `State.sample_chance` throws it. So a
 * seed gives the same game here and in the readable rules (tests/test_dh_kernel.py and
 * tests/conformance/desert-home.json check it, for both bots).
 *
 * Python reaches it through the one seam, `pnp/play/_seam.h`: whole games (`play`,
 * `play_seeded`) take their settings by name (`engine.settings`), the rollouts and the
 * tree search a position packed by name (`kernel.position`); the board
 * (`kernel.board_fields`) and the search's shuffle take named fields too.
 *
 * A tree search's rollouts (`State.playout`, `position_playout` below) play here too,
 * from any position of the readable rules, whatever the phase of its turn: the step
 * machine takes the turn on where the position stands, then whole turns follow. Those
 * take their own draws (a generator seeded from one draw of the search's) and play
 * `bots.PlayoutBot`'s game draw for draw, as the readable `State.playout` does
 * (tests/test_dh_playout.py).
 *
 * The board, the supply and the rule constants come from the play model and `rules.py`
 * (`engine._kernel_board`), never from numbers of its own; chance comes from the caller's
 * `random.Random` (see `_twister.h`). Reentrant: no mutable static data; a game lives in
 * its own heap block, the board is read only, and a game runs without the GIL. Portable
 * C99 (gcc, clang, MSVC): no compiler builtins, no 128-bit integers.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <limits.h>
#include <stddef.h>
#include <string.h>

#include "../../../play/_twister.h"
#include "../../../play/_seed.h"
#include "../../../play/_seed_text.h"
#include "../../../play/_seam.h"
#include "../../../play/_drive.h"

/* The greedy bot's ratings must round as Python's doubles do, one operation at a time:
 * no fused multiply-adds (GCC would fuse them by default on hardware that has them). */
#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#elif defined(__GNUC__)
#pragma GCC optimize("fp-contract=off")
#endif

#define MAXC 256   /* cells: the largest board is 15 rows of 14 */
#define NCOL 6     /* colours: one per die */
#define NKEEP 8    /* value.THIRST_KEEP's most entries */
#define SEATS 2

/* Tile states, field kinds, directions and parts, as in rules.py and model.py. */
enum { NONE, SAFE, THIRST, BLACK, GUARDED };
enum { K_NONE = -1, K_REFUGE = 0, K_PATH = 1, K_CAMP = 2 };
enum { WEST, EAST, NORTH, SOUTH };
enum { GROUP, BEARER, BOTH };
enum { A_DRAW, A_ENTER, A_MOVE, A_SEND, A_PROTECT, A_STOP };
enum { ROAD_TILES = -1, ROAD_DECLINE = -2 }; /* rules.py's, beside the boosted rows */
enum { PLAYING, END_REFUGE, END_DECK, END_TIMEOUT };
static const char *const END_NAMES[] = {"", "refuge", "deck", "timeout"};

/* --- the board ---------------------------------------------------------------------- */

typedef struct {
    int cells, width, rows, path_columns, blue, goal, tent_value;
    int deck_safe, deck_thirst, cards;
    int figures[NCOL], tents[NCOL];
    /* rules.py's constants */
    int grace, small_road, big_road, protect_cost, influx_push, tiles_chain, refuge_ends_duty;
    int road_optional; /* the model's: a road may be let go */
    int whole_groups;  /* the model's: a move takes a colour's whole group on a field */
    int unplaced_step, keep_points; /* the greedy bot's (bots.py) */
    double refuge_size;             /* the greedy bot's REFUGE_SIZE */
    int playout_random;             /* bots.PLAYOUT_RANDOM: percent of playout choices at random */
    double scale;                   /* value.SCALE */
    double *near;                   /* value.NEAR ** d for d < nnear (a table: the same doubles) */
    int nnear;
    double keep[NKEEP];             /* value.THIRST_KEEP, by a seat's turns left (the last: more) */
    int nkeep;
    int maxact;        /* more actions than any position of this kit can offer (`most_actions`) */
    int points[6][NCOL]; /* action_points(n, k) at [n - 1][k - 1] */
    int8_t kind[MAXC];
    int16_t step[MAXC][4];  /* -1 off the board, cells + seat into a refuge */
    int16_t reach[MAXC][4];
    int8_t nreach[MAXC];
    int16_t next[MAXC][4];  /* path_next */
    int8_t nnext[MAXC];
    int16_t path[MAXC];
    int npath;
    int16_t camp[MAXC];
    int ncamp;
    int16_t entry[SEATS];   /* refuge entry fields */
    uint32_t genrand_init[MT_N]; /* init_genrand(19650218): where every text seeding starts */
} Board;

static const char BOARD_NAME[] = "pnp.desert_home.board";

static void board_free(PyObject *capsule) {
    Board *b = PyCapsule_GetPointer(capsule, BOARD_NAME);
    if (b) PyMem_Free(b->near);
    PyMem_Free(b);
}

/* More actions than any position of the kit can offer: a draw, the camp entries, the
 * moves, the sends, the cards and a stop. A field holding f figures and t tents of a
 * colour offers at most (f + 1)(t + 1) parts to move (`amounts`), so the fields of one
 * colour with F figures and T tents in all offer at most F T + F + T + cells; each part
 * moves in at most four directions, alone or with a water bearer, and a water bearer
 * alone in four more. */
static int most_actions(const Board *b) {
    long n = 2 + (long)b->ncamp * NCOL * 2 + 2L * b->npath + 4L * b->cells;
    for (int c = 0; c < NCOL; c++) {
        long f = b->figures[c], t = b->tents[c];
        n += 8 * (f * t + f + t + b->cells);
    }
    return (int)n;
}

/* The board as `kernel.board_fields` names it: the model's numbers and tables (a table of
 * up to four fields a cell as four, -1 after the last), the rules' constants, the greedy
 * bot's and the value's (`near`: NEAR ** d for every distance d a field can have,
 * `thirst_keep`: THIRST_KEEP), `points`: action_points(n, k) at [(n - 1) * 6 + k - 1]. */
typedef struct {
    int cells, width, rows, path_columns, blue, goal, tent_value, deck_safe, deck_thirst;
    int protection_cards, figures[NCOL], tents[NCOL];
    int thirst_grace, small_road, big_road, protect_cost, influx_push, road_tiles_chain;
    int refuge_ends_duty, road_optional, whole_groups;
    int unplaced_step, keep_points, playout_random;
    double refuge_size, scale;
    double *near, *thirst_keep;
    int nnear, nthirst_keep;
    int points[6 * NCOL];
    int kind[MAXC], step[4 * MAXC], reach[4 * MAXC], path_next[4 * MAXC];
    int path_cells[MAXC], camp_cells[MAXC], refuge_entries[SEATS];
    int nkind, nstep, nreach, npath_next, npath_cells, ncamp_cells;
} BoardFields;

/* an int checked in `board_from`, with the board's other numbers */
#define BOARD_INT(m) SEAM_INT(BoardFields, m, INT_MIN, INT_MAX)
static const SeamField BOARD[] = {
    BOARD_INT(cells),
    BOARD_INT(width),
    BOARD_INT(rows),
    BOARD_INT(path_columns),
    BOARD_INT(blue),
    BOARD_INT(goal),
    BOARD_INT(tent_value),
    BOARD_INT(deck_safe),
    BOARD_INT(deck_thirst),
    BOARD_INT(protection_cards),
    SEAM_INTS(BoardFields, figures, 0, 30000),
    SEAM_INTS(BoardFields, tents, 0, 30000),
    BOARD_INT(thirst_grace),
    BOARD_INT(small_road),
    BOARD_INT(big_road),
    BOARD_INT(protect_cost),
    SEAM_BOOL(BoardFields, influx_push),
    SEAM_BOOL(BoardFields, road_tiles_chain),
    SEAM_BOOL(BoardFields, refuge_ends_duty),
    SEAM_BOOL(BoardFields, road_optional),
    SEAM_BOOL(BoardFields, whole_groups),
    BOARD_INT(unplaced_step),
    BOARD_INT(keep_points),
    SEAM_DOUBLE(BoardFields, refuge_size),
    BOARD_INT(playout_random),
    SEAM_DOUBLE(BoardFields, scale),
    SEAM_F64_LIST(BoardFields, near, nnear),
    SEAM_F64_LIST(BoardFields, thirst_keep, nthirst_keep),
    SEAM_INTS(BoardFields, points, 0, 1000),
    SEAM_LIST(BoardFields, kind, nkind, K_NONE, K_CAMP),
    SEAM_LIST(BoardFields, step, nstep, -1, MAXC - 1),
    SEAM_LIST(BoardFields, reach, nreach, -1, MAXC - 1),
    SEAM_LIST(BoardFields, path_next, npath_next, -1, MAXC - 1),
    SEAM_LIST(BoardFields, path_cells, npath_cells, 0, MAXC - 1),
    SEAM_LIST(BoardFields, camp_cells, ncamp_cells, 0, MAXC - 1),
    SEAM_INTS(BoardFields, refuge_entries, 0, MAXC - 1),
    SEAM_END,
};
#undef BOARD_INT

/* A table of four numbers a cell (`flat`, -1 after a row's last unless `exact`), each
 * below `end`, into rows (their lengths into lens). 0, or -1 with a ValueError. */
static int board_rows(const int *flat, int cells, int end, int exact, int16_t (*rows)[4],
                      int8_t *lens) {
    for (int i = 0; i < cells; i++) {
        int n = 0;
        for (int d = 0; d < 4; d++) {
            int v = flat[4 * i + d];
            if (v >= end || (v >= 0 && !exact && d > n)) { /* a field after a -1 */
                PyErr_SetString(PyExc_ValueError, "a board table's row is not of this board");
                return -1;
            }
            rows[i][d] = (int16_t)v;
            n += v >= 0 || exact;
        }
        if (lens) lens[i] = (int8_t)n;
    }
    return 0;
}

/* The board's fields (read) into b; 0, or -1 with a ValueError. */
static int board_from(Board *b, BoardFields *f) {
    int cells = f->cells;
    if (cells < 1 || cells + SEATS > MAXC || f->width < 3 || f->rows * f->width != cells ||
        f->blue < 0 || f->blue >= NCOL || f->goal < 1 || f->tent_value < 1 ||
        f->deck_safe < 0 || f->deck_thirst < 0 || f->deck_safe + f->deck_thirst > 1000000 ||
        f->protection_cards < 0 || f->unplaced_step < 1 || f->unplaced_step > 1000) {
        PyErr_SetString(PyExc_ValueError, "the board's numbers are out of the kernel's range");
        return -1;
    }
    if (f->nkind != cells || f->nstep != 4 * cells || f->nreach != 4 * cells ||
        f->npath_next != 4 * cells) {
        PyErr_SetString(PyExc_ValueError, "expected one number per cell (four in a table)");
        return -1;
    }
    *b = (Board){
        .cells = cells, .width = f->width, .rows = f->rows, .path_columns = f->path_columns,
        .blue = f->blue, .goal = f->goal, .tent_value = f->tent_value,
        .deck_safe = f->deck_safe, .deck_thirst = f->deck_thirst, .cards = f->protection_cards,
        .grace = f->thirst_grace, .small_road = f->small_road, .big_road = f->big_road,
        .protect_cost = f->protect_cost, .influx_push = f->influx_push,
        .tiles_chain = f->road_tiles_chain, .refuge_ends_duty = f->refuge_ends_duty,
        .road_optional = f->road_optional, .whole_groups = f->whole_groups,
        .unplaced_step = f->unplaced_step, .keep_points = f->keep_points,
        .refuge_size = f->refuge_size, .playout_random = f->playout_random, .scale = f->scale,
    };
    memcpy(b->figures, f->figures, sizeof b->figures);
    memcpy(b->tents, f->tents, sizeof b->tents);
    memcpy(b->points, f->points, sizeof b->points);
    for (int i = 0; i < cells; i++) b->kind[i] = (int8_t)f->kind[i];
    if (board_rows(f->step, cells, cells + SEATS, 1, b->step, NULL) < 0 ||
        board_rows(f->reach, cells, cells + SEATS, 0, b->reach, b->nreach) < 0 ||
        board_rows(f->path_next, cells, cells, 0, b->next, b->nnext) < 0)
        return -1;
    const int lists[] = {f->npath_cells, f->ncamp_cells, SEATS};
    const int *in[] = {f->path_cells, f->camp_cells, f->refuge_entries};
    int16_t *out[] = {b->path, b->camp, b->entry};
    for (int k = 0; k < 3; k++)
        for (int i = 0; i < lists[k]; i++) {
            if (in[k][i] >= cells) {
                PyErr_SetString(PyExc_ValueError, "a board list names a cell off the board");
                return -1;
            }
            out[k][i] = (int16_t)in[k][i];
        }
    b->npath = f->npath_cells;
    b->ncamp = f->ncamp_cells;
    b->maxact = most_actions(b);
    if (f->nnear < f->unplaced_step * cells + 2 || f->nnear > 10000000) {
        PyErr_SetString(PyExc_ValueError, "the value's weights do not cover every distance");
        return -1;
    }
    if (f->nthirst_keep < 1 || f->nthirst_keep > NKEEP) {
        PyErr_SetString(PyExc_ValueError, "the thirst weights are 1 to 8 numbers");
        return -1;
    }
    b->nkeep = f->nthirst_keep;
    memcpy(b->keep, f->thirst_keep, (size_t)b->nkeep * sizeof(double));
    b->nnear = f->nnear;
    b->near = f->near; /* the board's now: `board_free` frees it */
    f->near = NULL;
    genrand_init(b->genrand_init);
    return 0;
}

/* board(fields) -> capsule: the board of `kernel.board_fields`, by name. */
static PyObject *make_board(PyObject *self, PyObject *fields) {
    (void)self;
    BoardFields *f = PyMem_Calloc(1, sizeof(BoardFields));
    Board *b = PyMem_Calloc(1, sizeof(Board));
    PyObject *capsule = NULL;
    if (!f || !b) PyErr_NoMemory();
    else if (seam_read(fields, BOARD, f, "board") == 0 && board_from(b, f) == 0)
        capsule = PyCapsule_New(b, BOARD_NAME, board_free);
    if (f) seam_free(BOARD, f);
    PyMem_Free(f);
    if (!capsule && b) {
        PyMem_Free(b->near);
        PyMem_Free(b);
    }
    return capsule;
}

/* --- a game --------------------------------------------------------------------------- */

typedef struct {
    uint8_t kind;
    int16_t a, b;  /* SEND/PROTECT: cell; ENTER: colour, cell; MOVE: from, to */
    int16_t c, d;  /* ENTER: tent; MOVE: part, cost */
    int16_t e, f;  /* MOVE: figures, tents */
} Act;

typedef struct {
    const Board *b;
    Twister tw;
    int8_t tile[MAXC];
    int deadline[MAXC], colour[MAXC], figs[MAXC], tents[MAXC], bearer[MAXC];
    int camp_figs[NCOL], camp_tents[NCOL];
    int rfigs[SEATS][NCOL], rtents[SEATS][NCOL];
    int arrived[SEATS], dice[NCOL], usable[NCOL];
    int8_t *deck;
    int ndeck, cards, seat, round, turns, points, may_stop, ended, winners;
    int tiles_placed;
    long throws;  /* dice thrown: with the decisions, the steps of the readable rules */
    long deaths, water_missions, decisions, legal_moves;
    int *leaders;
    int nleaders, most_leaders;
    int areas_known, camp_linked;  /* the deck end's linked fields (fixed once the deck is out) */
    uint8_t area[SEATS][MAXC];
    Act *acts;                   /* b->maxact of them (`game_new`) */
    int nacts;
    int greedy;                  /* 1: bots.py's greedy bot chooses, 0: uniform random */
    int epsilon;                 /* greedy: percent of choices at random (bots.PlayoutBot) */
    int dist_at;                 /* tiles_placed when `dist` was worked out (-1: never) */
    int dist[SEATS][MAXC];       /* greedy: steps from each cell into each refuge */
    double *score;               /* greedy: each option's rating at a decision */
} Game;

/* Room in the zeroed game g on board b for every action list of the kit and its ratings
   (and `decks` tiles); 0, or -1 out of memory (what was taken is `game_release`d). */
static int game_init(Game *g, const Board *b, int decks) {
    g->b = b;
    g->dist_at = -1;
    g->acts = PyMem_Malloc((size_t)b->maxact * sizeof(Act));
    g->score = PyMem_Malloc((size_t)b->maxact * sizeof(double));
    g->deck = PyMem_Malloc((size_t)decks + 1);
    return g->acts && g->score && g->deck ? 0 : -1;
}

static void game_release(Game *g) {
    PyMem_Free(g->acts);
    PyMem_Free(g->score);
    PyMem_Free(g->deck);
    PyMem_Free(g->leaders);
    g->acts = NULL;
    g->score = NULL;
    g->deck = NULL;
    g->leaders = NULL;
}

/* A game's own block for board b (`game_init`); NULL out of memory. */
static Game *game_new(const Board *b, int decks) {
    Game *g = PyMem_Calloc(1, sizeof(Game));
    if (g && game_init(g, b, decks) < 0) {
        game_release(g);
        PyMem_Free(g);
        return NULL;
    }
    return g;
}

static void game_free(Game *g) {
    if (!g) return;
    game_release(g);
    PyMem_Free(g);
}

/* The greedy bot's choice among n > 1 options rated in g->score: the best rated, ties
 * drawn as `pnp.play.forward.GreedyBot` draws them (`pick`). */
static int best(const Game *g, Twister *rng, int n) {
    double top = g->score[0];
    for (int i = 1; i < n; i++)
        if (g->score[i] > top) top = g->score[i];
    int ties = 0, first = 0;
    for (int i = 0; i < n; i++)
        if (g->score[i] == top && !ties++) first = i;
    if (ties == 1) return first;
    int k = below(rng, ties);
    for (int i = 0; i < n; i++)
        if (g->score[i] == top && !k--) return i;
    return first; /* not reached */
}

static void add(Game *g, int kind, int a, int b, int c, int d, int e, int f) {
    Act *x = &g->acts[g->nacts++];
    x->kind = (uint8_t)kind;
    x->a = (int16_t)a;
    x->b = (int16_t)b;
    x->c = (int16_t)c;
    x->d = (int16_t)d;
    x->e = (int16_t)e;
    x->f = (int16_t)f;
}

/* --- goal (refuge_values, goal_met, progress, check_win, record_leader) */

static int goal_met(const Board *b, const int *values) {
    int short_ = 0;
    for (int c = 0; c < NCOL; c++)
        if (c != b->blue && values[c] < b->goal) short_ += b->goal - values[c];
    return values[b->blue] >= b->goal + short_;
}

static void refuge_values(const Game *g, int seat, int *values) {
    for (int c = 0; c < NCOL; c++) values[c] = g->rfigs[seat][c] + g->b->tent_value * g->rtents[seat][c];
}

/* goal.counted: the figures of `values` (per colour) that count toward the goal. */
static int counted(const Board *b, const int *values) {
    int short_ = 0, total = 0;
    for (int c = 0; c < NCOL; c++) {
        if (c == b->blue) continue;
        if (values[c] < b->goal) {
            short_ += b->goal - values[c];
            total += values[c];
        } else {
            total += b->goal;
        }
    }
    int vb = values[b->blue], extra = vb - b->goal > 0 ? vb - b->goal : 0;
    return total + (vb < b->goal ? vb : b->goal) + (extra < short_ ? extra : short_);
}

/* goal.progress: the figures in seat's refuge that count toward the goal. */
static int progress(const Game *g, int seat) {
    int values[NCOL];
    refuge_values(g, seat, values);
    return counted(g->b, values);
}

/* The seat leading alone after a turn, or -1 (none kept where `leaders` is NULL: a tree
 * search's playouts read no history). */
static void record_leader(Game *g) {
    if (!g->leaders) return;
    int s0 = progress(g, 0), s1 = progress(g, 1);
    g->leaders[g->nleaders++] = s0 > s1 ? 0 : s1 > s0 ? 1 : -1;
}

static int check_win(Game *g) {
    int values[NCOL], won = 0;
    for (int s = 0; s < SEATS; s++) {
        refuge_values(g, s, values);
        if (goal_met(g->b, values)) won |= 1 << s;
    }
    if (!won) return 0;
    g->ended = END_REFUGE;
    g->winners = won;
    g->turns++;
    record_leader(g);
    return 1;
}

/* --- the board (can_stand, take, put, the frontier) */

static int can_stand(const Game *g, int mc, int mf, int mt, int mb, int cell) {
    int blue = g->b->blue, tc = g->colour[cell];
    int lone = mc == blue && mf == 1 && mt == 0;
    if (g->b->kind[cell] == K_CAMP) {
        if (!lone) return 0;
        return tc == -1 || (tc != blue && g->bearer[cell] == 0);
    }
    if (tc == -1) return 1;
    if (tc == mc) return mc == blue || g->bearer[cell] + mb <= 1;
    if (lone) return tc != blue && g->bearer[cell] == 0;
    return tc == blue && g->figs[cell] == 1 && g->tents[cell] == 0 && mb == 0;
}

/* fields.take_some: `figs` figures and `tents` tents of the group (with its water bearer
   for BOTH), or the water bearer alone; a water bearer left without its group stands alone. */
static void take_some(Game *g, int cell, int part, int figs, int tents) {
    if (part == BEARER) {
        g->bearer[cell] = 0;
        return;
    }
    g->figs[cell] -= figs;
    g->tents[cell] -= tents;
    if (part == BOTH) g->bearer[cell] = 0;
    if (g->figs[cell] + g->tents[cell] == 0) {
        if (g->bearer[cell]) {
            g->colour[cell] = g->b->blue;
            g->figs[cell] = 1;
            g->bearer[cell] = 0;
        } else {
            g->colour[cell] = -1;
        }
    }
}

/* fields.take: the whole part. */
static void take(Game *g, int cell, int part) { take_some(g, cell, part, g->figs[cell], g->tents[cell]); }

static void put(Game *g, int mc, int mf, int mt, int mb, int cell) {
    const Board *b = g->b;
    if (cell >= b->cells) {
        int s = cell - b->cells;
        g->rfigs[s][mc] += mf;
        g->rtents[s][mc] += mt;
        g->rfigs[s][b->blue] += mb;
        g->arrived[s] += mb + (mc == b->blue ? mf : 0);
        g->may_stop = g->may_stop || b->refuge_ends_duty;
        return;
    }
    int tc = g->colour[cell];
    if (tc == -1) {
        g->colour[cell] = mc;
        g->figs[cell] = mf;
        g->tents[cell] = mt;
        g->bearer[cell] = mb;
    } else if (tc == mc) {
        g->figs[cell] += mf;
        g->tents[cell] += mt;
        g->bearer[cell] += mb;
    } else if (mc == b->blue) { /* a lone water bearer joins the group as its escort */
        g->bearer[cell] = 1;
    } else { /* the group joins a lone water bearer, who escorts it */
        g->colour[cell] = mc;
        g->figs[cell] = mf;
        g->tents[cell] = mt;
        g->bearer[cell] = 1;
    }
}

/* An empty path field a tile may go to: next to the camp, or to a tile. */
static int is_slot(const Game *g, int cell) {
    const Board *b = g->b;
    if (g->tile[cell] != NONE) return 0;
    int ok = cell % b->width == b->path_columns;
    for (int j = 0; !ok && j < b->nnext[cell]; j++) ok = g->tile[b->next[cell][j]] != NONE;
    return ok;
}

/* The empty path slots a tile may go to, in path order (rules.new_frontier). */
static int frontier(const Game *g, int16_t *out) {
    int n = 0;
    for (int k = 0; k < g->b->npath; k++)
        if (is_slot(g, g->b->path[k])) out[n++] = g->b->path[k];
    return n;
}

/* Whether the frontier has a slot (a draw, or road tiles, is on offer). Tiles are laid on
 * empty path fields only, so once as many are laid as the path has fields it is full. */
static int has_frontier(const Game *g) {
    if (g->tiles_placed >= g->b->npath) return 0;
    for (int k = 0; k < g->b->npath; k++)
        if (is_slot(g, g->b->path[k])) return 1;
    return 0;
}

/* rules.draw then rules.lay_drawn: the top tile is drawn (seen) before its slot is chosen. */
static int draw(Game *g) { return g->deck[--g->ndeck]; }

static void lay(Game *g, int cell, int face) {
    g->tile[cell] = (int8_t)face;
    g->tiles_placed++;
}

/* --- the greedy bot: bots.py's `Judge` and `reroll_mask`, rating for rating
 *
 * Each rating is worked out in doubles with the operations of bots.py in their order, so
 * the ratings, their maximum and its ties are the readable bot's; tie draws then spend the
 * same randomness. The chooser `me` is the seat to move, or the seat swapping. */

static int imin(int a, int b) { return a < b ? a : b; }
static int imax(int a, int b) { return a > b ? a : b; }

/* Judge.gain: the goal progress seat's refuge would get from these pieces. */
static int gain(const Game *g, int seat, int colour, int amount, int bearers) {
    const Board *b = g->b;
    int goal = b->goal, blue = b->blue, v[NCOL], counted = 0, short_ = 0;
    refuge_values(g, seat, v);
    for (int c = 0; c < NCOL; c++) {
        if (c == blue) continue;
        counted += imin(v[c], goal);
        short_ += imax(0, goal - v[c]);
    }
    int vb = v[blue];
    int before = counted + imin(vb, goal) + imin(imax(0, vb - goal), short_);
    if (colour == blue) {
        vb += amount;
    } else {
        int filled = imin(amount, imax(0, goal - v[colour]));
        counted += filled;
        short_ -= filled;
    }
    vb += bearers;
    return counted + imin(vb, goal) + imin(imax(0, vb - goal), short_) - before;
}

/* Judge.cell_gain: what the whole field (its group and escort) is worth to seat. */
static int cell_gain(const Game *g, int seat, int cell) {
    if (g->colour[cell] < 0) return 0;
    return gain(g, seat, g->colour[cell], g->figs[cell] + g->b->tent_value * g->tents[cell],
                g->bearer[cell] ? 1 : 0);
}

static int home_row(const Game *g, int seat) { return g->b->entry[seat] / g->b->width; }

/* bots.distances: steps from each cell into each refuge (a missing tile costs
 * UNPLACED_STEP), worked out again only when a tile was laid. */
static void distances(Game *g) {
    const Board *b = g->b;
    if (g->dist_at == g->tiles_placed) return;
    g->dist_at = g->tiles_placed;
    int16_t todo[MAXC], nxt[MAXC];
    uint8_t queued[MAXC];
    for (int s = 0; s < SEATS; s++) { /* relaxation to the fixed point: the shortest steps */
        int *dist = g->dist[s], n = 1;
        for (int i = 0; i < b->cells; i++) dist[i] = 1000000;
        dist[b->entry[s]] = 1;
        todo[0] = b->entry[s];
        while (n) {
            int m = 0;
            memset(queued, 0, sizeof queued);
            for (int k = 0; k < n; k++) {
                int cell = todo[k];
                for (int d = 0; d < 4; d++) {
                    int nb = b->step[cell][d];
                    if (nb < 0 || nb >= b->cells) continue;
                    int cost = g->tile[nb] != NONE ? 1 : b->unplaced_step;
                    if (dist[cell] + cost < dist[nb]) {
                        dist[nb] = dist[cell] + cost;
                        if (!queued[nb]) queued[nb] = 1, nxt[m++] = (int16_t)nb;
                    }
                }
            }
            memcpy(todo, nxt, (size_t)m * sizeof(int16_t));
            n = m;
        }
    }
}

/* Judge.tile: a safe tile towards the own refuge's row, a thirst tile away from it. */
static double rate_tile(const Game *g, int me, int cell, int face) {
    int row = cell / g->b->width;
    int dr = abs(row - home_row(g, me)), dt = abs(row - home_row(g, 1 - me));
    if (face == THIRST) return dr - 1.5 * dt;
    return 3.0 - dr + 0.3 * dt;
}

/* Judge.move */
static double rate_move(Game *g, int me, const Act *x) {
    const Board *b = g->b;
    int src = x->a, dst = x->b, part = x->c, cost = x->d, other = 1 - me;
    int mc = part == BEARER ? b->blue : g->colour[src];
    int mf = part == BEARER ? 1 : x->e;
    int mt = part == BEARER ? 0 : x->f;
    int mb = part == BOTH;
    int mine = gain(g, me, mc, mf + b->tent_value * mt, mb);
    int theirs = gain(g, other, mc, mf + b->tent_value * mt, mb);
    int size = mf + b->tent_value * mt + mb;
    if (dst >= b->cells) {
        int seat = dst - b->cells;
        return seat == me ? (100.0 * mine + 1 + b->refuge_size * size) / cost : -100.0 * theirs - 5;
    }
    distances(g);
    int closer = g->dist[me][src] - g->dist[me][dst];
    int closer_them = g->dist[other][src] - g->dist[other][dst];
    double score = closer * (2.0 * mine + 0.2) - closer_them * 1.0 * theirs;
    if (g->tile[src] == BLACK) score += 20.0 * size;
    if (g->tile[dst] == BLACK) score -= 20.0 * size;
    else if (g->tile[dst] == THIRST) score -= 2.0 * size;
    return score / cost;
}

/* Judge.draw: laying a safe tile in the best slot (the face is not seen yet). */
static double rate_draw(const Game *g, int me) {
    int16_t front[MAXC];
    int n = frontier(g, front);
    double top = rate_tile(g, me, front[0], SAFE);
    for (int k = 1; k < n; k++) {
        double v = rate_tile(g, me, front[k], SAFE);
        if (v > top) top = v;
    }
    return top;
}

/* Judge.score of one spending action. */
static double rate_spend(Game *g, int me, const Act *x) {
    const Board *b = g->b;
    switch (x->kind) {
    case A_MOVE:
        return rate_move(g, me, x);
    case A_DRAW:
        return rate_draw(g, me);
    case A_ENTER: { /* Judge.enter */
        int tent = x->c, row = x->b / b->width;
        int useful = gain(g, me, x->a, (1 - tent) + b->tent_value * tent, 0);
        int cost = tent ? 3 : 1;
        return (0.5 + useful - 0.3 * abs(row - home_row(g, me))) / cost;
    }
    case A_SEND: { /* Judge.send */
        int cell = x->a;
        if (g->colour[cell] < 0 || g->colour[cell] == b->blue) return -10.0;
        int useful = cell_gain(g, me, cell) - 1;
        if (g->tile[cell] == BLACK) useful += 5;
        return g->points >= 3 ? useful - 1.0 : -10.0;
    }
    case A_PROTECT: { /* Judge.protect */
        int cell = x->a, mine = cell_gain(g, me, cell);
        if (g->tile[cell] == BLACK) return 10.0 + 5.0 * mine;
        return g->colour[cell] >= 0 ? 1.0 + 2.0 * mine : 0.5;
    }
    default: /* STOP */
        return 0.0;
    }
}

/* Judge.number: the points, and what the usable colours' fields are worth. */
static double rate_number(const Game *g, int me, int n) {
    const Board *b = g->b;
    int usable[NCOL], k = 0, blue = b->blue;
    for (int c = 0; c < NCOL; c++) k += usable[c] = g->dice[c] == n;
    double score = (double)b->points[n - 1][k - 1];
    for (int cell = 0; cell < b->cells; cell++) {
        int c = g->colour[cell];
        if (c >= 0 && (usable[c] || (g->bearer[cell] && usable[blue]))) {
            int v = cell_gain(g, me, cell);
            score += 0.3 * v + (g->tile[cell] == BLACK ? 6.0 * v : 0.0);
        }
    }
    if (usable[blue] && g->rfigs[me][blue]) score += 1.0;
    return score;
}

/* Judge.road: letting it go, road tiles, or a boost of `row`. */
static double rate_road(const Game *g, int me, int row) {
    const Board *b = g->b;
    if (row == ROAD_DECLINE) return 0.0;
    if (row < 0) return 3.0;
    double score = 0.0;
    for (int cell = row * b->width; cell < (row + 1) * b->width; cell++) {
        if (g->colour[cell] < 0) continue;
        if (row == home_row(g, me)) score += 2.0 * cell_gain(g, me, cell);
        else if (row == home_row(g, 1 - me)) score -= 2.0 * cell_gain(g, 1 - me, cell);
    }
    return score;
}

/* bots.reroll_mask: keep a roll worth KEEP_POINTS, else keep the most common number.
 * The bot rates that mask above the 63 others, so it is chosen with no draw. */
static int reroll_mask(Game *g) {
    int counts[7] = {0}, best_n = 1, best_v = -1;
    for (int i = 0; i < NCOL; i++) counts[g->dice[i]]++;
    for (int n = 1; n <= 6; n++) {
        int v = counts[n] ? g->b->points[n - 1][counts[n] - 1] : 0;
        if (v > best_v) best_v = v, best_n = n;
    }
    if (g->b->points[best_n - 1][counts[best_n] - 1] >= g->b->keep_points) return 0;
    int keep = 1;
    for (int n = 1; n <= 6; n++)
        if (counts[n] >= counts[keep]) keep = n;
    int mask = 0;
    for (int i = 0; i < NCOL; i++)
        if (g->dice[i] != keep) mask |= 1 << i;
    return mask;
}

/* --- step 1: the round, the roll and the re-rolls */

static void start_round(Game *g) {
    const Board *b = g->b;
    g->round++;
    g->arrived[0] = g->arrived[1] = 0;
    for (int k = 0; k < b->npath; k++) {
        int cell = b->path[k];
        if (g->tile[cell] == THIRST && g->colour[cell] >= 0) {
            g->tile[cell] = BLACK;
            g->deadline[cell] = g->round + b->grace;
        }
    }
}

static int has_triple(const int *dice, int thrown) {
    int counts[7] = {0};
    for (int i = 0; i < NCOL; i++)
        if (thrown >> i & 1) counts[dice[i]]++;
    for (int v = 1; v <= 6; v++)
        if (counts[v] >= 3) return 1;
    return 0;
}

/* --- step 2: influx */

static int influx_cells(const Game *g, int colour, int16_t *out) {
    const Board *b = g->b;
    int n = 0;
    for (int k = 0; k < b->ncamp; k++) {
        int cell = b->camp[k], c = g->colour[cell];
        if (c == -1) {
            out[n++] = (int16_t)cell;
        } else if (b->influx_push && c == colour && g->figs[cell] + g->tents[cell] == 1) {
            int west = b->step[cell][WEST];
            if (west >= 0 && west < b->cells && g->tile[west] != NONE &&
                can_stand(g, c, g->figs[cell], g->tents[cell], 0, west))
                out[n++] = (int16_t)cell;
        }
    }
    return n;
}

/* moves.influx_fields: where the first of the `pending` figures may go, a free field only
   while enough stay free for the later ones that cannot push. */
static int influx_fields(const Game *g, const int *pending, int npending, int16_t *out) {
    int n = influx_cells(g, pending[0], out), pushes = 0, need = 0;
    for (int k = 0; k < n; k++) pushes += g->colour[out[k]] >= 0;
    if (!pushes) return n;
    int16_t room[MAXC];
    for (int k = 1; k < npending; k++) {
        if (!g->camp_figs[pending[k]]) continue;
        int m = influx_cells(g, pending[k], room), push = 0;
        for (int j = 0; j < m; j++) push |= g->colour[room[j]] >= 0;
        need += !push;
    }
    if (n - pushes > need) return n;
    int m = 0;
    for (int k = 0; k < n; k++)
        if (g->colour[out[k]] >= 0) out[m++] = out[k];
    return m;
}

static void influx(Game *g, int colour, int cell) {
    int escort = 0;
    if (g->colour[cell] >= 0) {
        int west = g->b->step[cell][WEST];
        int mc = g->colour[cell], mf = g->figs[cell], mt = g->tents[cell];
        escort = g->bearer[cell]; /* a water bearer stays behind with the newcomer */
        take(g, cell, GROUP);
        put(g, mc, mf, mt, 0, west);
    }
    g->camp_figs[colour]--;
    g->colour[cell] = colour;
    g->figs[cell] = 1;
    g->tents[cell] = 0;
    g->bearer[cell] = escort;
}

/* --- step 4: a road */

static int road_bonus(const Game *g) {
    int shown[8] = {0};
    for (int c = 0; c < NCOL; c++) shown[g->dice[c]] = 1;
    if (shown[1] && shown[2] && shown[3] && shown[4] && shown[5] && shown[6]) return g->b->big_road;
    if (shown[2] && shown[3] && shown[4] && shown[5] && (shown[1] || shown[6])) return g->b->small_road;
    return 0;
}

static void boost(Game *g, int row, int steps) {
    const Board *b = g->b;
    for (int start = row * b->width; start < (row + 1) * b->width; start++) {
        if (g->colour[start] < 0) continue;
        int cell = start;
        for (int s = 0; s < steps; s++) {
            int west = b->step[cell][WEST];
            if (west < 0) break;
            int mc = g->colour[cell], mf = g->figs[cell], mt = g->tents[cell];
            int mb = g->bearer[cell] ? 1 : 0;
            if (west < b->cells && !can_stand(g, mc, mf, mt, mb, west)) break;
            int joins = west < b->cells && g->colour[west] >= 0;
            take(g, cell, BOTH);
            put(g, mc, mf, mt, mb, west);
            cell = west;
            if (joins || west >= b->cells) break;
        }
    }
}

/* --- step 5: spending the points (spend_actions, escorted_moves) */

static void escorted_moves(Game *g, int cell, int part, int budget, int figs, int tents) {
    const Board *b = g->b;
    int blue = b->blue;
    int mc = part == BEARER ? blue : g->colour[cell];
    int mf = part == BEARER ? 1 : figs;
    int mt = part == BEARER ? 0 : tents;
    int mb = part == BOTH;
    int can_pass = mb == 1 || (mc == blue && mf > 0);
    int lone = mc == blue && mf == 1 && mt == 0;
    for (int d = 0; d < 4; d++) {
        int target = b->step[cell][d], cost = 1;
        while (cost <= budget) {
            if (target < 0 || (target < b->cells && g->tile[target] == NONE)) break;
            if (target >= b->cells || can_stand(g, mc, mf, mt, mb, target)) {
                add(g, A_MOVE, cell, target, part, cost, figs, tents);
                break;
            }
            if (!can_pass || (b->kind[target] == K_CAMP && !lone)) break;
            target = b->step[target][d];
            cost++;
        }
    }
}

static void spend_actions(Game *g) {
    const Board *b = g->b;
    int pts = g->points, blue = b->blue, cells = b->cells;
    g->nacts = 0;
    if (pts <= 0) return;
    if (g->ndeck && has_frontier(g)) add(g, A_DRAW, 0, 0, 0, 0, 0, 0);
    int16_t free_[MAXC];
    int nfree = 0;
    for (int k = 0; k < b->ncamp; k++)
        if (g->colour[b->camp[k]] < 0) free_[nfree++] = b->camp[k];
    if (nfree)
        for (int c = 0; c < NCOL; c++) {
            if (!g->usable[c]) continue;
            if (g->camp_figs[c])
                for (int k = 0; k < nfree; k++) add(g, A_ENTER, c, free_[k], 0, 0, 0, 0);
            if (g->camp_tents[c] && pts >= 3)
                for (int k = 0; k < nfree; k++) add(g, A_ENTER, c, free_[k], 1, 0, 0, 0);
        }
    int blue_ok = g->usable[blue];
    for (int cell = 0; cell < cells; cell++) {
        int c = g->colour[cell];
        if (c < 0) continue;
        /* fields.amounts: the parts of the group a move may take, the whole group first */
        int figs = g->figs[cell], tents = g->tents[cell], whole = b->whole_groups;
        if (g->usable[c]) {
            if (c == blue && figs) { /* blue figures: water bearers, who may pass */
                for (int t = tents; t >= 0; t--)
                    for (int f = figs; f >= 0; f--)
                        if ((f || t) && (!whole || (f == figs && t == tents)))
                            escorted_moves(g, cell, GROUP, pts, f, t);
            } else {
                int16_t targets[4];
                int n = 0;
                for (int j = 0; j < b->nreach[cell]; j++) {
                    int t = b->reach[cell][j];
                    if (t >= cells) {
                        targets[n++] = (int16_t)t;
                    } else if (g->tile[t] != NONE) {
                        int tc = g->colour[t];
                        if (tc < 0 || tc == c ||
                            (tc == blue && g->figs[t] == 1 && !g->tents[t]))
                            targets[n++] = (int16_t)t;
                    }
                }
                for (int t = tents; t >= 0; t--)
                    for (int f = figs; f >= 0; f--)
                        if ((f || t) && (!whole || (f == figs && t == tents)))
                            for (int k = 0; k < n; k++)
                                add(g, A_MOVE, cell, targets[k], GROUP, 1, f, t);
            }
        }
        if (g->bearer[cell]) {
            if (blue_ok) escorted_moves(g, cell, BEARER, pts, 0, 0);
            if (g->usable[c] || blue_ok)
                for (int t = tents; t >= 0; t--)
                    for (int f = figs; f >= 0; f--)
                        if ((f || t) && (!whole || (f == figs && t == tents)))
                            escorted_moves(g, cell, BOTH, pts, f, t);
        }
    }
    if (blue_ok) {
        int own = g->seat;
        if (g->rfigs[own][blue] - g->arrived[own] > 0)
            for (int k = 0; k < b->npath; k++) {
                int cell = b->path[k];
                if (g->tile[cell] != NONE && !g->bearer[cell]) add(g, A_SEND, cell, 0, 0, 0, 0, 0);
            }
        if (pts >= b->protect_cost && g->cards > 0 && g->rfigs[own][blue] > 0)
            for (int k = 0; k < b->npath; k++) {
                int cell = b->path[k];
                if (g->tile[cell] == THIRST || g->tile[cell] == BLACK)
                    add(g, A_PROTECT, cell, 0, 0, 0, 0, 0);
            }
    }
    if (g->may_stop) add(g, A_STOP, 0, 0, 0, 0, 0, 0);
}

/* A move bought with points (a figure, a tent, a bearer or both): 1 if it won the game. */
static int spend_move(Game *g, const Act *x) {
    const Board *b = g->b;
    int src = x->a, dst = x->b, part = x->c;
    int mc = part == BEARER ? b->blue : g->colour[src];
    int mf = part == BEARER ? 1 : x->e;
    int mt = part == BEARER ? 0 : x->f;
    take_some(g, src, part, x->e, x->f);
    put(g, mc, mf, mt, part == BOTH, dst);
    g->points -= x->d;
    return dst >= b->cells && check_win(g);
}

/* A figure or a tent brought in from the camp: 1 if it took the camp's last water figure
 * (the shortage's swaps are then due). */
static int spend_enter(Game *g, const Act *x) {
    int c = x->a, cell = x->b, tent = x->c;
    if (tent) {
        g->camp_tents[c]--;
        g->points -= 3;
    } else {
        g->camp_figs[c]--;
        g->points -= 1;
    }
    g->colour[cell] = c;
    g->figs[cell] = 1 - tent;
    g->tents[cell] = tent;
    return c == g->b->blue && !tent && g->camp_figs[c] == 0;
}

/* --- the turn's end: thirst, the deck end */

static void end_round(Game *g) {
    const Board *b = g->b;
    for (int k = 0; k < b->npath; k++) {
        int cell = b->path[k];
        if (g->tile[cell] != BLACK || g->deadline[cell] > g->round) continue;
        int c = g->colour[cell];
        if (c >= 0) {
            g->camp_figs[c] += g->figs[cell];
            g->camp_tents[c] += g->tents[cell];
            g->camp_figs[b->blue] += g->bearer[cell];
            g->deaths += g->figs[cell] + b->tent_value * g->tents[cell] + g->bearer[cell];
            take(g, cell, BOTH);
        }
        g->tile[cell] = THIRST;
    }
}

/* rules.linked: placed path and refuge entry fields reachable from the starts. */
static void linked(const Game *g, const int16_t *starts, int nstarts, uint8_t *seen) {
    const Board *b = g->b;
    int16_t todo[MAXC * 4 + MAXC];
    int n = 0;
    memset(seen, 0, MAXC);
    for (int k = 0; k < nstarts; k++)
        if (g->tile[starts[k]] != NONE && b->kind[starts[k]] != K_CAMP) todo[n++] = starts[k];
    while (n) {
        int cell = todo[--n];
        if (seen[cell]) continue;
        seen[cell] = 1;
        for (int d = 0; d < 4; d++) {
            int nb = b->step[cell][d];
            if (nb >= 0 && nb < b->cells && b->kind[nb] != K_CAMP && g->tile[nb] != NONE && !seen[nb])
                todo[n++] = (int16_t)nb;
        }
    }
}

/* rules.nobody_can_win, with the deck out (so the tiles, and the linked fields, are final). */
static int nobody_can_win(Game *g) {
    const Board *b = g->b;
    int blue = b->blue, tv = b->tent_value;
    if (!g->areas_known) {
        int16_t starts[MAXC];
        int n = 0;
        uint8_t camp_side[MAXC];
        for (int k = 0; k < b->npath; k++)
            if (b->path[k] % b->width == b->path_columns) starts[n++] = b->path[k];
        linked(g, starts, n, camp_side);
        g->camp_linked = camp_side[b->entry[0]] || camp_side[b->entry[1]];
        for (int s = 0; s < SEATS; s++) linked(g, &b->entry[s], 1, g->area[s]);
        g->areas_known = 1;
    }
    if (g->camp_linked) return 0;
    for (int s = 0; s < SEATS; s++) {
        int values[NCOL], paths = 0;
        refuge_values(g, s, values);
        for (int cell = 0; cell < b->cells; cell++) {
            if (!g->area[s][cell]) continue;
            paths |= b->kind[cell] == K_PATH;
            if (g->colour[cell] >= 0) {
                values[g->colour[cell]] += g->figs[cell] + tv * g->tents[cell];
                values[blue] += g->bearer[cell];
            }
        }
        if (paths) {
            int o = 1 - s;
            values[blue] += g->rfigs[o][blue];
            for (int cell = 0; cell < b->cells; cell++) {
                if (!g->area[o][cell]) continue;
                if (g->colour[cell] == blue) values[blue] += g->figs[cell];
                values[blue] += g->bearer[cell];
            }
        }
        if (goal_met(b, values)) return 0;
    }
    return 1;
}

/* --- a turn's phases, a new game */

/* The phases of a turn, numbered as rules.py numbers them (P_REROLL .. P_ROLL). */
enum { P_REROLL, P_INFLUX_COLOUR, P_INFLUX, P_NUMBER, P_ROAD, P_ROAD_TILE, P_SPEND, P_SWAP,
       P_PLACE, P_ROLL };

/* Where a turn resumes (a position of the readable rules): its phase and what that phase
 * keeps (the dice still to throw, the influx colours still to place, the road tiles still
 * due and the tile in hand, the swaps still due). */
typedef struct {
    int phase;
    int rolling[NCOL], nrolling, thrown;
    int pending[NCOL], npending;
    int road_left, road_last, drawn;
    int swaps_left[SEATS];
} Resume;

static void new_game(Game *g, const Board *b) {
    g->b = b;
    for (int i = 0; i < b->cells; i++) {
        g->tile[i] = b->kind[i] == K_REFUGE || b->kind[i] == K_CAMP ? SAFE : NONE;
        g->colour[i] = -1;
    }
    for (int c = 0; c < NCOL; c++) {
        g->camp_figs[c] = b->figures[c];
        g->camp_tents[c] = b->tents[c];
    }
    g->ndeck = b->deck_safe + b->deck_thirst;
    for (int i = 0; i < g->ndeck; i++) g->deck[i] = i < b->deck_safe ? SAFE : THIRST;
    g->cards = b->cards;
    g->dist_at = -1;
}

/* The seats that won, in order, into out; how many. */
static int winner_seats(const Game *g, int *out) {
    int k = 0;
    for (int s = 0; s < SEATS; s++)
        if (g->winners >> s & 1) out[k++] = s;
    return k;
}

/* --- the seam (`pnp/play/_seam.h`): whole games, playouts and the search, by named fields */

/* A whole game: its settings by name (`engine.settings`) and the game. */
typedef struct {
    Game g;
    int max_rounds, greedy;
} Whole;

static const SeamField SETTINGS[] = {
    SEAM_INT(Whole, max_rounds, 1, 10000000),
    SEAM_BOOL(Whole, greedy),
    SEAM_END,
};

static int whole_begin(const void *board, void *game) {
    Whole *w = game;
    const Board *b = board;
    if (game_init(&w->g, b, b->deck_safe + b->deck_thirst) == 0) {
        w->g.most_leaders = 2 * w->max_rounds + 1;
        w->g.leaders = PyMem_Malloc((size_t)w->g.most_leaders * sizeof(int));
    }
    if (!w->g.acts || !w->g.score || !w->g.deck || !w->g.leaders) {
        PyErr_NoMemory();
        return -1;
    }
    w->g.greedy = w->greedy;
    return 0;
}

/* A whole game's record as `engine._record` reads it, by name, so no field is taken for
 * its neighbour: the turns, the winners, each seat's progress (`scores`), the leader after
 * each turn, the counters under `engine.COUNTERS`' names (the rounds begun as
 * `duration_rounds`) and, set by `whole_record`, the end's name. */
typedef struct {
    int duration_rounds, turns, winners[SEATS], nwinners, scores[SEATS];
    uint64_t deaths, tiles_placed, water_missions, decisions, legal_moves; /* longs, not cut */
    int *leaders, nleaders;
} Record;

static const SeamField RECORD[] = {
    SEAM_OUT_INT(Record, duration_rounds),
    SEAM_OUT_INT(Record, turns),
    SEAM_LIST(Record, winners, nwinners, 0, SEATS - 1),
    SEAM_INTS(Record, scores, 0, 0),
    SEAM_HEAP_OUT(Record, leaders, nleaders),
    SEAM_U64(Record, deaths),
    SEAM_U64(Record, tiles_placed),
    SEAM_U64(Record, water_missions),
    SEAM_U64(Record, decisions),
    SEAM_U64(Record, legal_moves),
    SEAM_END,
};

/* `SeamKernel.record`: the game as a dict of `RECORD`'s fields and its `end`; NULL with an
 * exception set. */
static PyObject *whole_record(const void *board, const void *game) {
    (void)board;
    const Game *g = &((const Whole *)game)->g;
    Record r = {
        .duration_rounds = g->round, .turns = g->turns,
        .scores = {progress(g, 0), progress(g, 1)},
        .deaths = (uint64_t)g->deaths, .tiles_placed = (uint64_t)g->tiles_placed,
        .water_missions = (uint64_t)g->water_missions, .decisions = (uint64_t)g->decisions,
        .legal_moves = (uint64_t)g->legal_moves, .leaders = g->leaders, .nleaders = g->nleaders,
    };
    r.nwinners = winner_seats(g, r.winners);
    PyObject *out = seam_write(RECORD, &r), *end = PyUnicode_FromString(END_NAMES[g->ended]);
    if (!out || !end || PyDict_SetItemString(out, "end", end) < 0) Py_CLEAR(out);
    Py_XDECREF(end);
    return out;
}

static void whole_end(void *game) { game_release(&((Whole *)game)->g); }

static const uint32_t *seed_start(const void *board) { return ((const Board *)board)->genrand_init; }

/* What `shuffle` takes, by name: the items (whole numbers) and the generator's seed. */
typedef struct {
    uint64_t *items;
    int nitems;
    uint64_t seed;
} Shuffle;

static const SeamField SHUFFLE[] = {
    SEAM_U64_LIST(Shuffle, items, nitems),
    SEAM_U64(Shuffle, seed),
    SEAM_END,
};

/* shuffle({items, seed}) -> items: a Fisher-Yates shuffle of the items, drawing from a
 * Mersenne Twister seeded with `seed` as random.Random(seed) is (State.resample's hidden
 * order). */
static PyObject *shuffle(PyObject *self, PyObject *fields) {
    (void)self;
    Shuffle s;
    memset(&s, 0, sizeof s);
    PyObject *out = NULL;
    if (seam_read(fields, SHUFFLE, &s, "shuffle") == 0) {
        Twister tw;
        twister_seed64(&tw, s.seed);
        for (int i = s.nitems - 1; i > 0; i--) {
            int j = below(&tw, i + 1);
            uint64_t t = s.items[i];
            s.items[i] = s.items[j];
            s.items[j] = t;
        }
        out = PyTuple_New(s.nitems);
        for (int i = 0; out && i < s.nitems; i++) {
            PyObject *x = PyLong_FromUnsignedLongLong(s.items[i]);
            if (!x) Py_CLEAR(out);
            else PyTuple_SET_ITEM(out, i, x);
        }
    }
    seam_free(SHUFFLE, &s);
    return out;
}

/* A position of the readable rules as `kernel.position` packs it (state.py's fields by
 * their names, a refuge row per seat one after the other, the swaps due by seat), with
 * the search's cut-off score (`scoring`: 2 `value.cutoff_reward`, 1 the lead on
 * `goal.scores`, 0 nothing). After a playout: whether it played, the position's fields
 * again (the deck's tiles left: a playout only draws from its top), how it ended, its
 * winners, the leader after each turn played and the steps taken. */
typedef struct {
    int tile[MAXC], deadline[MAXC], colour[MAXC], figs[MAXC], tents[MAXC], bearer[MAXC];
    int ntile, ndeadline, ncolour, nfigs, ntents, nbearer;
    int camp_figs[NCOL], camp_tents[NCOL], refuge_figs[SEATS * NCOL], refuge_tents[SEATS * NCOL];
    int arrived[SEATS], dice[NCOL], usable[NCOL];
    uint64_t *deck;
    int ndeck, cards, seat, round, turns, points, may_stop, tiles_placed;
    int deaths, water_missions, decisions, legal_moves;
    int max_rounds, phase, back_phase, thrown, road_left, road_last, drawn;
    int rolling[NCOL], nrolling, pending[NCOL], npending, swaps_left[SEATS];
    int scoring;
    int played, ended, winners[SEATS], nwinners, steps, nleaders;
    int *leaders;
} Packed;

#define BIG 1000000000
static const SeamField POSITION[] = {
    SEAM_LIST(Packed, tile, ntile, NONE, GUARDED),
    SEAM_LIST(Packed, deadline, ndeadline, 0, BIG),
    SEAM_LIST(Packed, colour, ncolour, -1, NCOL - 1),
    SEAM_LIST(Packed, figs, nfigs, 0, BIG),
    SEAM_LIST(Packed, tents, ntents, 0, BIG),
    SEAM_LIST(Packed, bearer, nbearer, 0, 1),
    SEAM_INTS(Packed, camp_figs, 0, BIG),
    SEAM_INTS(Packed, camp_tents, 0, BIG),
    SEAM_INTS(Packed, refuge_figs, 0, BIG),
    SEAM_INTS(Packed, refuge_tents, 0, BIG),
    SEAM_INTS(Packed, arrived, 0, BIG),
    SEAM_INTS(Packed, dice, 0, 6),
    SEAM_INTS(Packed, usable, 0, 1),
    SEAM_U64_LIST(Packed, deck, ndeck),
    SEAM_INT(Packed, cards, 0, BIG),
    SEAM_INT(Packed, seat, 0, SEATS - 1),
    SEAM_INT(Packed, round, 0, BIG),
    SEAM_INT(Packed, turns, 0, BIG),
    SEAM_INT(Packed, points, -BIG, BIG),
    SEAM_BOOL(Packed, may_stop),
    SEAM_INT(Packed, tiles_placed, 0, BIG),
    SEAM_INT(Packed, deaths, 0, INT_MAX),
    SEAM_INT(Packed, water_missions, 0, INT_MAX),
    SEAM_INT(Packed, decisions, 0, INT_MAX),
    SEAM_INT(Packed, legal_moves, 0, INT_MAX),
    SEAM_INT(Packed, max_rounds, 1, 10000000),
    SEAM_INT(Packed, phase, P_REROLL, P_ROLL),
    SEAM_INT(Packed, back_phase, P_REROLL, P_ROLL),
    SEAM_INT(Packed, thrown, 0, (1 << NCOL) - 1),
    SEAM_INT(Packed, road_left, -BIG, BIG),
    SEAM_INT(Packed, road_last, -1, MAXC - 1),
    SEAM_INT(Packed, drawn, NONE, THIRST),
    SEAM_LIST(Packed, rolling, nrolling, 0, NCOL - 1),
    SEAM_LIST(Packed, pending, npending, 0, NCOL - 1),
    SEAM_INTS(Packed, swaps_left, 0, BIG),
    SEAM_INT(Packed, scoring, 0, 2),
    SEAM_END,
};

static const SeamField AFTER[] = {
    SEAM_OUT_INT(Packed, played),
    SEAM_LIST(Packed, tile, ntile, 0, 0),
    SEAM_LIST(Packed, deadline, ndeadline, 0, 0),
    SEAM_LIST(Packed, colour, ncolour, 0, 0),
    SEAM_LIST(Packed, figs, nfigs, 0, 0),
    SEAM_LIST(Packed, tents, ntents, 0, 0),
    SEAM_LIST(Packed, bearer, nbearer, 0, 0),
    SEAM_INTS(Packed, camp_figs, 0, 0),
    SEAM_INTS(Packed, camp_tents, 0, 0),
    SEAM_INTS(Packed, refuge_figs, 0, 0),
    SEAM_INTS(Packed, refuge_tents, 0, 0),
    SEAM_INTS(Packed, arrived, 0, 0),
    SEAM_INTS(Packed, dice, 0, 0),
    SEAM_INTS(Packed, usable, 0, 0),
    SEAM_OUT_INT(Packed, ndeck),
    SEAM_OUT_INT(Packed, cards),
    SEAM_OUT_INT(Packed, seat),
    SEAM_OUT_INT(Packed, round),
    SEAM_OUT_INT(Packed, turns),
    SEAM_OUT_INT(Packed, points),
    SEAM_BOOL(Packed, may_stop),
    SEAM_OUT_INT(Packed, tiles_placed),
    SEAM_OUT_INT(Packed, deaths),
    SEAM_OUT_INT(Packed, water_missions),
    SEAM_OUT_INT(Packed, decisions),
    SEAM_OUT_INT(Packed, legal_moves),
    SEAM_OUT_INT(Packed, phase),
    SEAM_OUT_INT(Packed, thrown),
    SEAM_OUT_INT(Packed, road_left),
    SEAM_OUT_INT(Packed, road_last),
    SEAM_OUT_INT(Packed, drawn),
    SEAM_LIST(Packed, rolling, nrolling, 0, 0),
    SEAM_LIST(Packed, pending, npending, 0, 0),
    SEAM_OUT_INT(Packed, ended),
    SEAM_LIST(Packed, winners, nwinners, 0, 0),
    SEAM_HEAP_OUT(Packed, leaders, nleaders),
    SEAM_OUT_INT(Packed, steps),
    SEAM_END,
};

/* The packed position q into g (its board set, its buffers taken) and the turn's resume
 * point r; 0, or -1 with a ValueError for what the board cannot hold. */
static int game_from(Game *g, Resume *r, const Packed *q) {
    const Board *b = g->b;
    int n = b->cells, total = b->deck_safe + b->deck_thirst;
    const int lens[] = {q->ntile, q->ndeadline, q->ncolour, q->nfigs, q->ntents, q->nbearer};
    for (int k = 0; k < 6; k++)
        if (lens[k] != n) {
            PyErr_SetString(PyExc_ValueError, "a position's per-field lists have one number per cell");
            return -1;
        }
    if (q->ndeck > total || q->road_last >= n) {
        PyErr_SetString(PyExc_ValueError, "the position is not one of this board");
        return -1;
    }
    for (int i = 0; i < q->ndeck; i++) {
        if (q->deck[i] != SAFE && q->deck[i] != THIRST) {
            PyErr_SetString(PyExc_ValueError, "a deck's tile is safe or thirst");
            return -1;
        }
        g->deck[i] = (int8_t)q->deck[i];
    }
    g->ndeck = q->ndeck;
    for (int i = 0; i < n; i++) {
        g->tile[i] = (int8_t)q->tile[i];
        g->deadline[i] = q->deadline[i];
        g->colour[i] = q->colour[i];
        g->figs[i] = q->figs[i];
        g->tents[i] = q->tents[i];
        g->bearer[i] = q->bearer[i];
    }
    memcpy(g->camp_figs, q->camp_figs, sizeof g->camp_figs);
    memcpy(g->camp_tents, q->camp_tents, sizeof g->camp_tents);
    memcpy(g->rfigs, q->refuge_figs, sizeof g->rfigs);
    memcpy(g->rtents, q->refuge_tents, sizeof g->rtents);
    memcpy(g->arrived, q->arrived, sizeof g->arrived);
    memcpy(g->dice, q->dice, sizeof g->dice);
    memcpy(g->usable, q->usable, sizeof g->usable);
    g->cards = q->cards;
    g->seat = q->seat;
    g->round = q->round;
    g->turns = q->turns;
    g->points = q->points;
    g->may_stop = q->may_stop;
    g->tiles_placed = q->tiles_placed;
    g->deaths = q->deaths;
    g->water_missions = q->water_missions;
    g->decisions = q->decisions;
    g->legal_moves = q->legal_moves;
    memset(r, 0, sizeof *r);
    r->phase = q->phase;
    r->thrown = q->thrown;
    r->road_left = q->road_left;
    r->road_last = q->road_last;
    r->drawn = q->drawn;
    r->nrolling = q->nrolling;
    r->npending = q->npending;
    memcpy(r->rolling, q->rolling, sizeof r->rolling);
    memcpy(r->pending, q->pending, sizeof r->pending);
    memcpy(r->swaps_left, q->swaps_left, sizeof r->swaps_left);
    return 0;
}

/* The game g back into q, as `phase` leaves the turn (P_ROLL: its dice all to throw). */
static void game_to(const Game *g, Packed *q, int phase) {
    for (int i = 0; i < g->b->cells; i++) {
        q->tile[i] = g->tile[i];
        q->deadline[i] = g->deadline[i];
        q->colour[i] = g->colour[i];
        q->figs[i] = g->figs[i];
        q->tents[i] = g->tents[i];
        q->bearer[i] = g->bearer[i];
    }
    memcpy(q->camp_figs, g->camp_figs, sizeof q->camp_figs);
    memcpy(q->camp_tents, g->camp_tents, sizeof q->camp_tents);
    memcpy(q->refuge_figs, g->rfigs, sizeof q->refuge_figs);
    memcpy(q->refuge_tents, g->rtents, sizeof q->refuge_tents);
    memcpy(q->arrived, g->arrived, sizeof q->arrived);
    memcpy(q->dice, g->dice, sizeof q->dice);
    memcpy(q->usable, g->usable, sizeof q->usable);
    q->ndeck = g->ndeck;
    q->cards = g->cards;
    q->seat = g->seat;
    q->round = g->round;
    q->turns = g->turns;
    q->points = g->points;
    q->may_stop = g->may_stop;
    q->tiles_placed = g->tiles_placed;
    q->deaths = (int)g->deaths;
    q->water_missions = (int)g->water_missions;
    q->decisions = (int)g->decisions;
    q->legal_moves = (int)g->legal_moves;
    q->phase = phase;
    q->nrolling = phase == P_ROLL ? NCOL : 0;
    for (int c = 0; c < NCOL; c++) q->rolling[c] = c;
    q->thrown = phase == P_ROLL ? (1 << NCOL) - 1 : 0;
    q->npending = 0;
    q->road_left = 0;
    q->road_last = -1;
    q->drawn = NONE;
    q->ended = g->ended;
    q->nwinners = winner_seats(g, q->winners);
}

static void position_release(void *position) { PyMem_Free(((Packed *)position)->leaders); }

#include "_tree.h"

/* A game from the start; touches nothing of Python's (the seam lets the GIL go). */
static int whole_play(const void *board, void *game) {
    Whole *w = game;
    Game *g = &w->g;
    int8_t *deck = g->deck;
    int *leaders = g->leaders, most_leaders = g->most_leaders;
    Act *acts = g->acts;
    double *score = g->score;
    /* a game played before on this block (`play_seeded`) leaves nothing behind */
    memset((char *)g + offsetof(Game, tile), 0, offsetof(Game, acts) - offsetof(Game, tile));
    g->deck = deck;
    g->leaders = leaders;
    g->most_leaders = most_leaders;
    g->acts = acts;
    g->score = score;
    g->nacts = 0;
    g->dist_at = -1;
    new_game(g, board);
    for (int i = g->ndeck - 1; i > 0; i--) { /* rules.setup: Fisher-Yates with `below` */
        int j = below(&g->tw, i + 1);
        int8_t t = g->deck[i];
        g->deck[i] = g->deck[j];
        g->deck[j] = t;
    }
    DhTree t = {.g = g, .max_rounds = w->max_rounds, .live = 1};
    DhPos p;
    memset(&p, 0, sizeof p);
    p.road_last = -1;
    p.drawn = NONE;
    tree_start_turn(&t, &p);
    tree_store(&t, &p);
    UctGame uct = tree_game(&t, sizeof p);
    return drive_play(&uct, &p, &g->tw, tree_choose, INT_MAX);
}

/* `SeamKernel.playout`: `bots.PlayoutBot`'s play from the packed position until the game
 * ends or `stop` turns are played, drawing from a Mersenne Twister seeded with `seed` as
 * random.Random(seed) is; `played` 0 (the rest untouched) where no turn is left to play. */
static int position_playout(const void *board, void *position, uint64_t seed, int stop) {
    const Board *b = board;
    Packed *q = position;
    Game *g = game_new(b, b->deck_safe + b->deck_thirst);
    DhPos *p = PyMem_Calloc(1, sizeof(DhPos));
    if (g) {
        g->most_leaders = 2 * q->max_rounds + 3;
        g->leaders = PyMem_Malloc((size_t)g->most_leaders * sizeof(int));
    }
    if (!g || !p || !g->leaders) {
        PyMem_Free(p);
        game_free(g);
        PyErr_NoMemory();
        return -1;
    }
    g->greedy = 1; /* bots.PlayoutBot */
    g->epsilon = b->playout_random;
    DhTree t = {.g = g, .max_rounds = q->max_rounds, .live = 1};
    UctGame uct = tree_game(&t, sizeof *p);
    /* a position of the rules is settled already: settling it moves nothing */
    int rc = tree_resume(&t, p, q);
    int due = q->turns < stop && q->turns < 2 * q->max_rounds + 1; /* else `played` stays 0 */
    if (rc == 0 && due) rc = tree_settle(&t, p);
    if (rc == 0 && due) {
        long decisions = g->decisions;
        twister_seed64(&g->tw, seed);
        Py_BEGIN_ALLOW_THREADS
        rc = drive_play(&uct, p, &g->tw, tree_choose, stop);
        Py_END_ALLOW_THREADS
        game_to(g, q, g->ended ? P_SPEND : P_ROLL);
        q->played = 1;
        q->steps = (int)(g->decisions - decisions + g->throws);
        q->leaders = g->leaders; /* the position's now: `position_release` frees it */
        q->nleaders = g->nleaders;
        g->leaders = NULL;
    }
    PyMem_Free(p);
    game_free(g);
    return rc;
}


static const SeamKernel KERNEL = {
    .board = BOARD_NAME,
    .game_size = sizeof(Whole),
    .twister = offsetof(Whole, g.tw),
    .nogil = 1, /* a game touches no Python object: other threads run */
    .settings = SETTINGS,
    .begin = whole_begin,
    .play = whole_play,
    .record = whole_record,
    .end = whole_end,
    .seed_start = seed_start,
    .position_size = sizeof(Packed),
    .position = POSITION,
    .after = AFTER,
    .playout = position_playout,
    .release = position_release,
    .tree = tree_begin,
    .tree_end = tree_end,
    .root_keys = 1, /* an action's key encodes the action (`tree_key`) */
};

SEAM_ENTRIES(KERNEL)

static PyMethodDef methods[] = {
    {"board", make_board, METH_O, "board(fields): the board for the seam's entry points, by name."},
    {"shuffle", shuffle, METH_O, "shuffle({items, seed}): the items in a random order."},
    SEAM_METHODS,
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_kernel", "Desert Home's compiled game kernel (see _kernel.c).", -1,
    methods, NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__kernel(void) { return PyModule_Create(&module); }
