"""Exploding Dice for the simulation runner: the `pnp.sim` engine contract.

`play_one` runs a table-driven fast path: cells are ints, occupancy and each colour and
each face are bit masks, and every entry's push (landing cell, the cells that would break
the same-colour restriction, the dice that move) is looked up by the occupancy of its
line. It makes exactly the same random draws as the readable rules in `rules.py` played by
`pnp.play.forward.play`, so both give the same game for the same seed; the conformance data
(`tests/conformance/exploding-dice.json`) and `tests/test_ed_properties.py` check that
game by game. Kits whose dice of one colour carry different faces play on the readable
rules (rare, and drawing among unequal dice is itself a chance step).

Where the compiled kernel is built (`kernel.py`, `_kernel.c`) it plays instead of the fast
path, on grids up to 8 x 8, the same games again; `play_many` lets the runner hand it a
whole chunk of seeds at once.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import Any

from pnp.contract.hooks import EngineHooks
from pnp.games.exploding_dice import rules
from pnp.games.exploding_dice.fast import kernel
from pnp.games.exploding_dice.params import ExplodingDiceParams, PlayModel, play_model
from pnp.games.exploding_dice.rules import Termination
from pnp.games.exploding_dice.rules.bots import BOT_NAMES
from pnp.games.exploding_dice.rules.bots import make_bot as make_bot
from pnp.games.exploding_dice.rules.grid import Board
from pnp.play import fastpath
from pnp.play.chance import below, pick
from pnp.play.forward import play
from pnp.play.memo import PerModel
from pnp.play.outcome import GameRecord, SimOption
from pnp.runtime.errors import PnpError

BOTS = BOT_NAMES
MIN_PLAYERS = 2
MAX_PLAYERS = 4
DEFAULT_PLAYERS = 4
COOPERATIVE = False
PLAYOUT_TURNS = 10
"""Turns an mcts playout runs before the search scores it on the seats' points
(`State.standing`): a short look ahead, scored, makes a stronger bot than playing on to
the end of a game of twenty-odd turns (README, the skill trace at 50 and 200 playouts)."""
COUNTERS: dict[str, str] = {}
OPTIONS = (SimOption("two_colours", "Two players, two colours each.", label="two colours each"),)
ABSTRACTION = ""
TERMINATION = Termination
TABLES = "tables"
"""The Python fast path's name among the implementations (`play_fast`): what plays whole
games where the kernel does not."""


def prepare(params: ExplodingDiceParams, players: int, two_colours: bool = False) -> PlayModel:
    """Validate the kit for play and build its play model (the printed dice, grid, arrows)."""
    if two_colours and players != 2:
        raise PnpError(f"the two-colours-each variant is for 2 players, got {players}")
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise PnpError(f"Exploding Dice takes 2 to 4 players, got {players}")
    return play_model(params)  # validates: e.g. every start die must be able to show 1


def degenerate(model: PlayModel, players: int) -> str | None:
    """Setup puts each colour's first die on its start point and keeps the rest in the
    reserve; a turn begins by ending the game if the grid is full or the reserve empty.
    With a 2 x 2 grid the start dice fill it, with one die per colour the reserve starts
    empty: either way every game ends before its first turn."""
    starts = len(model.colours)
    if model.n * model.n <= starts:
        return (
            f"the {model.n} x {model.n} grid has {model.n * model.n} intersections and the "
            f"{starts} start dice fill them, so every game ends as 'full' before a turn is "
            "played (n must be at least 4)"
        )
    if len(model.dice) <= starts:
        return (
            f"with 1 die per colour all {len(model.dice)} dice start on the board and the "
            "reserve is empty, so every game ends at the first draw, before a turn is played "
            "(dice_per_colour must be at least 2)"
        )
    return None


def warm(model: PlayModel) -> None:
    """Build the kernel's board or the fast tables now (the runner calls this before it
    forks its workers, so a missing kernel is reported once, not once per worker)."""
    if kernel.missing() or kernel.boards(model) is None:
        _tables(model)


def new_state(
    model: PlayModel, players: int, rng: random.Random, two_colours: bool = False
) -> rules.State:
    """The readable rules' first position (the colours dealt with `rng`)."""
    return rules.new_game(model, players, rng, 2 if two_colours else 1)


