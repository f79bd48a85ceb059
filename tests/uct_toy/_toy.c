/* A toy race for checking `pnp/play/_uct.h` against `pnp.play.mcts`' readable search, and
 * `pnp/play/_drive.h`'s whole games against a readable loop (tests only). Its rules are
 * `tests/test_uct_core.py`'s `Race`; built by tests/test_uct_core.py and test_drive.py. */
#include "_twister.h"
#include "_seed.h"
#include "_drive.h"

typedef struct {
    int players, goal, limit, standing, hidden, keyed, chances;
} Rules;

typedef struct {
    int pos[UCT_MAX_PLAYERS];
    int seat, turns, die, over, winner, wind;
} Race;

static int r_to_move(void *ctx, const void *p) {
    const Race *r = p;
    (void)ctx;
    if (r->over) return UCT_TERMINAL;
    return r->die ? r->seat : UCT_CHANCE;
}

static int r_turns(void *ctx, const void *p) {
    (void)ctx;
    return ((const Race *)p)->turns;
}

/* advance always; push when the next seat is off the start; rest always */
static int r_actions(const Rules *k, const Race *r, int out[3]) {
    int n = 0, next = (r->seat + 1) % k->players;
    out[n++] = 0;
    if (r->pos[next] > 0) out[n++] = 1;
    out[n++] = 2;
    return n;
}

static int r_count(void *ctx, const void *p) {
    int out[3];
    return r_actions(ctx, p, out);
}

static void r_play(const Rules *k, Race *r, int kind) {
    int next = (r->seat + 1) % k->players;
    if (kind == 0) r->pos[r->seat] += r->die + r->wind;
    if (kind == 1) r->pos[next] = r->pos[next] > r->die ? r->pos[next] - r->die : 0;
    if (kind == 2) r->pos[r->seat] += 1;
    r->die = 0;
    r->turns++;
    if (r->pos[r->seat] >= k->goal) {
        r->over = 1;
        r->winner = r->seat;
    } else if (r->turns >= k->limit) {
        r->over = 2;
    }
    r->seat = next;
}

static int r_apply(void *ctx, void *p, int i) {
    int out[3];
    r_actions(ctx, p, out);
    r_play(ctx, p, out[i]);
    return 0;
}

static int64_t r_key(void *ctx, const void *p, int i) {
    int out[3];
    r_actions(ctx, p, out);
    return out[i];
}

/* the readable `apply` plays the action named, whether or not the list holds it */
static int r_apply_key(void *ctx, void *p, int64_t key) {
    r_play(ctx, p, (int)key);
    return 0;
}

static int64_t r_chance(void *ctx, void *p, Twister *rng) {
    Race *r = p;
    (void)ctx;
    r->die = 1 + below(rng, 3);
    return r->die;
}

static void r_resample(void *ctx, void *p, Twister *rng) {
    (void)ctx;
    ((Race *)p)->wind = below(rng, 2);
}

static int r_playout(void *ctx, void *p, Twister *rng, int stop) {
    Race *r = p;
    Twister own;
    uint64_t lo = genrand(rng), hi = genrand(rng);
    twister_seed64(&own, lo | hi << 32);
    while (!r->over && r->turns < stop) {
        int out[3], n;
        if (!r->die) r->die = 1 + below(&own, 3);
        n = r_actions(ctx, r, out);
        r_play(ctx, r, out[below(&own, n)]);
    }
    return 0;
}

static int r_result(void *ctx, const void *p, double *scores) {
    const Rules *k = ctx;
    const Race *r = p;
    if (r->over == 1) {
        for (int s = 0; s < k->players; s++) scores[s] = s == r->winner;
        return UCT_WON;
    }
    if (!r->over && k->chances) { /* each seat's share of the positions, each one up */
        int total = 0;
        for (int s = 0; s < k->players; s++) total += r->pos[s] + 1;
        for (int s = 0; s < k->players; s++) scores[s] = (double)(r->pos[s] + 1) / (double)total;
        return UCT_CHANCES;
    }
    for (int s = 0; s < k->players; s++) scores[s] = r->pos[s];
    if (r->over == 2) return UCT_CUT;
    return k->standing ? UCT_STANDING : UCT_GOING;
}

