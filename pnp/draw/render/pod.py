"""Print-on-demand export: each deck on a print service's product of the piece's own size.

A piece keeps its size: a tile must fit its board slot, a card its tin. So a deck goes to
a service only where a product's trim is the piece's size (within `FIT_TOL`); its faces
are drawn 1:1 at 300 dpi, centred on that trim, with the product's bleed. Where no
product is that size the deck is left out of `pod/`, with the reason (and the nearest
product) in `pod/README.txt` and a `warning:` line from the build: nothing is rescaled.

Files: `pod/<deck>/001-front.png`, `002-front.png`, ... (one per different face, in kit
order), `pod/<deck>/back.png` (the deck's one back), `pod/<deck>/README.txt` (product,
trim and bleed in mm and px, each face with its count) and `pod/README.txt` (every deck:
its product, or why it was left out).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Literal

from pnp.draw.render.faces import Deck, face_image, plain_back, png_bytes
from pnp.draw.render.png import MM_PER_INCH
from pnp.draw.scene import Component

POD_DPI = 300
FIT_TOL = 0.5
"""mm: a product fits a piece when each side of its trim is within this of the piece's."""
Kind = Literal["rect", "hex"]

TGC = "The Game Crafter"
MPC = "MakePlayingCards"
TGC_PRODUCTS = "https://www.thegamecrafter.com/make/products/"
"""Each TGC product page (this address plus its name, e.g. `PokerDeck`) gives its image
size in pixels at 300 dpi: the trim plus a 1/8 in bleed on every side (TGC's templates,
https://help.thegamecrafter.com/article/39-templates). The sizes below were read from a
public transcription of that catalogue (github.com/khenn/thegamecrafter-mcp,
skills/tgc-card-deck-workflows and skills/tgc-custom-cut-workflows,
references/component-profiles.md): trim = pixels / 300 - 1/4 in."""
MPC_SIZES = "https://www.makeplayingcards.com/pops/faq-photo.html"
"""MakePlayingCards' image-upload guide, as tabulated (trim sizes in inches, no bleed) in a
public card-template plugin's size reference; its hex cards (2.6 x 3 in and 3.25 x 3.75 in)
from https://www.makeplayingcards.com/design/your-own-hex-cards.html and
custom-hexagonal-game-cards.html. Its bleed is not confirmed here, so an MPC product is
named (a deck it fits is pointed to it) but no image is drawn for it."""
TGC_BLEED_IN = 0.125


@dataclass(frozen=True)
class Product:
    """One product a service prints: its trim (inches, as published, upright for cards),
    the piece shape it is cut to, and its bleed (None: not confirmed, no image drawn)."""

    service: str
    name: str
    width_in: float
    height_in: float
    kind: Kind
    source: str
    bleed_in: float | None = TGC_BLEED_IN

    @property
    def title(self) -> str:
        return f"{self.service} {self.name}"

    @property
    def trim_mm(self) -> tuple[float, float]:
        return self.width_in * MM_PER_INCH, self.height_in * MM_PER_INCH

    @property
    def bleed_mm(self) -> float:
        return (self.bleed_in or 0.0) * MM_PER_INCH

    @property
    def bleed_px(self) -> float:
        """The bleed at 300 dpi: 37.5 px for 1/8 in (the image is whole pixels, the
        bleed need not be)."""
        return (self.bleed_in or 0.0) * POD_DPI

    @property
    def pixels(self) -> tuple[int, int]:
        """The image size the service asks for: trim plus bleed, at 300 dpi."""
        b = 2 * (self.bleed_in or 0.0)
        return round((self.width_in + b) * POD_DPI), round((self.height_in + b) * POD_DPI)


def _tgc(name: str, page: str, w: float, h: float, kind: Kind = "rect") -> Product:
    return Product(TGC, name, w, h, kind, TGC_PRODUCTS + page)


def _mpc(name: str, w: float, h: float, kind: Kind = "rect") -> Product:
    return Product(MPC, name, w, h, kind, MPC_SIZES, None)


