"""A solver's winning line drawn as small boards, one per turn, to print for the box.

Each diagram shows the board after its turn: tiles in their printed colours and symbols,
the pawns as numbered discs, the two swapped spaces outlined and named, the moving
pawn's old space ringed, and the column letters under the feet as on the board, so a
player can follow the line on the real board. The first diagram is the start.
Diagrams are laid out in a grid on sheets the size of the paper's content area.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from geometry import hexgrid
from geometry.shapes import symbol
from pnp.contract.palette import ink
from pnp.contract.paper import get_paper
from pnp.draw.kit import PrintParams
from pnp.draw.layout.page import box_size, content_box
from pnp.draw.scene import Component, Item, Shape, Style, Text, circle
from pnp.draw.text import ascent, string_width, wrap_lines
from pnp.games.building_community import rules
from pnp.games.building_community.kit.board import FIELD_EDGE, INK_TEXT, ORIENTATION, foot_items
from pnp.games.building_community.params import BuildingCommunityParams
from pnp.games.building_community.rules.model import PlayModel, play_model
from pnp.games.building_community.rules.notation import label, move_text
from pnp.runtime.errors import PnpError

MAX_PITCH = 10.0  # mm: a diagram's space, across flats, at most
MIN_PITCH = 7.0  # mm: below this the symbols, names and pawn numbers blur
GAP = 6.0  # mm between diagrams
FOOT_ROOM = 4.0  # mm under a board for its column letters
CAPTION = 7.0  # pt
NAME = 5.0  # pt: a swapped space's name
HIGHLIGHT = "#000000"
HIGHLIGHT_LINE = 0.7  # mm
KEY_SIZE = 6.5  # pt
KEY = (
    "Each board shows the position after its turn: the two swapped spaces outlined and "
    "named, the moved pawn's old space ringed. Letters under the columns as on the board; "
    "count spaces up from a column's foot."
)


@dataclass(frozen=True)
class Frame:
    """One diagram: the position after `move` (None: the start, PASS: a pass)."""

    caption: str
    tiles: tuple[int, ...]
    pawns: tuple[int, ...]
    move: rules.Move | None
    came_from: int | None  # the moved pawn's cell before the turn


def frames(model: PlayModel, players: int, line: list[dict[str, Any]]) -> list[Frame]:
    """The start and the position after each turn of `line` (the solver's JSON turns)."""
    state = rules.new_game(model, players)
    out = [Frame("Start", tuple(state.tiles), tuple(state.pawns), None, None)]
    for i, turn in enumerate(line, 1):
        move = rules.turn_from_json(model, turn)
        pawn, before = state.to_move, state.pawns[state.to_move]
        state.apply(move)
        caption = f"{i}. {move_text(model, pawn, move)}"
        moved = None if move is rules.PASS else before
        out.append(Frame(caption, tuple(state.tiles), tuple(state.pawns), move, moved))
    return out


def board_size(radius: int, pitch: float) -> tuple[float, float]:
    """Width and height of a flat-top field of `radius`."""
    return pitch * (hexgrid.SQRT3 * radius + 2 / hexgrid.SQRT3), pitch * (2 * radius + 1)


def _frame_items(
    model: PlayModel, p: BuildingCommunityParams, f: Frame, pitch: float
) -> list[Item]:
    """One diagram in field coordinates (the board's centre at the origin)."""
    items: list[Item] = []
    swapped = set(f.move.swap) if isinstance(f.move, rules.Move) else set()
    for i, cell in enumerate(model.cells):
        k = ink(p.colours[f.tiles[i]])
        x, y = hexgrid.centre(cell, pitch, ORIENTATION)
        space = hexgrid.hexagon(pitch, ORIENTATION, x, y)
        items.append(Shape(space, style=Style(fill=k.hex, stroke=FIELD_EDGE, stroke_width=0.15)))
        if i in swapped:
            cap = ascent(NAME, True) * 0.72 / 0.76
            name = label(cell, model.radius)
            items.append(Text(x, y - cap / 2, name, NAME, True, "middle", k.text_on))
        elif i not in f.pawns:
            mark = symbol(k.symbol, x, y, pitch * 0.3)
            items.append(Shape(mark, style=Style(fill=k.text_on, stroke=None, opacity=0.8)))
    for i in sorted(swapped):
        x, y = hexgrid.centre(model.cells[i], pitch, ORIENTATION)
        edge = hexgrid.hexagon(pitch, ORIENTATION, x, y).exterior
        items.append(Shape(edge, style=Style(stroke=HIGHLIGHT, stroke_width=HIGHLIGHT_LINE)))
    if f.came_from is not None:
        x, y = hexgrid.centre(model.cells[f.came_from], pitch, ORIENTATION)
        halo = Style(stroke="#FFFFFF", stroke_width=0.7)
        ring = Style(stroke=FIELD_EDGE, stroke_width=0.35, dash=(0.6, 0.4))
        items.append(circle(x, y, pitch * 0.28, style=halo))
        items.append(circle(x, y, pitch * 0.28, style=ring))
    cap = ascent(6.0, True) * 0.72 / 0.76
    for n, cell_index in enumerate(f.pawns):
        pk = ink(p.pawn_colours[n])
        x, y = hexgrid.centre(model.cells[cell_index], pitch, ORIENTATION)
        disc = Style(fill=pk.hex, stroke="#FFFFFF", stroke_width=0.3)
        items.append(circle(x, y, pitch * 0.3, style=disc))
        items.append(Text(x, y - cap / 2, str(n + 1), 6.0, True, "middle", pk.text_on))
    items += [
        Text(t.x, t.y, t.text, 5.5, True, "middle", INK_TEXT)
        for t in foot_items(model.radius, pitch)
        if isinstance(t, Text)
    ]
    return items


def _grid(
    radius: int, count: int, width: float, height: float, caption: float
) -> tuple[float, int, int]:
    """(pitch, columns, rows): the fewest sheets for `count` diagrams, then the largest
    diagrams, on sheets `width` x `height`; a column is at least `caption` mm wide."""
    wide, high = board_size(radius, 1.0)
    extra = FOOT_ROOM + ascent(CAPTION) * 1.6 + GAP  # below each board, with the air
    best: tuple[int, float, int, int] | None = None
    for cols in range(1, 7):
        pitch = min(MAX_PITCH, (width - (cols - 1) * GAP) / cols / wide, (height - extra) / high)
        if pitch < MIN_PITCH or (width - (cols - 1) * GAP) / cols < caption:
            continue
        rows = int((height + GAP) // (high * pitch + extra))
        sheets = -(-count // (cols * rows))
        if best is None or (sheets, -pitch) < (best[0], -best[1]):
            best = (sheets, pitch, cols, rows)
    if best is None:
        raise PnpError(f"a radius-{radius} board is too large to draw on this paper")
    return best[1], best[2], best[3]


def draw_line(
    params: BuildingCommunityParams,
    players: int,
    line: list[dict[str, Any]],
    printing: PrintParams,
) -> list[Component]:
    """The line as sheets of diagrams (`solution-1`, `solution-2`, ...), each the size of
    the paper's content area, so each prints on one page at full size."""
    model = play_model(params)
    shown = frames(model, players, line)
    paper = get_paper(printing.paper, printing.margin)
    width, height = box_size(content_box(paper))
    key = wrap_lines(KEY, KEY_SIZE, width)
    lead = len(key) * KEY_SIZE * 0.5 + GAP / 2  # the key's lines, on every sheet
    widest = max(string_width(f.caption, CAPTION) for f in shown)
    pitch, cols, rows = _grid(model.radius, len(shown), width, height - lead, widest)
    bw, bh = board_size(model.radius, pitch)
    cap = ascent(CAPTION) * 1.6
    cell_w, cell_h = max(bw, widest) + GAP, bh + FOOT_ROOM + cap + GAP
    per_page = cols * rows
    sheets = [shown[i : i + per_page] for i in range(0, len(shown), per_page)]
    out = []
    for n, sheet in enumerate(sheets, 1):
        title = "Solution" if len(sheets) == 1 else f"sheet {n} of {len(sheets)}"
        c = Component(f"solution-{n}", title, width, height, imposition="board")
        left = (width - (cols * cell_w - GAP)) / 2
        top = height - lead
        for i, text in enumerate(key):
            y = height - ascent(KEY_SIZE) - i * KEY_SIZE * 0.5
            c.add(Text(width / 2, y, text, KEY_SIZE, False, "middle", INK_TEXT))
        for j, f in enumerate(sheet):
            col, row = j % cols, j // cols
            cx = left + col * cell_w + (cell_w - GAP) / 2
            cy = top - row * cell_h - bh / 2
            c.add(*(it.moved(cx, cy) for it in _frame_items(model, params, f, pitch)))
            base = cy - bh / 2 - FOOT_ROOM - cap * 0.8
            c.add(Text(cx, base, f.caption, CAPTION, False, "middle", INK_TEXT))
        out.append(c)
    return out
