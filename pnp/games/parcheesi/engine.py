"""Parcheesi for the simulation runner: the engine contract (see `pnp.outcome`).

`play_one` plays a whole game in the compiled kernel (`_kernel.c`) when it was built at
install time: the reference rules spelled out in C, with the same random draws, so a seed
gives the same game (`tests/test_parcheesi_kernel.py`). Without a C compiler pnp still
installs and plays the Python path below, several times slower.

The Python path is a fast one too. A roll is seen in the mover's progress coordinates as a few
bit masks (spaces with one opposing pawn, with two, with an opposing blockade). Most rolls
are settled without searching move orders: an entry with a 5 (`_enter`), or a share-out
of the dice among the pawns (`_share`), whose per-pawn tables are cached by what lies in
front of the pawn. The rest (captures and their bonuses, two 5s entering, plays that
cannot use every die) go to a search over part-played rolls, each visited once, with all
pawns moved at once by bit masks (`_search`). Results are integer keys that sort as the
reference's `Position`s do. The fast path makes exactly the same random draws as the
reference engine in `rules.py`, so both give the same game for the same seed
(`tests/test_parcheesi_properties.py`); `reference=True` runs the reference instead.
"""

from __future__ import annotations

import random
from typing import Any

from pnp.errors import PnpError
from pnp.games.parcheesi import rules as ref
from pnp.games.parcheesi.bots import BOT_NAMES, make_bot
from pnp.games.parcheesi.model import PlayModel, play_model
from pnp.games.parcheesi.params import RULES, ParcheesiParams
from pnp.memo import PerModel
from pnp.outcome import GameRecord, SimOption

try:
    from pnp.games.parcheesi import _kernel
except ImportError:  # built without a C compiler: the Python path plays
    _kernel = None

BOTS = BOT_NAMES
MIN_PLAYERS = 2
MAX_PLAYERS = 4
DEFAULT_PLAYERS = 4
COOPERATIVE = False
ABSTRACTION = ""
COUNTERS = {
    "captures": "opposing pawns sent back to their nest",
    "decisions": "rolls whose allowed plays lead to more than one position",
    "legal_moves": "distinct positions offered, summed over those rolls",
    "entries": "pawns brought out of a nest",
    "passes": "rolls that moved nothing",
}
RATIOS = {"branching_factor": ("legal_moves", "decisions")}
OPTIONS = (
    SimOption(
        "rules",
        "seed: the printed sheet's rules; standard: doubles' bottom faces only once every "
        "pawn is out, another roll after a double, a third double penalised, 10 for home",
        kind=str,
        choices=RULES,
        default="seed",
    ),
)


def prepare(params: ParcheesiParams, players: int, rules: str | None = None) -> PlayModel:
    """Validate the kit for play and build its play model (`rules` overrides the kit's)."""
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise PnpError(f"Parcheesi takes {MIN_PLAYERS} to {MAX_PLAYERS} players, got {players}")
    if rules is not None and rules not in RULES:
        raise PnpError(f"unknown rules '{rules}': choose one of {', '.join(RULES)}")
    return play_model(params, rules)


def warm(model: PlayModel) -> None:
    """Build the path tables now (the runner calls this before it forks its workers)."""
    _tables(model)


def play_one(
    model: PlayModel,
    players: int,
    bot: str,
    rng: Any,
    rules: str | None = None,
    reference: bool = False,
    compiled: bool = True,
) -> GameRecord:
    """Play one game (`rng` a seeded `random.Random`, or a seed for one). `reference=True`
    runs the readable engine, `compiled=False` the Python fast path (for cross-checks)."""
    if bot not in BOTS:
        raise PnpError(f"unknown bot '{bot}': choose one of {', '.join(BOTS)}")
    rng = rng if isinstance(rng, random.Random) else random.Random(rng)
    if rules is not None:
        model = ref.with_rules(model, rules)
    if reference:
        state = ref.play_game(model, players, make_bot(bot), rng)
        turns, end, pawns = state.turns, state.ended or "", state.pawns
        leaders, counters = state.leaders, state.counters
    elif compiled and _kernel is not None:
        turns, end, pawns, leaders, counters = _play_compiled(
            _tables(model), players, bot == "greedy", rng
        )
    else:
        turns, end, pawns, leaders, counters = _play_fast(
            _tables(model), players, bot == "greedy", rng
        )
    seats = ref.seat_colours(players)
    scores = tuple([pawns[c].count(model.home) for c in seats])
    winners = tuple([s for s, n in enumerate(scores) if n == ref.PAWNS]) if end == "home" else ()
    colours = tuple([(model.colours[c],) for c in seats])
    return GameRecord(turns, end, scores, winners, colours, tuple(leaders), counters)


