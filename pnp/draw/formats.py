"""The file formats a build writes: their names alone, so the command line can list them
in its help without importing the renderers."""

from __future__ import annotations

FORMATS = ("pdf", "svg", "png", "dxf", "lbrn2")
"""What a build writes unless told otherwise (a LightBurn project costs no more than a DXF)."""
EXTRA_FORMATS = ("pod", "tts", "jobs")
"""Formats written only when asked for: print-on-demand and Tabletop Simulator images
(each rasterises every card again, at print size), and `jobs`: the main PDF again as one
PDF per print job (stock and sides), beside the whole-kit one."""
