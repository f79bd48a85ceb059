"""Building Community's shortest-line proof: its bound never overestimates, its lengths are
an exhaustive breadth-first search's, and its lines replay under the readable rules.

The breadth-first search here prunes nothing (no bound, no symmetry): every position one
turn on, then two, ..., each met once, with the fast board's successor function (which the
conformance data checks against the readable rules, turn by turn).
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from geometry import hexgrid
from pnp.games.building_community import rules
from pnp.games.building_community.fast import solver, solver_bound, solver_proof
from pnp.games.building_community.fast.bitboard import fast_board
from pnp.games.building_community.params import BuildingCommunityParams
from pnp.games.building_community.rules.model import PlayModel, play_model

needs_kernel = pytest.mark.skipif(solver_proof._search is None, reason="no compiled search")


def radius_1() -> PlayModel:
    """A 7-cell board (below the kit's limits, R >= 2): small enough to search whole."""
    base = play_model(BuildingCommunityParams(radius=2))
    cells = hexgrid.board(1)
    index = {c: i for i, c in enumerate(cells)}
    around = tuple(tuple(index.get(n, -1) for n in hexgrid.neighbours(c)) for c in cells)
    return PlayModel(
        radius=1,
        cells=cells,
        neighbours=tuple(tuple(n for n in row if n >= 0) for row in around),
        around=around,
        start_colours=tuple(hexgrid.start_colour(c) for c in cells),
        corner_starts=(index[(0, 0)],) * 6,
        scope="near",
        colours=base.colours,
        pawn_colours=base.pawn_colours,
    )


def cell_mask(model: PlayModel, bits: int) -> int:
    """A fast-board mask (padded grid bits) as a mask of cell indices."""
    t = fast_board(model)
    return sum(1 << i for i, b in enumerate(t.bit_of) if bits >> b & 1)


def distance(model: PlayModel, tiles: list[int], pawns: list[int], k: int, most: int):
    """Turns to the nearest win by exhaustive breadth-first search; None if none within
    `most` positions (or none at all)."""
    search = solver._Search(fast_board(model), len(pawns), 0)
    t = search.t
    masks = [0, 0, 0]
    for cell, colour in enumerate(tiles):
        masks[colour] |= 1 << t.bit_of[cell]
    start = search.encode(masks[0], masks[1], tuple(t.bit_of[p] for p in pawns), k)
    left = t.isolated(*masks).bit_count()
    if left == 0:
        return 0
    seen = {start}
    layer = [(start, left)]
    depth = 0
    while layer and len(seen) < most:
        depth += 1
        nxt = []
        for key, here in layer:
            for child, after in search.children(key, here):
                if after == 0:  # a pass keeps a count above 0: this was a move
                    return depth
                if child not in seen:
                    seen.add(child)
                    nxt.append((child, after))
        layer = nxt
    return None


def bound_of(model: PlayModel, tiles: list[int], pawns: list[int], k: int) -> int:
    """The bound of a position with pawn k to move."""
    isolated = sum(1 << c for c in rules.isolated_cells(model, tiles))
    return solver_bound.turns_needed(model, isolated, pawns[k:] + pawns[:k])


def random_walk(model: PlayModel, players: int, rng: random.Random, turns: int) -> rules.State:
    state = rules.new_game(model, players)
    for _ in range(turns):
        if state.ended is not None:
            break
        state.apply(state.random_action(rng))
    return state


# --- the bound is admissible ---------------------------------------------------------------


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_the_bound_never_exceeds_the_distance_on_radius_1(data):
    """Arbitrary colourings and pawns on the 7-cell board, searched whole."""
    model = radius_1()
    tiles = data.draw(st.lists(st.integers(0, 2), min_size=7, max_size=7))
    players = data.draw(st.integers(2, 3))
    pawns = data.draw(st.permutations(range(7)))[:players]
    k = data.draw(st.integers(0, players - 1))
    d = distance(model, tiles, list(pawns), k, 10**6)
    if d is not None:
        assert bound_of(model, tiles, list(pawns), k) <= d


@pytest.mark.parametrize("players", [2, 3, pytest.param(4, marks=pytest.mark.long)])
@pytest.mark.slow  # equality held position by position in the fast tier (conformance replays)
def test_the_bound_never_exceeds_the_distance_on_radius_2(players):
    """Positions reached by random play from the start, and random colourings with the
    pawns placed at random: every one whose distance the search finds."""
    model = play_model(BuildingCommunityParams(radius=2))
    rng = random.Random(f"bound:{players}")
    checked = 0
    for i in range(40):
        if i % 2:
            state = random_walk(model, players, rng, rng.randrange(8))
            if state.ended is not None:
                continue
            tiles, pawns, k = state.tiles, state.pawns, state.to_move
        else:
            tiles = [rng.randrange(3) for _ in range(model.size)]
            pawns = rng.sample(range(model.size), players)
            k = rng.randrange(players)
        d = distance(model, list(tiles), list(pawns), k, 30_000)
        if d is not None:
            checked += 1
            assert bound_of(model, list(tiles), list(pawns), k) <= d, (tiles, pawns, k)
    assert checked >= 10


@settings(max_examples=200, deadline=None)
@given(st.sampled_from([1, 2, 3, 4]), st.data())
def test_the_bound_is_ceil_count_over_six_or_more_and_zero_only_when_won(radius, data):
    model = radius_1() if radius == 1 else play_model(BuildingCommunityParams(radius=radius))
    isolated = data.draw(st.integers(0, (1 << model.size) - 1))
    movers = data.draw(st.lists(st.integers(0, model.size - 1), max_size=6))
    h = solver_bound.turns_needed(model, isolated, movers)
    clusters = solver_bound.cluster_bound(model, isolated)
    assert solver_bound.by_count(isolated.bit_count()) <= clusters <= h
    assert h <= clusters + len(movers)
    assert (h == 0) == (isolated == 0)
    assert clusters <= isolated.bit_count()


@needs_kernel
@settings(max_examples=200, deadline=None)
@given(st.sampled_from([2, 3, 4]), st.sampled_from(["near", "anywhere"]), st.data())
def test_the_compiled_bound_is_the_readable_one(radius, scope, data):
    model = play_model(BuildingCommunityParams(radius=radius, scope=scope))
    isolated = data.draw(st.integers(0, (1 << model.size) - 1))
    movers = data.draw(st.lists(st.integers(0, model.size - 1), max_size=6))
    tables = solver_proof._tables(model)
    board = {name: tables[name] for name in ("nb", "far3", "ball2")}
    compiled = solver_proof._search.bound({**board, "isolated": isolated, "pawns": movers})
    assert compiled == solver_bound.turns_needed(model, isolated, movers)


@needs_kernel
def test_the_compiled_proof_names_a_field_left_out_or_wrong():
    """The proof's tables cross as named fields: a slip is an error naming the field."""
    model = play_model(BuildingCommunityParams(radius=2))
    tables = solver_proof._tables(model)
    fields = {
        **tables,
        "colours": list(model.start_colours),
        "pawns": list(model.starts(2)),
        "lo": 1,
        "hi": 3,
        "budget": 1000,
        "table_bits": 10,
        "every": 0,
    }
    search = solver_proof._search.search
    line, _, proven, per = search(fields, None)  # as given: no win within 3 turns at R = 2
    assert (line, proven, len(per)) == (None, 3, 3)
    with pytest.raises(ValueError, match="proof field every: missing"):
        search({k: v for k, v in fields.items() if k != "every"}, None)
    with pytest.raises(ValueError, match="proof field table_bit: not one the kernel knows"):
        search({**fields, "table_bit": 10}, None)
    with pytest.raises(ValueError, match="proof field colours: wrong length or a number out"):
        search({**fields, "colours": [3] * model.size}, None)
    with pytest.raises(ValueError, match="pairs: fewer than the counts say"):
        search({**fields, "pairs": fields["pairs"][:-2]}, None)
    with pytest.raises(ValueError, match="the board"):
        search({**fields, "far3": fields["far3"][:-1]}, None)
    with pytest.raises(ValueError, match="bound field pawns: wrong length"):
        solver_proof._search.bound(
            {
                "nb": tables["nb"],
                "far3": tables["far3"],
                "ball2": tables["ball2"],
                "isolated": 1,
                "pawns": [0] * 7,
            }
        )


# --- symmetries --------------------------------------------------------------------------


@pytest.mark.parametrize("radius", [2, 3, 4])
def test_the_twelve_symmetries_keep_the_board_and_its_neighbourhoods(radius):
    model = play_model(BuildingCommunityParams(radius=radius))
    syms = solver_proof.symmetries(model)
    assert len(set(syms)) == 12
    for perm in syms:
        assert sorted(perm) == list(range(model.size))
        for a in range(model.size):
            assert {perm[n] for n in model.neighbours[a]} == set(model.neighbours[perm[a]])


def test_a_symmetric_position_is_as_far_from_a_win():
    """Distances agree between a position and its image under each symmetry with the
    colours renamed: what the table's key relies on."""
    model = play_model(BuildingCommunityParams(radius=2))
    rng = random.Random(7)
    state = random_walk(model, 2, rng, 2)
    d = distance(model, state.tiles, state.pawns, state.to_move, 10**6)
    assert d is not None
    for perm in rng.sample(solver_proof.symmetries(model), 4):
        rename = rng.sample(range(3), 3)
        tiles = [0] * model.size
        for cell, colour in enumerate(state.tiles):
            tiles[perm[cell]] = rename[colour]
        pawns = [perm[p] for p in state.pawns]
        assert distance(model, tiles, pawns, state.to_move, 10**6) == d


@needs_kernel
@pytest.mark.parametrize(
    ("players", "scope"),
    [(2, "near"), (3, "near"), pytest.param(2, "anywhere", marks=pytest.mark.long)],
)
@pytest.mark.slow  # equality held position by position in the fast tier (conformance replays)
def test_the_compiled_proof_finds_the_exhaustive_distance_from_mid_game(players, scope):
    """From positions of random play (seats renamed so the pawn to move is pawn 0, which
    keeps the turn order), IDA* from threshold 0 stops at the breadth-first distance."""
    model = play_model(BuildingCommunityParams(radius=2, scope=scope))
    rng = random.Random(f"mid:{players}:{scope}")
    most = 100_000 if scope == "near" else 25_000  # `anywhere` branches far more
    checked = 0
    for _ in range(25):
        state = random_walk(model, players, rng, rng.randrange(1, 6))
        if state.ended is not None:
            continue
        k = state.to_move
        pawns = state.pawns[k:] + state.pawns[:k]
        d = distance(model, state.tiles, pawns, 0, most)
        if d is None:
            continue
        line, _, proven, _ = solver_proof.prove(
            model, players, 0, d, 10**8, position=(state.tiles, pawns)
        )
        assert line is not None and len(line) == d and proven == d - 1
        checked += 1
    assert checked >= (8 if scope == "near" else 4)


# --- shortest lengths and lines ------------------------------------------------------------


def start_distance(model: PlayModel, players: int) -> int | None:
    return distance(model, list(model.start_colours), list(model.starts(players)), 0, 10**7)


@needs_kernel
@pytest.mark.parametrize(
    "players",
    [2, 3, pytest.param(4, marks=pytest.mark.slow), pytest.param(6, marks=pytest.mark.long)],
)
@pytest.mark.slow  # equality held position by position in the fast tier (conformance replays)
def test_the_proven_length_is_the_exhaustive_searchs_on_radius_2(players):
    model = play_model(BuildingCommunityParams(radius=2))
    result = solver.solve(model, players, 10**7)
    assert result.result == "win" and result.shortest
    assert result.length == start_distance(model, players)
    state = rules.replay(model, players, list(result.line))
    assert state.ended is rules.End.WIN and state.turns == result.length


@needs_kernel
@pytest.mark.long  # CI: radius 2 proven and replayed (above), the solve command in test_bc_solver
@pytest.mark.parametrize("players", [2])
def test_radius_3_is_proven_and_its_line_replays(players):
    """The default board's proof (seconds to minutes): a line no longer than the 10-turn
    line an independent search found, proven shortest, and legal under the readable rules."""
    model = play_model(BuildingCommunityParams(radius=3))
    result = solver.solve(model, players, 10**9)
    assert result.result == "win" and result.shortest
    start = list(model.start_colours), list(model.starts(players))
    assert bound_of(model, *start, 0) <= result.length <= 10
    state = rules.replay(model, players, list(result.line))
    assert state.ended is rules.End.WIN and state.turns == result.length


@needs_kernel
@pytest.mark.long  # a promise about the budget's reach, minutes of search: `make test-all`
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_the_default_budget_proves_the_default_board(players):
    """`pnp solve building-community` with no budget proves the shortest line on the kit's
    default board (radius 3) at every player count, as its help promises."""
    from pnp.sim.solve import run_solve

    answer = run_solve("building-community", players, progress=lambda *_: None)
    assert answer["radius"] == 3
    assert answer["budget"] == solver.DEFAULT_BUDGET
    assert answer["result"] == "win" and answer["shortest"], answer["nodes"]