# --- tables -------------------------------------------------------------------------------

_CAPTURE, _HOME = ref.CAPTURE_BONUS, ref.HOME_BONUS
_CAP = 96  # bits of a result key below the pawns' part: the captured nodes (nodes < 96)
_NODES = (1 << _CAP) - 1


class _Tables:
    """What the fast path looks up. Everything about a roll is in the mover's progress
    coordinates (bit p = the space at progress p), except captured nodes (node bits).

    `bit[c][p + 1]`: the node bit of colour c's progress p (0 for nest and home);
    `safe[c]`: progress bits of colour c's safe spaces; `strip[c]`: its first strip
    progress; `weight[p + 1]`: 8 ** (home - p), so that the weight sum K of a set of
    pawns orders such sets backwards to their sorted tuples (see `_results`).
    """

    def __init__(self, model: PlayModel) -> None:
        self.home = home = model.home
        self.standard = model.rules == "standard"
        self.entry, self.track = model.entry, model.track
        self.strip = [p.index(model.home_entry[c]) + 1 for c, p in enumerate(model.paths)]
        for c, path in enumerate(model.paths):  # `_rotate` needs the track numbered in order
            if path[: self.strip[c]] != tuple(
                (model.entry[c] + q) % model.track for q in range(self.strip[c])
            ):
                raise ValueError("the fast engine needs track spaces numbered along travel")
        self.bit = [[0] + [1 << n for n in path[:home]] + [0] for path in model.paths]
        self.safe = [
            sum(1 << q for q in range(home) if model.safe[path[q]]) for path in model.paths
        ]
        self.weight = [8 ** (home - p) for p in range(-1, home + 1)]
        self.kmax = 8 ** (home + 2)
        self.shift = {  # key change when a pawn on p moves v: see `_search`
            v: [(self.weight[p + 1] - self.weight[p + v + 1]) << _CAP for p in range(home - v + 1)]
            for v in (1, 2, 3, 4, 5, 6, _HOME, _CAPTURE)
        }
        self.shares: dict[tuple, tuple | None] = {}  # `_share_table` by pawn and surroundings
        self.board = (
            _kernel.board([p[:home] for p in model.paths], model.safe, self.strip)
            if _kernel is not None
            else None
        )


_tables: PerModel[PlayModel, _Tables] = PerModel(_Tables)


# --- one roll -------------------------------------------------------------------------------


def _rotate(t: _Tables, c: int, nodes: int) -> int:
    """Track node bits as colour c's progress bits (its strip never holds opponents)."""
    e, n = t.entry[c], t.track
    nodes &= (1 << n) - 1
    return ((nodes >> e) | (nodes << (n - e))) & ((1 << t.strip[c]) - 1)


def _decode(t: _Tables, z: int) -> tuple[tuple[int, ...], int]:
    """A result key back to (the mover's pawns sorted, captured node bits): K's base-8
    digits are pawn counts, the top digit the nest's."""
    k = t.kmax - (z >> _CAP)
    own: list[int] = []
    while k:
        e = (k.bit_length() - 1) // 3
        n = k >> 3 * e
        own += [t.home - e] * n
        k -= n << 3 * e
    return tuple(own), z & _NODES


