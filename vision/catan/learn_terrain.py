"""Terrain colour prototypes from hand-labelled photos (mean feature per terrain and a feature scale).

Run: python -m tablesight.vision.catan.learn_terrain ../shared/data/catan-photos
The committed prototypes come from the five CatanAI photos (MIT, Paolo Fermin, Nathan Moeliono,
Sam Schoedel; see shared/data/catan-photos/LICENSE-CatanAI.txt).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import cv2
import numpy as np

from tablesight.vision.catan.board_view import board_view
from tablesight.vision.catan.terrain import PROTOTYPES, hex_features


def labelled_rows(folder: Path, skip: str | None = None) -> list[tuple[str, str, np.ndarray]]:
    rows = []
    for photo in sorted(folder.glob("*.jpg")):
        if photo.name == skip:
            continue
        label = json.loads(photo.with_suffix(".json").read_text())
        view = board_view(cv2.imread(str(photo)))
        truth = cv2.perspectiveTransform(np.array([h["center_px"] for h in label["hexes"]], np.float64)[None],
                                         np.linalg.inv(view.to_photo))[0]
        nearest = np.linalg.norm(view.centres[:, None] - truth[None], axis=2).argmin(axis=1)
        for feature, index in zip(hex_features(view.image, view.centres, view.spacing), nearest, strict=True):
            rows.append((photo.name, label["hexes"][index]["terrain"], feature))
    return rows


def prototypes_from(rows) -> dict:
    features = np.array([f for _, _, f in rows])
    terrains = sorted({t for _, t, _ in rows})
    return {"scale": (features.std(axis=0) + 1e-6).tolist(),
            "means": {t: np.mean([f for _, tt, f in rows if tt == t], axis=0).tolist() for t in terrains},
            "source": "CatanAI photos (MIT; shared/data/catan-photos/LICENSE-CatanAI.txt)"}


def main(argv: list[str]) -> int:
    folder = Path(argv[0] if argv else "../shared/data/catan-photos")
    PROTOTYPES.write_text(json.dumps(prototypes_from(labelled_rows(folder)), indent=1) + "\n")
    print(f"wrote {PROTOTYPES}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
