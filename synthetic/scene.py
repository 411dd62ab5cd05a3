"""Random table scenes: a board model laid out beside the card, clutter, a camera and the light.

Everything is drawn from one seed so a scene can be rebuilt exactly. The ranges are
deliberately wide (any heading, 0–40° tilt, wide and narrow lenses, four table kinds,
warm/cool/flash light, strong and soft shadows) so that passing on these scenes means
something for real photos.
"""

from __future__ import annotations

import colorsys
import math
from dataclasses import asdict, dataclass, field, replace

import cv2
import numpy as np

from tablesight.calibration.camera import CameraPose, Lens
from tablesight.calibration.card import card_outline_mm
from tablesight.calibration.pieces import PieceProfile
from tablesight.scoring.castellan.board import Board
from tablesight.synthetic.lighting import Lighting
from tablesight.synthetic.phone_processing import PhoneProcessing, random_phone_processing
from tablesight.synthetic.piece_styles import USUAL_STYLE, PieceStyle, random_piece_style
from tablesight.synthetic.table import TABLE_KINDS

IMAGE_SIZES = ((1280, 720), (1280, 960), (1600, 1200), (1920, 1080), (1600, 900), (1200, 1600), (1080, 1920))
MIN_CARD_PX_PER_MM = 0.75  # an ArUco bit needs about 3 pixels to be read
MAX_SIDE = 2600
CARD_GAP_MM = (25.0, 140.0)  # how far the castle's bounds are off the card's, drawn between these
CARD_GAP_NEAR_MM = 15.0  # ... or, `Realism.castle_by_card`, up to this
KEEP_HUES = {"red": (-0.03, 0.02), "blue": (0.57, 0.64), "yellow": (0.12, 0.16), "green": (0.27, 0.40)}


@dataclass(frozen=True)
class ClutterItem:
    kind: str  # "die", "card", "cup"
    x: float
    y: float
    angle: float
    size: float
    colour: tuple[float, float, float]


@dataclass
class Scene:
    seed: int
    board: Board  # the truth, in table millimetres
    keep_angles: tuple[float, ...]
    profile: PieceProfile
    grey: tuple[float, float, float]
    keep_colours: dict[str, tuple[float, float, float]]
    clutter: list[ClutterItem]
    pose: CameraPose
    lighting: Lighting
    light_kind: str
    table_kind: str
    paper: float
    ink: float
    effects: dict = field(default_factory=dict)
    piece_shadows: bool = False  # pieces shadow one another and darken at their feet (as a path tracer draws)
    piece_style: PieceStyle = USUAL_STYLE  # how the pieces are modelled (crenellations, facets, roofs, gloss)
    phone: PhoneProcessing | None = None  # a phone app's processing after the sensor (None: a raw-looking photo)
    second_light: Lighting | None = None  # a second lamp or window, casting its own shadows (no ambient of its own)
    second_light_kind: str = ""
    # The camera encodes light as sRGB does (a power of about 1/2.2, as phones, webcams and renderers' standard
    # view transforms do): colours are reflectances encoded so, shading and shadows compressed by the curve.
    # False: the generator's first camera, nearly linear (a power of 1/1.0 to 1/1.25 on the shaded colours).
    srgb: bool = False

    def describe(self) -> dict:
        shading = {"piece_shadows": True} if self.piece_shadows else {}
        if self.piece_style != USUAL_STYLE:
            shading["piece_style"] = {k: round(v, 3) for k, v in asdict(self.piece_style).items()}
        if self.phone is not None:
            shading["phone_processing"] = {k: round(v, 3) for k, v in asdict(self.phone).items()}
        if self.second_light is not None:
            shading["second_light"] = self.second_light_kind
        if self.srgb:
            shading["srgb"] = True
        return {**shading, "seed": self.seed, "tilt_deg": round(self.pose.tilt_deg, 1), "table": self.table_kind,
                "light": self.light_kind, "image_size": list(self.pose.lens.image_size),
                "focal_px": round(self.pose.lens.focal, 1), "clutter": len(self.clutter),
                **{k: (round(v, 3) if isinstance(v, float) else v) for k, v in self.effects.items()}}


def _hsv_to_bgr(h: float, s: float, v: float) -> tuple[float, float, float]:
    r, g, b = colorsys.hsv_to_rgb(h % 1.0, s, v)
    return (b * 255, g * 255, r * 255)


