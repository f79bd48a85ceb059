"""Exploding Dice cards: rule cards, a player aid, their shared back and the tin lid label.

The rule text comes from `templates/rules/exploding-dice/` and follows the params (grid
size, dice, die size, arrows, stall rule, custom faces), so the printed rules always
describe the printed and simulated set. Everything must fit the mint tin, so the cards'
corner radius is raised when the tin's round corners would catch them, and every card
that goes in the tin carries a corner guide: the trim's corner arcs drawn dark (haloed on
the dark title bar) on the guide layer, so a print service's image leaves them out.
"""

from __future__ import annotations

import math
from itertools import groupby, pairwise
from typing import cast

import numpy as np
from shapely import affinity
from shapely.geometry import LineString, box

from geometry.intersections import entries
from geometry.shapes import rounded_rect, star
from pnp.contract.palette import ink
from pnp.draw.cards import (
    PAPER,
    CardFormat,
    add_cut,
    card_back,
    card_base,
    colour_key,
    fit_text_card,
    fits_tin,
    render_template,
    rule_deck,
    split_title,
)
from pnp.draw.checks import Finding
from pnp.draw.kit import PrintParams
from pnp.draw.paint import colours_at, paints
from pnp.draw.scene import Component, Shape, Style, Text, circle, shown_on, symbol_shape
from pnp.games.exploding_dice.kit.tin import cut_radius
from pnp.games.exploding_dice.params import STANDARD_FACES, ExplodingDiceParams, validate
from pnp.games.exploding_dice.rules import TARGET  # the rules' goal, printed on the cards

GAME = "exploding-dice"
TITLE = "Exploding Dice"
ACCENT = "#2F3E55"  # deep slate: calm, and no player colour, so it names nobody
BURST = ("#F0E442", "#E69F00")  # Okabe-Ito yellow and orange for the explosion art
LABEL_MARGIN = (1.75, 1.95)  # lid label inset from the tin outline: 88 x 53 on the 91.5 x 56.9 tin
LABEL_RADIUS_INSET = 2.0
BODY_MAX = 8.5  # largest body size for rule cards, in points
DECK_FLOOR = 7.0  # the deck shares one size down to this; a card needing less shrinks alone
GUIDE_LINE = Style(stroke="#1B2433", stroke_width=0.3)  # haloed where the ground is dark
GUIDE_STEPS = 12  # segments per corner arc


def rules_context(params: ExplodingDiceParams) -> dict[str, object]:
    """The facts the rule templates print, all taken from the params."""
    names = [c for c in params.colours]
    colour_list = ", ".join(names[:-1]) + " and " + names[-1]
    total = len(params.colours) * params.dice_per_colour
    custom = []
    for colour in params.colours:
        sets = [tuple(fs) for fs in params.faces.get(colour, ())]
        if len(sets) == 1:
            sets = sets * params.dice_per_colour
        odd = [fs for fs in sets if fs != STANDARD_FACES]
        for fs in dict.fromkeys(odd):  # each distinct face list once, with its count
            count = odd.count(fs)
            which = "all dice" if count == params.dice_per_colour else f"{count} of its dice"
            custom.append(f"{colour}, {which}: {' '.join(str(v) for v in fs)}")
    return {
        "title": TITLE,
        "n": params.n,
        "points": params.n * params.n,
        "per": params.dice_per_colour,
        "total": total,
        "reserve": total - len(params.colours),
        "die": f"{params.die_size:g}",
        "colours": names,
        "colour_list": colour_list,
        "arrows": params.arrows,
        "entries": len(entries(params.n, params.arrows)),  # type: ignore[arg-type]
        "stall": params.stall,
        "target": TARGET,
        "custom_faces": "; ".join(custom),
    }


def card_radius(params: ExplodingDiceParams, printing: PrintParams) -> tuple[float, list[Finding]]:
    """The cards' corner radius: the print setting, raised until the card fits the tin."""
    w, h = params.card_width, params.card_height
    r = cut_radius(params)
    if r is None:
        return params.card_radius, [
            Finding(
                "error",
                "rule-card-1",
                f"{w:g} x {h:g} mm cards do not fit the {params.tin_width:g} x "
                f"{params.tin_height:g} mm tin at any corner radius",
            )
        ]
    if r > params.card_radius:
        return r, [
            Finding(
                "info",
                "rule-card-1",
                f"card corner radius raised from {params.card_radius:g} to {r:g} mm so the "
                f"cards fit the tin's {params.tin_radius:g} mm corners",
            )
        ]
    return r, []