def play_one(
    model: PlayModel,
    players: int,
    bot: str,
    seed: Any,
    two_colours: bool = False,
    reference: bool = False,
) -> GameRecord:
    """Play one game: on the kernel, else the fast path (`play_fast`). `reference=True`,
    or the readable rules chosen (`pnp.play.fastpath.using`), plays the readable rules."""
    rng = seed if isinstance(seed, random.Random) else random.Random(seed)
    if reference or fastpath.chosen() == fastpath.READABLE:
        seat = make_bot(bot, model)
        return play(new_state(model, players, rng, two_colours), seat, rng).record(tuple(COUNTERS))
    make_bot(bot, model)  # an unknown bot is a ValueError on every path
    record = kernel.play(model, players, 2 if two_colours else 1, bot == "greedy", rng)
    return record if record is not None else play_fast(model, players, bot, rng, two_colours)


def play_fast(
    model: PlayModel, players: int, bot: str, rng: random.Random, two_colours: bool = False
) -> GameRecord:
    """One game on the Python fast path (the tables), or on the readable rules for a kit
    the tables do not cover: what plays without the kernel."""
    tables = _tables(model)
    if tables is None:
        return play_one(model, players, bot, rng, two_colours, reference=True)
    each = 2 if two_colours else 1
    turns, end, scores, owners, leaders = _play_fast(tables, players, each, bot == "greedy", rng)
    return rules.game_record(model, owners, turns, end, scores, leaders)


def play_many(
    model: PlayModel, players: int, bot: str, seeds: list[str], two_colours: bool = False
) -> list[GameRecord] | None:
    """The games `play_one` plays from `random.Random(s)` for each seed text `s`, all in
    one call to the kernel; None where the kernel does not play this kit."""
    make_bot(bot, model)  # an unknown bot is a ValueError here too
    return kernel.play_seeded(model, players, 2 if two_colours else 1, bot == "greedy", seeds)


# --- tables -----------------------------------------------------------------------------


class _Memo(dict[int, Any]):
    """A dict that fills itself from `fn` on a miss (tables too big to precompute); it
    starts again empty past `cap` entries, so a long run's memory stays bounded."""

    def __init__(self, fn: Callable[[int], Any], cap: int = 1 << 16) -> None:
        super().__init__()
        self.fn = fn
        self.cap = cap

    def __missing__(self, key: int) -> Any:
        if len(self) >= self.cap:
            self.clear()
        value = self[key] = self.fn(key)
        return value


EAGER_LINE = 8
"""The longest line whose pushes are all worked out in advance (2**8 occupancies); a longer
line's are worked out as play meets them: a 16 x 16 grid's 64 lines have 2**16 each, which
took minutes and gigabytes to enumerate, and a game meets a few hundred of them."""
LINE_CAP = 1 << 12
"""Occupancies a long line remembers at once (`_Memo`)."""


Move = tuple[int, int, int, int, int]  # src, dst, src|dst bits, zone of src, zone of dst
Push = tuple[int, int, tuple[Move, ...], int]  # landing cell, bad mask, moves, occupancy after


