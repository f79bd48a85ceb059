"""Desert Home – Immigration: the kit (what prints, what is sawn)."""

from __future__ import annotations

import math

from pnp.contract.paper import PLAIN_PAPER, STICKER_PAPER
from pnp.draw.kit import FOLD_NOTE, Kit, KitDocument, KitSection, PrintParams, backs_note
from pnp.draw.scene import CUT_LAYERS
from pnp.games.desert_home.game import SLUG, TITLE
from pnp.games.desert_home.kit import board
from pnp.games.desert_home.kit.dice_parts import dice_stickers, paper_dice
from pnp.games.desert_home.kit.pieces import figure_standees, figure_tokens
from pnp.games.desert_home.kit.refuges import blade_overlays, blade_parts
from pnp.games.desert_home.kit.tiles import path_tiles, protection_cards
from pnp.games.desert_home.params import (
    BLADES,
    PLAYERS,
    DesertHomeParams,
    colours_in_play,
    validate,
)
from pnp.games.desert_home.rules.model import play_model

# Hardware for the pivot: ISO metric screw sizes, the lengths sold, and what a bolt needs
# beyond the stack of blades (two 1 mm washers, a nut of 0.8 d, 1 mm of thread showing).
METRIC_SIZES = (2.0, 2.5, 3.0, 4.0, 5.0, 6.0, 8.0, 10.0, 12.0, 16.0, 20.0, 24.0, 30.0)
SCREW_LENGTHS = (10, 12, 16, 20, 25, 30, 35, 40, 45, 50, 60, 70, 80, 90, 100, 120, 150, 200)
WASHER = 1.0
THREAD_SHOWING = 1.0
NUT_SHARE = 0.8


def build_kit(params: DesertHomeParams, printing: PrintParams) -> Kit:
    """Every printed and sawn piece, in the order a person prints and assembles them."""
    from pnp.games.desert_home.kit.cards import desert_home_cards, saw_guide

    validate(params)
    kit = Kit(SLUG, TITLE, params, printing, model=play_model(params))
    blades = blade_parts(params, printing)
    cards, card_findings = desert_home_cards(params, printing)
    guide, guide_findings = saw_guide(params, printing)
    kit.components.append(board.board(params, printing))
    kit.components += path_tiles(params, printing)
    kit.components.append(protection_cards(params, printing))
    kit.components += blades
    kit.components += blade_overlays(params, printing)
    kit.components += figure_tokens(params, printing)
    kit.components += figure_standees(params, printing)
    kit.components.append(dice_stickers(params))
    kit.components += paper_dice(params)
    kit.components += cards
    kit.components.append(guide)
    kit.findings += card_findings + guide_findings
    kit.sections = _sections(kit)
    blade_names = tuple(c.name for c in blades)
    kit.documents = [
        KitDocument(
            "pattern",
            "Scroll-saw patterns (1:1)",
            (
                KitSection(
                    "Refuge blades: scroll-saw pattern",
                    (*blade_names, guide.name),
                    "Glue onto plywood, grain arrow along the grain; drill the pivot holes, "
                    "then saw just outside the black line.",
                    stock=PLAIN_PAPER,
                ),
            ),
            machine_layers=CUT_LAYERS,  # glued onto the wood: holes and drill marks show
        )
    ]
    octagons = tuple(
        c.name for c in kit.components if c.name in ("tile-safe", "tile-thirst", "protection")
    )
    kit.cut_parts = {"plywood": blade_names, "octagons": octagons}
    kit.materials = materials(params)
    return kit


def _sections(kit: Kit) -> list[KitSection]:
    return [
        KitSection(
            "Board",
            ("board",),
            "Real size: trim the sheets and glue them as the assembly map shows.",
        ),
        KitSection(
            "Path tiles",
            kit.names("tile-"),
            backs_note(
                kit.printing,
                "Black backs: flip on the long edge.",
                f"Black backs across the fold: {FOLD_NOTE}.",
            ),
        ),
        KitSection(
            "Refuge blade tops and round figures",
            kit.names("blade-", kind="overlay") + kit.names("tokens-"),
            "Blade tops: two of each colour, one per refuge, numbered in stacking order; glue "
            "each onto its plywood blade. Figures and tents: cut on the circles; a magnet "
            "under each if you like.",
        ),
        KitSection(
            "Figures and tents: tent-fold standees",
            kit.names("standees-"),
            "Instead of the round ones, if you prefer pieces that stand up: fold at the top "
            "and at both feet, glue the feet under each other.",
        ),
        KitSection(
            "Dice stickers", ("dice-stickers",), "One row per blank die.", stock=STICKER_PAPER
        ),
        KitSection(
            "Paper dice",
            kit.names("paper-die-"),
            "Only if you have no blank dice: fold on the dashed lines, glue the tabs.",
        ),
        *_card_sections(kit),
    ]


