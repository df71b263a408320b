// A before/after view over the live canvas: the frame as it was sent left of a divider the person
// drags, the processed frame right of it. live.js decodes the sent frame with each answer when the
// page asks (showsOriginal) and hands both to drawOverFrame; the view keeps them, so the divider
// redraws at once while it moves, however slow the processing.

/// Adds the divider to `stage` (the element holding the canvas `output`); `toggle` is the checkbox
/// that turns the split on and off. Returns the hooks startLive takes and the divider's position.
export function createSplitView({ stage, output, toggle }) {
  const view = {
    split: 0.5,        // where the divider is, as a fraction of the width
    processed: null,   // a copy of the last answer, to redraw while the divider moves
    before: null,      // the last answer's frame as it was sent (an ImageBitmap)
  };

  /// A range input as wide as the picture, so a drag or the arrow keys move the divider.
  const divider = document.createElement("input");
  divider.type = "range";
  divider.id = "split";
  divider.className = "split-slider";
  divider.min = "0";
  divider.max = "100";
  divider.value = String(view.split * 100);
  divider.setAttribute("aria-label", "Before/after divider: the frame as sent left of it, processed right of it");
  stage.append(divider);

  /// Draws the kept answer, then the sent frame over the left part, with the divider's line and labels.
  function drawBefore(canvas) {
    const context = canvas.getContext("2d");
    const { width, height } = canvas;
    if (view.processed) context.drawImage(view.processed, 0, 0);
    if (!view.before || !toggle.checked) return;
    const split = Math.round(width * view.split);
    if (split > 0) {
      const sourceWidth = (split / width) * view.before.width;
      context.drawImage(view.before, 0, 0, sourceWidth, view.before.height, 0, 0, split, height);
    }
    const line = Math.max(2, Math.round(width / 400));
    context.fillStyle = "rgba(255, 255, 255, .9)";
    context.fillRect(split - line / 2, 0, line, height);
    // The labels sit either side of the divider near the top: clear of the slider below and the figures
    // in the corner.
    const size = Math.max(12, Math.round(width / 50));
    context.font = `600 ${size}px sans-serif`;
    context.textBaseline = "middle";
    const y = Math.round(height * 0.16);
    const label = (text, x, align) => {
      const measured = context.measureText(text).width;
      context.fillStyle = "rgba(0, 0, 0, .6)";
      context.fillRect(align === "right" ? x - measured - 6 : x - 6, y - size * 0.75, measured + 12, size * 1.5);
      context.fillStyle = "#fff";
      context.textAlign = align;
      context.fillText(text, x, y);
    };
    const gap = size * 0.8;
    if (split > size * 5) label("Before", split - gap, "right");
    if (width - split > size * 5) label("After", split + gap, "left");
  }

  /// The divider's slider spans the picture as shown (the canvas letterboxes it), so its knob sits on the line.
  function placeDivider() {
    const shown = output.getBoundingClientRect(), around = stage.getBoundingClientRect();
    if (!output.width || !shown.width) return;
    const scale = Math.min(shown.width / output.width, shown.height / output.height);
    const width = output.width * scale;
    divider.style.left = `${shown.left - around.left + (shown.width - width) / 2}px`;
    divider.style.width = `${width}px`;
  }

  /// Keeps this answer and its sent frame, then draws the sent frame's part over it.
  function drawOverFrame(canvas, before) {
    if (view.before) view.before.close();
    view.before = before;
    if (!view.processed) view.processed = document.createElement("canvas");
    if (view.processed.width !== canvas.width || view.processed.height !== canvas.height) {
      view.processed.width = canvas.width;
      view.processed.height = canvas.height;
    }
    view.processed.getContext("2d").drawImage(canvas, 0, 0);
    drawBefore(canvas);
    placeDivider();
    output.dataset.split = String(view.split);
  }

  function showSplit() {
    const on = toggle.checked;
    divider.hidden = !on;
    document.body.dataset.split = String(on);
    if (view.processed) drawBefore(output);
  }

  divider.addEventListener("input", () => {
    view.split = Number(divider.value) / 100;
    output.dataset.split = String(view.split);
    // Redrawn from the kept frames at once: a slow stage (the cartoon) would otherwise lag the divider.
    drawBefore(output);
  });
  toggle.addEventListener("change", showSplit);
  window.addEventListener("resize", placeDivider);
  showSplit();

  return {
    drawOverFrame,
    showsOriginal: () => toggle.checked,
    /// The divider's position as a fraction of the width, or null while the split is off.
    get split() { return toggle.checked ? view.split : null; },
  };
}
