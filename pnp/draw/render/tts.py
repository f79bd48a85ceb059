"""Tabletop Simulator export: deck sheets and the board as images, to playtest remotely.

TTS's Custom Deck reads one image of faces laid out in a grid (10 wide, 7 high at most) and
one back image. A sheet holds up to 69 cards: the grid's last cell is the "hidden" card TTS
shows for a card in another player's hand, and it holds the back here. Every copy of a
card is its own cell (TTS deals physical cards). Sheets are at most 4096 px wide and high,
the largest texture TTS loads everywhere; a landscape card is turned upright, as TTS's card is.

Files: `tts/<deck>-faces.png` and `tts/<deck>-back.png` (a deck of more than 69 cards
splits into `<deck>-1`, `<deck>-2`, ...), and `tts/board.png`, the kit's board as one image
(long side 4096 px) for a Custom Board.
"""

from __future__ import annotations

import io
from collections.abc import Iterator

from PIL import Image

from pnp.draw.render.faces import Deck, art_only, face_image, plain_back, png_bytes
from pnp.draw.render.png import MM_PER_INCH, svg_to_png
from pnp.draw.render.svg import component_svg
from pnp.draw.scene import Component

GRID_COLUMNS, GRID_ROWS = 10, 7
PER_SHEET = GRID_COLUMNS * GRID_ROWS - 1
"""69 cards: the last cell is the hidden card."""
MAX_WIDTH = 4096
CELL_WIDTH = 400
"""px per card across: 10 cells make a 4000 px sheet, under TTS's 4096."""
BOARD_LONG_SIDE = 4096


def cell_size(deck: Deck) -> tuple[int, int]:
    """A card's cell in px: CELL_WIDTH across (upright), its height in the card's proportion;
    narrower where seven rows of a tall card would pass MAX_WIDTH down the sheet too."""
    w, h = deck.size
    if deck.landscape:
        w, h = h, w
    cw, ch = CELL_WIDTH, round(CELL_WIDTH * h / w)
    if ch * GRID_ROWS > MAX_WIDTH:
        ch = MAX_WIDTH // GRID_ROWS
        cw = round(ch * w / h)
    return cw, ch


def tts_files(decks: list[Deck], board: Component | None) -> Iterator[tuple[str, bytes]]:
    """(relative path, bytes) of every Tabletop Simulator file for these decks and board."""
    for deck in decks:
        cw, ch = cell_size(deck)
        turn = deck.landscape
        cards = [face for face in deck.faces for _ in range(face.copies)]
        drawn = {f.name: face_image(f, cw, ch, turn=turn) for f in deck.faces}
        back = face_image(deck.back or plain_back(deck.faces[0]), cw, ch, turn=turn)
        chunks = [cards[i : i + PER_SHEET] for i in range(0, len(cards), PER_SHEET)]
        for n, chunk in enumerate(chunks, 1):
            name = deck.name if len(chunks) == 1 else f"{deck.name}-{n}"
            sheet = Image.new("RGB", (GRID_COLUMNS * cw, GRID_ROWS * ch), "white")
            for i, face in enumerate(chunk):
                sheet.paste(drawn[face.name], ((i % GRID_COLUMNS) * cw, (i // GRID_COLUMNS) * ch))
            sheet.paste(back, ((GRID_COLUMNS - 1) * cw, (GRID_ROWS - 1) * ch))
            yield f"tts/{name}-faces.png", png_bytes(sheet)
            yield f"tts/{name}-back.png", png_bytes(back)
    if board is not None:
        yield "tts/board.png", png_bytes(board_image(board))


def board_image(board: Component) -> Image.Image:
    """The board's printed art, trim only, its long side BOARD_LONG_SIDE px."""
    dpi = BOARD_LONG_SIDE * MM_PER_INCH / max(board.width, board.height)
    data = svg_to_png(component_svg(art_only(board), bleed=False), dpi=dpi)
    return Image.open(io.BytesIO(data)).convert("RGB")
