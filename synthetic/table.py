"""Procedural table tops, drawn in table millimetres: wood, cloth, plain and patterned."""

from __future__ import annotations

import math

import cv2
import numpy as np

TABLE_KINDS = ("wood", "cloth", "plain", "patterned")


def _smooth_noise(rng: np.random.Generator, shape: tuple[int, int], cells: int) -> np.ndarray:
    """Low-frequency noise in [-1, 1] of the given shape."""
    small = rng.uniform(-1, 1, (max(2, shape[0] // cells), max(2, shape[1] // cells))).astype(np.float32)
    return cv2.resize(small, (shape[1], shape[0]), interpolation=cv2.INTER_CUBIC)


def _coords(shape, px_per_mm, angle):
    ys, xs = np.mgrid[0:shape[0], 0:shape[1]].astype(np.float32) / px_per_mm
    c, s = math.cos(angle), math.sin(angle)
    return c * xs + s * ys, -s * xs + c * ys


def wood(rng, shape, px_per_mm) -> np.ndarray:
    palettes = [(60, 110, 170), (40, 80, 130), (90, 150, 200), (30, 55, 90), (120, 170, 210), (70, 90, 110)]
    base = np.array(palettes[rng.integers(len(palettes))], np.float32) * rng.uniform(0.8, 1.15)
    u, v = _coords(shape, px_per_mm, rng.uniform(0, math.pi))
    warp = _smooth_noise(rng, shape, int(40 * px_per_mm)) * rng.uniform(3, 12)
    grain = np.sin((v + warp) * rng.uniform(0.6, 2.0)) * 0.5 + 0.5
    fine = _smooth_noise(rng, shape, max(2, int(1.5 * px_per_mm))) * 0.06
    plank = rng.uniform(90, 220)
    seams = (np.abs(((v / plank) % 1.0) - 0.5) > 0.497).astype(np.float32)
    shade = 0.82 + 0.18 * grain + fine - 0.35 * seams + 0.08 * _smooth_noise(rng, shape, int(150 * px_per_mm))
    return base[None, None, :] * shade[..., None]


def cloth(rng, shape, px_per_mm) -> np.ndarray:
    palettes = [(50, 110, 40), (110, 60, 30), (40, 40, 120), (90, 90, 90), (150, 170, 180), (40, 40, 40),
                (120, 40, 90)]
    base = np.array(palettes[rng.integers(len(palettes))], np.float32) * rng.uniform(0.75, 1.25)
    fibres = rng.normal(0, 0.07, shape).astype(np.float32)
    u, v = _coords(shape, px_per_mm, rng.uniform(0, math.pi))
    weave = 0.03 * np.sin(u * 2.5) * np.sin(v * 2.5)
    mottle = 0.08 * _smooth_noise(rng, shape, int(60 * px_per_mm))
    folds = 0.06 * np.sin(v / rng.uniform(60, 200) + _smooth_noise(rng, shape, int(200 * px_per_mm)))
    return base[None, None, :] * (1 + fibres + weave + mottle + folds)[..., None]


def plain(rng, shape, px_per_mm) -> np.ndarray:
    level = rng.choice([235.0, 200.0, 160.0, 110.0, 60.0, 25.0])
    tint = rng.uniform(0.9, 1.1, 3).astype(np.float32)
    gradient = 0.06 * _smooth_noise(rng, shape, int(300 * px_per_mm))
    speckle = rng.normal(0, 0.015, shape).astype(np.float32)
    return (level * tint)[None, None, :] * (1 + gradient + speckle)[..., None]


def patterned(rng, shape, px_per_mm) -> np.ndarray:
    c1 = rng.uniform(20, 240, 3).astype(np.float32)
    c2 = rng.uniform(20, 240, 3).astype(np.float32)
    u, v = _coords(shape, px_per_mm, rng.uniform(0, math.pi))
    period = rng.uniform(15, 80)
    style = rng.integers(3)
    if style == 0:  # gingham
        a = ((u // period) % 2).astype(np.float32)
        b = ((v // period) % 2).astype(np.float32)
        mix = (a + b) / 2
    elif style == 1:  # stripes
        mix = ((u // period) % 2).astype(np.float32)
    else:  # tiles with grout
        grout = (np.abs((u / period) % 1 - 0.5) > 0.47) | (np.abs((v / period) % 1 - 0.5) > 0.47)
        mix = grout.astype(np.float32)
    noise = rng.normal(0, 0.03, shape).astype(np.float32)
    image = c1[None, None, :] * (1 - mix[..., None]) + c2[None, None, :] * mix[..., None]
    return image * (1 + noise[..., None])


def table_texture(kind: str, rng: np.random.Generator, shape: tuple[int, int], px_per_mm: float) -> np.ndarray:
    """A BGR float32 albedo image of a table top, `px_per_mm` pixels per millimetre."""
    maker = {"wood": wood, "cloth": cloth, "plain": plain, "patterned": patterned}[kind]
    return np.clip(maker(rng, shape, px_per_mm), 0, 255).astype(np.float32)