class _Tables:
    """Everything `_play_fast` looks up, built once per play model.

    `push[e][occ & lmask[e]]` is, for a line with room, the tuple (landing cell, bad mask,
    moves, line occupancy after): the new die breaks the same-colour restriction iff its
    colour's mask meets `bad` (the landing cell's neighbours off the line, plus the old
    cell of the die that ends next to it on the line); `moves` are the dice that slide,
    far border first. `checks[e]` is (lmask[e], {occupancy: bad mask, or None when full}).
    """

    def __init__(self, model: PlayModel) -> None:
        board = Board.of(model)
        n2 = model.n * model.n
        self.n2 = n2
        self.full = (1 << n2) - 1
        self.colours = len(model.colours)
        self.starts = board.starts
        first = [next(d for d in model.dice if d.colour == c) for c in range(self.colours)]
        self.faces = [d.faces for d in first]
        self.reserve = [sum(d.colour == c for d in model.dice) - 1 for c in range(self.colours)]
        zone = [-1] * n2
        for z, cells in enumerate(board.zones):
            for c in cells:
                zone[c] = z
        self.zone = zone
        self.zones = len(board.zones)
        nbmask = [sum(1 << j for j in board.neighbours[i]) for i in range(n2)]
        self.stall_skip = model.stall == "skip"
        self.entries = len(board.lines)
        self.lmask = [sum(1 << c for c in line) for line in board.lines]
        self.push: list[Any] = []
        checks = []
        for e, line in enumerate(board.lines):
            if len(line) <= EAGER_LINE:
                table, bad = self._line_tables(line, nbmask, zone)
            else:
                table, bad = self._lazy_tables(line, nbmask, zone)
            self.push.append(table)
            checks.append((self.lmask[e], bad))
        self.checks = tuple(checks)

        def adjacent(mask: int) -> int:
            """Cells of `mask` with a neighbour in `mask`."""
            out, m = 0, mask
            while m:
                low = m & -m
                if nbmask[low.bit_length() - 1] & mask:
                    out |= low
                m ^= low
            return out

        def bits(mask: int) -> tuple[int, ...]:
            return tuple(i for i in range(n2) if mask >> i & 1)

        self.cell0, self.cm0, self.fm0 = [0] * n2, [0] * self.colours, [0] * 8
        self.zv0, self.occ0 = [0] * self.zones, 0
        for colour, start in enumerate(board.starts):  # the start dice, showing 1
            self.cell0[start] = colour << 3 | 1
            self.cm0[colour] |= 1 << start
            self.fm0[1] |= 1 << start
            self.occ0 |= 1 << start
            self.zv0[zone[start]] += 1
        self.nbmask = nbmask
        self.adj: Any = _Memo(adjacent)
        self.bits: Any = _Memo(bits)
        if n2 <= 16:  # small grids: plain lists over every mask
            self.adj, self.bits = _small_tables(model.n)

    @classmethod
    def _line_tables(
        cls, line: tuple[int, ...], nbmask: list[int], zone: list[int]
    ) -> tuple[dict[int, Push], dict[int, int | None]]:
        """(push, bad) of one line for every occupancy of its cells."""
        table: dict[int, Push] = {}
        bad: dict[int, int | None] = {}
        for pattern in range(1 << len(line)):
            occ = sum(1 << line[k] for k in range(len(line)) if pattern >> k & 1)
            push = cls._push_for(line, occ, nbmask, zone)
            bad[occ] = None if push is None else push[1]
            if push is not None:
                table[occ] = push
        return table, bad

    @classmethod
    def _lazy_tables(
        cls, line: tuple[int, ...], nbmask: list[int], zone: list[int]
    ) -> tuple[_Memo, _Memo]:
        """(push, bad) of one long line, each worked out when play first asks."""
        push = _Memo(lambda occ: cls._push_for(line, occ, nbmask, zone), LINE_CAP)

        def bad(occ: int) -> int | None:
            found = push[occ]
            return None if found is None else found[1]

        return push, _Memo(bad, LINE_CAP)

    @staticmethod
    def _push_for(
        line: tuple[int, ...], occ: int, nbmask: list[int], zone: list[int]
    ) -> Push | None:
        held = [c for c in line if occ >> c & 1]  # far border first = the packing order
        k = len(held)
        if k == len(line):
            return None
        moves = tuple(
            (src, line[j], (1 << src) | (1 << line[j]), zone[src], zone[line[j]])
            for j, src in enumerate(held)
            if src != line[j]
        )
        land = line[k]
        line_mask = sum(1 << c for c in line)
        bad = nbmask[land] & ~line_mask
        if held:
            bad |= 1 << held[-1]
        return land, bad, moves, sum(1 << line[j] for j in range(k + 1))


@lru_cache(maxsize=4)
def _small_tables(n: int) -> tuple[list[int], list[tuple[int, ...]]]:
    """`adj[m]` (cells of mask m with a neighbour in m) and `bits[m]` (m's cells, in
    order) for every mask of an n x n grid, by shifts rather than cell by cell."""
    size = 1 << (n * n)
    full = size - 1
    not_left = full & ~sum(1 << (r * n) for r in range(n))  # column 0 cleared
    not_right = full & ~sum(1 << (r * n + n - 1) for r in range(n))
    adj = [
        m & (((m << 1) & not_left) | ((m >> 1) & not_right) | ((m << n) & full) | (m >> n))
        for m in range(size)
    ]
    bits: list[tuple[int, ...]] = [()] * size
    for m in range(1, size):
        low = m & -m
        bits[m] = (low.bit_length() - 1, *bits[m ^ low])
    return adj, bits


def _build_tables(model: PlayModel) -> _Tables | None:
    """The fast tables, or None when a colour's dice differ (the reference engine runs)."""
    uniform = len(model.colours) == 4 and all(
        len({d.faces for d in model.dice if d.colour == c}) == 1 for c in range(len(model.colours))
    )
    return _Tables(model) if uniform else None


_tables: PerModel[PlayModel, _Tables | None] = PerModel(_build_tables)


# --- the fast game ------------------------------------------------------------------------


