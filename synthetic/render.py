"""Rendering a Scene to a photo: table and card texture, shadows, pieces, clutter, camera effects."""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

import cv2
import numpy as np

from tablesight.calibration.camera import CameraPose, Lens
from tablesight.calibration.card import sheet_image, sheet_to_table
from tablesight.synthetic import effects, meshes, phone_processing
from tablesight.synthetic.effects import SRGB_GAMMA
from tablesight.synthetic.lighting import Lighting, shadow_outline
from tablesight.synthetic.rasterizer import Rasterizer
from tablesight.synthetic.scene import Scene
from tablesight.synthetic.shadow_map import ShadowMap
from tablesight.synthetic.table import table_texture

MAX_TEXTURE_SIDE = 3600
# With the pieces' shadows on one another: the ambient light the table loses at a piece's foot, and how far
# (mm) that reaches out.
FOOT_SHADE, FOOT_SHADE_MM = 0.5, 4.0


def _linearised_mesh(mesh: meshes.Mesh) -> meshes.Mesh:
    """The mesh with its colours as linear reflectances (for a camera encoding sRGB)."""
    colours = [tuple(float(v) for v in effects.srgb_to_linear(np.array(c, np.float32))) for c in mesh.colours]
    return replace(mesh, colours=colours)


def scene_meshes(scene: Scene) -> list[meshes.Mesh]:
    board, profile = scene.board, scene.profile
    towers = board.tower_map()
    style = scene.piece_style
    out = [meshes.tower(t.position, profile, scene.grey, style) for t in board.towers]
    for w in board.walls:
        a, b = board.wall_endpoints(w, towers)
        out.append(meshes.wall(a, b, profile, scene.grey, style))
    for k, angle in zip(board.keeps, scene.keep_angles, strict=True):
        out.append(meshes.keep(k.position, profile, scene.keep_colours[k.color], angle, k.double, style))
    for item in scene.clutter:
        if item.kind == "die":
            out.append(meshes.die((item.x, item.y), item.size, item.angle, item.colour))
        elif item.kind == "cup":
            out.append(meshes.cup((item.x, item.y), item.size, item.size * 2.2, item.colour))
        else:
            out.append(meshes.flat_card((item.x, item.y), item.size * 1.4, item.size, item.angle, item.colour))
    return out


def _visible_table_bounds(scene: Scene, matrix: np.ndarray, size: tuple[int, int]) -> tuple[float, float, float, float]:
    """The part of the table a pinhole camera of `matrix` and image `size` at the scene's pose sees (at most 5 m
    across), in table millimetres."""
    w, h = size
    border = np.array([[x, y] for x in np.linspace(0, w, 9) for y in (0, h)]
                      + [[x, y] for y in np.linspace(0, h, 9) for x in (0, w)], dtype=np.float64)
    pinhole = CameraPose(Lens(matrix, np.zeros(5), size), scene.pose.rvec, scene.pose.tvec)
    ideal = pinhole.table_point(border)
    lo, hi = ideal.min(axis=0) - 60, ideal.max(axis=0) + 60
    centre = (lo + hi) / 2
    half = np.minimum((hi - lo) / 2, 2500.0)
    return (*(centre - half), *(centre + half))


def _table_albedo(scene: Scene, rng: np.random.Generator, bounds, px_per_mm: float) -> np.ndarray:
    x0, y0, x1, y1 = bounds
    shape = (int((y1 - y0) * px_per_mm), int((x1 - x0) * px_per_mm))
    return table_texture(scene.table_kind, rng, shape, px_per_mm)


def _sheet_albedo(scene: Scene, px_per_mm: float) -> np.ndarray:
    sheet = sheet_image(dpi=px_per_mm * 25.4).astype(np.float32)[..., None]
    return np.repeat(scene.ink + (scene.paper - scene.ink) * sheet / 255.0, 3, axis=2)


def _shadow_mask(light: Lighting, piece_meshes: list[meshes.Mesh], plane_to_image: np.ndarray,
                 size: tuple[int, int], px_per_mm: float) -> np.ndarray:
    """Where `light` is blocked on the table, in image pixels (soft-edged)."""
    outlines = [shadow_outline(mesh.vertices(), light.direction) for mesh in piece_meshes]
    return _blurred_outlines(outlines, plane_to_image, size, max(0.5, light.shadow_blur_mm * px_per_mm / 2))


def _foot_mask(piece_meshes: list[meshes.Mesh], plane_to_image: np.ndarray, size: tuple[int, int],
               px_per_mm: float) -> np.ndarray:
    """How near (1 under a piece, fading over FOOT_SHADE_MM) each image pixel's table point is to a piece's
    foot: the ambient light the pieces hide from the table around them."""
    outlines = [mesh.vertices()[:, :2] for mesh in piece_meshes]
    return _blurred_outlines(outlines, plane_to_image, size, max(0.5, FOOT_SHADE_MM * px_per_mm))


def _blurred_outlines(outlines: list[np.ndarray], plane_to_image: np.ndarray, size: tuple[int, int],
                      sigma_px: float) -> np.ndarray:
    """1 inside each outline's convex hull (table mm points), drawn in image pixels and blurred by `sigma_px`."""
    mask = np.zeros(size[::-1], np.float32)
    for points in outlines:
        hull = cv2.convexHull(points.astype(np.float32)).reshape(-1, 1, 2).astype(np.float64)
        img = cv2.perspectiveTransform(hull, plane_to_image).reshape(-1, 2)
        cv2.fillConvexPoly(mask, np.round(img * 16).astype(np.int32), 1.0, cv2.LINE_AA, 4)
    return cv2.GaussianBlur(mask, (0, 0), sigma_px)


