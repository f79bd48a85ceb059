/* The tree search of `pnp/play/mcts.py`, compiled: UCT over a kernel's own positions.
 *
 * `pnp.play.mcts.MctsBot.search` spends most of a decision walking its tree in Python: cloning
 * the position, asking for the legal actions, applying them on the readable rules. A
 * kernel that can do those steps on its own positions includes this file, fills a
 * `UctGame` with them and calls `uct_search`: the very search the Python loop runs, step
 * for step and draw for draw (the same `below` draws from the same twister, the same
 * children in the same order, the same double arithmetic for UCB1 and the rewards), so a
 * seed gives the same visits either way and the readable search stays the reference
 * (each game's tests compare the two, position by position).
 *
 * A position is a plain struct: a clone is a memcpy. What is shared and never changes
 * (the board's tables) and what is scratch (a roll's results being listed) lives in the
 * game's `ctx`. A decision's children are keyed by their index in the state's
 * `legal_actions()`, or, in a game that hides something (`resample`), by a key naming the
 * action itself (`key`, `apply_key`): there one node of the tree stands for positions
 * whose hidden part differs, their lists of actions may differ, and the readable search
 * plays the action it tried, not the one at the same place in another list. A chance
 * node's children are keyed by the key the game gives its outcome (equal outcomes, equal
 * keys). Include after `_twister.h`.
 */
#ifndef PNP_UCT_H
#define PNP_UCT_H

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define UCT_CHANCE (-1)   /* `pnp.play.state.CHANCE` */
#define UCT_TERMINAL (-2) /* `pnp.play.state.TERMINAL` */
#define UCT_MAX_PLAYERS 8
#define UCT_LEAD_REWARD 0.5 /* `pnp.play.mcts.LEAD_REWARD` */
/* Playouts between two looks at a pending signal (Ctrl-C, SIGTERM): its Python handler
   runs, and if it raises (`pnp.runtime.interrupt.searching`), the search ends with that error. */
#define UCT_SIGNALS 1024

/* What `result` says of a position, for its reward (`pnp.play.mcts.MctsBot.reward`). */
enum {
    UCT_GOING = 0,    /* not over, and the game keeps no standing: nobody scores */
    UCT_STANDING = 1, /* not over: `scores` holds each seat's `standing()` */
    UCT_CUT = 2,      /* the game's own cut-off: `scores` holds `record().scores` */
    UCT_UNSCORED = 3, /* over, not finished, with no score per seat: nobody scores */
    UCT_WON = 4,      /* finished: `scores[s]` is 1 for each winner, 0 for the others */
    UCT_CHANCES = 5,  /* not over: `scores` holds each seat's `win_chances()`, its reward */
};

typedef struct {
    size_t size; /* bytes of one position */
    int players;
    void *ctx;   /* the game's shared tables and scratch, handed to every call */
    /* `current_player()`: a seat, UCT_CHANCE or UCT_TERMINAL. */
    int (*to_move)(void *ctx, const void *pos);
    /* `turns`. */
    int (*turns)(void *ctx, const void *pos);
    /* `len(legal_actions())` at a decision (at least 1); -1 with a Python error set. */
    int (*count)(void *ctx, const void *pos);
    /* `apply(legal_actions()[i])`; 0, or -1 with a Python error set. */
    int (*apply)(void *ctx, void *pos, int i);
    /* `apply(sample_chance(rng))`, drawing as `sample_chance` draws: the outcome's key. */
    int64_t (*chance)(void *ctx, void *pos, Twister *rng);
    /* `resample(rng)` (NULL for a game with nothing hidden). */
    void (*resample)(void *ctx, void *pos, Twister *rng);
    /* `playout(rng, stop)`, drawing from `rng` exactly as the state's method does;
       0, or -1 with a Python error set. */
    int (*playout)(void *ctx, void *pos, Twister *rng, int stop);
    /* One of the UCT_* results above, with `scores` (`players` numbers) where it says. */
    int (*result)(void *ctx, const void *pos, double *scores);
    /* Optional, last so that a game without them may leave them out (NULL: an action's
       key is its index): the key naming `legal_actions()[i]`, and `apply` of the action
       a key names, as the readable `apply` takes it (a game that hides something). */
    int64_t (*key)(void *ctx, const void *pos, int i);
    int (*apply_key)(void *ctx, void *pos, int64_t key);
    /* Optional: `random_action(rng)`, drawing as the state's method draws, as `apply_key`
       takes it (else its index in `legal_actions()`), for a game whose random bot is not
       a uniform `pick` among the options (`_drive.h`'s whole games; NULL: `pick`). */
    int64_t (*random)(void *ctx, const void *pos, Twister *rng);
} UctGame;

typedef struct {
    int visits;
    int first, last, next; /* children in the order they were made; the next sibling */
    int64_t key;           /* the action's index, or the chance outcome's key */
    int untried;           /* offset of the actions not yet tried in the pool, -1 before */
    int left;              /* how many of them are left */
} UctNode;

