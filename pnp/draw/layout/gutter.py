"""Gutter-fold sheets: a piece's front and back side by side on one single-sided page.

For `duplex = "none"` (a printer that cannot print both sides). The fronts fill one half
of the sheet, a dashed fold line runs between the halves, and each back lies where
folding the sheet along that line (printed sides out) puts it behind its front:

- fold "v", down the middle of the sheet (x = a): the right half folds behind the left
  and a point (x, y) lies behind (2a - x, y). That is the long-edge duplex mirror of a
  sheet 2a wide, so each back is `mirror_placement` (its rotation reversed);
- fold "h", across (y = a): the bottom half folds behind the top and (x, y) lies behind
  (x, 2a - y), the short-edge flip of a sheet 2a high, so each back is
  `turn_placement` (turned a half turn, rotation 180 - r).

No back offset: the fold itself registers the halves. Cards in a half abut (one cut
between neighbours, bleed only round the block) and the fronts' bleed may reach the fold,
so four poker cards fit an A4 sheet; after folding, the front's and back's fold-side
bleed lie on each other and that edge is cut off. The front's crop marks are reflected
onto the back half as well, so either face can be cut from, except marks that would reach
the fold (the fold-side trim lines are marked at the block's other sides). Each run of
backed cards or cutouts takes the fold that needs fewer sheets (ties: "v").
"""

from __future__ import annotations

from dataclasses import replace

from shapely import affinity
from shapely.geometry import LineString

from pnp.contract.paper import Paper
from pnp.draw.kit import FOLD_NOTE, PrintParams
from pnp.draw.layout.duplex import mirror_placement, turn_placement
from pnp.draw.layout.furniture import CROP_ZONE, GREY, MARK, label
from pnp.draw.layout.impose import block_area, impose_cards, pack_cutouts
from pnp.draw.layout.page import Box, Fold, Page, Placement, content_box, union_box
from pnp.draw.scene import Component, Item, Shape, Style
from pnp.runtime.errors import PnpError

FOLD_AIR = 1.0
"""mm between the fold line and the nearest crop mark (cards) or half the gap (cutouts)."""
CUTOUT_FOLD_GAP = 3.0
"""mm between a cutout and its back across the fold: room for scissors."""
LABEL_BAND = 5.0
"""mm kept at the top of the content area for the fold instruction (cutout sheets)."""
CARD_LABEL_BAND = 3.0
"""The same on card sheets: their crop-mark zone already clears the art, and with the
smaller note size a column of four landscape poker cards fits A4."""
CARD_NOTE_SIZE = 6.5
FOLD_STYLE = Style(stroke="#555555", stroke_width=0.25, dash=(3.0, 2.0))
FOLDS: tuple[Fold, ...] = ("v", "h")


def _zone() -> float:
    return CROP_ZONE + MARK.stroke_width / 2


def sheet_area(paper: Paper, kind: str) -> Box:
    """Where a gutter-fold sheet's pieces and their backs may go, both halves together:
    cards' bleed boxes (room for crop marks round them) or cutouts' extents."""
    if kind == "card":
        x0, y0, x1, y1 = block_area(paper)
        return (x0, y0, x1, y1 - CARD_LABEL_BAND)
    x0, y0, x1, y1 = content_box(paper)
    return (x0, y0, x1, y1 - LABEL_BAND)


def fold_at(paper: Paper, kind: str, fold: Fold) -> float:
    """The fold line's x ("v") or y ("h"): the middle of the sheet's area."""
    x0, y0, x1, y1 = sheet_area(paper, kind)
    return (x0 + x1) / 2 if fold == "v" else (y0 + y1) / 2


def front_half(paper: Paper, kind: str, fold: Fold) -> Box:
    """The half the fronts go in: left of a "v" fold, above an "h" fold. Cards' bleed may
    reach the fold (it is cut off after folding); cutouts keep scissor room."""
    x0, y0, x1, y1 = sheet_area(paper, kind)
    a = fold_at(paper, kind, fold)
    air = 0.0 if kind == "card" else CUTOUT_FOLD_GAP / 2
    return (x0, y0, a - air, y1) if fold == "v" else (x0, a + air, x1, y1)


