"""Home in One Piece cards: the rule deck (rules, making the dice, the dough recipe), a
player aid with the roll odds, and their shared back.

The text comes from `templates/rules/home-in-one-piece/` and follows the params (dough,
blobs, colours, the dice and their letters, sticker sizes), so the printed rules always
describe the printed and simulated set. The recipe's quantities are fixed facts.
"""

from __future__ import annotations

from typing import cast

from shapely.geometry import box

from pnp.draw.cards import (
    INK_TEXT,
    CardFormat,
    card_back,
    fit_text_card,
    render_template,
    rule_deck,
    split_title,
)
from pnp.draw.checks import Finding
from pnp.draw.kit import PrintParams
from pnp.draw.scene import Component, Shape, Style, Text
from pnp.draw.text import count_of
from pnp.games.home_in_one_piece.kit.dice_parts import describe_die
from pnp.games.home_in_one_piece.params import HomeInOnePieceParams, dough_to_use, validate
from pnp.games.home_in_one_piece.rules.dice_model import distribution

GAME = "home-in-one-piece"
TITLE = "Home in One Piece"
ACCENT = "#4E7A57"  # the home zone's green: calm, and no player's colour
TRACK = "#E4DED0"  # the empty part of an odds bar
BODY_MAX = 8.5
ODDS_HEAD = 5.0  # mm for the chart's heading
ODDS_ROW = 4.2  # mm per bar
DECK_FLOOR = 7.0


def _join(words: list[str]) -> str:
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def rules_context(p: HomeInOnePieceParams) -> dict[str, object]:
    """The facts the rule templates print, all taken from the params."""
    dist = distribution(p.dice)
    first, second = p.dough_colours
    return {
        "grams": f"{dough_to_use(p):g}",
        "blobs": p.blobs_per_player,
        "circles": 2 * p.blobs_per_player,
        "first": first,
        "second": second,
        "n_dice": len(p.dice),
        "blob_dice": count_of(len(p.dice), "blob die", "blob dice"),
        "letters": _join(list(p.die_letters)),
        "dice": [
            {"letter": letter, "faces": describe_die(faces)}
            for letter, faces in zip(p.die_letters, p.dice, strict=True)
        ],
        "sticker_sizes": " or ".join(f"{d:g}" for d in p.sticker_dice),
        "paper_die": f"{p.die_size:g}",
        "can_join": any(q > 0 for n, q in dist.items() if n >= 2),
        "bridge": f"{p.bridge_span / 10:g} cm" if p.bridge_span > 0 else "",
    }


def home_cards(
    p: HomeInOnePieceParams, printing: PrintParams
) -> tuple[list[Component], list[Finding]]:
    """The rule deck and the player aid (two copies, one per player), sharing one back."""
    p = validate(p)
    fmt = CardFormat.of(p, printing)
    back = card_back(TITLE, p.dough_colours, fmt, ACCENT, subtitle="a play-dough race home")
    context = rules_context(p)
    cards, findings = rule_deck(
        GAME, context, fmt, ACCENT, back=back, body_max=BODY_MAX, floor=DECK_FLOOR
    )
    aid, found = player_aid(p, fmt, back)
    return cards + [aid], findings + found


def player_aid(
    p: HomeInOnePieceParams, fmt: CardFormat, back: Component | None = None
) -> tuple[Component, list[Finding]]:
    """The turn in six lines, and under it a bar chart of how many blobs a roll shows,
    worked out from the printed dice. Two copies: one for each player."""
    dist = distribution(p.dice)
    rows = len(dist)
    footer = ODDS_HEAD + rows * ODDS_ROW + 1.0
    title, markup = split_title(render_template(GAME, "player-aid.j2", **rules_context(p)))
    aid, findings = fit_text_card(
        "player-aid", title or "Your turn", markup, fmt, ACCENT, back=back, footer=footer
    )
    aid.title = "Player aid"
    aid.copies = 2
    x0, y0, x1, y1 = cast(tuple[float, float, float, float], aid.meta["footer_box"])
    aid.add(Text(x0, y1 - ODDS_HEAD + 1.2, "Blobs showing on a roll", 7.0, True, fill=ACCENT))
    label_w, pct_w = 4.0, 9.0
    bar_x0, bar_x1 = x0 + label_w, x1 - pct_w
    top = max(dist.values())
    for k, (n, q) in enumerate(dist.items()):
        cy = y1 - ODDS_HEAD - (k + 0.5) * ODDS_ROW
        h = 0.62 * ODDS_ROW
        aid.add(Text(x0, cy - 1.0, str(n), 7.0, True, fill=INK_TEXT))
        track = box(bar_x0, cy - h / 2, bar_x1, cy + h / 2)
        aid.add(Shape(track, "art", Style(fill=TRACK, stroke=None)))
        if q > 0:
            bar = box(bar_x0, cy - h / 2, bar_x0 + (bar_x1 - bar_x0) * float(q / top), cy + h / 2)
            aid.add(Shape(bar, "art", Style(fill=ACCENT, stroke=None)))
        pct = f"{100 * float(q):.0f} %"
        aid.add(Text(x1, cy - 1.0, pct, 7.0, False, anchor="end", fill=INK_TEXT))
    return aid, findings
