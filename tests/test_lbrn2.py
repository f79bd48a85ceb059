"""LightBurn projects: the XML parses, its layers carry the material's preset, inner cuts run
before outlines, and every shape reads back as the prepared cut sheet's geometry."""

from __future__ import annotations

import dataclasses
import math
import xml.etree.ElementTree as ET
from functools import cache
from pathlib import Path

import pytest

from geometry.curves import circle_of, cubics
from pnp.build import build_game, cut_sheets_of, make_kit
from pnp.draw.kit import Kit
from pnp.draw.render.laser import LASER_LAYERS, load_presets
from pnp.draw.render.lbrn2 import LBRN_LAYERS, machine_parts, read_lbrn2, sheet_lbrn2
from pnp.draw.scene import CUT_LAYERS, Component
from pnp.runtime.errors import PnpError

TOL = 0.001  # mm


@cache
def kit() -> Kit:
    return make_kit("desert-home", paper="a4")[1]


@cache
def sheets(kerf: float = 0.0, common_line: bool = False) -> list[Component]:
    printing = dataclasses.replace(kit().printing, kerf=kerf, common_line=common_line)
    return cut_sheets_of(dataclasses.replace(kit(), printing=printing))


def project(sheet: Component, engrave: bool = False) -> str:
    text = sheet_lbrn2(sheet, load_presets().for_material(sheet.name.rsplit("-", 1)[0]), engrave)
    assert text is not None
    return text


Bend = tuple[tuple[float, float], tuple[float, float]] | None


def expected(
    sheet: Component, layer: str
) -> list[tuple[str, list[tuple[float, float]], float, list[Bend]]]:
    """The sheet's own paths on a layer: (kind, vertices, radius, per-stretch Bézier
    control points or None), as LightBurn should hold them. A true curve's arcs come as
    eighth-circle Béziers (`geometry.curves.cubics`), a lone circle as a circle."""
    out: list[tuple[str, list[tuple[float, float]], float, list[Bend]]] = []
    for shape in sheet.shapes(layer):
        if shape.curve is not None:
            for path in shape.curve.paths:
                if (c := circle_of(path)) is not None:
                    out.append(("circle", [(c[0], c[1])], c[2], []))
                    continue
                pts = [path.vertices[0][:2]]
                bends: list[Bend] = []
                for p, q, b in path.segments():
                    pieces = [(p, None, None, q)] if b == 0 else cubics(p, q, b)
                    for _, c1, c2, end in pieces:
                        pts.append(end)
                        bends.append(None if c1 is None else (c1, c2))
                if path.closed:
                    pts.pop()
                out.append(("ring" if path.closed else "line", pts, 0.0, bends))
            continue
        for kind, part in machine_parts(shape.geom):
            if kind == "point":
                if shape.radius > 0:
                    out.append(("circle", [(part.x, part.y)], shape.radius, []))
                continue
            pts = [(float(x), float(y)) for x, y in part.coords]
            if kind == "ring" and pts[0] == pts[-1]:
                pts = pts[:-1]
            out.append((kind, pts, 0.0, []))
    return out


def test_the_project_is_lightburn_xml_with_one_cut_setting_per_layer():
    sheet = sheets()[0]  # the plywood blades: cut, inner-cut and drill
    root = ET.fromstring(project(sheet))
    assert root.tag == "LightBurnProject" and root.get("FormatVersion") == "1"
    settings = root.findall("CutSetting")
    names = [cs.find("name").get("Value") for cs in settings]
    assert names == [n for n, _, _ in LBRN_LAYERS if sheet.shapes(n)]
    assert set(names) == {"drill", "inner-cut", "cut"}
    for cs in settings:
        for child in ("index", "name", "speed", "maxPower", "minPower", "numPasses", "priority"):
            assert cs.find(child) is not None, child
        assert cs.get("type") == "Cut"
    indices = {cs.find("index").get("Value") for cs in settings}
    assert len(indices) == len(settings)  # each layer its own LightBurn colour
    for shape in root.iter("Shape"):
        assert shape.get("CutIndex") in indices
        assert shape.find("XForm") is not None


def test_inner_cuts_and_marks_run_before_outlines():
    read = read_lbrn2(project(sheets()[0]))
    prio = {name: int(s["priority"]) for name, s in read.settings.items()}
    assert prio["inner-cut"] < prio["cut"]
    assert prio["drill"] < prio["cut"]
    root = ET.fromstring(project(sheets()[0]))
    prefs = {e.tag: e.get("Value") for e in root.find("UIPrefs")}
    assert prefs["Optimize_ByPriority"] == "1" and prefs["Optimize_InnerToOuter"] == "1"