def _scale_near_scene(scene: Scene) -> float:
    """Image pixels per table millimetre around the card (for sizing the shadow blur)."""
    pts = scene.pose.project(np.array([[0.0, 0.0], [100.0, 0.0]]))
    return float(np.linalg.norm(pts[1] - pts[0]) / 100.0)


@dataclass(frozen=True)
class _Camera:
    matrix: np.ndarray
    rotation: np.ndarray
    tvec: np.ndarray
    size: tuple[int, int]


def _lit_by(light: Lighting, piece_meshes: list[meshes.Mesh], albedo: np.ndarray,
            plane: np.ndarray, camera: _Camera, scale_px_per_mm: float, foot: np.ndarray | None) -> np.ndarray:
    """The scene in linear light as `light` alone lights it (its ambient included). `foot`: where the pieces
    hide the room's light from the table (`_foot_mask`), when they shadow one another."""
    shadow = _shadow_mask(light, piece_meshes, plane, camera.size, scale_px_per_mm)
    ambient = light.ambient
    shadows = None
    if foot is not None:
        ambient = light.ambient * (1 - FOOT_SHADE * foot)
        shadows = ShadowMap(piece_meshes, light.direction, light.shadow_blur_mm)
    background = albedo * (ambient + light.table_light * (1 - light.shadow_strength * shadow))[..., None]
    background = background * light.colour[None, None, :]
    raster = Rasterizer(camera.matrix, camera.rotation, camera.tvec, camera.size, background, shadows)
    for mesh in piece_meshes:
        raster.draw(mesh, light)
    return raster.image


def render(scene: Scene) -> np.ndarray:
    """The photo of the scene as 8-bit BGR, after all camera effects (JPEG included)."""
    rng = np.random.default_rng(scene.seed + 7919)
    lens = scene.pose.lens
    w, h = lens.image_size
    ss = 2 if w * h <= 2.2e6 else 1
    canvas, (cw, ch) = effects.pinhole_canvas(lens.matrix, lens.distortion, lens.image_size)
    matrix = canvas.copy()
    matrix[:2] *= ss
    matrix[:2, 2] += (ss - 1) / 2  # pixel centres stay aligned after downsampling
    rotation = cv2.Rodrigues(scene.pose.rvec)[0]
    piece_meshes = scene_meshes(scene)
    if scene.srgb:
        piece_meshes = [_linearised_mesh(mesh) for mesh in piece_meshes]

    bounds = _visible_table_bounds(scene, canvas, (cw, ch))
    extent = max(bounds[2] - bounds[0], bounds[3] - bounds[1])
    px_per_mm = min(3.0, MAX_TEXTURE_SIDE / extent)
    size = (cw * ss, ch * ss)
    # texture pixel → table mm → image pixel
    plane = matrix @ np.column_stack([rotation[:, 0], rotation[:, 1], scene.pose.tvec])
    to_mm = np.array([[1 / px_per_mm, 0, bounds[0]], [0, 1 / px_per_mm, bounds[1]], [0, 0, 1]])
    albedo = cv2.warpPerspective(_table_albedo(scene, rng, bounds, px_per_mm), plane @ to_mm, size,
                                 flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT)
    sheet_px_per_mm = 4.0
    # Photos generated up to session 52 (the samples among them) show the card 0.125 mm off its truth: the
    # sheet was placed by its pixels' corners, not their centres (`sheet_to_table`).
    sheet_to_mm = sheet_to_table(sheet_px_per_mm)
    sheet = _sheet_albedo(scene, sheet_px_per_mm)
    warped = cv2.warpPerspective(sheet, plane @ sheet_to_mm, size, flags=cv2.INTER_AREA)
    coverage = cv2.warpPerspective(np.ones(sheet.shape[:2], np.float32), plane @ sheet_to_mm, size,
                                   flags=cv2.INTER_LINEAR)[..., None]
    albedo = albedo * (1 - coverage) + warped * coverage
    if scene.srgb:
        albedo = effects.srgb_to_linear(albedo)
    scale_px_per_mm = _scale_near_scene(scene) * ss
    foot = _foot_mask(piece_meshes, plane, size, scale_px_per_mm) if scene.piece_shadows else None
    camera = _Camera(matrix, rotation, scene.pose.tvec, size)
    image = _lit_by(scene.lighting, piece_meshes, albedo, plane, camera, scale_px_per_mm, foot)
    if scene.second_light is not None:  # light adds up: the scene lit by each lamp alone, summed
        image = image + _lit_by(scene.second_light, piece_meshes, albedo, plane, camera, scale_px_per_mm, foot)
    if ss > 1:
        image = cv2.resize(image, (cw, ch), interpolation=cv2.INTER_AREA)

    fx = scene.effects
    image = effects.distort(image, lens.matrix, lens.distortion, canvas, (w, h))
    image = effects.vignette(image, fx["vignette"])
    gamma = fx["gamma"] * SRGB_GAMMA / 1.1 if scene.srgb else fx["gamma"]  # sRGB: a power of 1/2.0 to 1/2.5
    image = effects.camera_response(image, fx["exposure"], np.array(fx["white_balance"]), gamma)
    image = effects.blur(image, fx["blur"], fx["motion_px"], float(rng.uniform(0, math.pi)))
    image = effects.sensor_noise(image, rng, fx["noise"])
    if scene.phone is not None:
        image = phone_processing.process(image, scene.phone)
    image = np.clip(image, 0, 255).astype(np.uint8)
    return effects.jpeg_round_trip(image, fx["jpeg_quality"])


