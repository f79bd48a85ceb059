"""The tune's answer as JSON, its Pareto front, and the config file of the best setting.

The JSON holds no time, so a budget in games gives byte-identical JSON for a seed on the
local pool and on Dask.
"""

from __future__ import annotations

from typing import Any

from pnp.contract.params import keys_of, toml_literal
from pnp.games import get_game
from pnp.sim.grid import PLAYERS
from pnp.tune.budget import Budget, Spend
from pnp.tune.search import Found, Trial, ranking
from pnp.tune.space import Dimension
from pnp.tune.targets import SKILL
from pnp.tune.trial import Setup
from pnp.tune.verify import RANKING, Evidence, evidence_seed, target_json, ties


def misses(trial: Trial) -> list[float]:
    """Each target's miss on the trial's estimates (0 inside its range)."""
    c = trial.candidate
    assert c is not None
    found = c.readings()
    out = []
    for t in c.setup.targets:
        value = found[t.metric][0]
        out.append(float("inf") if value is None else round(t.miss(value), 6))
    return out


def pareto(found: Found) -> list[int]:
    """The trials no other trial beats on every target's miss at once (on the search's
    estimates): where targets conflict, the trade-offs to choose among."""
    return front_of({t.number: misses(t) for t in ranking(found)})


def front_of(vectors: dict[int, list[float]]) -> list[int]:
    """The keys whose vector no other vector beats: as small on every target, smaller on
    one."""
    front = []
    for number, mine in vectors.items():
        beaten = any(
            all(a <= b for a, b in zip(other, mine, strict=True)) and other != mine
            for n, other in vectors.items()
            if n != number
        )
        if not beaten:
            front.append(number)
    return sorted(front)


def trial_json(t: Trial) -> dict[str, Any]:
    out: dict[str, Any] = {"number": t.number, "batch": t.batch, "setting": t.setting}
    out["status"] = t.status
    if t.same_as is not None:
        out["same_as"] = t.same_as
    if t.reason:
        out["reason"] = t.reason
    c = t.candidate
    if c is not None:
        found = c.readings()
        out["games"] = c.games
        if c.skill_plan is not None:
            out["skill_games"] = c.skill_acc.games
        out["rounds"] = c.rung + 1
        out["metrics"] = {k: {"value": v, "ci": ci} for k, (v, ci) in found.items()}
        out["scores"] = [round(s, 6) for s in c.scores()]
        why = c.degenerate()
        if why:
            out["degenerate"] = why
    return out


def evidence_json(e: Evidence) -> dict[str, Any]:
    c = e.candidate
    out: dict[str, Any] = {
        "setting": e.trial.setting,
        "trial": e.trial.number,
        "meets_every_target": e.meets_all,
        "games": c.games,
    }
    if c.skill_plan is not None:
        out["skill_games"] = c.skill_acc.games
    why = c.degenerate()
    if why:
        out["degenerate"] = why
    out["targets"] = [target_json(t, e) for t in c.setup.targets]
    if e.kit_errors:
        out["kit_errors"] = e.kit_errors
    return out


def config_values(game: str, setting: dict[str, Any]) -> dict[str, Any]:
    """A setting as config keys: the seat count is one only where the game's kit has a
    `players` key of its own (Building Community's layout check solves for it)."""
    own = keys_of(get_game(game).default_params())  # type: ignore[arg-type]
    return {k: v for k, v in setting.items() if k != PLAYERS or PLAYERS in own}


def answer_json(
    setup: Setup,
    dims: list[Dimension],
    budget: Budget,
    found: Found,
    evidence: list[Evidence],
    spend: Spend,
    search_games: int,
    stopped: str,
) -> dict[str, Any]:
    """The whole answer: what was asked, what was recommended with its evidence, the
    games it took, and every trial."""
    best = evidence[0] if evidence else None
    if best is None:
        verdict = "no setting was verified"
    elif best.meets_all:
        verdict = "meets every target"
    else:
        verdict = "closest: no setting was shown to meet every target"
    out: dict[str, Any] = {
        "game": setup.game,
        "players": setup.players,
        "bot": setup.bot,
        "seed": setup.seed,
        "targets": [t.as_json() for t in setup.targets],
        "over": [d.as_json() for d in dims],
        "budget": budget.as_json(),
        "optimizer": found.optimizer,
        "stopped": stopped,
        "answer": verdict,
        "best": best.trial.setting if best else None,
        "recommended": [evidence_json(e) for e in evidence],
        "ranking": RANKING,
        "evidence_seed": evidence_seed(setup.seed),
        "games": {
            "search": search_games,
            "evidence": spend.games - search_games,
            "total": spend.games,
        },
        "trials": [trial_json(t) for t in found.trials],
    }
    tied = ties(evidence)
    if tied:
        out["ties"] = tied
    if found.refused:
        out["refused"] = list(found.refused.values())
    if setup.skill or (setup.bot == "mcts" and setup.bot_budget is not None):
        out["bot_budget"] = setup.bot_budget
    if len(setup.targets) > 1:
        out["pareto"] = pareto(found)
    if not evidence and found.raced():
        top = ranking(found)
        if top:  # stopped before the evidence: the best so far, unverified
            out["best"] = top[0].setting
            out["answer"] = "not verified: the tune stopped before the evidence was played"
    return out


def config_text(
    game: str, answer: dict[str, Any], base: dict[str, Any] | None = None
) -> str | None:
    """The best setting as a config file `pnp build --config` and `pnp simulate --config`
    read, the seat count it was tuned for among its keys (`players`), so `pnp simulate
    --config` plays the answer as it was found; `base`, the keys the tune started from
    (its own config file's), come first."""
    best = answer.get("best")
    if not best:
        return None
    lines = [f"# pnp tune {game}: {answer['answer']}"]
    lines += [f"#   target: {t['target']}" for t in answer["targets"]]
    if any(t["metric"] == SKILL for t in answer["targets"]):
        lines.append("# mcts_vs_greedy: an mcts seat against greedy seats")
    evidence = replay(game, answer)
    if evidence:
        lines.append(f"# its evidence again: {evidence}")
    keys = {**(base or {}), **config_values(game, best)}
    seats = best.get(PLAYERS, answer.get("players"))
    if seats is not None:
        keys = {PLAYERS: seats, **{k: v for k, v in keys.items() if k != PLAYERS}}
    lines += [f"{k} = {toml_literal(v)}" for k, v in keys.items()]
    return "\n".join(lines) + "\n"


def replay(game: str, answer: dict[str, Any]) -> str | None:
    """The `pnp simulate` options that play the best setting's evidence again, game for
    game (with the config file `config_text` writes): its games, the evidence's seed, the
    bot. None unless the evidence was played whole: with a budget of time, or a tune
    stopped early, the games that finished need not be the first ones."""
    recommended = answer.get("recommended")
    if not recommended or recommended[0]["setting"] != answer.get("best"):
        return None
    if "seconds" in answer["budget"] or answer["stopped"] in ("interrupted", "failure"):
        return None
    games = recommended[0]["games"]
    line = (
        f"pnp simulate {game} --config FILE --games {games} --seed {answer['evidence_seed']} "
        f"--bot {answer['bot']}"
    )
    if answer["bot"] == "mcts" and answer.get("bot_budget"):
        line += f" --bot-budget {answer['bot_budget']}"
    return line
