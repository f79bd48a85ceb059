"""Desert Home cards: the rule cards, the player aid and their shared back.

The rule text comes from `templates/rules/desert-home/` and follows the params (goal, deck,
supply, colours, board rows), so the printed rules describe the printed and simulated set.
The points table on the player aid is worked out by the rules engine's own
`action_points`, and the road bonuses are the engine's, so card and simulation agree.
Poker-size cards: eight rule cards and the aid fill one sheet of nine.
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
from pnp.draw.scene import Component, Item, Shape, Style, Text
from pnp.games.desert_home.params import (
    BLADES,
    PLAYERS,
    DesertHomeParams,
    colours_in_play,
    validate,
)
from pnp.games.desert_home.rules import BIG_ROAD, PROTECT_COST, SMALL_ROAD, action_points

GAME = "desert-home"
TITLE = "Desert Home"
ACCENT = "#8A4B1F"  # burnt sienna: desert earth, and no player colour
BODY_MAX = 8.0
DECK_FLOOR = 6.5
DICE = 6  # dice in the roll, so k runs 1..6
FORMULAS = ("n", "n+1", "n+2", "2n", "2n+1", "3n")
ROW = 3.3  # mm per table row
ROAD_LINE = 3.2  # mm per road-bonus line
TABLE_PT = 6.5
LABEL_W = 10.0  # mm: the table's first column
RULE = "#C9B9A0"  # the table's lines: a warm grey that prints light
SHADE = "#F1E4CF"
GUIDE_SIZE = (180.0, 56.0)  # mm: the sawing steps, beside the 1:1 blade patterns


def rules_context(p: DesertHomeParams) -> dict[str, object]:
    """The facts the rule templates print, all taken from the params and the engine."""
    names = list(colours_in_play(p))
    return {
        "goal": p.goal_per_colour,
        "tent_value": p.tent_value,
        "deck": p.deck_safe + p.deck_thirst,
        "safe": p.deck_safe,
        "thirst": p.deck_thirst,
        "protection": p.protection_cards,
        "figures": p.figures_per_colour,
        "tents": p.tents_per_colour,
        "colour_list": ", ".join(names[:-1]) + " and " + names[-1],
        "first_row": p.refuge_rows[0] + 1,
        "second_row": p.refuge_rows[1] + 1,
        "small": SMALL_ROAD,
        "big": BIG_ROAD,
        "protect": PROTECT_COST,
        "road_optional": p.road_bonus == "optional",
        "whole_groups": p.groups == "whole",
    }


def desert_home_cards(
    p: DesertHomeParams, printing: PrintParams
) -> tuple[list[Component], list[Finding]]:
    """Rule cards and the player aid, sharing one back."""
    validate(p)
    fmt = CardFormat.of(p, printing)
    back = card_back(TITLE, colours_in_play(p), fmt, ACCENT, subtitle="Immigration")
    cards, findings = rule_deck(
        GAME, rules_context(p), fmt, ACCENT, back=back, body_max=BODY_MAX, floor=DECK_FLOOR
    )
    aid, found = player_aid(p, fmt, back)
    return [*cards, aid], findings + found


def player_aid(
    p: DesertHomeParams, fmt: CardFormat, back: Component | None = None
) -> tuple[Component, list[Finding]]:
    """The turn in seven lines, then the points for every number and count, and the roads."""
    title, markup = split_title(render_template(GAME, "player-aid.j2", **rules_context(p)))
    footer = (DICE + 2) * ROW + 2 * ROAD_LINE + 1.5
    aid, findings = fit_text_card(
        "player-aid",
        title or "Turn summary",
        markup,
        fmt,
        ACCENT,
        back=back,
        footer=footer,
        max_size=7.5,
    )
    aid.title = "Player aid"
    aid.copies = PLAYERS  # one for each player
    x0, y0, x1, y1 = cast(tuple[float, float, float, float], aid.meta["footer_box"])
    aid.items.extend(points_table(x0, x1, y1 - 0.5))
    aid.items.extend(road_lines(x0, y0 + 0.6))
    aid.meta["points"] = {
        n: tuple(action_points(n, k) for k in range(1, DICE + 1)) for n in range(1, 7)
    }
    return aid, findings


def points_table(x0: float, x1: float, top: float) -> list[Item]:
    """Rows: how many dice show n (k), the formula, then n = 1..6 worked out."""
    col = (x1 - x0 - LABEL_W) / DICE
    rows = [("dice k", [str(k) for k in range(1, DICE + 1)], True)]
    rows.append(("points", list(FORMULAS), True))
    rows += [
        (f"n = {n}", [str(action_points(n, k)) for k in range(1, DICE + 1)], False)
        for n in range(1, 7)
    ]
    items: list[Item] = []
    for i, (label, cells, bold) in enumerate(rows):
        y1 = top - i * ROW
        y0 = y1 - ROW
        if i % 2 == 1:
            items.append(Shape(box(x0, y0, x1, y1), "art", Style(fill=SHADE, stroke=None)))
        base = y0 + 0.95
        items.append(Text(x0 + 0.8, base, label, TABLE_PT, True, fill=INK_TEXT))
        for k, cell in enumerate(cells):
            cx = x0 + LABEL_W + (k + 0.5) * col
            items.append(Text(cx, base, cell, TABLE_PT, bold, "middle", INK_TEXT))
    bottom = top - len(rows) * ROW
    line = Style(fill=RULE, stroke=None)
    for y in (top, top - 2 * ROW, bottom):
        items.append(Shape(box(x0, y - 0.1, x1, y + 0.1), "art", line))
    items.append(Shape(box(x0 + LABEL_W - 0.1, bottom, x0 + LABEL_W + 0.1, top), "art", line))
    return items


def road_lines(x0: float, base: float) -> list[Item]:
    """The two road bonuses, one a line, under the table."""
    small = f"Small road (five in a row): +{SMALL_ROAD}"
    return [
        Text(x0 + 0.8, base + ROAD_LINE, small, TABLE_PT, True, fill=INK_TEXT),
        Text(x0 + 0.8, base, f"Big road (1 to 6): +{BIG_ROAD}", TABLE_PT, True, fill=INK_TEXT),
    ]


def saw_guide(p: DesertHomeParams, printing: PrintParams) -> tuple[Component, list[Finding]]:
    """The sawing steps, printed with the scroll-saw patterns: a panel, not a card (no
    cut line), so it packs with the blades."""
    validate(p)
    w, h = GUIDE_SIZE
    context = {
        "parts": BLADES * PLAYERS,
        "thickness": f"{p.plywood_thickness:g}",
        "hole": f"{p.pivot_hole:g}",
    }
    title, markup = split_title(render_template(GAME, "saw-guide.j2", **context))
    panel, findings = fit_text_card(
        "saw-guide",
        title or "Sawing",
        markup,
        CardFormat(w, h, 2.0, 0.0),
        ACCENT,
        max_size=8.5,
    )
    panel.title = "Sawing the refuge blades (instructions)"
    panel.imposition = "cutout"
    panel.items = [i for i in panel.items if i.layer != "cut"]
    return panel, findings
