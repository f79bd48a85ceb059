"""The cards' tiny markup, laid out as positioned lines with the PDF's own font metrics:
parsing, line breaking, block layout and fitting the largest size that fits."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

from pnp.draw.cards.frame import heading_colour
from pnp.draw.cards.style import (
    INK_TEXT,
    LEADING,
    MM_PER_PT,
    BlockKind,
)
from pnp.draw.text import ascent, descent, string_width

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
def text_width(text: str, size: float, bold: bool) -> float:
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
                x = cur_x + text_width(cur_text, size, cur_bold)
                if gap:
                    x += text_width(" ", size, False)
            cur_text, cur_bold, cur_x = text, bold, x
    if cur_text:
        runs.append(Run(cur_x, cur_text, cur_bold))
        x = cur_x + text_width(cur_text, size, cur_bold)
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
    hang = text_width("0.", size, True) + 0.45 * size * MM_PER_PT
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
