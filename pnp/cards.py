"""Text cards for any game: rule cards, player aids and a shared card back.

Rule text lives in jinja2 templates (`templates/rules/<game>/*.j2`) so it can follow the
game's parameters; the templates render to a tiny markup that is laid out here as
positioned `pnp.scene.Text` lines, measured with the same font metrics the PDF embeds.
Renderers only draw the lines; nothing is re-wrapped later, so what the checks measured
is what gets printed.

Markup, one block per source line (a template's first line may be `title: ...`):

    title: Setup      optional, first line only: the card's title (see `split_title`)
    # Heading         a bold sub-heading in the accent colour
    - item            a bullet with a hanging indent ("  - item", indented: one level in)
    1. item           a numbered item, number as written, with a hanging indent
    plain text        a paragraph
                      (a blank line ends a block; a non-blank line that starts no new
                      block continues the previous one, so long items may wrap in source)
    **bold**          inline bold anywhere inside a block

The body is fitted by trying sizes from `max_size` down to `min_size` in `step` points
and keeping the largest that fits the text frame (the card minus a safe margin and the
title bar). Text that still does not fit at `min_size` is cut off and reported as an
error Finding: overflow is a check error, never a silently clipped card.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any, Literal

from shapely.geometry import Polygon, box

from geometry.folding import container, fits_inside
from geometry.shapes import rounded_rect, symbol
from pnp.checks import Finding
from pnp.palette import ink
from pnp.params import PrintParams
from pnp.scene import CUT_STYLE, Component, Item, Shape, Style, Text
from pnp.templating import RULES, game_templates, game_templates_place, render
from pnp.text import ascent, descent, string_width

MM_PER_PT = 25.4 / 72.0
SAFE = 4.0  # nominal text margin from the trim
MIN_SAFE = 3.0  # hard limit: no text closer than this to the (rounded) trim
TITLE_BAR = 9.0  # accent bar height, measured down from the trim top
FRAME_GAP = 1.6  # space between the title bar and the text frame
LEADING = 1.2
PAPER = "#FBF7EE"  # warm cream: calm behind text, hides small cutting slop
INK_TEXT = "#1E1E1E"
BlockKind = Literal["heading", "para", "bullet", "number"]


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


# --- markup ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Block:
    kind: BlockKind
    text: str
    label: str = ""  # "3." for a numbered item
    level: int = 0  # 1 for an indented (nested) list item


_NUMBER = re.compile(r"^(\d{1,2}[.)])\s+(.*)$")


def parse_markup(markup: str) -> list[Block]:
    """Markup text -> blocks (see the module docstring)."""
    blocks: list[Block] = []
    open_block = False
    for raw in markup.splitlines():
        line = raw.strip()
        if not line:
            open_block = False
            continue
        level = 1 if raw[:1].isspace() and line.startswith(("- ", "* ")) else 0
        if line.startswith("# "):
            blocks.append(Block("heading", line[2:].strip()))
            open_block = False  # a heading is always one line
            continue
        m = _NUMBER.match(line)
        if line.startswith(("- ", "* ")):
            blocks.append(Block("bullet", line[2:].strip(), level=level))
        elif m:
            blocks.append(Block("number", m.group(2).strip(), m.group(1)))
        elif open_block:
            last = blocks[-1]
            blocks[-1] = Block(last.kind, f"{last.text} {line}", last.label, last.level)
        else:
            blocks.append(Block("para", line))
        open_block = True
    return blocks


Piece = tuple[str, bool]  # text, bold
Word = tuple[Piece, ...]


def _words(text: str) -> list[Word]:
    """Split text into words made of (text, bold) pieces; `**` toggles bold."""
    words: list[Word] = []
    current: list[Piece] = []
    for i, part in enumerate(text.split("**")):
        bold = i % 2 == 1
        for chunk in re.split(r"(\s+)", part):
            if not chunk:
                continue
            if chunk.isspace():
                if current:
                    words.append(tuple(current))
                    current = []
            else:
                current.append((chunk, bold))
    if current:
        words.append(tuple(current))
    return words


# --- measuring and line breaking ---------------------------------------------------------


@cache
def _width(text: str, size: float, bold: bool) -> float:
    return string_width(text, size, bold)


@dataclass(frozen=True)
class Run:
    dx: float
    text: str
    bold: bool


def _runs(words: Sequence[Word], size: float) -> tuple[list[Run], float]:
    """Place words on one line: merge same-weight pieces into runs; return runs and width."""
    runs: list[Run] = []
    x = 0.0
    cur_text, cur_bold, cur_x = "", False, 0.0
    for wi, word in enumerate(words):
        for pi, (text, bold) in enumerate(word):
            gap = wi > 0 and pi == 0
            if cur_text and bold == cur_bold:
                cur_text += (" " if gap else "") + text
                continue
            if cur_text:
                runs.append(Run(cur_x, cur_text, cur_bold))
                x = cur_x + _width(cur_text, size, cur_bold)
                if gap:
                    x += _width(" ", size, False)
            cur_text, cur_bold, cur_x = text, bold, x
    if cur_text:
        runs.append(Run(cur_x, cur_text, cur_bold))
        x = cur_x + _width(cur_text, size, cur_bold)
    return runs, x


def _hard_split(word: Word, size: float, avail: float) -> list[Word]:
    """Break a word too long for the line into pieces that fit (rare: URLs, long numbers)."""
    out: list[Word] = []
    pieces = [(c, b) for text, b in word for c in text]
    cur: list[Piece] = []
    for ch in pieces:
        trial = _merge([*cur, ch])
        if cur and _runs([trial], size)[1] > avail:
            out.append(_merge(cur))
            cur = []
        cur.append(ch)
    if cur:
        out.append(_merge(cur))
    return out


def _merge(pieces: Sequence[Piece]) -> Word:
    merged: list[Piece] = []
    for text, bold in pieces:
        if merged and merged[-1][1] == bold:
            merged[-1] = (merged[-1][0] + text, bold)
        else:
            merged.append((text, bold))
    return tuple(merged)


def wrap(text: str, size: float, avail: float) -> list[list[Run]]:
    """Greedy line breaking of marked-up text into runs no wider than `avail` mm."""
    lines: list[list[Run]] = []
    line: list[Word] = []
    queue = _words(text)
    while queue:
        word = queue.pop(0)
        if _runs([*line, word], size)[1] <= avail:
            line.append(word)
            continue
        if line:
            lines.append(_runs(line, size)[0])
            line = []
            queue.insert(0, word)
        else:  # a single word wider than the line
            parts = _hard_split(word, size, avail)
            queue[0:0] = parts[1:]
            line = [parts[0]]
    if line:
        lines.append(_runs(line, size)[0])
    return lines


# --- block layout ------------------------------------------------------------------------


@dataclass(frozen=True)
class Line:
    """One laid-out line: baseline `depth` mm below the frame top, x offsets from its left."""

    depth: float
    size: float
    runs: tuple[Run, ...]
    indent: float
    colour: str
    label: Run | None = None
    label_colour: str = INK_TEXT


def layout_blocks(blocks: Sequence[Block], width: float, size: float, accent: str) -> list[Line]:
    """Lay blocks out top-down at body `size` pt in a frame `width` mm wide."""
    lead = LEADING * size * MM_PER_PT
    hang = _width("0.", size, True) + 0.45 * size * MM_PER_PT
    head_colour = heading_colour(accent)
    lines: list[Line] = []
    depth = 0.0
    prev: Block | None = None
    for block in blocks:
        line_size = size + 0.5 if block.kind == "heading" else size
        if prev is None:
            depth = ascent(line_size, True)
        else:
            if block.kind == "heading":
                gap = 0.7 * lead
            elif block.kind in ("bullet", "number") and prev.kind == block.kind:
                gap = 0.2 * lead
            elif prev.kind == "heading":
                gap = 0.05 * lead
            else:
                gap = 0.45 * lead
            depth += LEADING * max(line_size, lines[-1].size) * MM_PER_PT + gap
        indent = hang * (block.level + 1) if block.kind in ("bullet", "number") else 0.0
        text = f"**{block.text}**" if block.kind == "heading" else block.text
        wrapped = wrap(text, line_size, width - indent) or [[]]
        for k, runs in enumerate(wrapped):
            if k:
                depth += LEADING * line_size * MM_PER_PT
            label = None
            if k == 0 and block.kind == "number":
                label = Run(hang * block.level, block.label, True)
            elif k == 0 and block.kind == "bullet":
                label = Run(hang * block.level + 0.15 * size * MM_PER_PT, "\u2022", True)
            colour = head_colour if block.kind == "heading" else INK_TEXT
            lines.append(Line(depth, line_size, tuple(runs), indent, colour, label, head_colour))
        prev = block
    return lines


def _bottom(line: Line) -> float:
    return line.depth + descent(line.size)


def fit_blocks(
    blocks: Sequence[Block],
    width: float,
    height: float,
    accent: str,
    max_size: float = 8.5,
    min_size: float = 6.0,
    step: float = 0.25,
) -> tuple[float, list[Line], int]:
    """Largest body size whose lines fit `width` x `height`: (size, lines kept, lines lost)."""
    count = max(0, round((max_size - min_size) / step))
    sizes = [round(max_size - k * step, 4) for k in range(count + 1)]
    lines: list[Line] = []
    for size in sizes:
        lines = layout_blocks(blocks, width, size, accent)
        if not lines or _bottom(lines[-1]) <= height + 1e-9:
            return size, lines, 0
    kept = [ln for ln in lines if _bottom(ln) <= height + 1e-9]
    return sizes[-1], kept, len(lines) - len(kept)


# --- colour helpers ----------------------------------------------------------------------


def _luminance(hex_colour: str) -> float:
    h = hex_colour.lstrip("#")
    if len(h) == 3:
        h = "".join(c * 2 for c in h)
    r, g, b = (int(h[i : i + 2], 16) / 255 for i in (0, 2, 4))

    def lin(c: float) -> float:
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b)


def text_on(hex_colour: str) -> str:
    """Black or white, whichever reads better on `hex_colour` (WCAG contrast)."""
    lum = _luminance(hex_colour)
    return "#FFFFFF" if (1.05 / (lum + 0.05)) >= ((lum + 0.05) / 0.05) else "#000000"


def heading_colour(accent: str) -> str:
    """Headings use the accent when it is dark enough to read on cream, else near-black."""
    return accent if _luminance(accent) < 0.18 else INK_TEXT


# --- safe zone ---------------------------------------------------------------------------


def safe_x(y_lo: float, y_hi: float, height: float, radius: float, safe: float = MIN_SAFE) -> float:
    """Smallest x at which a text box spanning y_lo..y_hi stays `safe` mm inside a trim
    with rounded corners (the trim's corner arcs eat into the margin near the corners)."""
    rr = max(radius - safe, 0.0)
    x = safe
    for y in (y_lo, y_hi):
        if y < safe - 1e-9 or y > height - safe + 1e-9:
            return math.inf
        dy = max(safe + rr - y, y - (height - safe - rr), 0.0)
        if dy > rr:
            return math.inf
        x = max(x, safe + rr - math.sqrt(rr * rr - dy * dy))
    return x


def card_outline(width: float, height: float, radius: float) -> Polygon:
    """The rounded trim of a card, in its own coordinates."""
    return rounded_rect(0, 0, width, height, radius)


def fits_tin(
    width: float,
    height: float,
    radius: float,
    tin_width: float,
    tin_height: float,
    tin_radius: float,
) -> bool:
    """Does a rounded card lie inside the tin's rounded outline? (geometry, not sizes)"""
    tin = container(tin_width, tin_height, tin_radius)
    return fits_inside(card_outline(width, height, radius), tin)


def tin_fit_radius(
    width: float,
    height: float,
    radius: float,
    tin_width: float,
    tin_height: float,
    tin_radius: float,
    step: float = 0.5,
) -> float | None:
    """The card's corner radius, raised in `step`s until the card fits the tin; None if no
    radius makes it fit. A mint tin's big corner radius catches square-ish corners."""
    r = radius
    while r <= min(width, height) / 2 + 1e-9:
        if fits_tin(width, height, r, tin_width, tin_height, tin_radius):
            return r
        r = math.floor(r / step + 1 + 1e-9) * step
    return None


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
    outline = card_outline(w, h, r)
    comp = Component(name, title, w, h, imposition="card", bleed=b, outline=outline)
    comp.add(Shape(box(-b, -b, w + b, h + b), "art", Style(fill=background, stroke=None)))
    comp.meta["radius"] = r
    return comp


def add_cut(comp: Component) -> None:
    """The rounded trim on the `cut` layer, as an open ring (never filled)."""
    comp.add(Shape(comp.outline.exterior, "cut", CUT_STYLE))  # type: ignore[union-attr]


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
        base = h - TITLE_BAR + (TITLE_BAR - cap) / 2
        x = max(SAFE, safe_x(base - descent(size, True), base + cap, h, r) + 0.05)
        page_w = _width(page, page_size, False) + 2.0 if page else 0.0
        avail = w - 2 * x - page_w
        if _width(title, size, True) <= avail or size <= 7.0:
            break
        size -= 0.5
    shown = title
    if _width(title, size, True) > avail:
        findings.append(Finding("error", comp.name, f"title '{title}' is too long for the card"))
        while shown and _width(shown + "\u2026", size, True) > avail:
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
        total = sym + 1.0 + _width(label, size, False)
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
    while size > 8 and _width(title, size, True) > plate_w - 8:
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
