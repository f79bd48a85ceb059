"""Home in One Piece: the kit (what prints)."""

from __future__ import annotations

from pnp.contract.paper import STICKER_PAPER
from pnp.draw.kit import FOLD_NOTE, Kit, KitSection, PrintParams, backs_note
from pnp.draw.text import count_of
from pnp.games.home_in_one_piece.game import SLUG, TITLE
from pnp.games.home_in_one_piece.kit import board
from pnp.games.home_in_one_piece.kit.cards import home_cards
from pnp.games.home_in_one_piece.kit.dice_parts import paper_dice, sticker_sheets
from pnp.games.home_in_one_piece.params import (
    HomeInOnePieceParams,
    board_size,
    dough_to_use,
    validate,
)
from pnp.games.home_in_one_piece.rules.model import play_model


def build_kit(params: HomeInOnePieceParams, printing: PrintParams) -> Kit:
    """Every printed piece, in the order a person prints and assembles them."""
    params = validate(params)
    kit = Kit(SLUG, TITLE, params, printing, model=play_model(params))
    cards, card_findings = home_cards(params, printing)
    kit.components.append(board.board(params, printing))
    kit.components += cards
    kit.components += sticker_sheets(params)
    kit.components += paper_dice(params)
    kit.findings += card_findings
    kit.sections = _sections(kit, params)
    kit.materials = materials(params)
    return kit


def _true_size(p: HomeInOnePieceParams) -> str:
    w, h = board_size(p)
    return f"{w:.0f} x {h:.0f} mm"


def _sections(kit: Kit, p: HomeInOnePieceParams) -> list[KitSection]:
    if p.board_scale >= 1:
        board_note = (
            f"True size {_true_size(p)}: trim the sheets and glue them as the assembly map shows."
        )
    else:
        board_note = f"True size {_true_size(p)}: {dough_to_use(p):g} g of dough each."
    return [
        KitSection("Board", ("board",), board_note, scale=p.board_scale),
        KitSection(
            "Rule cards and player aids",
            kit.names("rule-card") + ("player-aid",),
            backs_note(
                kit.printing,
                "Their backs follow (flip on the long edge).",
                f"Their backs are across the fold: {FOLD_NOTE}.",
            ),
        ),
        KitSection(
            "Blob dice stickers",
            kit.names("stickers-"),
            "One row per die, one sticker per face.",
            stock=STICKER_PAPER,
        ),
        KitSection(
            "Paper blob dice",
            kit.names("paper-die-"),
            "Only if you have no blank dice: card stock, fold the dashed lines, glue the tabs.",
        ),
    ]


def materials(p: HomeInOnePieceParams) -> tuple[str, ...]:
    """What a maker needs besides the printout, with the numbers the kit was built from."""
    first, second = p.dough_colours
    w, h = board_size(p)
    if p.board_scale >= 1:
        board_line = (
            f"The board is {w:.0f} x {h:.0f} mm at true size, printed over several sheets: "
            "glue them onto card or a large sheet of board (a glue stick, a long ruler)."
        )
    else:
        board_line = (
            f"The board is {w:.0f} x {h:.0f} mm at true size; here it prints at "
            f"1:{1 / p.board_scale:.3g} ({w * p.board_scale:.0f} x {h * p.board_scale:.0f} mm), "
            "so it takes less dough (the amount above)."
        )
    sizes = " or ".join(f"{d:g}" for d in p.sticker_dice)
    return (
        f"Play dough in two colours, about {dough_to_use(p):g} g of each ({first} and "
        f"{second} match the board's circles); a recipe is on the rule cards.",
        board_line,
        f"{count_of(len(p.dice), 'blank die', 'blank dice')} of {sizes} mm and sticker paper, "
        f"or card stock (about 200 g/m2) for the {p.die_size:g} mm paper "
        f"{'die' if len(p.dice) == 1 else 'dice'}.",
        "Card stock for the rule cards; scissors or a craft knife, a metal ruler and a "
        "cutting mat; glue for the paper dice.",
    )