typedef struct {
    UctNode *nodes;
    double *reward; /* players numbers a node */
    int n, cap, players;
    int64_t *pool; /* every decision's untried actions' keys, in the order they were listed */
    int pool_n, pool_cap;
} UctTree;

static int uct_new_node(UctTree *t, int parent, int64_t key) {
    if (t->n == t->cap) {
        int cap = t->cap ? 2 * t->cap : 1024;
        UctNode *nodes = realloc(t->nodes, (size_t)cap * sizeof *nodes);
        if (!nodes) return -1;
        t->nodes = nodes;
        double *reward = realloc(t->reward, (size_t)cap * t->players * sizeof *reward);
        if (!reward) return -1;
        t->reward = reward;
        t->cap = cap;
    }
    int i = t->n++;
    UctNode *node = &t->nodes[i];
    node->visits = 0;
    node->first = node->last = node->next = -1;
    node->key = key;
    node->untried = -1;
    node->left = 0;
    memset(&t->reward[(size_t)i * t->players], 0, t->players * sizeof(double));
    if (parent >= 0) {
        UctNode *p = &t->nodes[parent];
        if (p->last < 0)
            p->first = i;
        else
            t->nodes[p->last].next = i;
        p->last = i;
    }
    return i;
}

/* `node.untried = list(state.legal_actions())`, as keys; -1 with a Python error set, -2
   out of memory. */
static int uct_list_untried(const UctGame *g, UctTree *t, int node, const void *pos) {
    int count = g->count(g->ctx, pos);
    if (count < 0) return -1;
    if (t->pool_n + count > t->pool_cap) {
        int cap = t->pool_cap ? t->pool_cap : 4096;
        while (cap < t->pool_n + count) cap *= 2;
        int64_t *pool = realloc(t->pool, (size_t)cap * sizeof *pool);
        if (!pool) return -2;
        t->pool = pool;
        t->pool_cap = cap;
    }
    int64_t *out = t->pool + t->pool_n;
    for (int i = 0; i < count; i++) out[i] = g->key ? g->key(g->ctx, pos, i) : i;
    t->nodes[node].untried = t->pool_n;
    t->nodes[node].left = count;
    t->pool_n += count;
    return 0;
}

/* `node.untried.pop(below(rng, len(node.untried)))`: the list keeps its order. */
static int64_t uct_pop_untried(UctTree *t, int node, Twister *rng) {
    UctNode *p = &t->nodes[node];
    int k = below(rng, p->left);
    int64_t *list = t->pool + p->untried, action = list[k];
    memmove(list + k, list + k + 1, (size_t)(p->left - k - 1) * sizeof *list);
    p->left--;
    return action;
}

/* `MctsBot._select`: UCB1 for the seat to move; the first best in the children's order. */
static int uct_select(const UctTree *t, int node, int player, double c) {
    double log_n = log((double)t->nodes[node].visits), best_value = -INFINITY;
    int best = -1;
    for (int ch = t->nodes[node].first; ch >= 0; ch = t->nodes[ch].next) {
        double n = (double)t->nodes[ch].visits;
        double value = t->reward[(size_t)ch * t->players + player] / n + c * sqrt(log_n / n);
        if (value > best_value) {
            best_value = value;
            best = ch;
        }
    }
    return best;
}

/* `state.apply(action)` for the action a decision's child is keyed by. */
static int uct_apply(const UctGame *g, void *pos, int64_t key) {
    return g->apply_key ? g->apply_key(g->ctx, pos, key) : g->apply(g->ctx, pos, (int)key);
}

static int uct_child(const UctTree *t, int node, int64_t key) {
    for (int ch = t->nodes[node].first; ch >= 0; ch = t->nodes[ch].next)
        if (t->nodes[ch].key == key) return ch;
    return -1;
}

/* `MctsBot.reward`: a finished game's win shared, else each seat's place between the last
   and the first on the record (the game's cut-off) or on the standing (the search's),
   the first's worth `UCT_LEAD_REWARD`, or at the search's cut-off the game's own win
   chances. */
static void uct_reward(const UctGame *g, const void *pos, int cooperative, double *out) {
    double scores[UCT_MAX_PLAYERS];
    int players = g->players, kind = g->result(g->ctx, pos, scores), count = 0;
    for (int s = 0; s < players; s++) out[s] = 0.0;
    if (kind == UCT_WON) {
        for (int s = 0; s < players; s++) count += scores[s] != 0.0;
        if (!count) return;
        double each = cooperative ? 1.0 : 1.0 / count;
        for (int s = 0; s < players; s++)
            if (scores[s] != 0.0) out[s] = each;
        return;
    }
    if (cooperative) return;
    if (kind == UCT_CHANCES) {
        for (int s = 0; s < players; s++) out[s] = scores[s];
        return;
    }
    if (kind != UCT_STANDING && kind != UCT_CUT) return;
    double top = scores[0], low = scores[0];
    for (int s = 1; s < players; s++) {
        if (scores[s] > top) top = scores[s];
        if (scores[s] < low) low = scores[s];
    }
    if (top == low) return;
    for (int s = 0; s < players; s++) out[s] = UCT_LEAD_REWARD * (scores[s] - low) / (top - low);
}

