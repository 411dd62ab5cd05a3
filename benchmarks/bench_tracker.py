"""The live tracker on the generated video: stable states against the truth, and frames per second.

Run: python benchmarks/bench_tracker.py [samples/castellan/video.mp4]
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

import cv2

from tablesight.scoring.castellan.board_json import board_from_dict
from tablesight.scoring.castellan.report import score_board
from tablesight.vision.castellan.tracker import LiveTracker, _summary


def main(argv: list[str]) -> int:
    video = Path(argv[0] if argv else "samples/castellan/video.mp4")
    truth = json.loads(video.with_suffix(".truth.json").read_text())
    capture = cv2.VideoCapture(str(video))
    tracker = LiveTracker()
    frames, accepted, spurious, hands_frames, per_frame = 0, [], 0, 0, []
    truth_frames = truth["frames"]
    while True:
        ok, frame = capture.read()
        if not ok:
            break
        start = time.perf_counter()
        update = tracker.process(frame)
        per_frame.append(time.perf_counter() - start)
        info = truth_frames[frames] if frames < len(truth_frames) else {"hands": False}
        hands_frames += info["hands"]
        if update.changed:
            accepted.append((frames, update.report))
            spurious += info["hands"]
        frames += 1
    truth_keys = [_summary(score_board(board_from_dict(b))) for b in truth["states"]]
    got_keys = [_summary(r) for _, r in accepted]
    total = sum(per_frame)
    print(f"frames: {frames} ({hands_frames} with hands), {frames / total:.1f} frames/s overall "
          f"(median frame {sorted(per_frame)[len(per_frame) // 2] * 1000:.1f} ms, "
          f"slowest {max(per_frame) * 1000:.0f} ms: a settled read)")
    print(f"stable states accepted: {len(accepted)} (truth has {len(truth_keys)}); "
          f"accepted while hands in view: {spurious}")
    for i, (frame, report) in enumerate(accepted):
        match = "matches truth state" if _summary(report) in truth_keys else "differs from every truth state"
        print(f"  state {i + 1} at frame {frame}: {_summary(report)[:3]} towers, short, long walls; "
              f"scores {report.scores} — {match}")
    print(f"truth states: {[k[:3] for k in truth_keys]}")
    print(f"sequence equal to the truth's: {got_keys == truth_keys}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