def gutter_fronts(
    components: list[Component],
    kind: str,
    paper: Paper,
    printing: PrintParams,
    title: str,
    section: str,
    gap: float,
) -> list[Page]:
    """The front halves of gutter-fold sheets for backed cards or cutouts, in the fold
    that takes fewer sheets; `fold_sheet` adds the backs once sheets are shared."""
    best: list[Page] | None = None
    error: PnpError | None = None
    for fold in FOLDS:
        area = front_half(paper, kind, fold)
        try:
            if kind == "card":
                pages = impose_cards(
                    components, paper, printing, title, section, area=area, abut=True
                )
            else:
                pages = pack_cutouts(components, paper, title, section, gap, area=area)
        except PnpError as exc:
            error = error or exc
            continue
        if best is None or len(pages) < len(best):
            best = [replace(p, fold=fold) for p in pages]
    if best is None:
        assert error is not None
        raise PnpError(f"{error} (folded in half for a single-sided print)") from None
    return best


def _clear_of_fold(it: Item, fold: Fold, a: float) -> bool:
    """Whether a front's item stays at least `FOLD_AIR` on the front side of the fold, so
    it and its reflection touch no art (a crop mark on the block's fold side may not)."""
    if not isinstance(it, Shape):
        return True
    x0, y0, x1, y1 = it.geom.bounds
    return x1 <= a - FOLD_AIR + 1e-9 if fold == "v" else y0 >= a + FOLD_AIR - 1e-9


def _reflect(it: Item, fold: Fold, a: float) -> Item | None:
    """A crop mark reflected across the fold line (text is not reflected: none is drawn)."""
    if not isinstance(it, Shape):
        return None
    if fold == "v":
        return replace(it, geom=affinity.scale(it.geom, -1.0, 1.0, origin=(a, 0.0)))
    return replace(it, geom=affinity.scale(it.geom, 1.0, -1.0, origin=(0.0, a)))


def fold_sheet(front: Page, paper: Paper) -> Page:
    """A gutter-fold front half completed: the backs across the fold, reflected crop
    marks, the dashed fold line and what to do with it."""
    fold = front.fold
    kind = "card" if front.bleed_box is not None else "cutout"
    a = fold_at(paper, kind, fold)
    backs: list[Placement] = []
    for p in front.placements:
        b = mirror_placement(p, 2 * a) if fold == "v" else turn_placement(p, 2 * a)
        if b is not None:
            backs.append(b)
    kept = [it for it in front.items if _clear_of_fold(it, fold, a)]
    marks = [m for it in kept if (m := _reflect(it, fold, a)) is not None]
    x0, y0, x1, y1 = sheet_area(paper, kind)
    line = [(a, y0), (a, y1)] if fold == "v" else [(x0, a), (x1, a)]
    above = y1 + (_zone() if kind == "card" else 0.0) + 1.0  # clear of the crop marks
    size = CARD_NOTE_SIZE if kind == "card" else 8.0
    note = label((x0 + x1) / 2, above, FOLD_NOTE, size=size, anchor="middle", fill=GREY)
    page = replace(
        front,
        title=f"{front.title} — gutter fold",
        placements=front.placements + backs,
        items=kept + marks + [Shape(LineString(line), "guide", FOLD_STYLE), note],
    )
    if front.trim_box is not None and front.bleed_box is not None:
        page.trim_box = union_box([front.trim_box, _reflect_box(front.trim_box, fold, a)])
        page.bleed_box = union_box([front.bleed_box, _reflect_box(front.bleed_box, fold, a)])
    return page


def _reflect_box(b: Box, fold: Fold, a: float) -> Box:
    if fold == "v":
        return (2 * a - b[2], b[1], 2 * a - b[0], b[3])
    return (b[0], 2 * a - b[3], b[2], 2 * a - b[1])


def with_folds(pages: list[Page], paper: Paper) -> list[Page]:
    return [fold_sheet(p, paper) if p.fold else p for p in pages]
