// Ocular Studio's Samples page: the OpenCV tutorial's samples (the registry's "sample" category), one
// at a time or chained, on the camera or a still, with a before/after view: the frame as it was sent
// left of a divider the person drags, the processed frame right of it. Save keeps the processed
// frame (booth.js), as on Light Work.

import { elements as liveElements, liveStats, liveTools, startLive } from "./live.js";
import { adoptRecipe, buildStageControls, renderStages, sendSettings, state, titleOf } from "./stages.js";
import { createBooth } from "./booth.js";

const SAMPLE = "sample";
const FIRST_SAMPLE = "edges";  // what a first visit shows: something happens at once

const elements = {
  ...liveElements,
  panel: document.querySelector(".stages-panel"),
  oneMode: document.getElementById("one-mode"),
  chainMode: document.getElementById("chain-mode"),
  found: document.getElementById("found"),
  splitView: document.getElementById("split-view"),
};

const view = {
  split: 0.5,           // where the divider is, as a fraction of the width
  processed: null,      // a copy of the last answer, to redraw while the divider moves
  before: null,         // the last answer's frame as it was sent (an ImageBitmap)
  annotations: 0,
  found: {},            // the last annotations, by group
};

const booth = createBooth({
  saveType: "save",
  saving: "Saving the next frame…",
  review: false,
  whileSaving: (saving) => {
    elements.source.disabled = saving;
    elements.panel.inert = saving;
  },
});

// ---- Before and after ------------------------------------------------------------------------

/// The divider over the view: a range input as wide as the frame, so a drag or the arrow keys move it.
const divider = document.createElement("input");
divider.type = "range";
divider.id = "split";
divider.className = "split-slider";
divider.min = "0";
divider.max = "100";
divider.value = String(view.split * 100);
divider.setAttribute("aria-label", "Before/after divider: the frame as sent left of it, processed right of it");
elements.stage.append(divider);

/// Draws the sent frame over the left part of the canvas, with the divider's line and labels.
function drawBefore(canvas) {
  const context = canvas.getContext("2d");
  const { width, height } = canvas;
  if (view.processed) context.drawImage(view.processed, 0, 0);
  if (!view.before || !elements.splitView.checked) return;
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
  const canvas = elements.output;
  const shown = canvas.getBoundingClientRect(), stage = elements.stage.getBoundingClientRect();
  if (!canvas.width || !shown.width) return;
  const scale = Math.min(shown.width / canvas.width, shown.height / canvas.height);
  const width = canvas.width * scale;
  divider.style.left = `${shown.left - stage.left + (shown.width - width) / 2}px`;
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
  elements.output.dataset.split = String(view.split);
}

function showSplit() {
  const on = elements.splitView.checked;
  divider.hidden = !on;
  document.body.dataset.split = String(on);
  if (view.processed) drawBefore(elements.output);
}

divider.addEventListener("input", () => {
  view.split = Number(divider.value) / 100;
  elements.output.dataset.split = String(view.split);
  // Redrawn from the kept frames at once: a slow sample (the cartoon) would otherwise lag the divider.
  drawBefore(elements.output);
});
elements.splitView.addEventListener("change", showSplit);
window.addEventListener("resize", placeDivider);

// ---- One or a chain --------------------------------------------------------------------------

function setExclusive(exclusive) {
  state.exclusive = exclusive;
  elements.oneMode.setAttribute("aria-pressed", String(exclusive));
  elements.chainMode.setAttribute("aria-pressed", String(!exclusive));
  elements.panel.dataset.mode = exclusive ? "one" : "chain";
  if (exclusive && state.enabled.size > 1) {
    // Back to one: the first of the chain stays.
    const first = state.order.find((name) => state.enabled.has(name));
    state.enabled = new Set([first]);
    renderStages();
    sendSettings();
  }
}

elements.oneMode.addEventListener("click", () => setExclusive(true));
elements.chainMode.addEventListener("click", () => setExclusive(false));

// ---- What the samples found ------------------------------------------------------------------

/// One line per kind of finding: how many, and for contours their areas.
function describeFound(groups) {
  const lines = Object.entries(groups).map(([group, found]) => {
    if (group === "contours") {
      const areas = found.map((contour) => contour.area).sort((a, b) => b - a);
      const total = Math.round(areas.reduce((sum, area) => sum + area, 0));
      return found.length
        ? `${found.length} contour${found.length === 1 ? "" : "s"}: ${total} px² in all, the largest ${areas.slice(0, 3).map(Math.round).join(", ")} px²`
        : "No contours.";
    }
    if (group === "tracks") {
      const moving = found.filter((track) => track.age > 1).length;
      return `${found.length} point${found.length === 1 ? "" : "s"} tracked, ${moving} followed from the last frame`;
    }
    return `${found.length} ${found.length === 1 ? group.replace(/s$/, "") : group}`;
  });
  elements.found.textContent = lines.join(" · ");
  elements.found.hidden = lines.length === 0;
}

// ---- Messages from the server ----------------------------------------------------------------

/// The confirmed recipe's samples, or nothing when it holds a stage of another page.
function onlySamples(recipe) {
  const names = new Set(state.stages.map((stage) => stage.name));
  return recipe && Array.isArray(recipe.stages) && recipe.stages.every((step) => names.has(step.stage));
}

function handleMessage(message) {
  if (booth.handled(message)) return;
  switch (message.type) {
    case "hello":
      buildStageControls(message.stages, (stage) => stage.category === SAMPLE);
      if (state.recipe.stages.length || state.enabled.size) {
        sendSettings();  // a reconnect keeps what was chosen
      } else if (onlySamples(message.recipe) && message.recipe.stages.length) {
        adoptRecipe(message.recipe);
        if (message.recipe.stages.length > 1) setExclusive(false);
      } else {
        state.enabled = new Set(state.stages.some((stage) => stage.name === FIRST_SAMPLE) ? [FIRST_SAMPLE] : []);
        renderStages();
        sendSettings();
      }
      break;
    case "settings":
      adoptRecipe(message.recipe);
      if (!state.recipe.stages.some((step) => (state.stages.find((stage) => stage.name === step.stage)?.annotations ?? []).length)) {
        describeFound({});
      }
      break;
    case "annotations": {
      view.annotations += 1;
      const { type, ...groups } = message;
      view.found = groups;
      describeFound(groups);
      break;
    }
  }
}

// For tests and the curious: window.ocularStudio.stats()
window.ocularStudio = {
  ...liveTools,
  stats: () => ({
    ...liveStats(),
    recipe: state.recipe,
    samples: state.stages.map((stage) => stage.name),
    titles: state.recipe.stages.map((step) => titleOf(step.stage)),
    mode: state.exclusive ? "one" : "chain",
    split: elements.splitView.checked ? view.split : null,
    found: view.found,
    annotationsReceived: view.annotations,
    saving: booth.waiting === "save",
    saves: booth.saves,
  }),
};

setExclusive(true);
showSplit();
startLive({
  ...booth.liveHandlers,
  onMessage: handleMessage,
  showsOriginal: () => elements.splitView.checked,
  drawOverFrame,
});
