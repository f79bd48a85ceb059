"""Building Community: the kit (what prints)."""

from __future__ import annotations

from pnp.draw.kit import FOLD_NOTE, Kit, KitSection, PrintParams, backs_note
from pnp.draw.scene import Component
from pnp.games.building_community.fast import solver
from pnp.games.building_community.game import SLUG, TITLE
from pnp.games.building_community.kit import board, diagrams, tiles
from pnp.games.building_community.kit.cards import rule_cards
from pnp.games.building_community.kit.pawns import pawn_standees, pawn_tokens
from pnp.games.building_community.params import BuildingCommunityParams, validate
from pnp.games.building_community.rules.model import PlayModel, play_model
from pnp.runtime.errors import PnpError


def build_kit(params: BuildingCommunityParams, printing: PrintParams) -> Kit:
    """Every printed piece, in the order a person prints and assembles them."""
    validate(params)
    model = play_model(params)
    kit = Kit(SLUG, TITLE, params, printing, model=model)
    tile_parts = tiles.tiles(params, printing, model.start_colours)
    cards, found = rule_cards(params, printing, tile_parts)
    kit.components.append(board.board(params, printing))
    kit.components += tile_parts
    kit.components += pawn_tokens(params) + pawn_standees(params)
    kit.components += cards
    kit.findings += found
    kit.cut_parts = {"tiles": tuple(t.name for t in tile_parts)}
    kit.sections = _sections(kit)
    if params.solution:
        pages = solution_pages(params, printing, model)
        kit.components += pages
        names = tuple(c.name for c in pages)
        kit.sections.append(KitSection("Solution", names, SOLUTION_NOTE, reading=True))
    kit.materials = _materials(printing, sum(t.copies for t in tile_parts))
    return kit


SOLUTION_NOTE = "The solver's winning line, turn by turn, for the box (a spoiler)."


def solution_pages(
    params: BuildingCommunityParams, printing: PrintParams, model: PlayModel
) -> list[Component]:
    """The `solution = true` page(s): the solver's line for `players` within
    `solver_budget`, drawn; one line of error when it finds none."""
    answer = solver.solve(model, params.players, params.solver_budget)
    if answer.result != "win":
        raise PnpError(
            f"solution = true: the solver found no win for {params.players} players within "
            f"solver_budget {params.solver_budget:,} ({answer.result}): raise solver_budget"
        )
    return diagrams.draw_line(params, params.players, list(answer.line), printing)


def _sections(kit: Kit) -> list[KitSection]:
    return [
        KitSection(
            "Board",
            ("board",),
            "Cut round the board; lay each tile on the space with its colour and symbol.",
        ),
        KitSection(
            "Tiles",
            kit.names("tile-"),
            backs_note(
                kit.printing,
                "Print both sides (flip on the long edge). Cut the crop marks, then the slanted "
                "edges.",
                f"Backs are across the fold: {FOLD_NOTE} the crop marks, then the slanted edges.",
            ),
        ),
        KitSection(
            "Pawns",
            kit.names("pawn-token") + kit.names("pawn-standee"),
            "Tokens or standees, as you like: fold a standee on its dashed line into a tent.",
        ),
        KitSection(
            "Rule cards",
            kit.names("rule-card"),
            backs_note(
                kit.printing,
                "Print the back page on the reverse (flip on the long edge).",
                f"Backs are across the fold: {FOLD_NOTE}.",
            ),
        ),
    ]


def _materials(printing: PrintParams, tile_count: int) -> tuple[str, ...]:
    bed = printing.cut_bed
    sheets = f"{bed} mm" if "x" in bed else bed.upper() if bed == "a4" else bed.capitalize()
    return (
        "Card stock (about 200-300 g/m2) and a printer that prints both sides, for the "
        f"{tile_count} tiles and the rule cards.",
        "A craft knife, a metal ruler and a cutting mat (or scissors); a bone folder or a "
        "blunt knife to score the standees; glue stick if the board prints on several sheets.",
        f"Or laser-cut the tiles from 2-3 mm board: cut/ holds them nested on {sheets} sheets.",
    )
