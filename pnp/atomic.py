"""Write files so that a failure never leaves a half-written file behind."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from pnp.errors import PnpError


def ensure_dir(path: Path) -> Path:
    """Create `path` (and parents); turn OS errors into one clear user error."""
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise PnpError(f"cannot create output folder {path}: {exc.strerror or exc}") from None
    if not os.access(path, os.W_OK):
        raise PnpError(f"output folder {path} is not writable")
    return path


def write_bytes(path: Path, data: bytes) -> Path:
    """Write to a temporary file in the same folder, then rename it into place.

    A device or pipe (`/dev/null`, `/dev/stdout`) is written directly: renaming over it
    would replace the device with a plain file.
    """
    if path.exists() and not path.is_file():
        try:
            with open(path, "wb") as fh:
                fh.write(data)
        except OSError as exc:
            raise PnpError(f"cannot write {path}: {exc.strerror or exc}") from None
        return path
    ensure_dir(path.parent)
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    except OSError as exc:
        raise PnpError(f"cannot write to {path.parent}: {exc.strerror or exc}") from None
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        os.chmod(tmp, 0o666 & ~_umask())  # mkstemp makes 0600; outputs are for sharing
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return path


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def write_text(path: Path, text: str) -> Path:
    return write_bytes(path, text.encode("utf-8"))
