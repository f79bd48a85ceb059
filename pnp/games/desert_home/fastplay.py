"""Desert Home's random games in Python, fast: the path when the kernel was not built.

The simulation runner plays random games in the compiled kernel (`_kernel.c`) when the
install could build it; without a C compiler it plays them here: about 80 games a second
on one core, against 1,500 in the kernel and 33 on the readable rules. All three play the
same games (tests/test_dh_properties.py, tests/test_dh_kernel.py).

`play_random` plays with the same rules and the same random draws as `rules.play_game`
with `RandomBot`, so both give the same record for a seed. It plays a turn as one pass of a
loop over local variables instead of a decision at a time through `legal_actions` and
`apply`, and lists the spending actions from bit masks of the board: a group's one-field
moves are looked up by the mask of the fields around it that can take it, an escorted
piece's by what stands on its lines. A roll of the six dice is looked up whole
(`_Tables.rolls`: re-roll or not, influx, road bonus and the numbers to choose from), and
the refuges take bits of cells that are no fields, so that on the default board every mask
fits in one CPython int digit (its fast path).
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Iterable
from typing import Any

from pnp.chance import pick
from pnp.games.desert_home import rules
from pnp.games.desert_home.model import (
    CAMP_ENTRY,
    NO_FIELD,
    REFUGE_ENTRY,
    WEST,
    PlayModel,
)
from pnp.games.desert_home.rules import (
    BEARER,
    BLACK,
    BOTH,
    DRAW,
    DRAW_ACTION,
    ENTER,
    GROUP,
    GUARDED,
    MOVE,
    NONE,
    PROTECT,
    SEND,
    STOP_ACTION,
    THIRST,
    TILE,
    Action,
    State,
)
from pnp.memo import PerModel

# Kinds of escorted pieces (`_Tables.escorted` keys end in one): a lone water bearer as a
# group, blue figures, a water bearer leaving its group, a group and its water bearer.
_LONE, _BLUES, _BEARER, _ESCORT = range(4)
_PARTS = (GROUP, GROUP, BEARER, BOTH)

_Roll = tuple[bool, tuple[int, ...], bool, int, tuple[tuple[Any, ...], ...]]
"""What a roll of the dice decides (`_Tables.rolls`): whether three alike show, the
influx colours (the lowest number's, blue left out), whether the player picks one of
them (blue among three or more), the road bonus, and per number shown, lowest first,
(points, usable per colour, the usable colours, usable per colour but blue, how many)."""


# --- tables -----------------------------------------------------------------------------


class _Memo(dict):
    """A dict that fills itself from `fn` on a miss (one entry per board mask met)."""

    def __init__(self, fn: Callable[[Any], Any]) -> None:
        super().__init__()
        self.fn = fn

    def __missing__(self, key: Any) -> Any:
        if len(self) > 1 << 16:  # keep a long run's memory bounded
            self.clear()
        value = self[key] = self.fn(key)
        return value


def _mask(cells: Iterable[int]) -> int:
    out = 0
    for cell in cells:
        out |= 1 << cell
    return out


def _refuge_bits(m: PlayModel) -> tuple[int, ...]:
    """Per seat, the bit for "into the seat's refuge": that of a cell that is no field
    when the board has such cells (column 0 of a row without a refuge), else one past the
    fields. Masks of the default board then stay below 2**30, where CPython's int
    operations take their fast path (a third of the engine's work is such operations)."""
    spare = [i for i in range(m.cells) if m.kind[i] == NO_FIELD]
    if len(spare) >= rules.PLAYERS:
        return tuple(spare[: rules.PLAYERS])
    return tuple(range(m.cells, m.cells + rules.PLAYERS))


class _Tables:
    """Everything `play_random` looks up, built once per play model. Masks have bit i for
    field i and the `_refuge_bits` for "into seat's refuge"; the action tuples are those
    `rules.legal_actions` lists, remembered by the mask they depend on."""

    def __init__(self, m: PlayModel) -> None:
        cells = m.cells
        self.model = m
        spot = (*range(cells), *_refuge_bits(m))  # per field and refuge (`cells + seat`)
        self.bit = tuple(1 << i for i in spot)  # a field's or refuge's bit in a mask
        self.field_of = {b: i for i, b in enumerate(self.bit)}  # a mask's lowest bit -> field
        self.refuges = _mask(spot[cells:])
        self.ground = _mask(i for i in range(cells) if m.ground[i])
        self.paths = _mask(m.path_cells)
        self.camp = _mask(m.camp_cells)
        self.start = _mask(i for i in range(cells) if m.kind[i] in (REFUGE_ENTRY, CAMP_ENTRY))
        self.reach = tuple(_mask(spot[t] for t in r) for r in m.reach)
        self.plain = tuple(_plain_moves(i, m.reach[i], spot) for i in range(cells))
        self.lines = tuple(
            tuple(_line(cells, i, line) for line in m.lines[i]) for i in range(cells)
        )
        self.west = tuple(m.step[i][WEST] for i in range(cells))
        self.row_cells = tuple(tuple(range(r * m.width, (r + 1) * m.width)) for r in range(m.rows))
        self.rows = tuple(  # (row, its path slots, all its fields) for the road's boosts
            (r, _mask(m.rows_of_path[r]), _mask(self.row_cells[r])) for r in range(m.rows)
        )
        self.refuge_of_row = tuple(  # the seat whose refuge a row leads into, or -1
            m.refuge_rows.index(r) if r in m.refuge_rows else -1 for r in range(m.rows)
        )
        ndice = len(m.colours)
        self.uses = tuple(  # per mask of the dice showing the chosen number: (usable per
            # colour, the usable colours, usable per colour but blue, how many)
            (
                usable,
                tuple(c for c in range(ndice) if usable[c]),
                tuple(u and c != m.blue for c, u in enumerate(usable)),
                sum(usable),
            )
            for shown in range(1 << ndice)
            for usable in [tuple(bool(shown >> c & 1) for c in range(ndice))]
        )
        self.popcount = tuple(bin(shown).count("1") for shown in range(1 << ndice))
        influx = tuple(  # per mask of the dice showing the lowest number: `_Roll`'s influx
            (
                tuple(c for c in range(ndice) if lowest >> c & 1 and c != m.blue),
                bool(lowest >> m.blue & 1) and self.popcount[lowest] >= 3,
            )
            for lowest in range(1 << ndice)
        )
        number = tuple(  # per face (0 shows 1) and mask of the dice showing it: the choice
            tuple(
                (rules.action_points(f + 1, self.uses[shown][3]) if shown else 0, *self.uses[shown])
                for shown in range(1 << ndice)
            )
            for f in range(6)
        )
        bonus = tuple(  # per mask of the faces shown
            rules.road_bonus([f + 1 for f in range(6) if faces >> f & 1]) for faces in range(64)
        )
        popcount = self.popcount

        def roll(faces: Iterable[int]) -> _Roll:
            """The `_Roll` of the dice showing `faces` (0 shows 1), the first die first."""
            shown = [0, 0, 0, 0, 0, 0]  # per face, the mask of the dice showing it
            for die, face in enumerate(faces):
                shown[face] |= 1 << die
            present = [f for f in (0, 1, 2, 3, 4, 5) if shown[f]]
            return (
                max(map(popcount.__getitem__, shown)) > 2,
                *influx[shown[present[0]]],
                bonus[sum(1 << f for f in present)],
                tuple(number[f][shown[f]] for f in present),
            )

        weights = tuple(6 ** (ndice - 1 - die) for die in range(ndice))
        self.roll = roll
        # the faces shown as digits in base 6, the first die first -> `_Roll`
        self.rolls = _Memo(lambda key: roll(key // w % 6 for w in weights))
        most = len(m.path_cells) * 3 + 2 * ndice * m.rows + 12 * cells + 2  # actions at once
        self.nbits = tuple((n - 1).bit_length() for n in range(most))  # `chance.below`'s
        # per field, the fields on its lines, and the escorted moves of its pieces by what
        # stands on those fields (see `_escorted_for`)
        self.cross = tuple(
            _mask(t for line in m.lines[i] for t in line if t < cells) for i in range(cells)
        )
        self.width = max(spot) + 1  # bits in a mask
        self.longest = max(  # the dearest escorted move: more points change nothing
            (line[-1] for lines in self.lines for line in lines), default=1
        )
        self.shift = self.longest.bit_length() + 2  # bits for the points and the kind
        self.escorted = tuple(_Memo(self._escorted_for(i)) for i in range(cells))
        # placed mask -> the frontier's TILE actions
        self.tiles = _Memo(lambda placed: tuple((TILE, i) for i in _frontier(m, placed)))
        # (mask of free camp entry fields) << 12 | `_camp_options` -> the ENTER actions
        self.enters = _Memo(
            lambda key: tuple(
                (ENTER, c, i, tent)
                for c in range(ndice)
                for tent in (0, 1)
                if key >> 2 * c + tent & 1
                for i in m.camp_cells
                if key >> 12 >> i & 1
            )
        )
        # a mask of camp entry fields -> those fields
        self.camp_fields = _Memo(lambda free: tuple(i for i in m.camp_cells if free >> i & 1))
        # placed path fields without a water bearer -> the SEND actions
        self.sends = _Memo(lambda free: tuple((SEND, i) for i in m.path_cells if free >> i & 1))
        # thirst fields, face up or black -> the PROTECT actions
        self.protects = _Memo(
            lambda thirsty: tuple((PROTECT, i) for i in m.path_cells if thirsty >> i & 1)
        )

    def _escorted_for(self, cell: int) -> Callable[[int], tuple[Action, ...]]:
        """The escorted moves from `cell` by key: ((fields on its lines the piece can stand
        on) << width | (fields there that stop it)) << shift | points << 2 | kind."""
        lines, full, camp = self.lines[cell], (1 << self.model.cells) - 1, self.camp
        width, shift, most = self.width, self.shift, (1 << (self.shift - 2)) - 1

        def escorted(key: int) -> tuple[Action, ...]:
            kind, budget = key & 3, key >> 2 & most
            gaps, stand = key >> shift & full, key >> shift + width
            stop = gaps | camp if kind & 1 else gaps
            return tuple(_escorted(lines, cell, _PARTS[kind], stand, stop, budget))

        return escorted


def _camp_options(
    colours: tuple[int, ...], camp_figs: list[int], camp_tents: list[int]
) -> tuple[int, int]:
    """What the camp offers the usable `colours`, as masks with bit ``2 * colour`` for a
    figure and the next bit for a tent: (with fewer than 3 points, with 3 or more)."""
    few = every = 0
    for c in colours:
        if camp_figs[c]:
            few |= 1 << 2 * c
        if camp_tents[c]:
            every |= 1 << 2 * c + 1
    return few, few | every


def _plain_moves(
    cell: int, reach: tuple[int, ...], spot: tuple[int, ...]
) -> dict[int, tuple[Action, ...]]:
    """A group's one-field moves from `cell`, for every set of the fields in `reach` that
    can take it, keyed by that set's mask (`spot`: the bit per field and refuge); in
    `reach` order, as `rules.spend_actions`."""
    out = {}
    for chosen in range(1 << len(reach)):
        targets = [t for j, t in enumerate(reach) if chosen >> j & 1]
        out[_mask(spot[t] for t in targets)] = tuple((MOVE, cell, t, GROUP, 1) for t in targets)
    return out


def _line(cells: int, cell: int, line: tuple[int, ...]) -> tuple[int, bool, int, int, int]:
    """One of `model.lines[cell]` for `_escorted`: (mask of its fields, whether their
    numbers rise from `cell`, the step between them, the refuge it ends in or -1, the
    points to reach that refuge)."""
    refuge = line[-1] if line[-1] >= cells else -1
    fields = line[:-1] if refuge >= 0 else line
    rising = not fields or fields[0] > cell
    step = abs(fields[0] - cell) if fields else 1
    return _mask(fields), rising, step, refuge, len(fields) + 1


def _frontier(m: PlayModel, placed: int) -> list[int]:
    """`rules.new_frontier` for the fields in the `placed` mask."""
    return [
        i
        for i in m.path_cells
        if not placed >> i & 1
        and (i % m.width == m.path_columns or any(placed >> j & 1 for j in m.path_next[i]))
    ]


tables: PerModel[PlayModel, _Tables] = PerModel(_Tables)
"""The fast tables of a play model, built once and kept for the last few models."""


# --- the fast random game -----------------------------------------------------------------


def _escorted(lines: tuple, cell: int, part: int, stand: int, stop: int, budget: int) -> list:
    """`rules.escorted_moves` by masks: along each line the first field that `stops` the
    walk or that the part can `stand` on (a refuge at a line's end takes anything)."""
    out = []
    for fields, rising, step, refuge, far in lines:
        hits = fields & (stand | stop)
        if hits:
            if rising:
                t = (hits & -hits).bit_length() - 1
                cost = (t - cell) // step
            else:
                t = hits.bit_length() - 1
                cost = (cell - t) // step
            if cost <= budget and stand >> t & 1:
                out.append((MOVE, cell, t, part, cost))
        elif refuge >= 0 and far <= budget:
            out.append((MOVE, cell, refuge, part, far))
    return out


def _land(
    colour: list[int],
    figs: list[int],
    tents: list[int],
    bearer: list[int],
    mk: list[int],
    blue: int,
    cell: int,
    mc: int,
    mf: int,
    mt: int,
    mb: int,
) -> None:
    """`rules.put` on a field, keeping the masks (`play_random`'s `mk`; the piece may
    stand there)."""
    b = 1 << cell
    tc = colour[cell]
    if tc < 0:
        colour[cell], figs[cell], tents[cell], bearer[cell] = mc, mf, mt, mb
        mk[mc] |= b
        mk[-2] |= b
        if mb:
            mk[-3] |= b
        if mc == blue and mf == 1 and not mt:
            mk[-1] |= b
    elif tc == mc:
        figs[cell] += mf
        tents[cell] += mt
        if mb:
            bearer[cell] += mb
            mk[-3] |= b
        mk[-1] &= ~b  # blue figures join: more than one
    elif mc == blue:  # a lone water bearer joins the group as its escort
        bearer[cell] = 1
        mk[-3] |= b
    else:  # the group joins a lone water bearer, who escorts it
        colour[cell], figs[cell], tents[cell], bearer[cell] = mc, mf, mt, 1
        mk[blue] ^= b
        mk[-1] ^= b
        mk[mc] |= b
        mk[-3] |= b


def _entries(
    c: int,
    camp: int,
    mk: list[int],
    occupied: int,
    board: tuple[list[int], list[int], list[int], list[int]],
    west: tuple[int, ...],
    field_of: dict[int, int],
    blue: int,
) -> int:
    """`rules.influx_cells` as a mask: the free camp entry fields, and those holding one
    piece of colour `c` that the field west of it can take (`board`: the state's colour,
    figs, tents and tile lists)."""
    colour, figs, tents, tile = board
    entries = camp & ~mk[occupied]
    own = camp & mk[c]
    while own:
        low = own & -own
        own ^= low
        cell = field_of[low]
        if figs[cell] + tents[cell] == 1:
            w = west[cell]
            if tile[w]:
                tc = colour[w]
                if tc < 0 or tc == c or (tc == blue and figs[w] == 1 and not tents[w]):
                    entries |= low
    return entries


def play_random(t: _Tables, rng: random.Random, max_rounds: int) -> State:
    """One game of `RandomBot`s, the same as `rules.play_game` gives: the steps of a turn
    in order (roll and re-rolls, influx, number, road, spending, the turn's end), each
    decision drawn as `chance.pick` draws it among the actions `rules.legal_actions` lists,
    in the same order.

    Deliberately one long loop over local variables: this is the hot path of every
    random simulation. The board's lists are the state's own, kept as the rules keep
    them, so the rules' helpers run on `state` for the rare steps (the shortage, a win,
    the deck end, the leader). Beside them `mk` holds, per colour, the mask of the fields
    its groups hold, then the masks of the fields with a water bearer (`esc`), of the
    occupied fields and of the lone water bearers (blue fields with one figure); `placed`,
    `thirsty` and `black` are masks of the tiles. The state's dice, phase and points are
    not kept up to date: the record does not read them.
    """
    m = t.model
    state = rules.setup(m, rng, max_rounds)
    colour, figs, tents, bearer = state.colour, state.figs, state.tents, state.bearer
    tile, deadline, deck = state.tile, state.deadline, state.deck
    board = (colour, figs, tents, tile)  # for `_entries`
    camp_figs, camp_tents = state.camp_figs, state.camp_tents
    rfigs, rtents = state.refuge_figs, state.refuge_tents
    cells, blue, goal, tv, grace = m.cells, m.blue, m.goal, m.tent_value, rules.THIRST_GRACE
    k = ndice = len(m.colours)  # one die per colour
    last_seat, path_next = rules.PLAYERS - 1, m.path_next
    bit, field_of, reach, plain, west = t.bit, t.field_of, t.reach, t.plain, t.west
    rows, row_cells, refuge_of_row = t.rows, t.row_cells, t.refuge_of_row
    escorted, cross, width, longest, shift = t.escorted, t.cross, t.width, t.longest, t.shift
    tiles, enters, sends, protects = t.tiles, t.enters, t.sends, t.protects
    camp_fields = t.camp_fields
    rolls, nbits = t.rolls, t.nbits
    refuges, ground, paths, camp = t.refuges, t.ground, t.paths, t.camp
    goal_met, refuge_values = rules.goal_met, rules.refuge_values
    chain, ends_duty = rules.ROAD_TILES_CHAIN, rules.REFUGE_ENDS_DUTY
    road_optional = m.road_optional
    grb = rng.getrandbits
    rerolls = len(rules.REROLLS)  # every mask of the dice
    die_at = tuple(6 ** (ndice - 1 - die) for die in range(ndice))  # a die's digit in a key
    esc, occupied, lone = k, k + 1, k + 2  # `mk` after the colours' masks
    mk = [0] * (k + 3)  # the board is empty
    placed, thirsty, black = t.start, 0, 0  # placed tiles; thirst tiles face up; black ones
    tile_actions = tiles[placed] if deck else ()
    stands = placed & ground  # where groups may stand
    cards = state.cards
    decisions = legal_moves = 0
    leader, refuges_changed = -1, True
    seat = 0
    while True:
        # --- step 1: a round begins (thirst fields with pieces turn black); the roll
        if seat == 0:
            state.round += 1
            state.arrived = [0] * rules.PLAYERS
            turning = thirsty & ~black & mk[occupied]
            black |= turning
            while turning:
                low = turning & -turning
                turning ^= low
                cell = field_of[low]
                tile[cell] = BLACK
                deadline[cell] = state.round + grace
        arrived = state.arrived
        state.seat = seat
        may_stop = False
        # the six dice (`params` fixes six colours): the faces shown (0 shows 1) as the
        # digits of `key` in base 6, the first die first, each drawn as
        # `chance.below(rng, 6)`; written out die by die, as this runs every turn
        r = grb(3)
        while r >= 6:
            r = grb(3)
        key = r
        r = grb(3)
        while r >= 6:
            r = grb(3)
        key = key * 6 + r
        r = grb(3)
        while r >= 6:
            r = grb(3)
        key = key * 6 + r
        r = grb(3)
        while r >= 6:
            r = grb(3)
        key = key * 6 + r
        r = grb(3)
        while r >= 6:
            r = grb(3)
        key = key * 6 + r
        r = grb(3)
        while r >= 6:
            r = grb(3)
        key = key * 6 + r
        triple, pending, choose, bonus, numbers = rolls[key]
        if triple:  # three alike: re-roll any of the dice while the dice thrown show three alike
            while True:
                decisions += 1
                legal_moves += rerolls
                thrown = grb(ndice)  # one of the 2**ndice masks: `chance.below` takes the first
                if not thrown:
                    break
                counts = [0] * 6
                for die, at in enumerate(die_at):
                    if thrown >> die & 1:
                        r = grb(3)
                        while r >= 6:
                            r = grb(3)
                        key += (r - key // at % 6) * at
                        counts[r] += 1
                if max(counts) < 3:
                    break
            triple, pending, choose, bonus, numbers = rolls[key]
        # --- step 2: influx: the lowest number's colours but blue (blue among three or
        # more of them: one colour of the player's choice) bring a figure each
        if choose:  # `rules.influx_choices`: the colours that can come in
            options = [
                c
                for c in pending
                if camp_figs[c] and _entries(c, camp, mk, occupied, board, west, field_of, blue)
            ]
            pending = ()
            if options:
                decisions += 1
                legal_moves += len(options)
                pending = (pick(rng, options),)
        for c in pending:
            if not camp_figs[c]:
                continue
            entries = _entries(c, camp, mk, occupied, board, west, field_of, blue)
            if entries:
                entries = camp_fields[entries]
                decisions += 1
                legal_moves += len(entries)
                cell = pick(rng, entries)
                if colour[cell] >= 0:  # push the own colour west; the bearer stays
                    pushed = (west[cell], c, figs[cell], tents[cell], 0)
                    _land(colour, figs, tents, bearer, mk, blue, *pushed)
                else:
                    colour[cell] = c
                    mk[c] |= bit[cell]
                    mk[occupied] |= bit[cell]
                figs[cell], tents[cell] = 1, 0
                camp_figs[c] -= 1
        # --- step 3: the number
        n = len(numbers)
        decisions += 1
        legal_moves += n
        if n == 1:
            r = 0
        else:
            r = grb(nbits[n])
            while r >= n:
                r = grb(nbits[n])
        points, usable, usable_colours, plainly, _ = numbers[r]
        # --- step 4: a road: tiles or a boost
        if bonus:
            occ = mk[occupied]
            roads = [rules.ROAD_TILES] if tile_actions else []
            roads += [
                r for r, row_paths, row_all in rows if not row_paths & ~placed and row_all & occ
            ]
            if roads and road_optional:
                roads.append(rules.ROAD_DECLINE)
            if roads:
                decisions += 1
                legal_moves += len(roads)
                row = pick(rng, roads)
                if row == rules.ROAD_DECLINE:
                    pass
                elif row < 0:  # road tiles, free, each beside the last, drawn before laid
                    left, last = bonus, -1
                    while left > 0 and deck:
                        if last < 0:
                            options = [a[1] for a in tile_actions]
                        else:
                            options = [nb for nb in path_next[last] if tile[nb] == NONE]
                        if not options:
                            break
                        decisions += 1
                        legal_moves += len(options)
                        cell = pick(rng, options)
                        face = tile[cell] = deck.pop()
                        placed |= bit[cell]
                        if face == THIRST:
                            thirsty |= bit[cell]
                        tile_actions = tiles[placed] if deck else ()
                        stands = placed & ground
                        state.tiles_placed += 1
                        left -= 1
                        last = cell if chain else -1
                else:  # `rules.boost`: the row's pieces step west, nearest the refuge first
                    for start in row_cells[row]:
                        mc = colour[start]
                        if mc < 0:
                            continue
                        cell = start
                        for _ in range(bonus):
                            w = west[cell]
                            if w < 0:
                                break
                            mf, mt, mb = figs[cell], tents[cell], bearer[cell]
                            tc = colour[w] if w < cells else -1
                            if tc >= 0:  # `rules.can_stand` for a whole field's pieces
                                if tc == mc:
                                    if mc != blue and bearer[w] + mb > 1:
                                        break
                                elif mc == blue and mf == 1 and not mt:  # a lone bearer
                                    if tc == blue or bearer[w]:
                                        break
                                elif tc != blue or figs[w] != 1 or tents[w] or mb:
                                    break
                            b = bit[cell]
                            colour[cell], figs[cell], tents[cell], bearer[cell] = -1, 0, 0, 0
                            mk[mc] ^= b
                            mk[occupied] ^= b
                            mk[lone] &= ~b
                            if mb:
                                mk[esc] ^= b
                            if w >= cells:  # into the refuge (`rules.put`)
                                s = w - cells
                                rfigs[s][mc] += mf
                                rtents[s][mc] += mt
                                rfigs[s][blue] += mb
                                arrived[s] += mb + (mf if mc == blue else 0)
                                may_stop = may_stop or ends_duty
                                refuges_changed = True
                                break
                            _land(colour, figs, tents, bearer, mk, blue, w, mc, mf, mt, mb)
                            if tc >= 0:  # it joined a group: it stops
                                break
                            cell = w
                    s = refuge_of_row[row]
                    if s >= 0 and goal_met(refuge_values(state, s), blue, goal):
                        rules.check_win(state)
                        break
        # --- step 5: spend the points
        blue_ok = usable[blue]
        camp_few, camp_all = _camp_options(usable_colours, camp_figs, camp_tents)
        single = usable_colours[0] if len(usable_colours) == 1 else -1  # one usable colour
        while points > 0:
            actions = [DRAW_ACTION] if tile_actions else []
            occ = mk[occupied]
            free = camp & ~occ
            if free:
                if points >= 3:
                    if camp_all:
                        actions += enters[free << 12 | camp_all]
                elif camp_few:
                    actions += enters[free << 12 | camp_few]
            if blue_ok:  # others' water bearers move on blue only
                todo = mk[esc]
                for c in usable_colours:
                    todo |= mk[c]
            elif single >= 0:
                todo = mk[single]
            else:
                todo = 0
                for c in usable_colours:
                    todo |= mk[c]
            if todo and not blue_ok and not todo & mk[esc]:  # plain moves only: the most
                # common case, without the checks for water bearers
                takers = refuges | stands & (~occ | mk[lone])  # fields any group may move onto
                if single >= 0:
                    near = takers | stands & todo
                    while todo:
                        low = todo & -todo
                        todo ^= low
                        cell = field_of[low]
                        actions += plain[cell][reach[cell] & near]
                else:
                    while todo:
                        low = todo & -todo
                        todo ^= low
                        cell = field_of[low]
                        near = takers | stands & mk[colour[cell]]
                        actions += plain[cell][reach[cell] & near]
            elif todo:
                empty = refuges | (stands & ~occ)
                takers = empty | stands & mk[lone]  # fields any group may move onto
                tail = -1  # worked out when first needed (below)
                while todo:  # the occupied fields with something to move, in field order
                    low = todo & -todo
                    todo ^= low
                    cell = field_of[low]
                    c = colour[cell]
                    if plainly[c] or (c == blue and not figs[cell]):  # no bearer among them
                        actions += plain[cell][reach[cell] & (takers | stands & mk[c])]
                        if not bearer[cell]:
                            continue
                    # escorted pieces: `_Tables.escorted` by what stands around
                    if tail < 0:
                        gaps = ~placed
                        bearers_stop = (stands | camp & ~mk[blue]) & ~mk[esc]
                        tail = (points if points < longest else longest) << 2
                    around = cross[cell]
                    if c == blue:  # blue figures: water bearers, who may pass
                        if mk[lone] & low:
                            key = (bearers_stop & around) << width | gaps & around
                            actions += escorted[cell][key << shift | tail | _LONE]
                        else:
                            key = ((empty | stands & mk[blue]) & around) << width
                            actions += escorted[cell][
                                (key | gaps & around) << shift | tail | _BLUES
                            ]
                        continue
                    if blue_ok:
                        key = (bearers_stop & around) << width | gaps & around
                        actions += escorted[cell][key << shift | tail | _BEARER]
                    # with its group (the colour is usable, or blue is: `todo` holds no other)
                    key = ((empty | stands & mk[c] & ~mk[esc]) & around) << width
                    actions += escorted[cell][(key | gaps & around) << shift | tail | _ESCORT]
            if blue_ok:
                home = rfigs[seat][blue]
                if home > arrived[seat]:
                    actions += sends[placed & paths & ~mk[esc]]
                if points >= rules.PROTECT_COST and cards > 0 and home > 0:
                    actions += protects[thirsty]
            if may_stop:
                actions.append(STOP_ACTION)
            n = len(actions)
            if not n:
                break
            decisions += 1
            legal_moves += n
            if n == 1:
                action = actions[0]
            else:
                r = grb(nbits[n])
                while r >= n:
                    r = grb(nbits[n])
                action = actions[r]
            kind = action[0]
            if kind == MOVE:
                _, src, dst, part, cost = action
                points -= cost
                mc = colour[src]
                if dst < cells and colour[dst] < 0 and not bearer[src] and mc != blue:
                    # the common move, a group alone onto an empty field, in one go
                    colour[dst], figs[dst], tents[dst] = mc, figs[src], tents[src]
                    colour[src], figs[src], tents[src] = -1, 0, 0
                    b = bit[src] | bit[dst]
                    mk[mc] ^= b
                    mk[occupied] ^= b
                    continue
                b = bit[src]  # lift the part off src (`rules.mover` and `rules.take`)
                if part == BEARER:
                    mc, mf, mt, mb = blue, 1, 0, 0
                    bearer[src] = 0
                    mk[esc] ^= b
                elif bearer[src] and part == GROUP:  # the water bearer stays behind
                    mf, mt, mb = figs[src], tents[src], 0
                    colour[src], figs[src], tents[src], bearer[src] = blue, 1, 0, 0
                    mk[mc] ^= b
                    mk[blue] |= b
                    mk[esc] ^= b
                    mk[lone] |= b
                else:
                    mf, mt, mb = figs[src], tents[src], bearer[src]
                    colour[src], figs[src], tents[src], bearer[src] = -1, 0, 0, 0
                    mk[mc] ^= b
                    mk[occupied] ^= b
                    if mb:
                        mk[esc] ^= b
                    elif mc == blue:
                        mk[lone] &= ~b
                if dst >= cells:  # into a refuge (`rules.put`)
                    s = dst - cells
                    rfigs[s][mc] += mf
                    rtents[s][mc] += mt
                    rfigs[s][blue] += mb
                    arrived[s] += mb + (mf if mc == blue else 0)
                    may_stop = may_stop or ends_duty
                    refuges_changed = True
                    if goal_met(refuge_values(state, s), blue, goal):
                        rules.check_win(state)
                        break
                    continue
                b = bit[dst]  # set it down on dst (`_land`, inlined)
                tc = colour[dst]
                if tc < 0:
                    colour[dst], figs[dst], tents[dst], bearer[dst] = mc, mf, mt, mb
                    mk[mc] |= b
                    mk[occupied] |= b
                    if mb:
                        mk[esc] |= b
                    if mc == blue and mf == 1 and not mt:
                        mk[lone] |= b
                elif tc == mc:
                    figs[dst] += mf
                    tents[dst] += mt
                    if mb:
                        bearer[dst] = 1
                        mk[esc] |= b
                    mk[lone] &= ~b  # blue figures join: more than one
                elif mc == blue:  # a lone water bearer joins the group as its escort
                    bearer[dst] = 1
                    mk[esc] |= b
                else:  # the group joins a lone water bearer, who escorts it
                    colour[dst], figs[dst], tents[dst], bearer[dst] = mc, mf, mt, 1
                    mk[blue] ^= b
                    mk[lone] ^= b
                    mk[mc] |= b
                    mk[esc] |= b
            elif kind == ENTER:
                _, c, cell, tent = action
                if tent:
                    camp_tents[c] -= 1
                    points -= 3
                else:
                    camp_figs[c] -= 1
                    points -= 1
                colour[cell], figs[cell], tents[cell] = c, 1 - tent, tent
                mk[c] |= bit[cell]
                mk[occupied] |= bit[cell]
                if c == blue and not tent:
                    mk[lone] |= bit[cell]
                if c == blue and not tent and camp_figs[c] == 0:
                    state.phase = rules.P_SPEND
                    rules.start_shortage(state)
                    while state.phase == rules.P_SWAP:  # step 7: swaps, figure by figure
                        swaps = rules.legal_actions(state)
                        if not swaps:
                            state.swaps.clear()
                            state.phase = state.back_phase
                            break
                        decisions += 1
                        legal_moves += len(swaps)
                        rules.swap(state, pick(rng, swaps)[1])
                    refuges_changed = True
                camp_few, camp_all = _camp_options(usable_colours, camp_figs, camp_tents)
            elif kind == DRAW:  # the tile is drawn and seen, then its slot chosen
                face = deck.pop()
                n = len(tile_actions)
                decisions += 1
                legal_moves += n
                if n == 1:
                    cell = tile_actions[0][1]
                else:
                    r = grb(nbits[n])
                    while r >= n:
                        r = grb(nbits[n])
                    cell = tile_actions[r][1]
                tile[cell] = face
                placed |= bit[cell]
                if face == THIRST:
                    thirsty |= bit[cell]
                tile_actions = tiles[placed] if deck else ()
                stands = placed & ground
                state.tiles_placed += 1
                points -= 1
            elif kind == SEND:
                rfigs[seat][blue] -= 1
                _land(colour, figs, tents, bearer, mk, blue, action[1], blue, 1, 0, 0)
                state.water_missions += 1
                points -= 1
                refuges_changed = True
            elif kind == PROTECT:
                cell = action[1]
                tile[cell] = GUARDED
                thirsty &= ~bit[cell]
                black &= ~bit[cell]
                cards -= 1
                points -= rules.PROTECT_COST
            else:  # STOP
                points = 0
        if state.ended:
            break
        # --- the turn ends: the leader; at a round's end thirst kills; the end checks
        state.turns += 1
        if refuges_changed:
            rules.record_leader(state)
            leader, refuges_changed = state.leaders[-1], False
        else:
            state.leaders.append(leader)
        if seat == last_seat:
            dying, rnd = black, state.round
            while dying:
                low = dying & -dying
                dying ^= low
                cell = field_of[low]
                if deadline[cell] > rnd:
                    continue
                c = colour[cell]
                if c >= 0:
                    camp_figs[c] += figs[cell]
                    camp_tents[c] += tents[cell]
                    camp_figs[blue] += bearer[cell]
                    state.deaths += figs[cell] + tv * tents[cell] + bearer[cell]
                    mk[c] ^= low
                    mk[occupied] ^= low
                    mk[lone] &= ~low
                    if bearer[cell]:
                        mk[esc] ^= low
                    colour[cell], figs[cell], tents[cell], bearer[cell] = -1, 0, 0, 0
                tile[cell] = THIRST
                black ^= low
        if not deck and rules.nobody_can_win(state):
            state.ended = "deck"
            break
        if seat == last_seat and state.round >= max_rounds:
            state.ended = "timeout"
            break
        seat = (seat + 1) % rules.PLAYERS
    state.cards = cards
    state.decisions += decisions
    state.legal_moves += legal_moves
    return state


def warm(model: PlayModel) -> None:
    """Build the tables now with every roll of the dice (the runner calls this before it
    forks its workers, which would otherwise each work the rolls out)."""
    t = tables(model)
    if len(t.rolls) < 6 ** len(model.colours):
        t.rolls.update(
            enumerate(map(t.roll, itertools.product(range(6), repeat=len(model.colours))))
        )
