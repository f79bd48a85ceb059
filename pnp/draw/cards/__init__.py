"""Text cards for any game: rule cards, player aids and a shared card back.

Rule text lives in jinja2 templates (`templates/rules/<game>/*.j2`) so it can follow the
game's parameters; the templates render to a tiny markup that is laid out here as
positioned `pnp.draw.scene.Text` lines, measured with the same font metrics the PDF embeds.
Renderers only draw the lines; nothing is re-wrapped later, so what the checks measured
is what gets printed.

Markup, one block per source line (a template's first line may be `title: ...`):

    title: Setup      optional, first line only: the card's title (see `split_title`)
    # Heading         a bold sub-heading in the accent colour
    - item            a bullet with a hanging indent ("  - item", indented: one level in)
    1. item           a numbered item, number as written, with a hanging indent
    plain text        a paragraph
                      (a blank line ends a block; a non-blank line that starts no new
                      block continues the previous one, so long items may wrap in source)
    **bold**          inline bold anywhere inside a block

The body is fitted by trying sizes from `max_size` down to `min_size` in `step` points
and keeping the largest that fits the text frame (the card minus a safe margin and the
title bar). Text that still does not fit at `min_size` is cut off and reported as an
error Finding: overflow is a check error, never a silently clipped card.
"""

from __future__ import annotations

from pnp.draw.cards.deck import (
    CardFormat,
    add_cut,
    card_back,
    card_base,
    colour_key,
    fit_text_card,
    render_template,
    rule_deck,
    split_title,
    template_names,
)
from pnp.draw.cards.frame import (
    card_outline,
    fits_tin,
    heading_colour,
    safe_x,
    text_on,
    tin_fit_radius,
)
from pnp.draw.cards.markup import Block, Line, fit_blocks, layout_blocks, parse_markup, wrap
from pnp.draw.cards.style import INK_TEXT, MIN_SAFE, PAPER, SAFE

__all__ = [
    "INK_TEXT",
    "MIN_SAFE",
    "PAPER",
    "SAFE",
    "Block",
    "CardFormat",
    "Line",
    "add_cut",
    "card_back",
    "card_base",
    "card_outline",
    "colour_key",
    "fit_blocks",
    "fit_text_card",
    "fits_tin",
    "heading_colour",
    "layout_blocks",
    "parse_markup",
    "render_template",
    "rule_deck",
    "safe_x",
    "split_title",
    "template_names",
    "text_on",
    "tin_fit_radius",
    "wrap",
]