@pytest.mark.parametrize("kerf, common", [(0.0, False), (0.2, False), (0.15, True)])
def test_shapes_and_layers_round_trip_to_the_prepared_sheet(kerf, common):
    for sheet in sheets(kerf, common):
        read = read_lbrn2(project(sheet))
        for layer in CUT_LAYERS:
            want = expected(sheet, layer)
            got = read.layer(layer)
            assert len(got) == len(want), (sheet.name, layer)
            for g, (kind, pts, radius, bends) in zip(got, want, strict=True):
                assert g.kind == kind
                assert len(g.points) == len(pts)
                assert abs(g.radius - radius) <= TOL
                for (x, y), (ex, ey) in zip(g.points, pts, strict=True):
                    assert abs(x - ex) <= TOL and abs(y - ey) <= TOL
                assert (g.beziers == ()) == all(b is None for b in bends)
                for gb, wb in zip(g.beziers, bends if g.beziers else [], strict=True):
                    assert (gb is None) == (wb is None)
                    for (x, y), (ex, ey) in zip(gb or (), wb or (), strict=True):
                        assert abs(x - ex) <= TOL and abs(y - ey) <= TOL


def _bezier_at(p0, c1, c2, p1, t: float) -> tuple[float, float]:
    u = 1 - t
    return tuple(  # type: ignore[return-value]
        u**3 * a + 3 * u * u * t * b + 3 * u * t * t * c + t**3 * d
        for a, b, c, d in zip(p0, c1, c2, p1, strict=True)
    )


@pytest.mark.parametrize("kerf", [0.0, 0.2])
def test_bezier_stretches_follow_the_blades_true_arcs(kerf):
    """Every Bézier read back from the file lies on one of the sheet's true arcs (centre
    and radius from the scene's curves) to 0.001 mm along its whole length."""
    total = 0
    for sheet in sheets(kerf):
        arcs = [a for s in sheet.shapes("cut") if s.curve for a in s.curve.arcs()]
        read = read_lbrn2(project(sheet))
        bent = 0
        for shape in read.layer("cut"):
            n = len(shape.points)
            for i, bend in enumerate(shape.beziers):
                if bend is None:
                    continue
                p0, p1 = shape.points[i], shape.points[(i + 1) % n]
                on = [_bezier_at(p0, *bend, p1, t / 8) for t in range(9)]
                assert any(
                    all(abs(math.dist(pt, (a.cx, a.cy)) - a.r) <= TOL for pt in on) for a in arcs
                ), (sheet.name, i)
                bent += 1
        assert bent > 0 or not arcs, sheet.name
        total += bent
    assert total > 0  # the blades' corners, hub and fillets reach LightBurn as curves


def test_speeds_and_powers_are_the_materials_preset():
    table = load_presets()
    for sheet in sheets():
        material = sheet.name.rsplit("-", 1)[0]
        preset = table.for_material(material)
        read = read_lbrn2(project(sheet))
        for name, values in read.settings.items():
            s = preset.layers[name]
            assert float(values["speed"]) == s.speed
            assert float(values["maxPower"]) == s.power
            assert int(values["numPasses"]) == s.passes
    # the documented mapping: blades on 4 mm plywood, printed octagons on card
    assert table.for_material("plywood").name == "plywood-4mm"
    assert table.for_material("octagons").name == "card-300gsm"
    assert table.for_material("a-group-nobody-named").name == table.materials["default"]
    assert {"plywood-3mm", "plywood-4mm", "cardboard-1.5mm", "card-300gsm"} <= set(table.presets)


def test_engrave_adds_a_fill_layer_of_the_art_only_when_asked():
    sheet = sheets()[0]
    assert "engrave" not in read_lbrn2(project(sheet)).settings
    read = read_lbrn2(project(sheet, engrave=True))
    assert read.settings["engrave"]["type"] == "Scan"
    assert int(read.settings["engrave"]["priority"]) < int(read.settings["cut"]["priority"])
    assert len(read.layer("engrave")) >= len([s for s in sheet.shapes("art") if s.style.fill])


