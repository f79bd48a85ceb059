"""Parcheesi (two-dice seed rules): race four pawns round a cross-shaped track to home."""
