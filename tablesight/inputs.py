"""Reading user files safely: size limits and plain-sentence errors instead of tracebacks."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tablesight.errors import UnreadableInput

MAX_BOARD_BYTES = 10 * 1024 * 1024  # a 1,000-tower board is about 150 kB
IMAGE_SUFFIXES = {".jpg", ".jpeg", ".png", ".webp", ".bmp", ".tif", ".tiff"}


def read_bytes(path: Path, limit: int, what: str) -> bytes:
    try:
        size = path.stat().st_size
        if path.is_dir():
            raise UnreadableInput(f"{path} is a folder, not a {what}.")
        if size > limit:
            raise UnreadableInput(
                f"{path} is {size / 1e6:.1f} MB, larger than any {what} ({limit / 1e6:.0f} MB at most).")
        data = path.read_bytes()
    except FileNotFoundError:
        raise UnreadableInput(f"{path} does not exist; check the file name.") from None
    except PermissionError:
        raise UnreadableInput(f"{path} cannot be read: permission denied.") from None
    except OSError as exc:
        raise UnreadableInput(f"{path} cannot be read: {exc.strerror or exc}.") from None
    if not data.strip():
        raise UnreadableInput(f"{path} is empty; expected a {what}.")
    return data


def read_json(path: Path) -> Any:
    data = read_bytes(path, MAX_BOARD_BYTES, "board file")
    try:
        return json.loads(data.decode("utf-8"))
    except UnicodeDecodeError:
        raise UnreadableInput(f"{path} is not a text file; expected board JSON.") from None
    except json.JSONDecodeError as exc:
        raise UnreadableInput(
            f"{path} is not valid JSON (line {exc.lineno}, column {exc.colno}: {exc.msg}).") from None
    except RecursionError:
        raise UnreadableInput(f"{path} is nested too deeply to be a board file.") from None


def looks_like_image(path: Path) -> bool:
    return path.suffix.lower() in IMAGE_SUFFIXES