PRODUCTS: tuple[Product, ...] = (
    # The Game Crafter's card decks (pixels with bleed in the comment)
    _tgc("poker card", "PokerDeck", 2.5, 3.5),  # 825 x 1125
    _tgc("bridge card", "BridgeDeck", 2.25, 3.5),  # 750 x 1125
    _tgc("mint tin card", "MintTinDeck", 2.25, 3.5),  # 750 x 1125
    _tgc("business card", "BusinessDeck", 2.0, 3.5),  # 675 x 1125
    _tgc("domino card", "DominoDeck", 1.75, 3.5),  # 600 x 1125
    _tgc("mini card", "MiniDeck", 1.75, 2.5),  # 600 x 825
    _tgc("micro card", "MicroDeck", 1.25, 1.75),  # 450 x 600
    _tgc("tarot card", "TarotDeck", 2.75, 4.75),  # 900 x 1500
    _tgc("jumbo card", "JumboDeck", 3.5, 5.5),  # 1125 x 1725
    _tgc("small square card", "SmallSquareDeck", 2.5, 2.5),  # 825 x 825
    _tgc("euro square card", "EuroSquareDeck", 2.75, 2.75),  # 900 x 900
    _tgc("square card", "SquareDeck", 3.5, 3.5),  # 1125 x 1125
    # its punchout chits and tiles (chipboard)
    _tgc("small square chit", "SmallSquareChit", 0.5, 0.5),  # 225 x 225
    _tgc("medium square chit", "MediumSquareChit", 0.75, 0.75),  # 300 x 300
    _tgc("large square chit", "LargeSquareChit", 1.0, 1.0),  # 375 x 375
    _tgc("mini square tile", "MiniSquareTile", 1.25, 1.25),  # 450 x 450
    _tgc("small square tile", "SmallSquareTile", 2.0, 2.0),  # 675 x 675
    _tgc("medium square tile", "MediumSquareTile", 2.5, 2.5),  # 825 x 825
    _tgc("large square tile", "LargeSquareTile", 3.5, 3.5),  # 1125 x 1125
    _tgc("hex shard", "HexShard", 0.75, 0.75, "hex"),  # 300 x 300
    _tgc("mini hex tile", "MiniHexTile", 1.25, 1.25, "hex"),  # 450 x 450
    _tgc("small hex tile", "SmallHexTile", 2.0, 1.75, "hex"),  # 675 x 600
    _tgc("medium hex tile", "MediumHexTile", 2.5, 2.25, "hex"),  # 825 x 750
    _tgc("large hex tile", "LargeHexTile", 3.75, 3.25, "hex"),  # 1200 x 1050
    _tgc("hex card", "HexDeck", 3.75, 3.25, "hex"),  # 1200 x 1050
    # MakePlayingCards (named only: its bleed is not confirmed here)
    _mpc("poker card", 2.5, 3.5),
    _mpc("bridge card", 2.25, 3.5),
    _mpc("mini card", 1.75, 2.5),
    _mpc("micro card", 1.25, 1.75),
    _mpc("domino card", 1.75, 3.5),
    _mpc("business card", 2.0, 3.5),
    _mpc("tarot card", 2.75, 4.75),
    _mpc("small square card", 2.0, 2.0),
    _mpc("large square card", 3.5, 3.5),
    _mpc("hex card", 3.0, 2.6, "hex"),
    _mpc("large hex card", 3.75, 3.25, "hex"),
)


def piece_kind(comp: Component) -> Kind:
    """A hexagon goes on a hex product; anything else (a card, a square, an octagon) on
    a rectangular one, by its bounding box."""
    outline = comp.shape_outline.simplify(0.01)
    corners = len(outline.exterior.coords) - 1 if outline.geom_type == "Polygon" else 0
    return "hex" if corners == 6 else "rect"


def _sides(w: float, h: float) -> tuple[float, float]:
    return min(w, h), max(w, h)


def _misfit(size: tuple[float, float], product: Product) -> float:
    """How far (mm) the product's trim is from the piece's size, either way round."""
    (a, b), (pa, pb) = _sides(*size), _sides(*product.trim_mm)
    return max(abs(a - pa), abs(b - pb))


def _square(w: float, h: float) -> bool:
    return abs(w - h) <= FIT_TOL


def _nearest(size: tuple[float, float], kind: Kind) -> list[Product]:
    """The largest product smaller than the piece and the smallest larger one, of its
    shape (a square piece: square products), for a refusal to name."""
    same = [
        p
        for p in PRODUCTS
        if p.kind == kind and (kind == "hex" or _square(*p.trim_mm) == _square(*size))
    ]
    a, b = _sides(*size)

    def area(p: Product) -> float:
        return p.trim_mm[0] * p.trim_mm[1]

    inside = [p for p in same if _sides(*p.trim_mm)[0] <= a and _sides(*p.trim_mm)[1] <= b]
    outside = [p for p in same if _sides(*p.trim_mm)[0] >= a and _sides(*p.trim_mm)[1] >= b]
    return ([max(inside, key=area)] if inside else []) + (
        [min(outside, key=area)] if outside else []
    )


@dataclass(frozen=True)
class PodPlan:
    """A deck and its product, or (product None) why it is left out."""

    deck: Deck
    product: Product | None
    reason: str = ""

    @property
    def turn(self) -> bool:
        """Draw the piece a quarter turn so it lies the way the product does."""
        if self.product is None:
            return False
        w, h = self.deck.size
        pw, ph = self.product.trim_mm
        return w != h and pw != ph and (w > h) != (pw > ph)