def _apply_push(
    t: _Tables,
    cell: list[int],
    cm: list[int],
    fm: list[int],
    zv: list[int],
    occ: int,
    e: int,
    code: int,
) -> int:
    """Slide the die `code` in at entry `e`, updating every mask; returns the occupancy."""
    after: int
    land, _, moves, after = t.push[e][occ & t.lmask[e]]
    for src, dst, xb, zs, zd in moves:
        v = cell[src]
        cell[dst] = v
        cell[src] = 0
        cm[v >> 3] ^= xb
        fm[v & 7] ^= xb
        if zs != zd:
            zv[zs] -= v & 7
            zv[zd] += v & 7
    b = 1 << land
    cell[land] = code
    cm[code >> 3] |= b
    fm[code & 7] |= b
    zv[t.zone[land]] += code & 7
    return (occ & ~t.lmask[e]) | after


def _gains(t: _Tables, cell: list[int], cm: list[int], fm: list[int]) -> list[int]:
    """Steps 4 and 5: each colour's points on this grid (the grid is left as it is)."""
    adj, bits = t.adj, t.bits
    gains = [0] * t.colours
    same = adj[cm[0]] | adj[cm[1]] | adj[cm[2]] | adj[cm[3]]
    for i in bits[same]:
        v = cell[i]
        gains[v >> 3] += v & 7
    boom = adj[fm[1]] | adj[fm[2]] | adj[fm[3]] | adj[fm[4]] | adj[fm[5]] | adj[fm[6]]
    for i in bits[boom]:
        v = cell[i]
        gains[v >> 3] += v & 7
    return gains


def _greedy_entry(
    t: _Tables,
    cell: list[int],
    cm: list[int],
    fm: list[int],
    occ: int,
    legal: Sequence[int],
    code: int,
    own: Sequence[int],
    others: Sequence[Sequence[int]],
    rng: random.Random,
) -> int:
    """The greedy bot's entry: best own gain minus best opponent gain; ties uniform."""
    best_value: int | None = None
    best: list[int] = []
    dummy = [0] * t.zones
    for e in legal:
        c2, cm2, fm2 = list(cell), list(cm), list(fm)
        _apply_push(t, c2, cm2, fm2, dummy, occ, e, code)
        g = _gains(t, c2, cm2, fm2)
        value = sum(g[c] for c in own) - max(sum(g[c] for c in cs) for cs in others)
        if best_value is None or value > best_value:
            best_value, best = value, [e]
        elif value == best_value:
            best.append(e)
    return pick(rng, best)