def test_a_users_presets_file_extends_and_replaces(tmp_path: Path):
    user = tmp_path / "my-laser.toml"
    body = "\n".join(f"{layer} = {{ speed = 7, power = 90, passes = 2 }}" for layer in LASER_LAYERS)
    user.write_text(f'[materials]\nplywood = "ply-6"\n[presets.ply-6]\ntitle = "6 mm"\n{body}\n')
    table = load_presets(str(user))
    preset = table.for_material("plywood")
    assert preset.name == "ply-6" and preset.layers["cut"].passes == 2
    assert table.for_material("octagons").name == "card-300gsm"  # built-in entries stay
    read = read_lbrn2(sheet_lbrn2(sheets()[0], preset) or "")
    assert read.settings["cut"]["speed"] == "7" and read.settings["cut"]["numPasses"] == "2"


@pytest.mark.parametrize(
    "text, words",
    [
        ("[presets.x]\ncut = 3\n", "presets.x needs"),
        ('[materials]\nplywood = "nothing"\n', "names preset 'nothing'"),
        ("[presets.x]\ntitle = 1\ncut = { speed = -1, power = 50 }", "needs 'inner-cut'"),
        ("[oops]\n", "unknown table 'oops'"),
        ("not toml [", "laser_presets"),
    ],
)
def test_a_bad_presets_file_is_one_line(tmp_path: Path, text: str, words: str):
    user = tmp_path / "bad.toml"
    user.write_text(text)
    with pytest.raises(PnpError) as err:
        load_presets(str(user))
    assert words in str(err.value) and "\n" not in str(err.value)


def test_a_bad_layer_setting_names_its_key(tmp_path: Path):
    layers = {layer: "{ speed = 5, power = 50 }" for layer in LASER_LAYERS}
    layers["score"] = "{ speed = 5, power = 150 }"
    body = "\n".join(f"{k} = {v}" for k, v in layers.items())
    user = tmp_path / "bad.toml"
    user.write_text(f"[presets.x]\n{body}\n")
    with pytest.raises(PnpError, match=r"presets\.x\.score\.power"):
        load_presets(str(user))
    with pytest.raises(PnpError, match="laser_presets"):
        load_presets(str(tmp_path / "missing.toml"))


@pytest.mark.slow
def test_a_build_writes_a_project_beside_each_cut_sheet(tmp_path: Path):
    build_game("desert-home", ["a4"], tmp_path, formats=["lbrn2"])
    cut = tmp_path / "desert-home" / "cut"
    names = sorted(p.stem for p in cut.glob("*.lbrn2"))
    assert names == sorted(s.name for s in sheets())
    for p in cut.glob("*.lbrn2"):
        assert read_lbrn2(p.read_bytes()).shapes


def _grain_word(sheet: Component) -> str | None:
    """The axis the sheet's grain arrow (in its margin, drawn after the parts, whose own
    arrows say 'grain' too) runs along ('x' or 'y'), or None."""
    from pnp.draw.scene import Text

    words = [t for t in sheet.items if isinstance(t, Text) and t.text == "grain"]
    if not words:
        return None
    return "x" if words[-1].rotate % 180 == 0 else "y"


def test_the_notes_say_grain_and_preset_in_the_project_and_the_dxf():
    """What the SVG shows only as a guide arrow, the LightBurn notes and the DXF's
    non-plotting notes layer say in words: the grain's axis, the preset's name, and each
    cutting layer's speed and power."""
    import io

    import ezdxf

    from pnp.draw.render.dxf import DXF_LAYER_ORDER, component_dxf
    from pnp.draw.render.laser import sheet_notes

    table = load_presets()
    grained = 0
    for sheet in sheets():
        preset = table.for_material(sheet.name.rsplit("-", 1)[0])
        root = ET.fromstring(project(sheet))
        notes = root.find("Notes").get("Notes")
        layers = tuple(name for name in DXF_LAYER_ORDER if sheet.shapes(name))
        lines = sheet_notes(sheet.name, sheet.meta, (sheet.width, sheet.height), preset, layers)
        dxf = ezdxf.read(io.StringIO(component_dxf(sheet, lines).decode("utf-8")))
        said = [e.dxf.text for e in dxf.modelspace().query("TEXT")]
        assert {e.dxf.layer for e in dxf.modelspace().query("TEXT")} == {"notes"}
        assert dxf.layers.get("notes").dxf.plot == 0
        for text in (notes, " ".join(said)):
            assert preset.name in text and preset.title in text
            for name in layers:
                s = preset.layers[name]
                assert f"{name}: speed {s.speed:g} mm/s, power {s.power:g} %" in text
            axis = _grain_word(sheet)
            if axis is None:
                assert "no part on this sheet needs one" in text
            else:
                grained += 1
                assert f"grain along {axis}" in text
            assert f"bed {sheet.width:g} x {sheet.height:g} mm (width x height)" in text
    assert grained  # the plywood blades lie along the grain