def _card_sections(kit: Kit) -> list[KitSection]:
    """The rule cards, player aids and protection cards: one section when printed
    double-sided (the golden cards share the last card sheet); for gutter-fold sheets the
    protection cards, which have no backs, are a section of their own, so each sheet's
    title names what is on it."""
    rules = kit.names("rule-card") + ("player-aid",)
    if kit.printing.duplex != "none":
        note = backs_note(
            kit.printing,
            "One player aid per player; the golden protection cards share the last sheet. "
            "The cards' backs follow (flip on the long edge).",
            "",
        )
        return [
            KitSection("Rule cards, player aids and protection cards", (*rules, "protection"), note)
        ]
    return [
        KitSection(
            "Rule cards and player aids",
            rules,
            f"One player aid per player. The cards' backs are across the fold: {FOLD_NOTE}.",
        ),
        KitSection("Protection cards", ("protection",), "Golden, without backs."),
    ]


def bolt_name(diameter: float) -> str:
    """An ISO metric bolt by its name (M5); another diameter by its size."""
    if any(abs(diameter - d) < 1e-9 for d in METRIC_SIZES):
        return f"M{diameter:g}"
    return f"{diameter:g} mm"


def screw_length(p: DesertHomeParams, diameter: float) -> int:
    """The shortest screw sold that holds a stack of six blades with washers and a nut."""
    need = BLADES * p.plywood_thickness + 2 * WASHER + NUT_SHARE * diameter + THREAD_SHOWING
    return next((n for n in SCREW_LENGTHS if n >= need), math.ceil(need))


def materials(p: DesertHomeParams) -> tuple[str, ...]:
    """What a maker needs besides the printout, with the numbers the kit was built from."""
    sheet_w, sheet_h = max(p.plywood_sheet), min(p.plywood_sheet)
    parts = BLADES * PLAYERS
    d = p.bolt_diameter
    length = screw_length(p, d)
    pivot = (
        f"{PLAYERS} {bolt_name(d)} x {length} mm bolts, each with a nut (a wing nut or a lock "
        f"nut lets the blades turn) and 2 washers: one pivot per fan of {BLADES} blades "
        f"({BLADES} x {p.plywood_thickness:g} mm = {BLADES * p.plywood_thickness:g} mm), "
        f"through {p.pivot_hole:g} mm holes ({p.hole_clearance:g} mm clearance)."
    )
    pieces = len(colours_in_play(p)) * (p.figures_per_colour + p.tents_per_colour)
    return (
        f"Plywood {p.plywood_thickness:g} mm thick, in {sheet_w:g} x {sheet_h:g} mm sheets, for "
        f"the {parts} refuge blades (the cut sheets pack them); a scroll saw or a laser, a "
        f"drill with a {p.pivot_hole:g} mm bit, sandpaper.",
        pivot,
        f"{pieces} round magnets of {p.magnet_diameter:g} mm (optional), one under each "
        "figure and tent token: they hold on a board backed with a steel sheet or magnetic "
        "paint.",
        f"6 blank dice of {p.die_size:g} mm for the stickers, or six dice in the colours "
        f"{', '.join(colours_in_play(p))}, or the paper dice.",
        "Card stock (200-250 g/m2) for the tiles, cards and pieces; plain paper for the "
        "board's sheets, to glue onto card or board; sticker paper for the dice stickers; a "
        "craft knife, a metal ruler and a cutting mat.",
        "Glue: spray adhesive or a glue stick for the pattern, the blade tops and the board's "
        "sheets; wood glue to back the tokens with card if you wish.",
    )