def _play_fast(
    t: _Tables, players: int, each: int, greedy: bool, rng: random.Random
) -> tuple[int, Termination, list[int], tuple[tuple[int, ...], ...], list[int]]:
    """One game with the same rules and the same random draws as `rules.play_game`.

    Deliberately one long loop over local variables: this is the hot path of every
    simulation (see `python -m pnp.bench`).
    """
    owners = rules.deal_colours(t.colours, players, each, rng)
    grb = rng.getrandbits
    ncol = t.colours
    cell, cm, fm, zv = t.cell0[:], t.cm0[:], t.fm0[:], t.zv0[:]
    occ = t.occ0
    res = t.reserve[:]
    scores = [0] * ncol
    faces = t.faces
    push, lmask, zone, checks = t.push, t.lmask, t.zone, t.checks
    n_entries = len(checks)
    k_entries = (n_entries - 1).bit_length()
    adj, bits, nbmask = t.adj, t.bits, t.nbmask
    full, skip = t.full, t.stall_skip
    seat_of = [-1] * ncol
    for s, o in enumerate(owners):
        for x in o:
            seat_of[x] = s
    if each == 2 or -1 in seat_of:
        seat_of = []
    leaders: list[int] = []
    add_leader = leaders.append
    leader = best = -1
    turns = quiet = seat = 0
    end = Termination.FULL if occ == full else None
    target, max_turns = rules.TARGET, rules.MAX_TURNS
    while end is None:
        # 1. highest zone; 2. draw and roll
        m = max(zv)
        c = zv.index(m)
        if not res[c] or zv.count(m) > 1:
            if res[0] and res[1] and res[2] and res[3]:  # the common case
                low = min(scores)
                if scores.count(low) == 1:
                    c = scores.index(low)
                else:
                    options = [k for k in range(ncol) if scores[k] == low]
                    c = options[below(rng, len(options))]
                res[c] -= 1
            else:
                avail = [k for k in range(ncol) if res[k]]
                if not avail:
                    end = Termination.RESERVE
                    break
                low = min(scores)  # over every colour; none of those left: any die
                options = [k for k in avail if scores[k] == low] or avail
                c = options[0] if len(options) == 1 else options[below(rng, len(options))]
                res[c] -= 1
        else:
            res[c] -= 1
        r = grb(3)
        while r >= 6:
            r = grb(3)
        f = faces[c][r]
        # 3. choose an entry: is there one where this colour fits?
        own = cm[c]
        ok = False
        for lm, tab in checks:
            bad = tab[occ & lm]
            if bad is not None and not own & bad:
                ok = True
                break
        if not ok and not skip:  # the redraw stall rule, colour by colour
            first_c, first_f = c, f
            res[c] += 1
            tried = [c]
            while not ok:
                untried = [k for k in range(ncol) if res[k] and k not in tried]
                if not untried:
                    break
                low = min([scores[k] for k in untried])
                c = pick(rng, [k for k in untried if scores[k] == low])
                tried.append(c)
                res[c] -= 1
                r = grb(3)
                while r >= 6:
                    r = grb(3)
                f = faces[c][r]
                own = cm[c]
                for lm, tab in checks:
                    bad = tab[occ & lm]
                    if bad is not None and not own & bad:
                        ok = True
                        break
                if not ok:
                    res[c] += 1
            if not ok:  # nothing fits: the first die and roll go in, restriction lifted
                c, f = first_c, first_f
                res[c] -= 1
                own = 0
                ok = True
        if ok:
            code = c << 3 | f
            if greedy:
                legal = []
                for e in range(n_entries):
                    lm, tab = checks[e]
                    bad = tab[occ & lm]
                    if bad is not None and not own & bad:
                        legal.append(e)
                if len(legal) == 1:
                    e = legal[0]
                else:
                    e = _greedy_entry(
                        t,
                        cell,
                        cm,
                        fm,
                        occ,
                        legal,
                        code,
                        owners[seat],
                        [o for s, o in enumerate(owners) if s != seat],
                        rng,
                    )
            else:  # uniform over the legal entries, by rejection (as RandomBot does)
                while True:
                    e = grb(k_entries)
                    if e < n_entries:
                        lm, tab = checks[e]
                        bad = tab[occ & lm]
                        if bad is not None and not own & bad:
                            break
            # 3. place: the same as _apply_push, inlined
            lm = lmask[e]
            land, _, moves, after = push[e][occ & lm]
            for src, dst, xb, zs, zd in moves:
                v = cell[src]
                cell[dst] = v
                cell[src] = 0
                cm[v >> 3] ^= xb
                fm[v & 7] ^= xb
                if zs != zd:
                    zv[zs] -= v & 7
                    zv[zd] += v & 7
            b = 1 << land
            cell[land] = code
            cm[c] |= b
            fm[f] |= b
            zv[zone[land]] += f
            occ = (occ & ~lm) | after
            placed = True
            # Only a moved or new die can touch an equal number: every pair of equal
            # neighbours exploded last turn. So look around those dice only.
            hit = nbmask[land] & fm[f]
            boom = hit | b if hit else 0
            for _, dst, _, _, _ in moves:
                hit = nbmask[dst] & fm[cell[dst] & 7]
                if hit:
                    boom |= hit | 1 << dst
        else:  # skip: the die goes back, the turn goes on
            res[c] += 1
            placed = False
            boom = 0
        # 4. score; 5. explode
        gained = False
        same = adj[cm[0]] | adj[cm[1]] | adj[cm[2]] | adj[cm[3]]
        if same:
            gained = True
            for i in bits[same]:
                v = cell[i]
                scores[v >> 3] += v & 7
        if boom:
            gained = True
            for i in bits[boom]:
                v = cell[i]
                k = v >> 3
                f = v & 7
                scores[k] += f
                res[k] += 1
                cell[i] = 0
                b = 1 << i
                cm[k] ^= b
                fm[f] ^= b
                zv[zone[i]] -= f
            occ ^= boom
        turns += 1
        if gained:
            best = max(scores)
            if seat_of:  # every colour owned by one seat: the top colour names the leader
                leader = seat_of[scores.index(best)] if scores.count(best) == 1 else -1
            else:
                ss = [sum([scores[x] for x in o]) for o in owners]
                top = max(ss)
                leader = ss.index(top) if ss.count(top) == 1 else -1
            quiet = 0
        elif placed:
            quiet = 0
        else:
            quiet += 1
        add_leader(leader)
        # 6. end checks
        if gained and best >= target:
            end = Termination.FIFTY
        elif occ == full:
            end = Termination.FULL
        elif quiet >= players:
            end = Termination.STALLED
        elif turns >= max_turns:
            end = Termination.TIMEOUT
        seat = (seat + 1) % players
    return turns, end, scores, owners, leaders


# the contract's optional members (`pnp.contract.hooks.EngineHooks`), typed where they are named
HOOKS = EngineHooks[PlayModel](
    playout_turns=PLAYOUT_TURNS, warm=warm, degenerate=degenerate, play_many=play_many
)
