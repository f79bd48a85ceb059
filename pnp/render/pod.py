"""Print-on-demand export: one PNG per card face at a published template size.

The templates are The Game Crafter's (its published sizes: the trim plus 1/8 in bleed on
every side, at 300 dpi): a poker card 2.5 x 3.5 in is 825 x 1125 px, a mini card 1.75 x 2.5
in is 600 x 825 px, a square card 2.5 x 2.5 in is 825 x 825 px. Each deck goes on the
template nearest its shape and size; a card of another size is scaled to fit the trim
(its own bleed art scaled with it), and a landscape card is turned upright. The deck's
`README.txt` says which template, the scale and each card's count.

Files: `pod/<deck>/001-front.png`, `002-front.png`, ... (one per different face, in kit
order), `pod/<deck>/back.png` (the deck's one back) and `pod/<deck>/README.txt`.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from pnp.render.faces import Deck, face_image, plain_back, png_bytes
from pnp.render.png import MM_PER_INCH
from pnp.scene import Component

POD_DPI = 300
SQUARE_WITHIN = 1.2
"""A card whose sides differ by less than this ratio (a hexagon's is 1.155) goes on the
square template."""
MINI_UP_TO = 70.0
"""mm: an oblong card no longer than this goes on the mini template, a longer one on poker."""


@dataclass(frozen=True)
class Template:
    name: str
    title: str
    width_in: float
    height_in: float
    bleed_in: float = 0.125

    @property
    def pixels(self) -> tuple[int, int]:
        """The image size the service asks for: trim plus bleed, at 300 dpi."""
        b = 2 * self.bleed_in
        return round((self.width_in + b) * POD_DPI), round((self.height_in + b) * POD_DPI)

    @property
    def bleed_px(self) -> int:
        return round(self.bleed_in * POD_DPI)


TEMPLATES: dict[str, Template] = {
    t.name: t
    for t in (
        Template("poker", "The Game Crafter poker card, 2.5 x 3.5 in", 2.5, 3.5),
        Template("mini", "The Game Crafter mini card, 1.75 x 2.5 in", 1.75, 2.5),
        Template("square", "The Game Crafter square card, 2.5 x 2.5 in", 2.5, 2.5),
    )
}


def template_for(deck: Deck) -> Template:
    """Square-ish cards on the square template, short oblong ones on mini, others poker."""
    w, h = deck.size
    long, short = max(w, h), min(w, h)
    if long / short < SQUARE_WITHIN:
        return TEMPLATES["square"]
    return TEMPLATES["mini"] if long <= MINI_UP_TO else TEMPLATES["poker"]


def pod_files(decks: list[Deck]) -> Iterator[tuple[str, bytes]]:
    """(relative path, bytes) of every print-on-demand file of the kit's decks."""
    for deck in decks:
        t = template_for(deck)
        folder = f"pod/{deck.name}"
        rows = []
        for n, face in enumerate(deck.faces, 1):
            name = f"{n:03d}-front.png"
            rows.append(f"{name}  x{face.copies}  {face.title}")
            yield f"{folder}/{name}", _png(face, t, deck.landscape)
        yield f"{folder}/back.png", _png(deck.back or plain_back(deck.faces[0]), t, deck.landscape)
        yield f"{folder}/README.txt", _readme(deck, t, rows).encode("utf-8")


def _png(comp: Component, t: Template, turn: bool) -> bytes:
    w, h = t.pixels
    return png_bytes(face_image(comp, w, h, bleed_px=t.bleed_px, turn=turn), POD_DPI)


def _readme(deck: Deck, t: Template, rows: list[str]) -> str:
    w, h = deck.size
    if deck.landscape:
        w, h = h, w
    trim_w, trim_h = t.width_in * MM_PER_INCH, t.height_in * MM_PER_INCH
    scale = min(trim_w / w, trim_h / h)
    px_w, px_h = t.pixels
    fit = (
        "the card is the template's trim size: nothing is scaled"
        if abs(scale - 1) < 1e-3
        and abs(w * scale - trim_w) < 0.05
        and abs(h * scale - trim_h) < 0.05
        else f"the {deck.size[0]:g} x {deck.size[1]:g} mm card is scaled by {scale:.3f} to fit the "
        f"{trim_w:.1f} x {trim_h:.1f} mm trim, centred; its edge colour fills the rest"
    )
    lines = [
        f"Deck '{deck.name}': {deck.count} cards, {len(deck.faces)} different faces.",
        f"Template: {t.title} with 1/8 in bleed, {px_w} x {px_h} px at {POD_DPI} dpi.",
        f"Fit: {fit}." + (" Landscape cards are turned upright." if deck.landscape else ""),
        "Upload each NNN-front.png as a card face with the count below, and back.png as the "
        "deck's back." + ("" if deck.back else " (A single-sided card: the back is plain white.)"),
        "",
        *rows,
    ]
    return "\n".join(lines) + "\n"
