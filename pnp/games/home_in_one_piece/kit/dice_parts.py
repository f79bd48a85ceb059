"""The blob dice as print: sticker sheets for blank dice of each size, and paper dice.

A face shows one soft dough blob (`geometry.blobs.blob_face`, never a pip) or nothing.
Each die has its own letter in a corner of every face, blank faces included, and its own
pale tint, so the three dice are told apart at a glance. Faces come from `params.dice`,
the list the rules engine rolls, so a designer's own dice print as they are simulated.
"""

from __future__ import annotations

from geometry.blobs import blob_face
from geometry.dice import sticker_size
from pnp.contract.palette import Ink
from pnp.draw.components.dice import FaceDrawer, paper_die, sticker_block
from pnp.draw.scene import PT_PER_MM, Component, Item, Shape, Style, Text
from pnp.games.home_in_one_piece.params import HomeInOnePieceParams, validate
from pnp.runtime.errors import PnpError

TINTS = ("#FCEFC7", "#D9ECF7", "#EFDDEA")  # pale yellow, sky, pink: one per die, no player's
TAB_TINT = "#E6E1D6"
DOUGH = "#6B4F3A"  # a warm brown dough that reads on every tint and in greyscale
DOUGH_EDGE = "#3E2C20"
SHINE = "#FFFFFF"
MARK = "#2B2B2B"
BLOB_SHARE = 0.6  # a blob spans this share of the face: clear of the corner letter
LETTER_PT_PER_MM = 0.62
MIN_LETTER_PT = 4.5
CAP_HEIGHT = 0.73


def die_ink(p: HomeInOnePieceParams, k: int) -> Ink:
    """Die k's face colour, named by its letter."""
    tint = TINTS[k % len(TINTS)]
    return Ink(f"die {p.die_letters[k]}", tint, "circle", TAB_TINT, MARK)


def blob_drawer(letter: str) -> FaceDrawer:
    """A face drawer for one die: a blob on a 1, nothing on a 0, and the die's letter in
    the top-left corner of every face. Each blob's wobble is seeded by the die and the
    face's place, so faces differ from one another but not from build to build."""

    def draw(value: int, x: float, y: float, size: float, ink: Ink) -> list[Item]:
        items: list[Item] = []
        if value:
            seed = f"{letter}:{x:.2f}:{y:.2f}"
            blob = blob_face(BLOB_SHARE * size, seed, x, y - 0.03 * size)
            edge = Style(fill=DOUGH, stroke=DOUGH_EDGE, stroke_width=0.025 * size)
            items.append(Shape(blob, "art", edge))
            shine = blob_face(0.16 * size, f"shine:{seed}", x - 0.1 * size, y + 0.06 * size)
            items.append(Shape(shine, "art", Style(fill=SHINE, stroke=None, opacity=0.55)))
        pt = max(MIN_LETTER_PT, LETTER_PT_PER_MM * size)
        cap = CAP_HEIGHT * pt / PT_PER_MM
        inset = 0.08 * size
        items.append(
            Text(
                x - size / 2 + inset, y + size / 2 - inset - cap, letter, pt, True, fill=ink.text_on
            )
        )
        return items

    return draw


def describe_die(faces: tuple[int, ...]) -> str:
    blobs = sum(faces)
    return f"{blobs} blob{'s' if blobs != 1 else ''}, {len(faces) - blobs} blank"


def sticker_sheets(p: HomeInOnePieceParams) -> list[Component]:
    """One block per die size in `sticker_dice` (`stickers-12mm` ...), a row per die."""
    p = validate(p)
    out = []
    for die in p.sticker_dice:
        try:
            side = sticker_size(die, p.sticker_margin)
        except ValueError as exc:
            raise PnpError(f"stickers for {die:g} mm dice: {exc}") from None
        rows = [(die_ink(p, k), faces) for k, faces in enumerate(p.dice)]
        labels = [
            f"{letter} · {describe_die(faces)}"
            for letter, faces in zip(p.die_letters, p.dice, strict=True)
        ]
        comp = _block(p, die, side, rows, labels)
        comp.meta.update(game="home-in-one-piece", die_size=die, letters=p.die_letters)
        out.append(comp)
    return out


def _block(
    p: HomeInOnePieceParams,
    die: float,
    side: float,
    rows: list[tuple[Ink, tuple[int, ...]]],
    labels: list[str],
) -> Component:
    """A sticker block whose faces are drawn die by die, each with its own letter."""
    drawers = {
        ink.name: blob_drawer(letter) for (ink, _), letter in zip(rows, p.die_letters, strict=True)
    }

    def draw(value: int, x: float, y: float, size: float, ink: Ink) -> list[Item]:
        return drawers[ink.name](value, x, y, size, ink)

    return sticker_block(
        f"stickers-{die:g}mm",
        f"Blob dice stickers, {die:g} mm dice",
        rows,
        side,
        draw,
        f"Blob dice stickers · {die:g} mm blank dice ({side:g} mm stickers)",
        row_labels=labels,
    )


def paper_dice(p: HomeInOnePieceParams) -> list[Component]:
    """A cut-fold-glue paper die per blob die (`paper-die-1` ...), faces `die_size` mm."""
    p = validate(p)
    out = []
    for k, (letter, faces) in enumerate(zip(p.die_letters, p.dice, strict=True)):
        comp = paper_die(
            f"paper-die-{k + 1}",
            f"Paper die {letter} ({describe_die(faces)}, {p.die_size:g} mm)",
            faces,
            p.die_size,
            blob_drawer(letter),
            die_ink(p, k),
        )
        comp.meta.update(game="home-in-one-piece", letter=letter, die_index=k)
        out.append(comp)
    return out
