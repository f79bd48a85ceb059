"""`pnp tune` on a real Dask cluster (a `dask scheduler` and two `dask worker` processes on
127.0.0.1, started and torn down by the test): the same JSON as on the local pool for the
same seed and games budget, also when one of the two workers is killed mid-tune (Dask
plays its chunks again on the other)."""

from __future__ import annotations

import json

import pytest
from test_dask_cluster import Cluster, _kill

from pnp.tune import plan_tune, run_tune

pytest.importorskip("distributed")
pytest.importorskip("optuna")
pytestmark = pytest.mark.slow  # a cluster takes seconds to start

TARGETS = ["turns in 18..25", "seat_gap <= 0.05"]
OVER = ["dice_per_colour=2..8", "n=4..8:2"]


def _tune(**where: object) -> dict:
    setup, dims, budget = plan_tune(
        "exploding-dice", TARGETS, OVER, players=3, budget="40000games", seed=11, jobs=2,
        **where,  # type: ignore[arg-type]
    )  # fmt: skip
    return setup, dims, budget


def test_a_tune_on_two_workers_one_killed_gives_the_pools_json():
    setup, dims, budget = _tune()
    expected = json.dumps(run_tune(setup, dims, budget, check_kits=False).json, indent=1)
    cluster = Cluster()
    try:
        cluster.worker()
        doomed = cluster.worker()
        cluster.wait_for(2)
        setup, dims, budget = _tune(scheduler=cluster.address, timeout=30.0)
        seen: list[int] = []

        def kill_once(status: dict) -> None:
            seen.append(status["games"])
            if status["games"] > 0 and doomed.poll() is None:
                _kill(doomed)  # some of the first round is in, most of the tune is to come

        tuned = run_tune(setup, dims, budget, kill_once, check_kits=False)
    finally:
        cluster.close()
    assert doomed.poll() is not None
    assert seen and min(g for g in seen if g > 0) < 40000 / 4
    assert tuned.stopped != "failure", tuned.failure
    assert json.dumps(tuned.json, indent=1) == expected