def keep_colour(rng: np.random.Generator, colour: str) -> tuple[float, float, float]:
    lo, hi = KEEP_HUES[colour]
    return _hsv_to_bgr(rng.uniform(lo, hi), rng.uniform(0.6, 0.95), rng.uniform(0.55, 0.95))


@dataclass(frozen=True)
class PlasticGrey:
    """The grey of a box's plastic (BGR levels before the light): between `low` and `high`, each channel
    off by up to `tint` (a greenish or mauve grey)."""

    low: float = 100.0
    high: float = 185.0
    tint: float = 5.0


USUAL_GREY = PlasticGrey()


def _switch(help_text: str):
    """A realism option: off unless asked for; `help_text` is what `synthetic.dataset`'s switch for it says."""
    return field(default=False, metadata={"help": help_text})


@dataclass(frozen=True)
class Realism:
    """The ways a scene may be made harder than the usual, each drawn from the scene's seed when asked for
    (the scene is otherwise the same either way)."""

    varied_pieces: bool = _switch("the pieces modelled another way in each photo: facets, crenellations, roofs' "
                                  "eaves, shading and gloss drawn far from the usual (`random_piece_style`)")
    phone_processing: bool = _switch("each photo through a phone app's processing: noise reduction, local tone "
                                     "mapping (HDR), saturation and sharpening halos, mild to heavy "
                                     "(`random_phone_processing`)")
    second_light: bool = _switch("a second lamp or window lights each table from another side, casting its own "
                                 "shadows in its own colour (`random_second_light`)")
    srgb: bool = _switch("the camera encodes light as sRGB (a power of about 1/2.2, as phones and renderers do): "
                         "shading and shadows compressed by the curve (`Scene.srgb`)")
    castle_by_card: bool = _switch(f"the castle set up to {CARD_GAP_NEAR_MM:.0f} mm from the card (beside it, all "
                                   f"but touching it), not {CARD_GAP_MM[0]:.0f}-{CARD_GAP_MM[1]:.0f} mm off "
                                   f"(`place_castle`)")


USUAL_REALISM = Realism()
# The ways `random_scene` renders the same scene otherwise, by name: what the benchmark `bench_render_variants.py`
# reads and `variants_sheet` draws.
SCENE_VARIANTS = {"usual": USUAL_REALISM, "varied pieces": Realism(varied_pieces=True),
                  "phone processing": Realism(phone_processing=True), "second light": Realism(second_light=True),
                  "sRGB camera": Realism(srgb=True)}


def grey_colour(rng: np.random.Generator, grey: PlasticGrey = USUAL_GREY) -> tuple[float, float, float]:
    level = rng.uniform(grey.low, grey.high)
    tint = rng.uniform(-grey.tint, grey.tint, 3)
    return tuple(float(level + t) for t in tint)


def _bbox_overlap(a, b, margin: float) -> bool:
    return not (a[2] + margin < b[0] or b[2] + margin < a[0] or a[3] + margin < b[1] or b[3] + margin < a[1])


def _bounds(points: np.ndarray) -> tuple[float, float, float, float]:
    lo, hi = points.min(axis=0), points.max(axis=0)
    return float(lo[0]), float(lo[1]), float(hi[0]), float(hi[1])


def place_castle(board: Board, rng: np.random.Generator,
                 by_card: bool = False) -> tuple[Board, tuple[float, ...]]:
    """The board rotated any way and set beside the card, with hand-placement jitter; `by_card`: all but
    touching it (its bounds up to CARD_GAP_NEAR_MM off the card's)."""
    angle = rng.uniform(0, 360)
    moved = board.transformed(angle)
    # Open walls reach beyond their towers: they too stay off the card (setup.md: beside it, not under it).
    ends = [end for w in moved.walls for end in moved.wall_endpoints(w)]
    points = np.array([t.position for t in moved.towers] + [k.position for k in moved.keeps] + ends).reshape(-1, 2)
    if len(points) == 0:
        points = np.zeros((1, 2))
    centre = (points.min(axis=0) + points.max(axis=0)) / 2
    card = _bounds(card_outline_mm())
    card_centre = np.array([(card[0] + card[2]) / 2, (card[1] + card[3]) / 2])
    direction = rng.uniform(0, 2 * math.pi)
    unit = np.array([math.cos(direction), math.sin(direction)])
    low, high = CARD_GAP_MM
    gap = rng.uniform(low, high)
    if by_card:  # the same draw, so the scene is otherwise the same
        gap = (gap - low) / (high - low) * CARD_GAP_NEAR_MM
    distance, step = 50.0, 2.0 if by_card else 10.0
    while True:
        offset = card_centre + unit * distance - centre
        if not _bbox_overlap(_bounds(points + offset), card, gap):
            break
        distance += step
    moved = moved.transformed(0.0, float(offset[0]), float(offset[1]))
    towers = tuple(replace(t, x=t.x + rng.normal(0, 0.8), y=t.y + rng.normal(0, 0.8)) for t in moved.towers)
    keeps = tuple(replace(k, x=k.x + rng.uniform(-7, 7), y=k.y + rng.uniform(-7, 7)) for k in moved.keeps)
    walls = tuple(replace(w, start=_shift(w.start, offset_jitter=rng), end=_shift(w.end, offset_jitter=rng))
                  for w in moved.walls)
    keep_angles = tuple(float(rng.uniform(0, math.pi / 2)) for _ in keeps)
    return Board(towers, walls, keeps), keep_angles


