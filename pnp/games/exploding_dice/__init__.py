"""Exploding Dice: push dice onto a 4 x 4 grid of intersections; matches explode."""
