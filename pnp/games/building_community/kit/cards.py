"""Building Community rule cards: the rules in our own words, from the params.

The text lives in `templates/rules/building-community/` and follows the kit: board size,
tile counts and colours, and the swap scope option, so the printed rules always describe
the printed and simulated set.
"""

from __future__ import annotations

from pnp.contract.palette import ink
from pnp.draw.cards import CardFormat, card_back, rule_deck
from pnp.draw.checks import Finding
from pnp.draw.kit import PrintParams
from pnp.draw.scene import Component
from pnp.games.building_community.params import BuildingCommunityParams
from pnp.games.building_community.rules.notation import label

GAME = "building-community"
TITLE = "Building Community"
ACCENT = "#2E4A45"  # deep teal: no tile or pawn colour, so it names nobody
BODY_MAX = 8.5  # largest body size for rule cards, in points
DECK_FLOOR = 7.0


def _listed(words: list[str]) -> str:
    return ", ".join(words[:-1]) + " and " + words[-1]


def rules_context(p: BuildingCommunityParams, tiles: list[Component]) -> dict[str, object]:
    """The facts the rule templates print, taken from the params and the printed tiles."""
    listed = [f"{t.copies} {t.meta['colour']} ({ink(str(t.meta['colour'])).symbol})" for t in tiles]
    return {
        "radius": p.radius,
        "spaces": sum(t.copies for t in tiles),
        "tile_list": _listed(listed),
        "scope": p.scope,
        "pawns": len(p.pawn_colours),
        "centre": label((0, 0), p.radius),
    }


def rule_cards(
    p: BuildingCommunityParams, printing: PrintParams, tiles: list[Component]
) -> tuple[list[Component], list[Finding]]:
    """One card per `rule-*.j2` template, all sharing a back with the tile colours."""
    fmt = CardFormat.of(p, printing)
    back = card_back(TITLE, p.colours, fmt, ACCENT, subtitle="a silent cooperative puzzle")
    return rule_deck(
        GAME, rules_context(p, tiles), fmt, ACCENT, back=back, body_max=BODY_MAX, floor=DECK_FLOOR
    )