def _shift(point, offset_jitter: np.random.Generator):
    if point is None:
        return None
    return (point[0] + offset_jitter.normal(0, 0.8), point[1] + offset_jitter.normal(0, 0.8))


def scatter_clutter(board: Board, rng: np.random.Generator, occlude_card: bool) -> list[ClutterItem]:
    """Dice, playing cards and a cup near the castle, never on it (nor on a loose wall's end beyond its
    towers); sometimes one over the card."""
    ends = [end for w in board.walls for end in board.wall_endpoints(w)]
    pieces = np.array([t.position for t in board.towers] + [k.position for k in board.keeps] + ends).reshape(-1, 2)
    castle = _bounds(pieces) if len(pieces) else (0, 0, 0, 0)
    card = _bounds(card_outline_mm())
    union = (min(castle[0], card[0]), min(castle[1], card[1]), max(castle[2], card[2]), max(castle[3], card[3]))
    items: list[ClutterItem] = []
    for _ in range(int(rng.integers(0, 6))):
        kind = str(rng.choice(["die", "die", "card", "card", "cup"]))
        size = {"die": rng.uniform(12, 18), "card": rng.uniform(55, 65), "cup": rng.uniform(35, 45)}[kind]
        for _attempt in range(30):
            x = rng.uniform(union[0] - 150, union[2] + 150)
            y = rng.uniform(union[1] - 150, union[3] + 150)
            box = (x - size * 1.6, y - size * 1.6, x + size * 1.6, y + size * 1.6)
            if not _bbox_overlap(box, castle, 30) and not _bbox_overlap(box, card, 10):
                items.append(ClutterItem(kind, x, y, float(rng.uniform(0, math.pi)), size, _clutter_colour(rng)))
                break
    if occlude_card:
        corner = card_outline_mm()[rng.integers(4)]
        items.append(ClutterItem("card", float(corner[0]), float(corner[1]), float(rng.uniform(0, math.pi)),
                                 60.0, _clutter_colour(rng)))
    return items


def _clutter_colour(rng: np.random.Generator) -> tuple[float, float, float]:
    return tuple(float(c) for c in rng.uniform(20, 240, 3))


LIGHT_COLOURS = {"lamp": np.array([0.72, 0.9, 1.12]), "daylight": np.array([1.12, 1.02, 0.9]),
                 "overcast": np.array([1.05, 1.0, 0.95]), "flash": np.array([1.0, 1.0, 1.0])}  # BGR


def _light_from(rng: np.random.Generator, min_elevation_deg: float, max_elevation_deg: float) -> np.ndarray:
    """A unit vector towards a light at any azimuth and an elevation drawn between the two (z < 0 is up)."""
    azimuth = rng.uniform(0, 2 * math.pi)
    elevation = math.radians(rng.uniform(min_elevation_deg, max_elevation_deg))
    return np.array([math.cos(azimuth) * math.cos(elevation), math.sin(azimuth) * math.cos(elevation),
                     -math.sin(elevation)])


