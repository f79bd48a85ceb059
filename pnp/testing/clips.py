"""Where a print PDF clips each placed piece, read back from the page's content stream.

Every placement with a clip draws inside a rectangle (its bleed box, less what it shares
with an abutting neighbour), so the rectangles say where each piece lies on the sheet
without asking the layout code. Boxes are in mm, y up, as the page draws them."""

from __future__ import annotations

from pathlib import Path

import pypdf
from pypdf.generic import ContentStream

PT = 72.0 / 25.4
Box = tuple[float, float, float, float]
Matrix = tuple[float, float, float, float, float, float]


def _times(m: Matrix, n: Matrix) -> Matrix:
    """m then n (PDF's row-vector convention: cm pre-multiplies the current matrix)."""
    a, b, c, d, e, f = m
    p, q, r, s, t, u = n
    return (
        a * p + b * r,
        a * q + b * s,
        c * p + d * r,
        c * q + d * s,
        e * p + f * r + t,
        e * q + f * s + u,
    )


def _apply(m: Matrix, x: float, y: float) -> tuple[float, float]:
    a, b, c, d, e, f = m
    return (a * x + c * y + e, b * x + d * y + f)


def clip_boxes(path: Path) -> list[list[Box]]:
    """Per page, every rectangle used as a clip path, in drawing order."""
    out: list[list[Box]] = []
    reader = pypdf.PdfReader(path)
    for page in reader.pages:
        ops = ContentStream(page.get_contents(), reader).operations
        ctm: Matrix = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)
        stack: list[Matrix] = []
        rect: Box | None = None
        boxes: list[Box] = []
        for operands, op in ops:
            if op == b"q":
                stack.append(ctm)
            elif op == b"Q":
                ctm = stack.pop()
            elif op == b"cm":
                ctm = _times(tuple(float(v) for v in operands), ctm)  # type: ignore[arg-type]
            elif op == b"re":
                x, y, w, h = (float(v) for v in operands)
                corners = [_apply(ctm, x + i * w, y + j * h) for i in (0, 1) for j in (0, 1)]
                xs, ys = [c[0] / PT for c in corners], [c[1] / PT for c in corners]
                rect = (min(xs), min(ys), max(xs), max(ys))
                continue
            elif op in (b"W", b"W*") and rect is not None:
                boxes.append(rect)
            if op not in (b"W", b"W*"):
                rect = None
        out.append(boxes)
    return out
