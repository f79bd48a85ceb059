"""`pnp.play.fastpath`, the seam between the readable rules and a compiled implementation, on a
class of its own: which implementation runs, chosen in code or in the environment, built
or not, and what a game that attaches nothing gets."""

from __future__ import annotations

import pytest

from pnp.play import fastpath


class Attached:
    """A state class with a fast path."""


class Unbuilt:
    """A state class whose fast path was not built (no C compiler at install)."""


class Plain:
    """A state class with none."""


def playout(state: object, rng: object, stop: int) -> bool:
    return True


FAST = fastpath.attach(Attached, fastpath.Implementation("kernel", True, playout=playout))
fastpath.attach(Unbuilt, fastpath.Implementation("kernel", False, playout=playout))


def test_the_built_fast_path_runs_by_default_and_the_readable_rules_on_request(monkeypatch):
    monkeypatch.delenv(fastpath.ENVIRONMENT, raising=False)
    assert fastpath.active(Attached()) is FAST
    with fastpath.using(fastpath.READABLE):
        assert fastpath.active(Attached()) is None
        with fastpath.using("kernel"):
            assert fastpath.active(Attached) is FAST
        assert fastpath.active(Attached) is None  # the outer choice is back
    assert fastpath.active(Attached) is FAST


def test_the_environment_chooses_for_a_process_and_its_workers(monkeypatch):
    monkeypatch.setenv(fastpath.ENVIRONMENT, "readable")
    assert fastpath.chosen() == "readable" and fastpath.active(Attached) is None
    monkeypatch.setenv(fastpath.ENVIRONMENT, "kernel")
    assert fastpath.active(Attached) is FAST
    with fastpath.using(fastpath.READABLE):  # code's choice over the environment's
        assert fastpath.active(Attached) is None


def test_an_unbuilt_fast_path_never_runs_and_says_so_once(monkeypatch, capsys):
    monkeypatch.delenv(fastpath.ENVIRONMENT, raising=False)
    monkeypatch.setattr("pnp.runtime.notice._said", set())
    assert fastpath.active(Unbuilt) is None and fastpath.active(Unbuilt()) is None
    assert not fastpath.runs(Unbuilt, "warning: not built")
    assert not fastpath.runs(Unbuilt, "warning: not built")
    assert capsys.readouterr().err.splitlines() == ["warning: not built"]
    with fastpath.using(fastpath.READABLE):  # a choice, not a missing compiler: no warning
        monkeypatch.setattr("pnp.runtime.notice._said", set())
        assert not fastpath.runs(Unbuilt, "warning: not built")
    assert capsys.readouterr().err == ""


def test_names_and_availability():
    assert fastpath.names(Attached) == ("readable", "kernel")
    assert fastpath.names(Plain) == ("readable",)
    assert fastpath.available(Attached, "kernel") and not fastpath.available(Unbuilt, "kernel")
    assert fastpath.available(Unbuilt, "readable")
    assert fastpath.available(Plain, "tables")  # an engine's own Python path: always there


def test_the_readable_name_is_not_a_fast_path():
    with pytest.raises(ValueError, match="readable"):
        fastpath.attach(Plain, fastpath.Implementation("readable", True))


@pytest.mark.parametrize(
    "game",
    ["exploding-dice", "building-community", "parcheesi", "desert-home", "home-in-one-piece"],
)
def test_the_bench_says_where_each_games_search_runs(game):
    """`make bench`'s line: in the kernel where it is built, else on the readable rules."""
    from pnp.bench import search_runs_on
    from pnp.games import get_game
    from pnp.testing.conformance import state_class

    built = fastpath.available(state_class(get_game(game)), "kernel")
    assert search_runs_on(game).endswith("in the kernel") == built
    with fastpath.using(fastpath.READABLE):
        assert search_runs_on(game).endswith("on the readable rules")


def test_a_test_puts_another_implementation_in_place_for_a_block_only(monkeypatch):
    monkeypatch.delenv(fastpath.ENVIRONMENT, raising=False)
    unbuilt = fastpath.Implementation("kernel", False)
    assert fastpath.attached(Attached) is FAST and fastpath.attached(Plain) is None
    with fastpath.replaced(Attached, unbuilt):
        assert fastpath.attached(Attached) is unbuilt and fastpath.active(Attached) is None
    assert fastpath.attached(Attached) is FAST and fastpath.active(Attached) is FAST
    with fastpath.replaced(Attached, None):
        assert fastpath.names(Attached) == ("readable",)
    with pytest.raises(RuntimeError), fastpath.replaced(Plain, FAST):
        assert fastpath.active(Plain) is FAST
        raise RuntimeError
    assert fastpath.attached(Plain) is None and fastpath.attached(Attached) is FAST
