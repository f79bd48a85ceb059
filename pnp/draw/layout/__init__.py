"""Sheet layout: pure data (Pages of Placements and furniture items) for the renderers.

Imposition (cards, cutouts), board tiling, duplex backs and the whole-kit document order.
Nothing here draws; `pnp.draw.render.pdf` draws what these functions decide.
"""

from pnp.draw.layout.document import Section, build_document
from pnp.draw.layout.duplex import alignment_pages, back_page, with_backs
from pnp.draw.layout.furniture import add_furniture
from pnp.draw.layout.impose import impose_cards, pack_cutouts
from pnp.draw.layout.page import Page, Placement, content_box
from pnp.draw.layout.tiling import board_pages, tile_board

__all__ = [
    "Page",
    "Placement",
    "Section",
    "add_furniture",
    "alignment_pages",
    "back_page",
    "board_pages",
    "build_document",
    "content_box",
    "impose_cards",
    "pack_cutouts",
    "tile_board",
    "with_backs",
]
