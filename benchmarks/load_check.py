"""Load check of the web companion on loopback: 20 clients streaming scores over SSE while 5 photo
uploads a second run for a minute, plus corrections; counts errors and lost corrections and prints
p50/p95 latency. Starts its own server (`tablesight serve`) on a free port.

Run: python benchmarks/load_check.py [--seconds 60]
"""

from __future__ import annotations

import argparse
import http.client
import json
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PHOTO = ROOT / "samples" / "castellan" / "photos" / "photo-003.jpg"


class Client:
    """One browser-like session: a cookie and a CSRF token."""

    def __init__(self, port: int) -> None:
        self.port = port
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        conn.request("GET", "/")
        res = conn.getresponse()
        page = res.read().decode()
        self.cookie = res.getheader("Set-Cookie", "").split(";")[0]
        self.csrf = re.search(r'name="csrf-token" content="([^"]+)"', page).group(1)
        conn.close()

    def post(self, path: str, body: bytes, content_type: str) -> tuple[int, dict, float]:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=120)
        start = time.perf_counter()
        conn.request("POST", path, body, {"Content-Type": content_type, "Cookie": self.cookie,
                                          "X-CSRF-Token": self.csrf})
        res = conn.getresponse()
        data = res.read()
        elapsed = time.perf_counter() - start
        conn.close()
        try:
            doc = json.loads(data)
        except ValueError:
            doc = {}
        return res.status, doc, elapsed


def multipart(data: bytes) -> tuple[bytes, str]:
    boundary = uuid.uuid4().hex
    body = (f"--{boundary}\r\nContent-Disposition: form-data; name=\"photo\"; filename=\"c.jpg\"\r\n"
            f"Content-Type: image/jpeg\r\n\r\n").encode() + data + f"\r\n--{boundary}--\r\n".encode()
    return body, f"multipart/form-data; boundary={boundary}"


def sse_listener(port: int, game: str, cookie: str, stop: threading.Event, received: list, errors: list) -> None:
    try:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=90)
        conn.request("GET", f"/api/games/{game}/events", headers={"Cookie": cookie})
        res = conn.getresponse()
        while not stop.is_set():
            line = res.fp.readline()
            if not line:
                break
            if line.startswith(b"event: state"):
                received.append(time.perf_counter())
        conn.close()
    except Exception as exc:  # noqa: BLE001 - counted and reported
        if not stop.is_set():
            errors.append(f"sse: {exc}")


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--uploads-per-second", type=float, default=5)
    args = parser.parse_args()
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    data_dir = tempfile.mkdtemp()
    server = subprocess.Popen([sys.executable, "-m", "tablesight", "serve", "--port", str(port), "--data", data_dir],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        for _ in range(100):
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                time.sleep(0.1)
        return run(port, args)
    finally:
        server.terminate()
        server.wait(timeout=10)


def run(port: int, args) -> int:
    client = Client(port)
    status, doc, _ = client.post("/api/games", b"{}", "application/json")
    game = doc["id"]
    body, ctype = multipart(PHOTO.read_bytes())
    stop = threading.Event()
    received: list[list] = [[] for _ in range(20)]
    errors: list[str] = []
    listeners = [threading.Thread(target=sse_listener, args=(port, game, client.cookie, stop, received[i], errors),
                                  daemon=True) for i in range(20)]
    for t in listeners:
        t.start()
    latencies, corrections_sent, lock = [], [], threading.Lock()

    def upload() -> None:
        status, doc, elapsed = client.post(f"/api/games/{game}/photo", body, ctype)
        with lock:
            latencies.append(elapsed)
            if status != 200:
                errors.append(f"upload {status}: {doc.get('error')}")
        if status == 200:
            status, doc, _ = client.post(f"/api/games/{game}/corrections",
                                         json.dumps({"action": "add_tower", "px": 10, "py": 10}).encode(),
                                         "application/json")
            with lock:
                corrections_sent.append(status == 200)
                if status != 200:
                    errors.append(f"correction {status}: {doc.get('error')}")

    workers = []
    start = time.perf_counter()
    interval = 1.0 / args.uploads_per_second
    n = 0
    while time.perf_counter() - start < args.seconds:
        t = threading.Thread(target=upload, daemon=True)
        t.start()
        workers.append(t)
        n += 1
        time.sleep(max(0.0, start + n * interval - time.perf_counter()))
    for t in workers:
        t.join(timeout=300)
    time.sleep(2)
    stop.set()
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    conn.request("GET", f"/api/games/{game}/record.json", headers={"Cookie": client.cookie})
    stored = json.loads(conn.getresponse().read())
    lost = sum(corrections_sent) - len(stored["corrections"])
    lat = sorted(latencies)
    print(f"uploads: {len(lat)} in {args.seconds:.0f} s, errors: {len(errors)}, corrections sent "
          f"{sum(corrections_sent)}, stored {len(stored['corrections'])}, lost {lost}")
    if lat:
        p95 = lat[int(0.95 * (len(lat) - 1))]
        print(f"upload latency: p50 {statistics.median(lat) * 1000:.0f} ms, p95 {p95 * 1000:.0f} ms")
    print(f"SSE clients: 20, state events received per client: min {min(len(r) for r in received)}, "
          f"max {max(len(r) for r in received)} (each upload and correction publishes one)")
    for e in errors[:5]:
        print("  error:", e)
    return 0 if not errors and lost == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