def _results(
    t: _Tables,
    c: int,
    own: list[int],
    dice: tuple[int, ...],
    pair: bool,
    o1: int,
    o2: int,
    oblk: int,
) -> list[int]:
    """The allowed results of one roll, as sorted keys: decision 12 applied to every
    complete play (decision 11), the list `rules.allowed_positions` gives.

    A key is `(kmax - K) << 96 | captured`, K the weight sum of the mover's pawns: keys
    sort as the reference's `Position`s do. `o1`, `o2` and `oblk` are the node bits of
    spaces holding one opposing pawn, two, and two of one opposing colour.
    """
    o1p, o2p, oblkp = _rotate(t, c, o1), _rotate(t, c, o2), _rotate(t, c, oblk)
    quick = _assign(t, c, own, dice, pair, o1p, o2p, oblkp)
    if quick is not None:
        return quick
    found: dict[int, int] = {}  # key -> most dice pips over the complete plays reaching it
    _search(t, c, own, dice, pair, o1p, o2p, oblkp, found)
    if len(found) == 1:
        return list(found)
    top, kmax, nest = _CAP, t.kmax, t.weight[0]
    nests = {z: (kmax - (z >> top)) // nest for z in found}
    fewest = min(nests.values())  # the most entries
    most = max([v for z, v in found.items() if nests[z] == fewest])
    return sorted([z for z, v in found.items() if v == most and nests[z] == fewest])


def _starts(home: int, v: int, o2p: int, oblkp: int) -> int:
    """Progress bits from which value v lands legally as far as the opponents go: not
    past home, not onto two pawns, not past or onto an opposing blockade."""
    ok = ((1 << (home - v + 1)) - 1) & ~(o2p >> v)
    while oblkp:  # a blockade on b bars the starts b - v .. b - 1
        low = oblkp & -oblkp
        oblkp ^= low
        b = low.bit_length() - 1
        ok &= ~((low - 1) ^ ((1 << (b - v if b > v else 0)) - 1))
    return ok


def _assign(
    t: _Tables,
    c: int,
    own: list[int],
    dice: tuple[int, ...],
    pair: bool,
    o1p: int,
    o2p: int,
    oblkp: int,
) -> list[int] | None:
    """The allowed results of a roll without the full search, or None when it needs it:
    some landing could capture (or, with `standard`, reach home for a bonus), two 5s
    could enter, or no play uses every value.

    Entries come first (decision 12): two dice totalling 5 enter together only before
    either is used; a single 5 enters before or after the other die moves (`_enter`).
    Otherwise every complete play uses all values and is a share-out of them (`_share`).
    """
    home, weight = t.home, t.weight
    k0 = 0
    on = []
    nest = 0
    for p in own:
        k0 += weight[p + 1]
        if p < 0:
            nest += 1
        elif p < home:
            on.append(p)
    lo, hi = dice[0], dice[-1]
    if nest and (pair or lo == 5 or hi == 5):
        if len(dice) != 2 or lo == hi:
            return None  # two 5s may enter
        if o1p & 1:
            return None  # entering would capture
        if not o2p & 1:  # the entry space is not full of opponents
            here = on.count(0)
            if pair:
                if here < 2:
                    return [(t.kmax - k0 + weight[0] - weight[1]) << _CAP]
            else:
                return _enter(t, c, on, k0, hi if lo == 5 else lo, o1p, o2p, oblkp)
    if not on:
        return None
    n_lo = dice.count(lo)
    return _share(t, c, on, k0, lo, hi, n_lo, len(dice) - n_lo, o1p, o2p, oblkp)


def _enter(
    t: _Tables, c: int, on: list[int], k0: int, x: int, o1p: int, o2p: int, oblkp: int
) -> list[int] | None:
    """A 5, another die x, a pawn in the nest and no opponent on the entry space: the pawn
    enters and x moves any pawn that can take it, the new one too (the order does not
    matter then). If the mover's own blockade stands on the entry space, one of its
    pawns must take x first; if it cannot, nothing enters and the dice are shared out."""
    home, weight = t.home, t.weight
    start = _starts(home, x, o2p, oblkp)
    hazard = o1p & ~t.safe[c]
    blocked = on.count(0) == 2
    pawns = on if blocked else [*on, 0]
    s1 = s2 = 0
    for p in pawns:
        b = 1 << p
        s1, s2 = (s1 ^ b, s2 | b) if s1 & b else (s1 | b, s2)
    entered = k0 - weight[0] + weight[1]
    found = set()
    for p in sorted(set(pawns)):
        q = p + x
        if not start >> p & 1:
            continue
        if q == home:
            if t.standard:
                return None  # the home bonus
        elif 1 << q & hazard:
            return None  # a capture might follow
        elif (s1 & o1p) >> q & 1:
            continue  # a full space
        if s2 & ((1 << min(q, home - 1) + 1) - (1 << p + 1)):
            continue  # an own blockade on the way
        if p == 0 or not blocked:
            found.add(entered - weight[p + 1] + weight[q + 1])
    if not found:
        if blocked:
            return _share(t, c, on, k0, min(5, x), max(5, x), 1, 1, o1p, o2p, oblkp)
        found.add(entered)
    kmax = t.kmax
    return sorted([(kmax - k) << _CAP for k in found])


_WINDOW = (1 << 16) - 1  # the spaces one pawn's share of two dice can touch: p .. p + 14


def _share(
    t: _Tables,
    c: int,
    on: list[int],
    k0: int,
    lo: int,
    hi: int,
    n_lo: int,
    n_hi: int,
    o1p: int,
    o2p: int,
    oblkp: int,
) -> list[int] | None:
    """Plays that use every value, as share-outs: pawn i takes x_i copies of the low value
    and y_i of the high one. None if a landing could capture (or earn the home bonus),
    or if no share-out is legal (then the full search finds the best partial plays).

    A pawn alone can take (x, y) if some order of its values lands legally among the
    opponents (`able`). Pawns touching no common space (start or landing) cannot affect
    one another; nor can two that meet only on an empty space no third pawn passes (their
    blockade is in nobody's way), unless they are the two pawns of a blockade at the start
    (decision 8). Other share-outs are checked order by order (`_feasible`).
    """
    home = t.home
    start_lo = _starts(home, lo, o2p, oblkp)
    start_hi = _starts(home, hi, o2p, oblkp) if n_hi else 0
    hazard = o1p & ~t.safe[c]
    cache = t.shares
    options = []
    for p in on:
        key = (p, lo, hi, n_lo, n_hi, start_lo >> p & _WINDOW, start_hi >> p & _WINDOW)
        key += (hazard >> p & _WINDOW,)
        table = cache.get(key, 0)
        if table == 0:
            if len(cache) > 1 << 16:
                cache.clear()
            table = cache[key] = _share_table(t, p, lo, hi, n_lo, n_hi, start_lo, start_hi, hazard)
        if table is None:
            return None  # a capture or a home bonus might follow
        options.append(table)
    if len(on) == 1:  # the commonest case: one pawn out takes every value
        entry = options[0][0][n_lo][n_hi]
        return [(t.kmax - k0 - entry[3]) << _CAP] if entry and entry[0] else None
    locked = [i > 0 and on[i] == on[i - 1] for i in range(len(on))]
    if not any(locked):
        t1 = t2 = c1 = c2 = c3 = 0  # the tallies of `assign` below, over every share
        for _, touch, cover, _ in options:
            t2 |= t1 & touch
            t1 |= touch
            c3 |= c2 & cover
            c2 |= c1 & cover
            c1 |= cover
        if not t2 & (o1p | c3):
            return _join(t, options, n_lo, n_hi, k0)
    found = set()
    last = len(on) - 1

    def assign(i, x_left, y_left, k, ok, plan, prev, t1, t2, c1, c2, c3) -> None:
        """Pawn i takes each share of what is left (the last pawn takes the rest).
        `t1`, `t2`: spaces touched (start or landing) by one pawn so far, by two;
        `c1`..`c3`: spaces touched or passed by one, two, three pawns; `ok` False once
        a pawn cannot take its share alone, None once decision 8 needs the exact check."""
        table = options[i][0]
        for x in range(x_left + 1) if i < last else (x_left,):
            row = table[x]
            for y in range(y_left + 1) if i < last else (y_left,):
                entry = row[y]
                if entry is None:
                    continue
                able, touch, cover, dk = entry
                ok2 = ok and able
                if locked[i] and prev & touch & ~(1 << on[i]) and ok2 is not False:
                    ok2 = None  # the pawns of a start blockade might meet again
                u1, u2 = t1 | touch, t2 | t1 & touch
                d1, d2, d3 = c1 | cover, c2 | c1 & cover, c3 | c2 & cover
                if i < last:
                    assign(
                        i + 1,
                        x_left - x,
                        y_left - y,
                        k + dk,
                        ok2,
                        (*plan, (x, y)),
                        touch,
                        u1,
                        u2,
                        d1,
                        d2,
                        d3,
                    )
                elif ok2 and not u2 & (o1p | d3):
                    found.add(k + dk)
                elif (ok2 is None or u2 & (o1p | d3)) and _feasible(
                    t, on, locked, (*plan, (x, y)), lo, hi, o1p, start_lo, start_hi
                ):
                    found.add(k + dk)

    assign(0, n_lo, n_hi, k0, True, (), 0, 0, 0, 0, 0, 0)
    if not found:
        return None
    kmax = t.kmax
    return sorted([(kmax - k) << _CAP for k in found])


def _share_table(
    t: _Tables,
    p: int,
    lo: int,
    hi: int,
    n_lo: int,
    n_hi: int,
    start_lo: int,
    start_hi: int,
    hazard: int,
) -> tuple | None:
    """For a pawn on p: the table [x][y] of (able, touched bits, covered bits, weight
    change), None past home; the touched and the covered bits over every share; the
    shares it can take alone as (x, y, weight change). None if some landing could
    capture (or earn the home bonus)."""
    home, weight = t.home, t.weight
    table: list = []
    touch_all = cover_all = 0
    for x in range(n_lo + 1):
        row: list = []
        table.append(row)
        for y in range(n_hi + 1):
            q = p + x * lo + y * hi
            if q > home:
                row.append(None)
                continue
            if x == y == 0:
                row.append((True, 1 << p, 1 << p, 0))
                continue
            bq = 1 << q if q < home else 0
            if bq & hazard or (t.standard and q == home):
                return None
            able, touch = False, bq
            if x and table[x - 1][y]:
                a, m, _, _ = table[x - 1][y]
                able = a and start_lo >> (q - lo) & 1
                touch |= m
            if y and row[y - 1]:
                a, m, _, _ = row[y - 1]
                able = able or a and start_hi >> (q - hi) & 1
                touch |= m
            cover = touch | ((1 << min(q, home - 1) + 1) - (1 << p + 1))
            row.append((bool(able), touch, cover, weight[q + 1] - weight[p + 1]))
            touch_all |= touch
            cover_all |= cover
    able = [(x, y, e[3]) for x, row in enumerate(table) for y, e in enumerate(row) if e and e[0]]
    return table, touch_all | 1 << p, cover_all | 1 << p, able


def _join(t: _Tables, options: list, n_lo: int, n_hi: int, k0: int) -> list[int] | None:
    """`_share` when no two pawns can get in each other's way: every pawn's shares it
    can take alone, added up pawn by pawn (by what they use) into whole plays."""
    sums: dict[tuple[int, int], list[int]] = {(0, 0): [k0]}
    for _, _, _, shares in options:
        grown: dict[tuple[int, int], list[int]] = {}
        for (x0, y0), ks in sums.items():
            for x, y, dk in shares:
                if x0 + x <= n_lo and y0 + y <= n_hi:
                    grown.setdefault((x0 + x, y0 + y), []).extend([k + dk for k in ks])
        sums = grown
    found = sums.get((n_lo, n_hi))
    if not found:
        return None
    kmax = t.kmax
    return sorted({(kmax - k) << _CAP for k in found})


def _feasible(
    t: _Tables,
    on: list[int],
    locked: list[bool],
    plan: tuple[tuple[int, int], ...],
    lo: int,
    hi: int,
    o1p: int,
    start_lo: int,
    start_hi: int,
) -> bool:
    """Whether some order of the planned moves (pawn i takes plan[i]: x low values and y
    high ones) is legal with every pawn on the board counted (decisions 5-8); pawn i
    with `locked[i]` formed a blockade with pawn i - 1 at the start."""
    home = t.home
    partner = list(range(len(on)))  # a pawn's partner in a start blockade, or itself
    for i, lock in enumerate(locked):
        if lock:
            partner[i], partner[i - 1] = i - 1, i

    def go(pos: list[int], left: list[tuple[int, int]], togo: int) -> bool:
        if not togo:
            return True
        walls = [r for j, r in enumerate(pos) if r in pos[j + 1 :] and r < home]
        for i in range(len(left) - 1, -1, -1):  # the front pawn first: it usually clears the way
            x, y = left[i]
            if not (x or y):
                continue
            p = pos[i]
            for v, n, start in ((lo, x, start_lo), (hi, y, start_hi)):
                if not n or not start >> p & 1:
                    continue
                q = p + v
                if walls and any(p < r <= q for r in walls):
                    continue  # an own blockade on the way
                if q < home and (pos.count(q) + (o1p >> q & 1) >= 2 or pos[partner[i]] == q):
                    continue  # a third pawn on a space, or decision 8
                rest = (x - 1, y) if v == lo and x else (x, y - 1)
                if go(pos[:i] + [q] + pos[i + 1 :], left[:i] + [rest] + left[i + 1 :], togo - 1):
                    return True
        return False

    return go(list(on), list(plan), sum(x + y for x, y in plan))


def _search(
    t: _Tables,
    c: int,
    own: list[int],
    dice: tuple[int, ...],
    pair: bool,
    o1p: int,
    o2p: int,
    oblkp: int,
    found: dict[int, int],
) -> None:
    """Every complete play of one roll, searched once per part-played roll.

    A part-played roll is: s1, s2 (progress bits of spaces holding one or two of the
    mover's pawns), n (pawns in the nest), k (the pawns' weight sum), the unused dice and
    bonuses (a shared `_values` record), captured nodes, the opposing singles left, and
    `locks`: for each blockade the mover had at the start, where its two pawns are now
    (decision 8). Pawns on one space are interchangeable, except a locked pawn and a free
    one. One value moves every pawn at once as bit masks: `starts[v]` holds the progress
    values from which v lands legally as far as the opponents go; the mover's own
    blockades and mixed pairs are taken out per part-played roll. With one value left,
    the moves that earn no bonus end the play: their keys go straight into `found`
    (`shift[v][p]`: the key change of a pawn on p moving v), with no recursion.
    """
    home, standard = t.home, t.standard
    weight, kmax = t.weight, t.kmax
    safe, nbit, shift = t.safe[c], t.bit[c], t.shift
    entry_node = nbit[1]
    w_nest, w_entry = weight[0], weight[1]
    total = sum(dice)
    starts: dict[int, int] = {}
    seen: set = set()

    def search(s1, s2, n, k, r, cap, o1c, pair, locks) -> None:
        leaf = True
        if n and (pair or r[2]) and not o2p & 1:  # decision 4
            here = (s1 & 1) + (s2 & 1) * 2
            single = o1c & 1
            if here + single < 2:
                leaf = False
                k2 = k - w_nest + w_entry
                e1, e2 = (s1 ^ 1, s2 | 1) if here else (s1 | 1, s2)
                o12, cap2 = (o1c ^ 1, cap | entry_node) if single else (o1c, cap)
                if r[2]:
                    r2 = r[2][single]
                    key = (k2, cap2, r2[0], locks)
                    if key not in seen:
                        seen.add(key)
                        search(e1, e2, n - 1, k2, r2, cap2, o12, False, locks)
                if pair:
                    r2 = paired[single]
                    key = (k2, cap2, r2[0], locks)
                    if key not in seen:
                        seen.add(key)
                        search(e1, e2, n - 1, k2, r2, cap2, o12, False, locks)
        occ = s1 | s2
        last = r[4]
        held = 0  # progress bits of the locked pawns
        for x, y in locks:
            held |= 1 << x | 1 << y
        for v, r2, r2cap, r2home in r[1]:
            ok = starts.get(v)
            if ok is None:
                ok = starts[v] = _starts(home, v, o2p, oblkp)
            ok &= occ & ~((s1 & o1c) >> v)  # not onto a mixed pair in the making
            b = s2
            while b and ok:  # nor past or onto the mover's own blockades
                low = b & -b
                b ^= low
                i = low.bit_length() - 1
                ok &= ~((low - 1) ^ ((1 << (i - v if i > v else 0)) - 1))
            if last:  # moves that end the play without a bonus: straight to the results
                plain = ok & ~held & ~((o1c & ~safe) >> v)
                if standard:
                    plain &= ~(1 << home - v)  # the home bonus
                if plain:
                    leaf = False
                    ok ^= plain
                    z0, dz = (kmax - k) << _CAP | cap, shift[v]
                    while plain:
                        bp = plain & -plain
                        plain ^= bp
                        found[z0 + dz[bp.bit_length() - 1]] = total  # no play has more pips
            while ok:
                bp = ok & -ok
                ok ^= bp
                p = bp.bit_length() - 1
                q = p + v
                k2 = k - weight[p + 1] + weight[q + 1]
                bq = 1 << q if q < home else 0
                hit = o1c & bq and not safe & bq  # decision 9
                moves = (
                    _lock_moves(locks, p, q, home, 2 if s2 & bp else 1) if held & bp else (locks,)
                )
                if not moves:
                    continue
                leaf = False
                if hit:
                    r3, o12, cap2 = r2cap, o1c ^ bq, cap | nbit[q + 1]
                elif q == home and standard:
                    r3, o12, cap2 = r2home, o1c, cap
                elif last:
                    found[(kmax - k2) << _CAP | cap] = total  # no play has more pips
                    continue
                else:
                    r3, o12, cap2 = r2, o1c, cap
                n1, n2 = (s1 | bp, s2 ^ bp) if s2 & bp else (s1 ^ bp, s2)
                if bq:
                    n1, n2 = (n1 ^ bq, n2 | bq) if n1 & bq else (n1 | bq, n2)
                for locks2 in moves:
                    key = (k2, cap2, r3[0], locks2)
                    if key not in seen:
                        seen.add(key)
                        search(n1, n2, n, k2, r3, cap2, o12, False, locks2)
        if leaf:
            z = (kmax - k) << _CAP | cap
            pips = total - r[3]
            if found.get(z, -1) < pips:
                found[z] = pips

    s1 = s2 = n = k = 0
    locks = []
    for p in own:
        k += weight[p + 1]
        if p < 0:
            n += 1
        elif p < home:
            b = 1 << p
            if s1 & b:
                s1, s2 = s1 ^ b, s2 | b
                locks.append((p, p))
            else:
                s1 |= b
    paired = (_values((), ()), _values((), (_CAPTURE,)))  # the pair enters: the dice are used
    search(s1, s2, n, k, _values(dice, ()), 0, o1p, pair, tuple(locks))


_VALUES: dict[tuple, list] = {}  # `_values` records: a few per roll of the dice


def _values(vals: tuple[int, ...], bon: tuple[int, ...]) -> list:
    """The unused dice and bonuses of a part-played roll as one shared record, built once:
    [id, spends, entering with a die 5, dice pips left, one value left]. A spend is
    (value, record after it, after it captures, after it reaches home); entering is
    (record without a capture, with one). The search follows these links and keys its
    part-played rolls by the id, instead of building and hashing tuples of values."""
    r = _VALUES.get((vals, bon))
    if r is not None:
        return r
    r = _VALUES[vals, bon] = [len(_VALUES), [], None, sum(vals), len(vals) + len(bon) == 1]
    for x, v in enumerate(vals):
        if not x or v != vals[x - 1]:
            r[1].append(_spend(v, vals[:x] + vals[x + 1 :], bon))
    for x, v in enumerate(bon):
        if not x or v != bon[x - 1]:
            r[1].append(_spend(v, vals, bon[:x] + bon[x + 1 :]))
    if 5 in vals:
        j = vals.index(5)
        rest = vals[:j] + vals[j + 1 :]
        r[2] = (_values(rest, bon), _values(rest, _plus(bon, _CAPTURE)))
    return r


def _spend(v: int, vals: tuple[int, ...], bon: tuple[int, ...]) -> tuple:
    """A spend of value v for `_values`, leaving these dice and bonuses."""
    return (
        v,
        _values(vals, bon),
        _values(vals, _plus(bon, _CAPTURE)),
        _values(vals, _plus(bon, _HOME)),
    )


def _plus(bon: tuple[int, ...], v: int) -> tuple[int, ...]:
    """The bonuses with one more of v earned."""
    return tuple(sorted((*bon, v)))


def _lock_moves(locks: tuple, p: int, q: int, home: int, here: int) -> list[tuple]:
    """The locks after one of the `here` pawns on progress p moves to q: one outcome per
    distinguishable pawn there (a free one, or a locked one of each start blockade); a
    locked pawn may not join its old partner again except at home (decision 8)."""
    out = []
    tagged = 0
    for j, (x, y) in enumerate(locks):
        if x == p or y == p:
            tagged += 2 if x == y else 1
            other = y if x == p else x
            if other != q or q == home:
                moved = (other, q) if other <= q else (q, other)
                out.append(locks[:j] + (moved,) + locks[j + 1 :])
    if tagged < here:
        out.append(locks)  # a free pawn moves
    return out


# --- the compiled game -------------------------------------------------------------------


def _play_compiled(t: _Tables, players: int, greedy: bool, rng: random.Random):
    """One game in `_kernel`, drawing from `rng`'s own Mersenne Twister state (handed over
    and taken back), so the game and the generator end as `_play_fast` leaves them."""
    version, words, gauss = rng.getstate()
    turns, end, pawns, leaders, counts, words = _kernel.play(
        t.board, ref.seat_colours(players), greedy, t.standard, ref.MAX_TURNS, words
    )
    rng.setstate((version, words, gauss))
    return turns, end, pawns, list(leaders), dict(zip(ref.COUNTERS, counts, strict=True))


# --- the fast game --------------------------------------------------------------------------


def _masks(bits: list[int], pawns: list[int]) -> tuple[int, int]:
    """(nodes with one pawn of these, nodes with two) from one colour's progress list."""
    one = two = 0
    for p in pawns:
        b = bits[p + 1]
        if one & b:
            one ^= b
            two |= b
        else:
            one |= b
    return one, two


def _greedy_rank(t: _Tables, c: int, z: int) -> tuple[int, int, int]:
    """`bots.greedy_rank` of a result key: captures, progress, safe pawns, read straight
    off the key's base-8 digits (pawn counts by progress, as in `_decode`)."""
    k = t.kmax - (z >> _CAP)
    home, strip, safe = t.home, t.strip[c], t.safe[c]
    progress = safe_pawns = 0
    while k:
        e = (k.bit_length() - 1) // 3
        n = k >> 3 * e
        k -= n << 3 * e
        p = home - e
        progress += n * p
        if p >= 0 and (p >= strip or safe >> p & 1 or n == 2):
            safe_pawns += n
    return (z & _NODES).bit_count(), progress, safe_pawns


def _play_fast(t: _Tables, players: int, greedy: bool, rng: random.Random):
    """One game with the same rules and the same random draws as `rules.play_game`.

    Deliberately one long loop over local variables: this is the hot path of every
    simulation (see `bench.py`).
    """
    seats = ref.seat_colours(players)
    home, standard, bits = t.home, t.standard, t.bit
    grb = rng.getrandbits
    pos = [[-1] * 4 for _ in range(4)]
    m1, m2 = [0] * 4, [0] * 4
    others = [tuple([d for d in seats if d != c]) for c in range(4)]
    captures = decisions = legal = entries = passes = 0
    leaders: list[int] = []
    turns = seat = 0
    end = ""
    while not end:
        c = seats[seat]
        bc = bits[c]
        opp = others[c]
        doubles = 0
        while True:
            r = grb(3)
            while r >= 6:
                r = grb(3)
            a = r + 1
            r = grb(3)
            while r >= 6:
                r = grb(3)
            b = r + 1
            own = pos[c]
            if a == b and standard:
                doubles += 1
                if doubles == 3:  # the penalty: the most advanced pawn not home, to its nest
                    out = [p for p in own if 0 <= p < home]
                    if out:
                        own[own.index(max(out))] = -1
                        own.sort()
                        m1[c], m2[c] = _masks(bc, own)
                    break
            if a != b:
                dice, pair = ((a, b) if a < b else (b, a)), a + b == 5
            elif standard and -1 in own:
                dice, pair = (a, a), False
            else:
                dice, pair = _DOUBLES[a], False
            if not (m1[c] or m2[c] or pair or 5 in dice):
                passes += 1  # nothing on the board and no 5: nothing to play
            else:
                o1 = o2 = oblk = 0
                for d in opp:
                    x = m1[d]
                    o2 |= o1 & x
                    o1 ^= x
                    oblk |= m2[d]
                keys = _results(t, c, own, dice, pair, o1, o2 | oblk, oblk)
                n = len(keys)
                if n > 1:
                    decisions += 1
                    legal += n
                    if greedy:
                        ranks = [_greedy_rank(t, c, z) for z in keys]
                        top = max(ranks)
                        keys = [z for z, rk in zip(keys, ranks, strict=True) if rk == top]
                        n = len(keys)
                if n == 1:
                    z = keys[0]
                else:
                    width = (n - 1).bit_length()
                    r = grb(width)
                    while r >= n:
                        r = grb(width)
                    z = keys[r]
                new, cap = _decode(t, z)
                if list(new) == own:
                    passes += 1
                else:
                    entries += own.count(-1) - new.count(-1)
                    own = pos[c] = list(new)
                    m1[c], m2[c] = _masks(bc, own)
                    if cap:
                        captures += cap.bit_count()
                        for d in opp:
                            if m1[d] & cap:
                                ps, bd = pos[d], bits[d]
                                for i in range(4):
                                    if cap & bd[ps[i] + 1]:
                                        ps[i] = -1
                                ps.sort()
                                m1[d], m2[d] = _masks(bd, ps)
            if own[0] == home or not (standard and a == b):
                break
        turns += 1
        totals = [sum(pos[d]) for d in seats]
        top = max(totals)
        leaders.append(totals.index(top) if totals.count(top) == 1 else -1)
        if pos[c][0] == home:
            end = "home"
        elif turns >= ref.MAX_TURNS:
            end = "timeout"
        seat = seat + 1 if seat + 1 < players else 0
    counters = {
        "captures": captures,
        "decisions": decisions,
        "legal_moves": legal,
        "entries": entries,
        "passes": passes,
    }
    return turns, end, pos, leaders, counters


_DOUBLES = {n: tuple(sorted((n, n, 7 - n, 7 - n))) for n in range(1, 7)}
