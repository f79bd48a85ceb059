"""Rule-aware layout checks: findings with a level, a component and a message."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Level = Literal["error", "warning", "info"]


@dataclass(frozen=True)
class Finding:
    level: Level
    component: str
    message: str

    def __str__(self) -> str:
        return f"{self.level:7} {self.component}: {self.message}"


def has_errors(findings: list[Finding]) -> bool:
    return any(f.level == "error" for f in findings)
