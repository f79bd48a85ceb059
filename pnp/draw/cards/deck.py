"""Text cards as components: a card from markup, its back, a colour key, and a game's
whole rule deck from its templates."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from shapely.geometry import box

from geometry.shapes import rounded_rect, rounded_rect_curve, symbol
from pnp.contract.palette import ink
from pnp.contract.params import PrintParams
from pnp.draw.cards.frame import card_outline, heading_colour, safe_x, text_on
from pnp.draw.cards.markup import Line, fit_blocks, parse_markup, text_width
from pnp.draw.cards.style import (
    FRAME_GAP,
    INK_TEXT,
    MIN_SAFE,
    PAPER,
    SAFE,
    SERVICE_SAFE,
    TITLE_BAR,
)
from pnp.draw.checks import Finding
from pnp.draw.scene import CUT_STYLE, Component, Item, Shape, Style, Text
from pnp.draw.templating import RULES, game_templates, game_templates_place, render
from pnp.draw.text import ascent, descent

TITLE_CLEAR = 12 * 25.4 / 300
"""mm the title keeps inside a print service's safe zone: 12 px at the services' 300 dpi
(at least 10 px once antialiasing has softened the glyphs' edges), so a face checked
against their template never reads as touching the safe line."""

# --- templates ---------------------------------------------------------------------------


def template_names(game: str, prefix: str = "") -> list[str]:
    """A game's templates whose file name starts with `prefix`, in file-name order."""
    return game_templates(game, prefix)


def render_template(game: str, name: str, **context: object) -> str:
    """Render the game's rule template `name` (`templates/rules/<game>/<name>` for a
    built-in game) to markup."""
    return render(f"{RULES}/{game}/{name}", **context)


def split_title(markup: str) -> tuple[str | None, str]:
    """Take an optional `title: ...` first line off the markup."""
    text = markup.lstrip("\n")
    first, _, rest = text.partition("\n")
    if first.lower().startswith("title:"):
        return first[len("title:") :].strip(), rest
    return None, text


# --- components --------------------------------------------------------------------------


@dataclass(frozen=True)
class CardFormat:
    """A deck's card size and bleed: the game's card parameters with the print's bleed."""

    width: float
    height: float
    radius: float
    bleed: float

    @classmethod
    def of(cls, params: Any, printing: PrintParams) -> CardFormat:
        """From a game's params (`CardGroup` fields) and the shared print settings."""
        return cls(params.card_width, params.card_height, params.card_radius, printing.bleed)


def card_base(
    name: str,
    title: str,
    fmt: CardFormat,
    background: str,
    radius: float | None = None,
    width: float | None = None,
    height: float | None = None,
) -> Component:
    """An empty card: background into the bleed, rounded trim on `cut`, outline set."""
    w = fmt.width if width is None else width
    h = fmt.height if height is None else height
    r = fmt.radius if radius is None else radius
    b = fmt.bleed
    comp = Component(name, title, w, h, imposition="card", bleed=b)
    if r > 0:
        comp.set_outline(rounded_rect_curve(0, 0, w, h, r))
    else:
        comp.outline = card_outline(w, h, r)
    comp.add(Shape(box(-b, -b, w + b, h + b), "art", Style(fill=background, stroke=None)))
    comp.meta["radius"] = r
    return comp


def add_cut(comp: Component) -> None:
    """The rounded trim on the `cut` layer, as an open ring (never filled)."""
    comp.add(comp.outline_ring("cut", CUT_STYLE))


def fit_text_card(
    name: str,
    title: str,
    markup: str,
    fmt: CardFormat,
    accent: str,
    *,
    page: str | None = None,
    back: Component | None = None,
    radius: float | None = None,
    footer: float = 0.0,
    max_size: float = 8.5,
    min_size: float = 6.0,
    step: float = 0.25,
) -> tuple[Component, list[Finding]]:
    """A card with `title` in an accent bar and `markup` fitted to the rest of the face.

    `page` ("2/5") is shown in the title bar; `footer` keeps that many mm free at the
    bottom of the text frame for the caller's own art (e.g. a colour key, see
    `meta['footer_box']`). Returns the card and its findings (overflow is an error).
    """
    findings: list[Finding] = []
    comp = card_base(name, title, fmt, PAPER, radius)
    w, h, r, b = comp.width, comp.height, float(comp.meta["radius"]), comp.bleed  # type: ignore[arg-type]

    # Title bar: runs into the bleed on three sides, so cutting slop never shows a cream edge.
    comp.add(Shape(box(-b, h - TITLE_BAR, w + b, h + b), "art", Style(fill=accent, stroke=None)))
    on_accent = text_on(accent)

    frame_y0 = max(SAFE, MIN_SAFE)
    frame_x0 = max(SAFE, safe_x(frame_y0, frame_y0, h, r) + 0.05)
    frame_x1 = w - frame_x0
    frame_top = h - TITLE_BAR - FRAME_GAP
    body_y0 = frame_y0 + footer
    frame_w, frame_h = frame_x1 - frame_x0, frame_top - body_y0

    _title(comp, title, page, on_accent, findings)

    blocks = parse_markup(markup)
    lines: list[Line]
    if frame_h <= 0:
        findings.append(Finding("error", name, "no room for text: footer is taller than the card"))
        size, lines, lost = min_size, [], len(blocks)
    else:
        size, lines, lost = fit_blocks(blocks, frame_w, frame_h, accent, max_size, min_size, step)
    for ln in lines:
        y = frame_top - ln.depth
        if ln.label is not None:
            comp.add(
                Text(
                    frame_x0 + ln.label.dx,
                    y,
                    ln.label.text,
                    ln.size,
                    ln.label.bold,
                    fill=ln.label_colour,
                )
            )
        for run in ln.runs:
            comp.add(
                Text(frame_x0 + ln.indent + run.dx, y, run.text, ln.size, run.bold, fill=ln.colour)
            )
    if lost:
        findings.append(
            Finding(
                "error",
                name,
                f"text overflows the card by {lost} line{'s' if lost != 1 else ''} at {size:g} pt",
            )
        )
    add_cut(comp)
    comp.back = back
    comp.meta.update(
        body_size=size,
        lines=len(lines),
        overflow=lost,
        accent=accent,
        text_frame=(frame_x0, body_y0, frame_x1, frame_top),
        footer_box=(frame_x0, frame_y0, frame_x1, frame_y0 + footer),
    )
    return comp, findings


def _title(
    comp: Component, title: str, page: str | None, fill: str, findings: list[Finding]
) -> None:
    """Title left, page number right, both inside the safe zone near the rounded corners."""
    w, h, r = comp.width, comp.height, float(comp.meta["radius"])  # type: ignore[arg-type]
    page_size = 7.0
    size = 10.5
    while True:
        cap = ascent(size, True)
        # centred in the bar, but its tallest glyphs clear a print service's safe zone
        base = min(h - TITLE_BAR + (TITLE_BAR - cap) / 2, h - SERVICE_SAFE - TITLE_CLEAR - cap)
        x = max(
            SAFE,
            SERVICE_SAFE + TITLE_CLEAR,
            safe_x(base - descent(size, True), base + cap, h, r) + 0.05,
        )
        page_w = text_width(page, page_size, False) + 2.0 if page else 0.0
        avail = w - 2 * x - page_w
        if text_width(title, size, True) <= avail or size <= 7.0:
            break
        size -= 0.5
    shown = title
    if text_width(title, size, True) > avail:
        findings.append(Finding("error", comp.name, f"title '{title}' is too long for the card"))
        while shown and text_width(shown + "\u2026", size, True) > avail:
            shown = shown[:-1]
        shown = shown.rstrip() + "\u2026"  # cut, but still inside the safe zone
    comp.add(Text(x, base, shown, size, True, fill=fill))
    if page:
        pbase = base + (cap - ascent(page_size)) / 2
        comp.add(Text(w - x, pbase, page, page_size, False, anchor="end", fill=fill))


def colour_key(
    colours: Sequence[str], x0: float, x1: float, y: float, size: float = 7.0, sym: float = 3.4
) -> list[Item]:
    """A row of colour symbols with their names, spread evenly over x0..x1 around height y."""
    items: list[Item] = []
    if not colours:
        return items
    slot = (x1 - x0) / len(colours)
    for k, name in enumerate(colours):
        colour = ink(name)
        label = name.capitalize()
        total = sym + 1.0 + text_width(label, size, False)
        left = x0 + k * slot + (slot - total) / 2
        shape = symbol(colour.symbol, left + sym / 2, y, sym)
        style = Style(fill=colour.hex, stroke="#333333", stroke_width=0.15)
        items.append(Shape(shape, "art", style))
        cap = ascent(size) * 0.72 / 0.76  # Vera cap height: centre the name on the symbol
        items.append(Text(left + sym + 1.0, y - cap / 2, label, size, False, fill=INK_TEXT))
    return items


def card_back(
    title: str,
    colours: Sequence[str],
    fmt: CardFormat,
    accent: str,
    *,
    name: str = "card-back",
    subtitle: str = "",
    radius: float | None = None,
) -> Component:
    """The shared back of a deck: the game's title on a plate over a lattice of the colour
    symbols. The pattern runs into the bleed, so a duplex offset of a millimetre or two
    never shows a white edge. No cut line: the fronts carry it."""
    comp = card_base(name, "Card back", fmt, accent, radius)
    w, h, b = comp.width, comp.height, comp.bleed
    plate_w, plate_h = min(62.0, w - 16), min(24.0 if subtitle else 18.0, h - 16)
    plate = rounded_rect((w - plate_w) / 2, (h - plate_h) / 2, plate_w, plate_h, 3.5)
    keep_out = plate.buffer(1.8)
    bleed_box = box(-b, -b, w + b, h + b)
    pitch, sym = 7.0, 3.6
    # The lattice is centred on the card so the gaps round the plate are symmetric.
    half_cols = math.ceil((w / 2 + b) / pitch) + 1
    half_rows = math.ceil((h / 2 + b) / pitch) + 1
    for row in range(-half_rows, half_rows + 1):
        y = h / 2 + row * pitch
        for col in range(-half_cols, half_cols + 1):
            x = w / 2 + col * pitch + (pitch / 2 if row % 2 else 0.0)
            if not colours:
                continue
            colour = ink(colours[(col + row) % len(colours)])
            shape = symbol(colour.symbol, x, y, sym)
            if shape.intersects(keep_out) or not shape.intersects(bleed_box):
                continue
            shape = shape.intersection(bleed_box)
            comp.add(Shape(shape, "art", Style(fill=colour.hex, stroke=None)))
    comp.add(Shape(plate, "art", Style(fill=PAPER, stroke=None)))
    size = 16.0
    while size > 8 and text_width(title, size, True) > plate_w - 8:
        size -= 0.5
    cy = h / 2
    if subtitle:
        comp.add(
            Text(w / 2, cy + 0.2, title, size, True, anchor="middle", fill=heading_colour(accent))
        )
        comp.add(Text(w / 2, cy - 5.0, subtitle, 7.0, False, anchor="middle", fill=INK_TEXT))
    else:
        comp.add(
            Text(
                w / 2,
                cy - ascent(size, True) * 0.72 / 0.76 / 2,
                title,
                size,
                True,
                anchor="middle",
                fill=heading_colour(accent),
            )
        )
    comp.meta["plate"] = plate
    return comp


def rule_deck(
    game: str,
    context: dict[str, object],
    fmt: CardFormat,
    accent: str,
    *,
    back: Component | None = None,
    radius: float | None = None,
    body_max: float = 8.5,
    floor: float = 7.0,
    prefix: str = "rule-",
) -> tuple[list[Component], list[Finding]]:
    """One card per `templates/rules/<game>/<prefix>*.j2`, named `rule-card-<k>`, all in one
    body size: each card is fitted alone, then the deck is reset at the smallest size any
    card needed (not below `floor`), so the type does not jump from card to card."""
    names = template_names(game, prefix)
    texts = [split_title(render_template(game, t, **context)) for t in names]
    if not texts:
        return [], [
            Finding("error", "rule-card-1", f"no rule templates in {game_templates_place(game)}")
        ]

    def build(max_size: float) -> tuple[list[Component], list[Finding]]:
        cards, findings = [], []
        for k, (title, markup) in enumerate(texts, start=1):
            card, found = fit_text_card(
                f"rule-card-{k}",
                title or f"Rules {k}",
                markup,
                fmt,
                accent,
                page=f"{k}/{len(texts)}",
                back=back,
                radius=radius,
                max_size=max_size,
            )
            card.title = f"Rule card {k}: {title or ''}".rstrip(": ")
            cards.append(card)
            findings += found
        return cards, findings

    cards, findings = build(body_max)
    common = min(float(c.meta["body_size"]) for c in cards)  # type: ignore[arg-type]
    common = max(common, floor)  # one crowded card must not shrink the whole deck
    if common < body_max:
        cards, findings = build(common)
    return cards, findings
