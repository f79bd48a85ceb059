"""PNG previews decoded and measured: pixel size per dpi, white background, right way up."""

from __future__ import annotations

import io
import struct

import matplotlib.image as mpimg
import numpy as np
import pytest
from shapely.geometry import box

from pnp.draw.render.png import component_png, preview_dpi, svg_to_png
from pnp.draw.render.svg import component_svg
from pnp.draw.scene import CUT_STYLE, Component, Shape, Style


def _size(png: bytes) -> tuple[int, int]:
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    assert png[12:16] == b"IHDR"
    return struct.unpack(">II", png[16:24])


def _pixels(png: bytes) -> np.ndarray:
    return mpimg.imread(io.BytesIO(png), format="png")


def _marked() -> Component:
    """40 x 30 mm, a red 10 mm square in the bottom-left corner of the trim."""
    c = Component("m", "M", 40.0, 30.0)
    c.add(Shape(box(0, 0, 10, 10), "art", Style(fill="#ff0000", stroke=None)))
    return c


def test_pixel_size_follows_dpi() -> None:
    svg = component_svg(_marked())
    assert _size(svg_to_png(svg, dpi=254)) == (400, 300)  # 10 px per mm
    assert _size(svg_to_png(svg, dpi=25.4)) == (40, 30)
    tall = component_svg(Component("t", "T", 25.4, 50.8))
    assert _size(svg_to_png(tall, dpi=100)) == (100, 200)


def test_white_background_and_art_the_right_way_up() -> None:
    img = _pixels(svg_to_png(component_svg(_marked()), dpi=254))
    assert img.shape[:2] == (300, 400)
    # scene y-up: the square sits at the bottom-left, i.e. the last rows of the image
    assert img[250, 50, :3] == pytest.approx([1, 0, 0], abs=0.02)
    assert img[50, 50, :3] == pytest.approx([1, 1, 1], abs=0.02)
    assert img[250, 350, :3] == pytest.approx([1, 1, 1], abs=0.02)


def test_preview_dpi_caps_the_long_side() -> None:
    assert preview_dpi(300, 200) == pytest.approx(1200 * 25.4 / 300)
    assert preview_dpi(50, 30) == 150  # small parts stay sharp, not blown up
    assert preview_dpi(100, 400, max_px=800) == pytest.approx(800 * 25.4 / 400)


def test_component_png_sizes_and_bleed() -> None:
    board = Component("b", "Board", 300, 200)
    w, h = _size(component_png(board))
    assert 1195 <= w <= 1200 and h == pytest.approx(800, abs=2)
    card = Component("c", "Card", 25.4, 50.8, bleed=3.0)
    assert _size(component_png(card, dpi=100, bleed=False)) == (100, 200)
    w, h = _size(component_png(card, dpi=100))
    assert (w, h) == (round((25.4 + 6) / 25.4 * 100), round((50.8 + 6) / 25.4 * 100))


def test_cut_hairline_is_visible_in_the_preview() -> None:
    part = Component("p", "P", 40, 30, items=[Shape(box(10, 10, 30, 20), "cut", CUT_STYLE)])
    img = _pixels(component_png(part, dpi=254))
    column = img[150, 97:104, :3]  # across the left cut edge at x = 10 mm = 100 px
    green = column[:, 1]
    assert green.min() < 0.6  # some pixel is clearly red, not white
    assert column[green.argmin(), 0] > 0.9
