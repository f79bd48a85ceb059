"""Parcheesi cards: the rule deck, a player aid and their shared back.

The text comes from `templates/rules/parcheesi/` and follows the params (rules `seed` or
`standard`, paper dice or not), and its numbers come from `geometry.track`, the module
that draws the board and feeds the engine, so the cards describe the set that is printed
and simulated.
"""

from __future__ import annotations

from typing import cast

from shapely.geometry import box

from geometry import track
from pnp.draw.cards import (
    CardFormat,
    card_back,
    colour_key,
    fit_text_card,
    render_template,
    rule_deck,
    split_title,
)
from pnp.draw.checks import Finding
from pnp.draw.kit import PrintParams
from pnp.draw.scene import Component, Shape, Style
from pnp.games.parcheesi.kit.pawns import PAWNS
from pnp.games.parcheesi.params import ParcheesiParams, validate

GAME = "parcheesi"
TITLE = "Parcheesi"
ACCENT = "#4A2C5E"  # aubergine: dark enough for white titles, and no player's colour
BODY_MAX = 8.0
DECK_FLOOR = 7.0


def rules_context(p: ParcheesiParams) -> dict[str, object]:
    """The facts the templates print, from the params and the board graph. The board
    draws a colour's entry space pale in that colour and the other safe spaces dark, so
    the card names the two kinds apart."""
    entries = {track.entry_space(k) for k in range(track.COLOURS)}
    return {
        "pawns": PAWNS,
        "standard": p.rules == "standard",
        "paper_dice": p.paper_dice,
        "safe": len(track.SAFE_SPACES),
        "entries": len(entries),
        "plain_safe": len(set(track.SAFE_SPACES) - entries),
        "strip": track.STRIP_SPACES,
        "track": track.TRACK_SPACES,
    }


def parcheesi_cards(
    p: ParcheesiParams, printing: PrintParams
) -> tuple[list[Component], list[Finding]]:
    """The rule cards and the player aid (one per player), all backed by `card-back`."""
    validate(p)
    fmt = CardFormat.of(p, printing)
    back = card_back(TITLE, p.colours, fmt, ACCENT, subtitle="the two-dice race home")
    cards, findings = rule_deck(
        GAME, rules_context(p), fmt, ACCENT, back=back, body_max=BODY_MAX, floor=DECK_FLOOR
    )
    aid, found = player_aid(p, fmt, back)
    return [*cards, aid], findings + found


def player_aid(
    p: ParcheesiParams, fmt: CardFormat, back: Component | None = None
) -> tuple[Component, list[Finding]]:
    """A turn in seven lines, with the colour and symbol key along the bottom."""
    title, markup = split_title(render_template(GAME, "player-aid.j2", **rules_context(p)))
    aid, findings = fit_text_card(
        "player-aid", title or "Turn summary", markup, fmt, ACCENT, back=back, footer=7.5
    )
    aid.title = "Player aid"
    aid.copies = len(p.colours)  # one per player
    x0, y0, x1, y1 = cast(tuple[float, float, float, float], aid.meta["footer_box"])
    rule_y = y1 - 1.0
    aid.add(
        Shape(box(x0, rule_y - 0.1, x1, rule_y + 0.1), style=Style(fill="#C9C2B2", stroke=None))
    )
    aid.items.extend(colour_key(p.colours, x0, x1, (y0 + rule_y) / 2 - 0.1))
    return aid, findings