def exploding_dice_cards(
    params: ExplodingDiceParams, printing: PrintParams
) -> tuple[list[Component], list[Finding]]:
    """Rule cards, player aid and tin label; the rule cards and aid share `card-back`."""
    validate(params)
    radius, findings = card_radius(params, printing)
    fmt = CardFormat.of(params, printing)
    back = card_back(
        TITLE, params.colours, fmt, ACCENT, radius=radius, subtitle="a mint-tin dice game"
    )
    cards, found = rule_cards(params, fmt, back, radius)
    findings += found
    aid, found = player_aid(params, fmt, back, radius)
    cards.append(aid)
    findings += found
    for card in cards:
        corner_guides(card)
    label, found = tin_label(params, fmt)
    cards.append(label)
    findings += found
    return cards, findings


def rule_cards(
    params: ExplodingDiceParams,
    fmt: CardFormat,
    back: Component | None = None,
    radius: float | None = None,
) -> tuple[list[Component], list[Finding]]:
    """One card per `rule-*.j2` template, the deck in one body size (see `rule_deck`)."""
    return rule_deck(
        GAME,
        rules_context(params),
        fmt,
        ACCENT,
        back=back,
        radius=radius,
        body_max=BODY_MAX,
        floor=DECK_FLOOR,
    )


def player_aid(
    params: ExplodingDiceParams,
    fmt: CardFormat,
    back: Component | None = None,
    radius: float | None = None,
) -> tuple[Component, list[Finding]]:
    """The turn in six lines, with the colour/symbol key along the bottom."""
    title, markup = split_title(render_template(GAME, "player-aid.j2", **rules_context(params)))
    footer = 7.5
    aid, findings = fit_text_card(
        "player-aid",
        title or "Turn summary",
        markup,
        fmt,
        ACCENT,
        back=back,
        radius=radius,
        footer=footer,
        max_size=9.0,
    )
    aid.title = "Player aid"
    x0, y0, x1, y1 = cast(tuple[float, float, float, float], aid.meta["footer_box"])
    rule_y = y1 - 1.0
    aid.add(
        Shape(box(x0, rule_y - 0.1, x1, rule_y + 0.1), "art", Style(fill="#C9C2B2", stroke=None))
    )
    aid.items.extend(colour_key(params.colours, x0, x1, (y0 + rule_y) / 2 - 0.1))
    return aid, findings


def corner_guides(comp: Component) -> None:
    """The trim's four corner arcs as printed lines: where a corner-rounder (or scissors)
    cuts. Guides, not art: the home print shows them, a print service's image (the art
    only) does not, as the service cuts its own corners. Dark, with a light halo where
    they cross a dark ground (the title bar), so they show on any background."""
    w, h, r = comp.width, comp.height, float(comp.meta["radius"])  # type: ignore[arg-type]
    if r <= 0:
        return
    below = paints(comp, ("art",))
    for cx, cy, start in ((w - r, h - r, 0), (r, h - r, 90), (r, r, 180), (w - r, r, 270)):
        pts = [
            (
                cx + r * math.cos(math.radians(start + 90 * k / GUIDE_STEPS)),
                cy + r * math.sin(math.radians(start + 90 * k / GUIDE_STEPS)),
            )
            for k in range(GUIDE_STEPS + 1)
        ]
        mids = np.array([((x0 + x1) / 2, (y0 + y1) / 2) for (x0, y0), (x1, y1) in pairwise(pts)])
        grounds = colours_at(below, mids[:, 0], mids[:, 1])
        k = 0
        for ground, run in groupby(grounds):  # one line per stretch over one ground
            n = len(list(run))
            line = Shape(LineString(pts[k : k + n + 1]), "guide", GUIDE_LINE)
            comp.add(*shown_on(line, ground))
            k += n


# --- tin lid label -----------------------------------------------------------------------


