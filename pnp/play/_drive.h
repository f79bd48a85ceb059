/* Whole games and playouts over a game's step hooks (`UctGame`), written once for every game.
 *
 * A game's compiled side walks its turn step by step for the tree search (`_uct.h`): who
 * moves, how many options a decision has, an option played, a chance point drawn. Those
 * same hooks are enough to play a whole game, so no game needs a whole-game loop of its
 * own: `drive_play` plays on from a position, a chance point by the game's `chance` hook,
 * a decision by a policy. The policy is a `DriveChoose`: the game's random bot (its
 * `UctGame.random`, else a uniform `below` among `count` options, as `pnp.play.chance.pick`
 * draws) or any bot rule the game supplies (a greedy bot, a rollout policy), each drawing
 * from the generator as the readable bot draws. Nothing here knows a game.
 *
 * With the GIL let go (a whole game run `nogil`), the hooks must not fail: `count` and
 * `apply` may then set no Python error. Include after `_twister.h`.
 */
#ifndef PNP_DRIVE_H
#define PNP_DRIVE_H

#include "_uct.h"

/* A bot's choice at a decision, drawn from `rng` as the readable bot draws it: the action
   as the game's `apply_key` names it where it has one, else its index in
   `legal_actions()`; -1 with a Python error set. */
typedef int64_t (*DriveChoose)(void *ctx, const void *pos, Twister *rng);

/* The random bot (`State.random_action`): the game's own draw where it has one, else a
   uniform choice among the decision's options (by key where the game keys them). */
static inline int64_t drive_random(const UctGame *g, const void *pos, Twister *rng) {
    if (g->random) return g->random(g->ctx, pos, rng);
    int count = g->count(g->ctx, pos);
    if (count < 0) return -1;
    int i = below(rng, count);
    return g->apply_key ? g->key(g->ctx, pos, i) : i;
}

/* The seat to move at a decision plays what `choose` picks (NULL: the random bot). 0, or
   -1 with a Python error set. */
static inline int drive_decide(const UctGame *g, void *pos, Twister *rng, DriveChoose choose) {
    int64_t action = choose ? choose(g->ctx, pos, rng) : drive_random(g, pos, rng);
    return action < 0 ? -1 : uct_apply(g, pos, action);
}

/* One step from a position that is not over: a chance point drawn, or a decision taken
   by `choose` (`drive_decide`). 0, or -1 with a Python error set. */
static inline int drive_step(const UctGame *g, void *pos, Twister *rng, DriveChoose choose) {
    if (g->to_move(g->ctx, pos) != UCT_CHANCE) return drive_decide(g, pos, rng, choose);
    g->chance(g->ctx, pos, rng);
    return 0;
}

/* Play on from `pos`, in place, until the game is over or `stop` turns are played (a turn
   under way is finished), every seat by `choose` (NULL: the random bot). 0, or -1 with a
   Python error set. */
static inline int drive_play(const UctGame *g, void *pos, Twister *rng, DriveChoose choose,
                             int stop) {
    for (;;) {
        int who = g->to_move(g->ctx, pos);
        if (who == UCT_TERMINAL || g->turns(g->ctx, pos) >= stop) return 0;
        if (who == UCT_CHANCE) g->chance(g->ctx, pos, rng);
        else if (drive_decide(g, pos, rng, choose) < 0) return -1;
    }
}

#endif
