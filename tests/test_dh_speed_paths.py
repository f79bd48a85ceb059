"""Desert Home's Python fast path (`fastplay`, played without the kernel): the lookup
tables behind its speed, worked by hand, and the board layouts that take the other branch
of a table."""

from __future__ import annotations

import pytest

from pnp.games.desert_home import engine, rules
from pnp.games.desert_home.fastplay import _refuge_bits, _Tables
from pnp.games.desert_home.model import NO_FIELD, play_model
from pnp.games.desert_home.params import DesertHomeParams
from pnp.games.desert_home.rules import GROUP, MOVE


def test_the_refuges_take_the_bits_of_cells_that_are_no_fields():
    """Default board: rows 0, 2 and 4 start with no field; the two refuges use the first
    two, so every mask stays below 2**30 (one CPython int digit)."""
    m = play_model(DesertHomeParams())
    assert _refuge_bits(m) == (0, 12)
    assert all(m.kind[i] == NO_FIELD for i in _refuge_bits(m))
    t = _Tables(m)
    assert t.refuges == 1 << 0 | 1 << 12
    assert t.bit[m.cells] == 1 << 0 and t.bit[m.cells + 1] == 1 << 12
    assert max(t.bit).bit_length() <= 30 and t.width == m.cells
    entry = m.refuge_entries[0]  # row 1, column 0: west is into seat 0's refuge
    assert t.reach[entry] & t.refuges == 1 << 0
    assert t.plain[entry][1 << 0] == ((MOVE, entry, m.cells, GROUP, 1),)


def test_with_every_row_a_refuge_row_the_refuges_go_past_the_fields():
    m = play_model(DesertHomeParams(rows=2, refuge_rows=(0, 1)))
    assert not any(k == NO_FIELD for k in m.kind)
    assert _refuge_bits(m) == (m.cells, m.cells + 1)


@pytest.mark.parametrize(
    "changes", [{"rows": 2, "refuge_rows": (1, 0)}, {"rows": 3, "refuge_rows": (0, 2)}]
)
def test_boards_either_way_play_the_reference_games(changes):
    model = engine.prepare(DesertHomeParams(**changes), 2)
    for i in range(3):
        fast = engine.play_one(model, 2, "random", f"5:{i}", max_rounds=60, compiled=False)
        assert fast == engine.play_one(model, 2, "random", f"5:{i}", max_rounds=60, reference=True)


def test_a_roll_looked_up_whole():
    """Dice 0-5 show 1, 1, 1, 2, 3, 4 (faces 0, 0, 0, 1, 2, 3; blue is colour 5)."""
    m = play_model(DesertHomeParams())
    assert m.blue == 5
    t = _Tables(m)
    key = ((((0 * 6 + 0) * 6 + 0) * 6 + 1) * 6 + 2) * 6 + 3
    triple, influx, choose, bonus, numbers = t.rolls[key]
    assert triple  # three ones: the player may re-roll
    assert influx == (0, 1, 2) and not choose  # the ones' colours, blue not among them
    assert bonus == 0  # 1 to 4 is no road
    assert [n[0] for n in numbers] == [rules.action_points(1, 3), 2, 3, 4]  # 3 points for 1s
    points, usable, colours, plainly, count = numbers[0]
    assert usable == (True, True, True, False, False, False) and colours == (0, 1, 2)
    assert plainly == usable and count == 3


def test_a_roll_with_blue_among_the_lowest_and_a_big_road():
    """Dice show 2, 3, 4, 5, 6, 1: every number once, blue alone shows the lowest."""
    t = _Tables(play_model(DesertHomeParams()))
    key = 0
    for face in (1, 2, 3, 4, 5, 0):
        key = key * 6 + face
    triple, influx, choose, bonus, numbers = t.rolls[key]
    assert not triple and influx == () and not choose
    assert bonus == rules.BIG_ROAD and len(numbers) == 6
    assert numbers[0][2] == (5,) and numbers[0][3] == (False,) * 6  # 1: blue alone


def test_warm_fills_every_roll_as_the_lazy_table_would():
    model = engine.prepare(DesertHomeParams(), 2)
    engine.fastplay.warm(model)
    warm = engine.fastplay.tables(model).rolls
    lazy = _Tables(model).rolls
    assert len(warm) == 6**6
    assert all(warm[key] == lazy[key] for key in range(0, 6**6, 7))
