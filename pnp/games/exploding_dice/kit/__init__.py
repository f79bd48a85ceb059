"""Exploding Dice: the kit (what prints)."""

from __future__ import annotations

from pnp.contract.paper import STICKER_PAPER, get_paper
from pnp.draw.kit import FOLD_NOTE, Kit, KitSection, PrintParams, backs_note
from pnp.games.exploding_dice.game import SLUG, TITLE
from pnp.games.exploding_dice.kit import board
from pnp.games.exploding_dice.kit.scoring import score_markers, score_sheet, score_track
from pnp.games.exploding_dice.kit.tin import TinFit, corner_line, cover_line, must_round, tin_fit
from pnp.games.exploding_dice.params import ExplodingDiceParams, play_model, validate
from pnp.runtime.errors import PnpError

BACKS = "Print the back page on the reverse (flip on the long edge)."
FOLDED = f"Backs are across the fold of their sheets: {FOLD_NOTE}."


def build_kit(params: ExplodingDiceParams, printing: PrintParams) -> Kit:
    """Every printed piece, in the order a person prints and assembles them."""
    from pnp.games.exploding_dice.kit.cards import exploding_dice_cards
    from pnp.games.exploding_dice.kit.dice_parts import paper_dice, sticker_sheets

    validate(params)
    _check_board_fits_paper(params, printing)
    kit = Kit(SLUG, TITLE, params, printing, model=play_model(params))
    cards, card_findings = exploding_dice_cards(params, printing)
    kit.components.append(board.board(params, printing))
    kit.components += cards
    kit.components += [score_track(params, printing), score_sheet(params, printing)]
    kit.components.append(score_markers(params, printing))
    kit.components += sticker_sheets(params)
    kit.components += paper_dice(params)
    kit.findings += card_findings
    fit = tin_fit(params, kit.components)
    kit.sections = _sections(kit, fit)
    kit.materials = _materials(params, fit)
    return kit


def _materials(p: ExplodingDiceParams, fit: TinFit) -> tuple[str, ...]:
    n = len(p.colours) * p.dice_per_colour
    per = f"{p.dice_per_colour} each of {', '.join(p.colours)}"
    return (
        f"{n} six-sided dice of {p.die_size:g} mm ({per}), or blank dice and the stickers, "
        "or the paper dice in this kit.",
        "Card stock (about 200 g/m2) for the board and cards; sticker paper for the stickers.",
        "A craft knife, a metal ruler and a cutting mat (or scissors); a bone folder or a "
        "blunt knife to score folds; glue for the paper dice.",
        *([corner_line(fit)] if must_round(fit) else []),
        cover_line(p, fit),
    )


def _sections(kit: Kit, fit: TinFit) -> list[KitSection]:
    """The rule cards' section title carries the corner radius, so the cards' own pages
    (whose header is the title) say it where the cutting happens."""
    cards, rounding = "Rule cards", ""
    if must_round(fit):
        cards = f"Rule cards: round the corners to {fit.radius:g} mm"
        rounding = (
            f"Square corners catch the tin: round them ({fit.radius:g} mm punch or the "
            "printed guide). "
        )
    folds = len(kit.component("board").fold_lines)
    return [
        KitSection(
            "Board, score track, score sheet, lid label",
            ("board", "score-track", "score-sheet", "tin-label"),
            f"Cut on the crop marks{board_folds(folds)}"
            + ("; round the score cards' corners as the rule cards'." if rounding else "."),
        ),
        KitSection(
            cards,
            kit.names("rule-card") + ("player-aid",),
            rounding
            + backs_note(
                kit.printing, "Backs: flip on the long edge." if rounding else BACKS, FOLDED
            ),
        ),
        KitSection(
            "Dice stickers",
            kit.names("stickers"),
            "Pips or candy, one sticker per face.",
            stock=STICKER_PAPER,
        ),
        KitSection(
            "Score markers and paper dice",
            ("score-markers",) + kit.names("paper-die"),
            "Markers for the track; paper dice only if you have no blank dice.",
        ),
    ]


def board_folds(n: int) -> str:
    """How to fold the board to fit the tin, as many dashed lines as its fold plan has."""
    if n == 0:
        return ""
    if n == 1:
        return "; fold the board in half on its dashed line"
    if n == 2:
        return "; fold the board on both of its dashed lines"
    return f"; fold the board on each of its {n} dashed lines"


def _check_board_fits_paper(p: ExplodingDiceParams, printing: PrintParams) -> None:
    """A mint-tin board must print on one sheet; say so before drawing anything."""
    size = board.layout(p).size + 2 * printing.bleed
    paper = get_paper(printing.paper, printing.margin)
    room = min(paper.printable_width, paper.printable_height - 30.0)
    if size > room:
        raise PnpError(
            f"a {p.n} x {p.n} grid of {p.die_size:g} mm dice needs a {size:.0f} mm board, "
            f"more than the {room:.0f} mm that fits on {paper.name} paper: "
            "use a smaller grid or smaller dice"
        )