/* One playout (`MctsBot._playout`): select, expand one node, play out, back up.
   `state` is the playout's own copy of the root. */
static int uct_playout(const UctGame *g, UctTree *t, void *state, Twister *rng, int horizon,
                       double c, int cooperative, int *path) {
    void *ctx = g->ctx;
    int stop = g->turns(ctx, state) + horizon, depth = 0, node = 0;
    double reward[UCT_MAX_PLAYERS];
    path[depth++] = 0;
    for (;;) {
        int player = g->to_move(ctx, state);
        if (player == UCT_TERMINAL || g->turns(ctx, state) >= stop) break;
        if (player == UCT_CHANCE) {
            int64_t key = g->chance(ctx, state, rng);
            int child = uct_child(t, node, key);
            if (child < 0) {
                child = uct_new_node(t, node, key);
                if (child < 0) return -2;
                path[depth++] = child;
                break;
            }
            node = child;
            path[depth++] = node;
            continue;
        }
        if (t->nodes[node].untried < 0) {
            int status = uct_list_untried(g, t, node, state);
            if (status < 0) return status;
        }
        if (t->nodes[node].left) {
            int64_t action = uct_pop_untried(t, node, rng);
            if (uct_apply(g, state, action) < 0) return -1;
            int child = uct_new_node(t, node, action);
            if (child < 0) return -2;
            path[depth++] = child;
            break;
        }
        node = uct_select(t, node, player, c);
        if (uct_apply(g, state, t->nodes[node].key) < 0) return -1;
        path[depth++] = node;
    }
    if (g->playout(ctx, state, rng, stop) < 0) return -1;
    uct_reward(g, state, cooperative, reward);
    for (int i = 0; i < depth; i++) {
        UctNode *v = &t->nodes[path[i]];
        double *total = &t->reward[(size_t)path[i] * t->players];
        v->visits++;
        for (int s = 0; s < t->players; s++) total[s] += reward[s];
    }
    return 0;
}

/* `MctsBot.search` from the decision `root`, drawing from `rng` (left where the Python
   search leaves it). Returns a list of (key, visits) for the root's children in the order
   they were tried (a key is the action's index in `legal_actions()` where the game gives
   no `key`), or NULL with a Python error set. The root's actions are listed from `root`
   itself, before any playout redraws what it hides, as the readable search lists them.
   A signal handler that raises ends the search (NULL, its error set). */
static PyObject *uct_search(const UctGame *g, const void *root, Twister *rng, int budget,
                            int horizon, double c, int cooperative) {
    if (g->players < 1 || g->players > UCT_MAX_PLAYERS) {
        PyErr_SetString(PyExc_ValueError, "the compiled search takes 1 to 8 seats");
        return NULL;
    }
    UctTree t = {0};
    t.players = g->players;
    void *state = malloc(g->size);
    /* a path is at most one node a step: the deepest walk is bounded by the tree's size */
    int *path = NULL, path_cap = 0, status = state ? 0 : -2;
    PyObject *out = NULL;
    if (!status && uct_new_node(&t, -1, -1) < 0) status = -2;
    if (!status && g->to_move(g->ctx, root) >= 0) status = uct_list_untried(g, &t, 0, root);
    for (int i = 0; !status && i < budget; i++) {
        if (path_cap < t.n + 2) {
            path_cap = 2 * (t.n + 2);
            int *grown = realloc(path, (size_t)path_cap * sizeof *path);
            if (!grown) {
                status = -2;
                break;
            }
            path = grown;
        }
        if (i % UCT_SIGNALS == UCT_SIGNALS - 1 && PyErr_CheckSignals() < 0) {
            status = -1;
            break;
        }
        memcpy(state, root, g->size);
        if (g->resample) g->resample(g->ctx, state, rng);
        status = uct_playout(g, &t, state, rng, horizon, c, cooperative, path);
    }
    if (status == -2) PyErr_NoMemory();
    if (!status) {
        out = PyList_New(0);
        for (int ch = t.nodes[0].first; out && ch >= 0; ch = t.nodes[ch].next) {
            PyObject *pair = Py_BuildValue("(Li)", (long long)t.nodes[ch].key, t.nodes[ch].visits);
            if (!pair || PyList_Append(out, pair) < 0) Py_CLEAR(out);
            Py_XDECREF(pair);
        }
    }
    free(state);
    free(path);
    free(t.nodes);
    free(t.reward);
    free(t.pool);
    return out;
}

#endif
