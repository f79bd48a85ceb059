"""`pnp solve --pdf`: a solver's winning line drawn as board diagrams, one per turn, in a
PDF to print for the box. The game draws the diagrams (`GameDef.draw_line`); this lays
them out on pages with the kit's header and footer and writes the file whole."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pnp.contract.gamedef import GameDef
from pnp.contract.paper import get_paper
from pnp.draw.kit import PrintParams
from pnp.runtime.atomic import check_user_file, is_null_device, stream_named, write_bytes
from pnp.runtime.errors import PnpError


def check_pdf_target(game: GameDef, path: str) -> Path:
    """Refuse at once (before the search) a game that cannot draw or a file pnp would not
    write: one line each."""
    if not path.strip() or path == "-":
        raise PnpError("--pdf needs a file name")
    if game.draw_line is None:
        raise PnpError(f"{game.title} cannot draw its solution: --pdf is not offered")
    target = Path(path)
    if stream_named(target) is not None:
        raise PnpError(f"--pdf writes a file, not a stream: {path}")
    check_user_file(target)
    return target


def solution_pdf(
    game: GameDef, params: object, printing: PrintParams, answer: dict[str, Any]
) -> bytes:
    """The PDF of a won answer's line (`answer` as `run_solve` returns it)."""
    from pnp.draw.layout.document import Section, section_pages  # with reportlab: only when used
    from pnp.draw.layout.furniture import add_furniture
    from pnp.draw.render.pdf import render_pdf

    if answer["result"] != "win":
        raise PnpError(f"no winning line to draw ({answer['result']}): the PDF was not written")
    assert game.draw_line is not None
    sheets = game.draw_line(params, answer["players"], answer["line"], printing)
    paper = get_paper(printing.paper, printing.margin)
    pages = section_pages(Section("Solution", sheets), paper, printing)
    title = f"{game.title}: solution"
    return render_pdf(add_furniture(pages, title, paper), title)


def write_solution_pdf(path: Path, data: bytes) -> Path:
    """Write whole (no half-written PDF), nowhere for the null device."""
    if is_null_device(path):
        return path
    check_user_file(path)
    return write_bytes(path, data)
