"""Colour science for the accessibility check: colour-vision-deficiency simulation and
perceptual distance, so 'distinguishable' is measured rather than assumed."""

from __future__ import annotations

import math
from functools import lru_cache

# Machado, Oliveira & Fernandes (2009), severity 1.0, applied to linear RGB.
CVD_MATRICES: dict[str, tuple[tuple[float, float, float], ...]] = {
    "normal": ((1, 0, 0), (0, 1, 0), (0, 0, 1)),
    "protanopia": (
        (0.152286, 1.052583, -0.204868),
        (0.114503, 0.786281, 0.099216),
        (-0.003882, -0.048116, 1.051998),
    ),
    "deuteranopia": (
        (0.367322, 0.860646, -0.227968),
        (0.280085, 0.672501, 0.047413),
        (-0.011820, 0.042940, 0.968881),
    ),
    "tritanopia": (
        (1.255528, -0.076749, -0.178779),
        (-0.078411, 0.930809, 0.147602),
        (0.004733, 0.691367, 0.303900),
    ),
}


@lru_cache(maxsize=4096)  # pure, and asked for the same few inks over and over
def hex_to_rgb(h: str) -> tuple[float, float, float]:
    h = h.lstrip("#")
    return tuple(int(h[i : i + 2], 16) / 255 for i in (0, 2, 4))  # type: ignore[return-value]


def _linear(c: float) -> float:
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def _lab(rgb_lin: tuple[float, float, float]) -> tuple[float, float, float]:
    r, g, b = (min(1.0, max(0.0, v)) for v in rgb_lin)
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 216 / 24389 else (24389 / 27 * t + 16) / 116

    fx, fy, fz = f(x), f(y), f(z)
    return (116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz))


def simulate(hex_colour: str, vision: str) -> tuple[float, float, float]:
    """Lab coordinates of a colour as seen with the given colour vision."""
    lin = [_linear(v) for v in hex_to_rgb(hex_colour)]
    m = CVD_MATRICES[vision]
    seen = tuple(sum(m[i][j] * lin[j] for j in range(3)) for i in range(3))
    return _lab(seen)  # type: ignore[arg-type]


@lru_cache(maxsize=4096)  # pure, and asked for the same few inks over and over
def delta_e(a: str, b: str, vision: str = "normal") -> float:
    """CIE76 distance between two print colours under a colour vision."""
    la, lb = simulate(a, vision), simulate(b, vision)
    return math.dist(la, lb)


def relative_luminance(hex_colour: str) -> float:
    """WCAG 2 relative luminance (0 black to 1 white) of a '#rrggbb' colour."""
    r, g, b = (_linear(v) for v in hex_to_rgb(hex_colour))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


@lru_cache(maxsize=4096)  # pure, and asked for the same few inks over and over
def contrast_ratio(a: str, b: str) -> float:
    """WCAG 2 contrast ratio, 1 (same) to 21 (black on white): how well a line in one
    colour shows on a ground of the other, independent of hue."""
    la, lb = sorted((relative_luminance(a), relative_luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


@lru_cache(maxsize=4096)  # pure, and asked for the same few inks over and over
def blend(under: str, over: str, opacity: float) -> str:
    """`over` painted at `opacity` on `under`, as a '#rrggbb' colour."""
    u, o = hex_to_rgb(under), hex_to_rgb(over)
    mix = [round(255 * (x * (1 - opacity) + y * opacity)) for x, y in zip(u, o, strict=True)]
    return "#" + "".join(f"{c:02X}" for c in mix)