def random_lighting(rng: np.random.Generator, camera_centre: np.ndarray) -> tuple[Lighting, str]:
    kind = str(rng.choice(list(LIGHT_COLOURS)))
    direction = _light_from(rng, 25, 85)
    colour = LIGHT_COLOURS[kind] * rng.uniform(0.95, 1.05, 3)
    if kind == "flash":
        direction = -camera_centre / np.linalg.norm(camera_centre)
        direction = -direction if direction[2] > 0 else direction
        return Lighting(direction, colour, 0.25, 0.85, 0.6, 0.7, 1.0), kind
    if kind == "overcast":
        return Lighting(direction, colour, 0.65, 0.35, 0.1, 0.5, rng.uniform(10, 30)), kind
    hard = rng.uniform(0.5, 14)
    return Lighting(direction, colour, rng.uniform(0.25, 0.5), rng.uniform(0.55, 0.85), 0.35,
                    rng.uniform(0.45, 0.8), hard), kind


def random_second_light(rng: np.random.Generator, key: Lighting) -> tuple[Lighting, Lighting, str]:
    """A second lamp (warm) or window (cool) from another side, as strong as a third of the key light to as
    strong as it, with its own shadows — and the key light dimmed so the two together light the table about as
    the key did alone (the camera's exposure would do as much). Returns the key dimmed, the second, its kind."""
    kind = str(rng.choice(["lamp", "daylight"]))
    direction = _light_from(rng, 20, 80)
    share = rng.uniform(0.35, 1.0)
    dim = 1.0 / (1.0 + share)
    second = Lighting(direction, LIGHT_COLOURS[kind] * rng.uniform(0.95, 1.05, 3), 0.0, key.diffuse * share * dim,
                      key.specular, rng.uniform(0.45, 0.8), rng.uniform(0.5, 14))
    return replace(key, diffuse=key.diffuse * dim), second, kind


def _look_at(centre: np.ndarray, target: np.ndarray, up_hint: np.ndarray) -> np.ndarray:
    forward = target - centre
    forward /= np.linalg.norm(forward)
    right = np.cross(up_hint, forward)
    if np.linalg.norm(right) < 1e-6:
        right = np.cross(np.array([0.0, 1.0, 0.0]), forward)
    right /= np.linalg.norm(right)
    down = np.cross(forward, right)
    return np.stack([right, down, forward])  # rows: camera x, y, z in board frame


