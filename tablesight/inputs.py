"""Reading user files safely: size limits and plain-sentence errors instead of tracebacks."""

from __future__ import annotations

import io
import json
import warnings
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import cv2
import numpy as np
from PIL import Image, ImageOps, UnidentifiedImageError

from tablesight.errors import UnreadableInput

MAX_BOARD_BYTES = 10 * 1024 * 1024  # a 1,000-tower board is about 150 kB
IMAGE_SUFFIXES = {".jpg", ".jpeg", ".png", ".webp", ".bmp", ".tif", ".tiff", ".heic", ".heif"}


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
        raise UnreadableInput(f"{path} is not a text file: neither board JSON nor a photo tablesight can read "
                             f"(JPEG, PNG or HEIC).") from None
    except json.JSONDecodeError as exc:
        if path.suffix.lower() != ".json" and data.lstrip()[:1] not in (b"{", b"["):
            # A log, a note, a CSV: where the JSON went wrong is no help to whoever passed it.
            raise UnreadableInput(f"{path} is neither a photo tablesight can read (JPEG, PNG or HEIC) nor a board "
                                  f"file (JSON).") from None
        raise UnreadableInput(
            f"{path} is not valid JSON (line {exc.lineno}, column {exc.colno}: {exc.msg}).") from None
    except RecursionError:
        raise UnreadableInput(f"{path} is nested too deeply to be a board file.") from None


def looks_like_image(path: Path) -> bool:
    return path.suffix.lower() in IMAGE_SUFFIXES


MAX_PHOTO_BYTES = 80 * 1024 * 1024
MAX_PHOTO_PIXELS = 120_000_000  # refuse beyond this (decompression bombs)
WORKING_PIXELS = 12_500_000  # larger photos are reduced to about 12 MP for reading


@dataclass(frozen=True)
class Photo:
    """A decoded photo, upright (EXIF orientation applied), 8-bit BGR, with what EXIF says of the lens."""

    image: np.ndarray
    focal_35mm: float | None
    original_size: tuple[int, int]
    greyscale: bool = False


@cache
def _heif_readable() -> bool:
    """HEIC/HEIF photos (an iPhone's own format) are read through pillow-heif's Pillow plugin, registered
    once; False where it is not installed."""
    try:
        from pillow_heif import register_heif_opener
    except ImportError:
        return False
    register_heif_opener()  # libheif turns the photo upright itself and resets its EXIF orientation
    return True


def decode_photo(data: bytes, name: str) -> Photo:
    """Decode image bytes (JPEG, PNG, HEIC, …) into an upright BGR photo, or raise UnreadableInput."""
    _heif_readable()
    Image.MAX_IMAGE_PIXELS = MAX_PHOTO_PIXELS
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            img = Image.open(io.BytesIO(data))
            original = img.size
            if img.width * img.height > WORKING_PIXELS and img.format == "JPEG":
                scale = (WORKING_PIXELS / (img.width * img.height)) ** 0.5
                img.draft("RGB", (int(img.width * scale), int(img.height * scale)))
            focal = _focal_35mm(img)
            img = ImageOps.exif_transpose(img)
            img.load()
            greyscale = img.mode in ("L", "LA", "1", "I", "I;16", "F")
    except (UnidentifiedImageError, Image.DecompressionBombError, Image.DecompressionBombWarning) as exc:
        if "exceeds limit" in str(exc) or "decompression bomb" in str(exc).lower():
            limit = MAX_PHOTO_PIXELS // 1_000_000
            raise UnreadableInput(f"{name} is too large to read ({limit} MP at most).") from None
        raise UnreadableInput(f"{name} is not an image tablesight can read (JPEG, PNG or HEIC).") from None
    except (OSError, SyntaxError, ValueError) as exc:
        raise UnreadableInput(f"{name} cannot be decoded ({exc}); is the file complete?") from None
    return Photo(_to_bgr(img), focal, original, greyscale)


def _to_bgr(img) -> np.ndarray:
    if img.mode in ("RGBA", "LA", "P", "PA"):
        img = img.convert("RGBA")
        backdrop = Image.new("RGB", img.size, (255, 255, 255))
        backdrop.paste(img, mask=img.split()[-1])
        img = backdrop
    rgb = np.asarray(img.convert("RGB"))
    if rgb.shape[0] * rgb.shape[1] > WORKING_PIXELS:
        scale = (WORKING_PIXELS / (rgb.shape[0] * rgb.shape[1])) ** 0.5
        rgb = cv2.resize(rgb, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    return np.ascontiguousarray(rgb[..., ::-1])


def _focal_35mm(img) -> float | None:
    try:
        exif = img.getexif().get_ifd(0x8769)
        value = exif.get(0xA405)  # FocalLengthIn35mmFilm
        return float(value) if value else None
    except Exception:  # noqa: BLE001 - broken EXIF is common and never fatal
        return None


def read_photo(path: Path) -> Photo:
    return decode_photo(read_bytes(path, MAX_PHOTO_BYTES, "photo"), str(path))
