// Zoom and pan for the game page's photo, so a piece of a small castle can be tapped: the castle is
// framed when a photo arrives; buttons, the mouse wheel, dragging and pinching move about. The photo
// and its marks are one layer scaled together, so a tap still lands on the piece under it.
"use strict";
window.PhotoZoom = (() => {
  const MAX_SCALE = 8;
  const DRAG_PX = 6; // a pointer moved further than this pans; less is a tap
  const MARGIN = 0.12; // around the castle, in shares of its size
  const BUTTON_STEP = 1.5; // how much the + and − buttons zoom

  function create(wrap, layer) {
    // The view: scale k and the image point (0–1 of its width and height) at the middle of the frame.
    let k = 1, cx = 0.5, cy = 0.5;
    let touched = false; // the view moved by hand since it was last framed
    const pointers = new Map();
    let gesture = null, moved = false;

    function apply() {
      const w = wrap.clientWidth, h = wrap.clientHeight;
      k = Math.min(MAX_SCALE, Math.max(1, k));
      // The photo always covers the frame: its middle can come no nearer its edges than half a frame.
      const half = 0.5 / k;
      cx = Math.min(1 - half, Math.max(half, cx));
      cy = Math.min(1 - half, Math.max(half, cy));
      layer.style.transform = `translate(${w / 2 - k * cx * w}px, ${h / 2 - k * cy * h}px) scale(${k})`;
      wrap.classList.toggle("zoomed", k > 1.001);
      wrap.dataset.scale = k.toFixed(3);
    }

    function zoomAt(factor, clientX, clientY) {
      touched = true;
      const r = wrap.getBoundingClientRect();
      // The image point under the pointer stays under it.
      const sx = (clientX - r.left) / r.width, sy = (clientY - r.top) / r.height;
      const px = cx + (sx - 0.5) / k, py = cy + (sy - 0.5) / k;
      k = Math.min(MAX_SCALE, Math.max(1, k * factor));
      cx = px - (sx - 0.5) / k;
      cy = py - (sy - 0.5) / k;
      apply();
    }

    function zoomAtMiddle(factor) {
      const r = wrap.getBoundingClientRect();
      zoomAt(factor, r.left + r.width / 2, r.top + r.height / 2);
    }

    function frame(box) {
      // box: [x0, y0, x1, y1] in shares of the image; the whole photo if the box is most of it.
      const bw = (box[2] - box[0]) * (1 + 2 * MARGIN), bh = (box[3] - box[1]) * (1 + 2 * MARGIN);
      k = 1 / Math.max(bw, bh, 1 / MAX_SCALE);
      touched = false;
      cx = (box[0] + box[2]) / 2;
      cy = (box[1] + box[3]) / 2;
      apply();
    }

    function whole() { k = 1; cx = 0.5; cy = 0.5; touched = false; apply(); }

    function focus(x, y, least) {
      // The image point (shares of its width and height) in the middle, zoomed in to `least` at least.
      k = Math.max(k, least);
      cx = x;
      cy = y;
      touched = true;
      apply();
    }

    wrap.addEventListener("wheel", (e) => {
      e.preventDefault();
      zoomAt(Math.exp(-e.deltaY * 0.0015), e.clientX, e.clientY);
    }, { passive: false });

    wrap.addEventListener("pointerdown", (e) => {
      if (e.target.closest(".zoom-tools")) return;
      pointers.set(e.pointerId, [e.clientX, e.clientY]);
      moved = false;
      gesture = { x: e.clientX, y: e.clientY, cx, cy }; // where a drag started, and the view then
    });
    wrap.addEventListener("pointermove", (e) => {
      if (!pointers.has(e.pointerId)) return;
      const before = [...pointers.values()];
      pointers.set(e.pointerId, [e.clientX, e.clientY]);
      const now = [...pointers.values()];
      if (now.length === 2) { // pinch: the distance between the fingers scales, their middle pans
        const d0 = Math.hypot(before[0][0] - before[1][0], before[0][1] - before[1][1]);
        const d1 = Math.hypot(now[0][0] - now[1][0], now[0][1] - now[1][1]);
        if (d0 > 0) zoomAt(d1 / d0, (now[0][0] + now[1][0]) / 2, (now[0][1] + now[1][1]) / 2);
        moved = true;
        gesture = null;
        return;
      }
      if (!gesture) return; // a finger left from a pinch: it pans once put down again
      const start = gesture;
      const dx = e.clientX - start.x, dy = e.clientY - start.y;
      if (!moved && Math.hypot(dx, dy) < DRAG_PX) return;
      if (k <= 1.001) return; // nothing to pan: the whole photo is shown
      moved = true;
      touched = true;
      wrap.setPointerCapture(e.pointerId);
      cx = start.cx - dx / (k * wrap.clientWidth);
      cy = start.cy - dy / (k * wrap.clientHeight);
      apply();
    });
    const release = (e) => { pointers.delete(e.pointerId); if (!pointers.size) gesture = null; };
    wrap.addEventListener("pointerup", release);
    wrap.addEventListener("pointercancel", release);
    // A drag or a pinch is not a tap on what lies under it.
    wrap.addEventListener("click", (e) => {
      if (moved && !e.target.closest(".zoom-tools")) { e.stopPropagation(); e.preventDefault(); }
      moved = false;
    }, true);
    window.addEventListener("resize", apply);

    return {
      frame, whole, focus,
      zoomIn: () => zoomAtMiddle(BUTTON_STEP),
      zoomOut: () => zoomAtMiddle(1 / BUTTON_STEP),
      get scale() { return k; },
      get touched() { return touched; },
    };
  }

  return { create };
})();