def random_camera(rng: np.random.Generator, scene_points: np.ndarray, tall_points: np.ndarray,
                  crop_card: bool, image_size: tuple[int, int] | None = None) -> CameraPose:
    """A camera 0–40° from straight down, any heading, framing the scene (or cutting the card)."""
    crop_card = crop_card and len(scene_points) > 4  # an empty table (the card alone) is framed whole
    size = IMAGE_SIZES[rng.integers(len(IMAGE_SIZES))]
    size = image_size or size
    fov = math.radians(rng.uniform(48, 78))
    focal = max(size) / 2 / math.tan(fov / 2)
    # Phones correct their lens in camera (nearly rectilinear); webcams are often barrel-shaped.
    if rng.random() < 0.55:
        distortion = np.array([rng.uniform(-0.03, 0.03), 0.0, 0, 0, 0])
    else:
        distortion = np.array([rng.uniform(-0.25, -0.03), rng.uniform(-0.02, 0.06), 0, 0, 0])
    lens = Lens(np.array([[focal, 0, size[0] / 2], [0, focal, size[1] / 2], [0, 0, 1]]), distortion, size)
    tilt = math.radians(rng.uniform(0, 40))
    heading = rng.uniform(0, 2 * math.pi)
    lo, hi = scene_points.min(axis=0), scene_points.max(axis=0)
    target = np.append((lo + hi) / 2 + rng.normal(0, 15, 2), 0.0)
    if crop_card:
        card_centre = card_outline_mm().mean(axis=0)
        target[:2] += (target[:2] - card_centre) * rng.uniform(0.35, 0.6)
    view = np.array([math.sin(tilt) * math.cos(heading), math.sin(tilt) * math.sin(heading), math.cos(tilt)])
    up = np.array([math.cos(rng.uniform(0, 2 * math.pi)), math.sin(rng.uniform(0, 2 * math.pi)), 0.0])
    margin = rng.uniform(0.02, 0.12)
    points = np.vstack([np.column_stack([scene_points, np.zeros(len(scene_points))]), tall_points])
    if crop_card:
        points = np.vstack([np.column_stack([scene_points[:-4], np.zeros(len(scene_points) - 4)]), tall_points])
    distance = 200.0
    while distance < 20000:
        centre = target - view * distance
        rotation = _look_at(centre, target, up)
        pose = CameraPose(Lens.pinhole(focal, size), cv2.Rodrigues(rotation)[0].ravel(), -rotation @ centre)
        cam = points @ rotation.T - rotation @ centre
        if cam[:, 2].min() > 50:
            pix = pose.project(points[:, :2], -points[:, 2])
            inside = ((pix[:, 0] > margin * size[0]) & (pix[:, 0] < (1 - margin) * size[0])
                      & (pix[:, 1] > margin * size[1]) & (pix[:, 1] < (1 - margin) * size[1]))
            if inside.all():
                break
        distance *= 1.04
    card_px = pose.project(card_outline_mm())
    px_per_mm = float(np.linalg.norm(card_px[1] - card_px[0])) / float(np.linalg.norm(card_outline_mm()[1]
                                                                                        - card_outline_mm()[0]))
    if px_per_mm < MIN_CARD_PX_PER_MM and image_size is None:
        # A photographer whose card is too small to read takes a bigger photo (more megapixels).
        scale = min(MIN_CARD_PX_PER_MM / px_per_mm, MAX_SIDE / max(size))
        size = (int(size[0] * scale) // 2 * 2, int(size[1] * scale) // 2 * 2)
        matrix = lens.matrix.copy()
        matrix[:2] *= scale
        lens = Lens(matrix, distortion, size)
    return CameraPose(lens, pose.rvec, pose.tvec)


def random_scene(board: Board, seed: int, profile: PieceProfile | None = None,
                 image_size: tuple[int, int] | None = None, grey: PlasticGrey = USUAL_GREY,
                 piece_shadows: bool = False, realism: Realism = USUAL_REALISM) -> Scene:
    """A full random scene around `board` (in simulator coordinates), reproducible from `seed`; `grey`: the
    greys the plastic is drawn from; `piece_shadows`: whether pieces shadow one another; `realism`: the ways
    it is rendered harder than the usual — the same scene otherwise, either way."""
    rng = np.random.default_rng(seed)
    profile = profile or PieceProfile()
    placed, keep_angles = place_castle(board, rng, realism.castle_by_card)
    occlude_card = rng.random() < 0.15
    crop_card = rng.random() < 0.1
    clutter = scatter_clutter(placed, rng, occlude_card)
    floor = [t.position for t in placed.towers] + [k.position for k in placed.keeps]
    floor += [p for w in placed.walls for p in (w.start, w.end) if p is not None]
    floor_pts = np.array(floor + [tuple(p) for p in card_outline_mm()], dtype=np.float64)
    tall = [(*t.position, -profile.tower_height) for t in placed.towers]
    tall += [(*k.position, -profile.keep_height * (2 if k.double else 1)) for k in placed.keeps]
    pose = random_camera(rng, floor_pts, np.array(tall, dtype=np.float64).reshape(-1, 3),
                         crop_card and image_size is None, image_size)
    lighting, light_kind = random_lighting(rng, pose.centre)
    colours = {c: keep_colour(rng, c) for c in ("red", "blue", "yellow", "green")}
    effects = {
        "exposure": float(rng.uniform(0.75, 1.3)),
        "white_balance": [float(v) for v in rng.uniform(0.88, 1.12, 3)],
        "gamma": float(rng.uniform(1.0, 1.25)),
        "vignette": float(rng.uniform(0, 0.35) if light_kind != "flash" else rng.uniform(0.3, 0.55)),
        "noise": float(rng.choice([0.0, 1.5, 3.0, 5.0])),
        "blur": float(rng.choice([0.0, 0.0, 0.6, 1.1])),
        "motion_px": float(rng.choice([0.0, 0.0, 0.0, 3.0])),
        "jpeg_quality": int(rng.integers(60, 96)),
        "occluded_card": bool(occlude_card),
        "cropped_card": bool(crop_card),
    }
    second, second_kind = None, ""
    if realism.second_light:
        lighting, second, second_kind = random_second_light(np.random.default_rng([seed, 5]), lighting)
    return Scene(seed, placed, keep_angles, profile, grey_colour(rng, grey), colours, clutter, pose, lighting,
                 light_kind, str(rng.choice(TABLE_KINDS)), float(rng.uniform(215, 250)),
                 float(rng.uniform(12, 45)), effects, piece_shadows,
                 random_piece_style(np.random.default_rng([seed, 3])) if realism.varied_pieces else USUAL_STYLE,
                 random_phone_processing(np.random.default_rng([seed, 4])) if realism.phone_processing else None,
                 second, second_kind, realism.srgb)