def label_size(params: ExplodingDiceParams) -> tuple[float, float, float]:
    """Lid label size from the tin: 88 x 53 mm, radius 12 on the reference tin."""
    mx, my = LABEL_MARGIN
    return (
        params.tin_width - 2 * mx,
        params.tin_height - 2 * my,
        max(params.tin_radius - LABEL_RADIUS_INSET, 0.0),
    )


def _die(
    cx: float, cy: float, size: float, angle: float, value: int, fill: str, pip: str
) -> list[Shape]:
    """A die seen from above, turned by `angle` degrees, showing `value` as pips."""
    body = affinity.rotate(
        rounded_rect(cx - size / 2, cy - size / 2, size, size, size * 0.18), angle, origin=(cx, cy)
    )
    items = [Shape(body, "art", Style(fill=fill, stroke="#1B2433", stroke_width=0.35))]
    spots = {
        1: [(0, 0)],
        2: [(-1, 1), (1, -1)],
        3: [(-1, 1), (0, 0), (1, -1)],
        4: [(-1, -1), (-1, 1), (1, -1), (1, 1)],
        5: [(-1, -1), (-1, 1), (0, 0), (1, -1), (1, 1)],
        6: [(-1, -1), (-1, 0), (-1, 1), (1, -1), (1, 0), (1, 1)],
    }[value]
    a = math.radians(angle)
    d = size * 0.26
    for sx, sy in spots:
        x, y = sx * d, sy * d
        items.append(
            circle(
                cx + x * math.cos(a) - y * math.sin(a),
                cy + x * math.sin(a) + y * math.cos(a),
                size * 0.085,
                style=Style(fill=pip, stroke=None),
            )
        )
    return items


def tin_label(params: ExplodingDiceParams, fmt: CardFormat) -> tuple[Component, list[Finding]]:
    """The lid label: title, players/time/age line, colour symbols and exploding dice art."""
    w, h, r = label_size(params)
    findings: list[Finding] = []
    if not fits_tin(w, h, r, params.tin_width, params.tin_height, params.tin_radius):
        findings.append(Finding("error", "tin-label", "the lid label does not fit the tin"))
    comp = card_base("tin-label", "Tin lid label", fmt, ACCENT, radius=r, width=w, height=h)

    # Art: two dice showing the same number, mid-explosion.
    bx, by = w * 0.26, h * 0.54
    comp.add(Shape(star(bx, by, 19.0, 11.5, 14), "art", Style(fill=BURST[0], stroke=None)))
    comp.add(
        Shape(
            affinity.rotate(star(bx, by, 12.5, 7.5, 11), 9, origin=(bx, by)),
            "art",
            Style(fill=BURST[1], stroke=None),
        )
    )
    die = 11.0
    first, second = ink(params.colours[0]), ink(params.colours[2])
    comp.items.extend(_die(bx - 5.2, by + 3.6, die, 14, 5, first.hex, first.text_on))
    comp.items.extend(_die(bx + 5.0, by - 4.2, die, -11, 5, second.hex, second.text_on))

    # Title in two lines right of the art, a tag line, then the colour symbols.
    tx = w * 0.68
    comp.add(Text(tx, 35.0, "EXPLODING", 15.5, True, anchor="middle", fill="#FFFFFF"))
    comp.add(Text(tx, 26.0, "DICE", 21.0, True, anchor="middle", fill=BURST[0]))
    comp.add(Text(tx, 20.6, "roll · push · explode", 7.0, False, anchor="middle", fill="#D8DEE8"))
    sym, gap = 4.2, 2.6
    n = len(params.colours)
    sx0 = tx - (n * sym + (n - 1) * gap) / 2 + sym / 2
    sy = 14.0
    for k, name in enumerate(params.colours):
        colour = ink(name)
        cx = sx0 + k * (sym + gap)
        comp.add(circle(cx, sy, sym * 0.68, style=Style(fill=PAPER, stroke=None)))
        comp.add(
            symbol_shape(
                colour.symbol,
                cx,
                sy,
                sym,
                "art",
                Style(fill=colour.hex, stroke="#1B2433", stroke_width=0.12),
            )
        )
    comp.add(
        Text(
            w / 2, 5.0, "2-4 players · 10-15 min · age 10+", 7.5, True, anchor="middle", fill=PAPER
        )
    )
    add_cut(comp)
    return comp, findings