def plan_deck(deck: Deck) -> PodPlan:
    """The product whose trim is the deck's piece size (a drawable one first), else the
    deck left out, with the nearest products either side named."""
    size, kind = deck.size, piece_kind(deck.faces[0])
    fits = sorted(
        (p for p in PRODUCTS if p.kind == kind and _misfit(size, p) <= FIT_TOL),
        key=lambda p: _misfit(size, p),
    )
    drawn = [p for p in fits if p.bleed_in is not None]
    if drawn:
        return PodPlan(deck, drawn[0])
    piece = f"{size[0]:g} x {size[1]:g} mm {'hexagon' if kind == 'hex' else 'piece'}"
    if fits:
        return PodPlan(
            deck,
            None,
            f"{fits[0].title} is the {piece}'s size, but its image size and bleed are not "
            "confirmed here: order it from the kit's own SVG files",
        )
    near = " and ".join(
        f"{p.title} ({p.trim_mm[0]:.2f} x {p.trim_mm[1]:.2f} mm)" for p in _nearest(size, kind)
    )
    return PodPlan(
        deck,
        None,
        f"no {TGC} or {MPC} product is a {piece} (within {FIT_TOL:g} mm)"
        + (f"; nearest: {near}" if near else "")
        + ". A piece is never rescaled: it must fit its board, tin or box as the kit makes it.",
    )


def pod_plans(decks: list[Deck]) -> list[PodPlan]:
    return [plan_deck(d) for d in decks]


def pod_files(plans: list[PodPlan]) -> Iterator[tuple[str, bytes]]:
    """(relative path, bytes) of every print-on-demand file: each fitting deck's images
    and README, and the index of every deck."""
    for plan in plans:
        product = plan.product
        if product is None:
            continue
        deck = plan.deck
        folder = f"pod/{deck.name}"
        rows = []
        for n, face in enumerate(deck.faces, 1):
            name = f"{n:03d}-front.png"
            rows.append(f"{name}  x{face.copies}  {face.title}  (svg/{face.name}.svg)")
            yield f"{folder}/{name}", _png(face, product, plan.turn)
        back = deck.back or plain_back(deck.faces[0])
        yield f"{folder}/back.png", _png(back, product, plan.turn)
        yield f"{folder}/README.txt", _readme(plan, rows).encode("utf-8")
    yield "pod/README.txt", _index(plans).encode("utf-8")


def _png(comp: Component, product: Product, turn: bool) -> bytes:
    w, h = product.pixels
    px_per_mm = POD_DPI / MM_PER_INCH
    img = face_image(comp, w, h, bleed_px=product.bleed_px, turn=turn, px_per_mm=px_per_mm)
    return png_bytes(img, POD_DPI)


def _readme(plan: PodPlan, rows: list[str]) -> str:
    deck, product = plan.deck, plan.product
    assert product is not None
    w, h = deck.size
    tw, th = product.trim_mm
    px_w, px_h = product.pixels
    b_mm, b_px = product.bleed_mm, product.bleed_px
    turned = " (turned a quarter, as the product lies)" if plan.turn else ""
    lines = [
        f"Deck '{deck.name}': {deck.count} pieces, {len(deck.faces)} different faces.",
        f"Product: {product.title} ({product.source}).",
        f"Trim: {tw:.2f} x {th:.2f} mm = {tw * POD_DPI / MM_PER_INCH:.1f} x "
        f"{th * POD_DPI / MM_PER_INCH:.1f} px; bleed {b_mm:.3f} mm = {b_px:g} px each side; "
        f"image {px_w} x {px_h} px at {POD_DPI} dpi.",
        f"The {w:g} x {h:g} mm piece is drawn at its own size{turned}, centred on the trim; "
        "nothing is scaled. The printed art only: no cut, fold or guide lines.",
        "Upload each NNN-front.png as a face with the count below, and back.png as the "
        "deck's back." + ("" if deck.back else " (A single-sided piece: the back is plain white.)"),
        "",
        *rows,
    ]
    return "\n".join(lines) + "\n"


def _index(plans: list[PodPlan]) -> str:
    lines = ["Print-on-demand decks: each on a product of its own size, or left out.", ""]
    for plan in plans:
        if plan.product is not None:
            lines.append(f"{plan.deck.name}: {plan.product.title}, see {plan.deck.name}/README.txt")
        else:
            lines.append(f"{plan.deck.name}: left out: {plan.reason}")
    return "\n".join(lines) + "\n"
