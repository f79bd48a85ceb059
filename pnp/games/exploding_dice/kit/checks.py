"""Exploding Dice layout checks: the rules' facts measured on the kit that will print."""

from __future__ import annotations

from geometry.folding import FoldPlan, container
from geometry.intersections import quarter_turn
from geometry.shapes import centred_rounded_rect
from pnp.draw.checks import Finding, Level, check_cut_outlines, check_fits, check_palette
from pnp.draw.kit import Kit
from pnp.draw.scene import Component
from pnp.draw.text import count_of
from pnp.games.exploding_dice.engine import MIN_PLAYERS, degenerate
from pnp.games.exploding_dice.kit.tin import CUT_TOLERANCE, TinFit, tin_fit
from pnp.games.exploding_dice.params import ExplodingDiceParams, PlayModel


def run(kit: Kit) -> list[Finding]:
    p: ExplodingDiceParams = kit.params  # type: ignore[assignment]
    model: PlayModel = kit.model  # type: ignore[assignment]
    tin = container(p.tin_width, p.tin_height, p.tin_radius)
    findings: list[Finding] = []
    for c in kit.components:
        findings += check_cut_outlines(c)
        if c.imposition == "card" and c.name not in ("card-back", "board"):  # board: folded
            findings += check_fits(c, _tin_name(p), tin)
    findings += check_board_folds(kit.component("board"), tin)
    fit = tin_fit(p, kit.components)
    findings += check_card_corners(p, fit)
    findings += check_dice_in_tin(p, fit)
    findings += check_stickers(kit, p)
    findings += check_dice_count(model)
    findings += check_arrows(model, p.arrows)
    findings += check_palette(p.colours)
    return findings


def _tin_name(p: ExplodingDiceParams) -> str:
    return f"tin ({p.tin_width:g} x {p.tin_height:g} mm, r {p.tin_radius:g})"


def check_board_folds(board: Component, tin) -> list[Finding]:
    """The folded board must lie inside the tin."""
    plan = board.meta.get("fold")
    if not isinstance(plan, FoldPlan):
        return [
            Finding(
                "error",
                board.name,
                f"{board.width:.1f} mm board cannot be folded to fit the tin "
                "(try smaller dice or a smaller grid)",
            )
        ]
    w, h = plan.folded_size
    folded = centred_rounded_rect(0, 0, w, h, 0.5)
    out = check_fits(board, "tin when folded", tin, folded)
    if not out:
        out.append(
            Finding(
                "info",
                board.name,
                f"folds {plan.cols} x {plan.rows} to {w:.1f} x {h:.1f} mm for the tin",
            )
        )
    return out


def check_card_corners(p: ExplodingDiceParams, fit: TinFit) -> list[Finding]:
    """The room between the cards as cut (size and corner radius) and the tin's wall: an
    error when they stick out, a warning when a hand cut off the marks would catch."""
    size = f"{p.card_width:g} x {p.card_height:g} mm cards"
    if fit.radius is None:
        return []  # the cards' own finding says no radius fits
    square = (
        f"; cut square they stick out {-fit.square_spare:.2f} mm"
        if fit.square_spare < 0
        else f"; square corners fit too ({fit.square_spare:.2f} mm)"
    )
    text = f"{size} cut with {fit.radius:g} mm corners"
    if fit.spare < 0:
        return [Finding("error", "rule-card-1", f"{text} stick out of the {_tin_name(p)}")]
    level: Level = "warning" if fit.spare < CUT_TOLERANCE else "info"
    return [
        Finding(
            level,
            "rule-card-1",
            f"{text} clear the {_tin_name(p)} by {fit.spare:.2f} mm{square}"
            + (f" (a hand cut may stray {CUT_TOLERANCE:g} mm)" if level == "warning" else ""),
        )
    ]


def check_dice_in_tin(p: ExplodingDiceParams, fit: TinFit) -> list[Finding]:
    """Count the dice the tin holds: side by side on its floor, in as many layers as its
    depth allows above the card stock (cards, score cards, the folded board)."""
    room = (
        f"{count_of(fit.per_layer, 'die', 'dice')} a layer; the {p.tin_depth:g} mm depth less "
        f"{fit.stack:.1f} mm of card ({fit.sheets} sheets) leaves room for "
        f"{count_of(fit.layers, 'layer', 'layers')}"
    )
    if fit.dice_in_tin < fit.dice:
        return [
            Finding(
                "warning",
                "dice",
                f"only {fit.dice_in_tin} of the {fit.dice} dice of {p.die_size:g} mm fit the "
                f"tin: {room}",
            )
        ]
    text = f"all {fit.dice} dice of {p.die_size:g} mm fit the tin: {room}"
    return [Finding("info", "dice", text)]


def check_stickers(kit: Kit, p: ExplodingDiceParams) -> list[Finding]:
    """A sticker must be smaller than the die face, or it wraps over the rounded edge."""
    out = []
    for c in kit.components:
        if not c.name.startswith("stickers"):
            continue
        for s in c.shapes("cut"):
            x0, y0, x1, y1 = s.geom.bounds
            side = max(x1 - x0, y1 - y0)
            if side >= p.die_size:
                out.append(
                    Finding(
                        "error",
                        c.name,
                        f"a {side:.1f} mm sticker does not fit a {p.die_size:g} mm die face",
                    )
                )
                break
    return out


def check_dice_count(model: PlayModel) -> list[Finding]:
    why = degenerate(model, MIN_PLAYERS)
    if why:  # the general simulation rule finds it too: "no game lasted a turn"
        return [Finding("warning", "dice", f"degenerate: {why}")]
    cells = model.n * model.n
    if len(model.dice) < cells:
        return [
            Finding(
                "warning",
                "dice",
                f"{len(model.dice)} dice cannot fill {cells} intersections: "
                "the 'grid full' ending can never happen",
            )
        ]
    return []


def check_arrows(model: PlayModel, mode: str) -> list[Finding]:
    """Every row and column needs an entry; the pinwheel must survive a quarter turn."""
    out = []
    rows = {e.index for e in model.entries if e.axis == "row"}
    cols = {e.index for e in model.entries if e.axis == "col"}
    missing = [f"row {i + 1}" for i in range(model.n) if i not in rows]
    missing += [f"column {i + 1}" for i in range(model.n) if i not in cols]
    if missing:
        out.append(Finding("error", "board", f"no arrow enters {', '.join(missing)}"))
    if mode == "pinwheel":
        turned = {quarter_turn(e, model.n) for e in model.entries}
        if turned != set(model.entries):
            out.append(Finding("error", "board", "pinwheel arrows change under a quarter turn"))
    return out
