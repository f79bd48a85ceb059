"""The file formats a build writes: their names alone, so the command line can list them
in its help without importing the renderers."""

from __future__ import annotations

FORMATS = ("pdf", "svg", "png", "dxf", "lbrn2")
"""What a build writes unless told otherwise (a LightBurn project costs no more than a DXF)."""
EXTRA_FORMATS = ("pod", "tts")
"""Formats written only when asked for: each rasterises every card again, at print size."""
