"""The rule cards' measures and colours, shared by their text layout and their frame."""

from __future__ import annotations

from typing import Literal

MM_PER_PT = 25.4 / 72.0
SAFE = 4.0  # nominal text margin from the trim
MIN_SAFE = 3.0  # hard limit: no text closer than this to the (rounded) trim
SERVICE_SAFE = 25.4 / 8
"""A print service's safe zone: 1/8 in inside the trim (The Game Crafter's card templates,
https://help.thegamecrafter.com/article/39-templates); the title keeps out of it too."""
TITLE_BAR = 9.0  # accent bar height, measured down from the trim top
FRAME_GAP = 1.6  # space between the title bar and the text frame
LEADING = 1.2
PAPER = "#FBF7EE"  # warm cream: calm behind text, hides small cutting slop
INK_TEXT = "#1E1E1E"
BlockKind = Literal["heading", "para", "bullet", "number"]
