"""Parcheesi (two-dice variant): the kit (what prints)."""

from __future__ import annotations

from pnp.draw.kit import FOLD_NOTE, Kit, KitSection, PrintParams, backs_note
from pnp.draw.layout.tiling import scale_label
from pnp.games.parcheesi.game import SLUG, TITLE
from pnp.games.parcheesi.kit import board
from pnp.games.parcheesi.kit.pawns import pawn_standees, pawn_tokens, printed_pawn
from pnp.games.parcheesi.params import ParcheesiParams, validate
from pnp.games.parcheesi.rules.model import play_model


def build_kit(params: ParcheesiParams, printing: PrintParams) -> Kit:
    """Every printed piece, in the order a person prints and assembles them."""
    from pnp.games.parcheesi.kit.cards import parcheesi_cards
    from pnp.games.parcheesi.kit.dice_parts import paper_dice

    validate(params)
    kit = Kit(SLUG, TITLE, params, printing, model=play_model(params))
    cards, card_findings = parcheesi_cards(params, printing)
    kit.components.append(board.board(params, printing))
    kit.components += pawn_tokens(params)
    kit.components += pawn_standees(params)
    kit.components += paper_dice(params)
    kit.components += cards
    kit.findings += card_findings
    kit.sections = _sections(kit, params)
    kit.materials = materials(params)
    return kit


def _sections(kit: Kit, p: ParcheesiParams) -> list[KitSection]:
    if p.board_scale < 1:
        board_note = (
            f"One sheet at {scale_label(p.board_scale)}; the pawns print at the same scale "
            f"({printed_pawn(p):.1f} mm)."
        )
    else:
        board_note = "Real size: cut each sheet on its dashed edge, glue them by the assembly map."
    pieces = "Pawns and paper dice" if p.paper_dice else "Pawns"
    dice_note = "; the paper dice only if you have no dice" if p.paper_dice else ""
    return [
        KitSection("Board", ("board",), board_note, scale=p.board_scale),
        KitSection(
            pieces,
            kit.names("pawns-", "standees-", "paper-die-"),
            f"Cut out the round tokens or the standees (fold on the dashes){dice_note}.",
        ),
        KitSection(
            "Rule cards and player aids",
            kit.names("rule-card", "player-aid"),
            backs_note(
                kit.printing,
                "Their backs follow (flip on the long edge); one player aid each.",
                f"Their backs are across the fold ({FOLD_NOTE}); one player aid each.",
            ),
        ),
    ]


def materials(p: ParcheesiParams) -> tuple[str, ...]:
    """What a maker needs besides the printout."""
    dice = "Two ordinary six-sided dice" + (
        " (or the two paper dice in this kit)." if p.paper_dice else "."
    )
    out = [
        dice,
        "Card stock (160-250 g/m2) for the pawns and cards, plain paper for the board; a "
        "craft knife, a metal ruler and a cutting mat, or scissors.",
    ]
    if p.board_scale >= 1:
        out.append(
            "A glue stick or spray glue to join the board's sheets; a large card or thin "
            f"board of {p.board_size:g} x {p.board_size:g} mm to back it, if you like."
        )
    if p.paper_dice:
        out.append("Glue for the paper dice's tabs.")
    return tuple(out)
