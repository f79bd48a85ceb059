"""Desert Home's action notation, as a player would write a game down: fields by column
letter and row number (``a2`` is row 2's refuge entry field, column ``a``), colours by name.

    roll 4 | keep | reroll 1 3 | influx green | influx f1 | number 3 | road tiles | boost 2
    | no road | draw | tile e2 | enter red f3 | enter red tent f3 | move b2-a2 3 | move b2-a2
    bearer | move c2-a2 2+1t both 2 | move a2-refuge1 1t | send c4 | protect d2 | stop
    | swap white

A move names the figures (and ``t`` tents) it takes, then its part when that is not the
group alone (``both``: with the field's water bearer; ``bearer``: the water bearer alone),
then its cost when over one field.
"""

from __future__ import annotations

from pnp.games.desert_home.rules import (
    BEARER,
    BOTH,
    DRAW,
    ENTER,
    INFLUX,
    INFLUX_COLOUR,
    MOVE,
    NUMBER,
    PROTECT,
    REROLL,
    ROAD,
    ROAD_DECLINE,
    ROAD_TILES,
    ROLL,
    SEND,
    STOP,
    SWAP,
    TILE,
    Action,
)
from pnp.games.desert_home.rules.model import PlayModel

PARTS = {BEARER: " bearer", BOTH: " both"}


def field_text(model: PlayModel, cell: int) -> str:
    """``b3`` for column 1 of row 3 (rows from 1), ``refuge1`` for seat 0's refuge."""
    if cell >= model.cells:
        return f"refuge{cell - model.cells + 1}"
    row, col = divmod(cell, model.width)
    return f"{chr(ord('a') + col)}{row + 1}"


def amount_text(figs: int, tents: int) -> str:
    """``3``, ``1t`` or ``2+1t``: the figures and tents a move takes."""
    if not tents:
        return str(figs)
    return f"{figs}+{tents}t" if figs else f"{tents}t"


def action_text(model: PlayModel, action: Action) -> str:
    kind, *args = action
    at = lambda i: field_text(model, args[i])  # noqa: E731
    if kind == ROLL:
        return f"roll {args[0]}"
    if kind == REROLL:
        dice = [str(i + 1) for i in range(6) if args[0] >> i & 1]
        return "reroll " + " ".join(dice) if dice else "keep"
    if kind == INFLUX_COLOUR:
        return f"influx {model.colours[args[0]]}"
    if kind == INFLUX:
        return f"influx {at(0)}"
    if kind == NUMBER:
        return f"number {args[0]}"
    if kind == ROAD:
        named = {ROAD_TILES: "road tiles", ROAD_DECLINE: "no road"}
        return named.get(args[0], f"boost {args[0] + 1}")
    if kind == DRAW:
        return "draw"
    if kind == TILE:
        return f"tile {at(0)}"
    if kind == ENTER:
        return f"enter {model.colours[args[0]]}{' tent' if args[2] else ''} {at(1)}"
    if kind == MOVE:
        cost = f" {args[3]}" if args[3] > 1 else ""
        some = "" if args[2] == BEARER else f" {amount_text(args[4], args[5])}"
        return f"move {at(0)}-{at(1)}{some}{PARTS.get(args[2], '')}{cost}"
    if kind == SEND:
        return f"send {at(0)}"
    if kind == PROTECT:
        return f"protect {at(0)}"
    if kind == STOP:
        return "stop"
    if kind == SWAP:
        return f"swap {model.colours[args[0]]}"
    raise ValueError(f"not a Desert Home action: {action}")