static PyObject *tree_search(PyObject *self, PyObject *args) {
    Rules k;
    Race r = {{0}};
    PyObject *pos, *words;
    int budget, horizon, cooperative;
    double c;
    Twister rng;
    (void)self;
    if (!PyArg_ParseTuple(args, "iiiiiiiOiiiiiiOiidp", &k.players, &k.goal, &k.limit,
                          &k.standing, &k.hidden, &k.keyed, &k.chances, &pos, &r.seat, &r.turns, &r.die, &r.over, &r.winner, &r.wind,
                          &words, &budget, &horizon, &c, &cooperative))
        return NULL;
    for (int s = 0; s < k.players; s++) r.pos[s] = (int)PyLong_AsLong(PyTuple_GetItem(pos, s));
    if (PyErr_Occurred() || read_twister(words, &rng) < 0) return NULL;
    UctGame g = {sizeof(Race), k.players, &k, r_to_move, r_turns, r_count, r_apply, r_chance,
                 k.hidden ? r_resample : NULL, r_playout, r_result,
                 k.keyed ? r_key : NULL, k.keyed ? r_apply_key : NULL};
    PyObject *children = uct_search(&g, &r, &rng, budget, horizon, c, cooperative);
    if (!children) return NULL;
    return Py_BuildValue("(NN)", children, twister_words(&rng));
}

/* A bot's choice out[i] as the driver takes it: the action's key where the race is keyed. */
static int64_t r_chosen(const Rules *k, const int out[3], int i) { return k->keyed ? out[i] : i; }

/* A random bot that draws otherwise than `pick`: any action until a legal one. */
static int64_t r_reject(void *ctx, const void *p, Twister *rng) {
    int out[3], n = r_actions(ctx, p, out), kind;
    for (;;) {
        kind = below(rng, 3);
        for (int i = 0; i < n; i++)
            if (out[i] == kind) return r_chosen(ctx, out, i);
    }
}

/* A bot rule of the toy's own: push a seat that is ahead, else advance or rest at random. */
static int64_t r_chaser(void *ctx, const void *p, Twister *rng) {
    const Rules *k = ctx;
    const Race *r = p;
    int out[3], n = r_actions(k, r, out);
    if (n == 3 && r->pos[(r->seat + 1) % k->players] > r->pos[r->seat]) return r_chosen(k, out, 1);
    return r_chosen(k, out, below(rng, 2) ? n - 1 : 0);
}

/* drive(players, goal, limit, keyed, pos, seat, turns, die, over, winner, words, stop, bot)
   -> ((pos, seat, turns, die, over, winner), words): `drive_play` from a position, every
   seat the random bot (`bot` 0), the random bot of a `random` hook (1) or the chaser (2),
   the actions named by key (`keyed`) or by index. */
static PyObject *drive(PyObject *self, PyObject *args) {
    Rules k = {0};
    Race r = {{0}};
    PyObject *pos, *words;
    int stop, bot;
    Twister rng;
    (void)self;
    if (!PyArg_ParseTuple(args, "iiipOiiiiiOii", &k.players, &k.goal, &k.limit, &k.keyed, &pos,
                          &r.seat, &r.turns, &r.die, &r.over, &r.winner, &words, &stop, &bot))
        return NULL;
    for (int s = 0; s < k.players; s++) r.pos[s] = (int)PyLong_AsLong(PyTuple_GetItem(pos, s));
    if (PyErr_Occurred() || read_twister(words, &rng) < 0) return NULL;
    UctGame g = {.size = sizeof(Race), .players = k.players, .ctx = &k, .to_move = r_to_move,
                 .turns = r_turns, .count = r_count, .apply = r_apply, .chance = r_chance,
                 .playout = r_playout, .result = r_result, .key = k.keyed ? r_key : NULL,
                 .apply_key = k.keyed ? r_apply_key : NULL, .random = bot == 1 ? r_reject : NULL};
    if (drive_play(&g, &r, &rng, bot == 2 ? r_chaser : NULL, stop) < 0) return NULL;
    PyObject *end = PyTuple_New(k.players);
    for (int s = 0; end && s < k.players; s++) PyTuple_SET_ITEM(end, s, PyLong_FromLong(r.pos[s]));
    if (!end) return NULL;
    return Py_BuildValue("((Niiiii)N)", end, r.seat, r.turns, r.die, r.over, r.winner,
                         twister_words(&rng));
}

static PyMethodDef methods[] = {
    {"tree_search", tree_search, METH_VARARGS, "uct_search on the toy race."},
    {"drive", drive, METH_VARARGS, "drive_play on the toy race."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_toy", NULL, -1, methods};

PyMODINIT_FUNC PyInit__toy(void) { return PyModule_Create(&module); }
