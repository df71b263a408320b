// Ocular Studio's Samples page: the OpenCV tutorial's samples (the registry's "sample" category), one
// at a time or chained, on the camera or a still, with a before/after view (splitview.js). Save keeps
// the processed frame (booth.js), as on Light Work.

import { createBooth } from "./booth.js";
import { startLive } from "./live.js";
import { createSplitView } from "./splitview.js";
import { adoptRecipe, buildStageControls, listsEveryStage, renderStages, sendSettings, state, titleOf } from "./stages.js";
import { liveStats, liveTools } from "./stream.js";
import { elements as liveElements } from "./view.js";
import { answers } from "./api/protocol.js";

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
  annotations: 0,
  found: {},            // the last annotations, by group
};

const split = createSplitView({ stage: elements.stage, output: elements.output, toggle: elements.splitView });

const booth = createBooth({
  saveType: "save",
  saving: "Saving the next frame…",
  review: false,
  whileSaving: (saving) => {
    elements.source.disabled = saving;
    elements.panel.inert = saving;
  },
});

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

function handleMessage(message) {
  if (booth.handled(message)) return;
  switch (message.type) {
    case answers.hello:
      buildStageControls(message.stages, (stage) => stage.category === SAMPLE);
      if (state.recipe.stages.length || state.enabled.size) {
        sendSettings();  // a reconnect keeps what was chosen
      } else if (listsEveryStage(message.recipe) && message.recipe.stages.length) {
        adoptRecipe(message.recipe);
        if (message.recipe.stages.length > 1) setExclusive(false);
      } else {
        state.enabled = new Set(state.stages.some((stage) => stage.name === FIRST_SAMPLE) ? [FIRST_SAMPLE] : []);
        renderStages();
        sendSettings();
      }
      break;
    case answers.settings:
      adoptRecipe(message.recipe);
      if (!state.recipe.stages.some((step) => (state.stages.find((stage) => stage.name === step.stage)?.annotations ?? []).length)) {
        describeFound({});
      }
      break;
    case answers.annotations: {
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
    split: split.split,
    found: view.found,
    annotationsReceived: view.annotations,
    saving: booth.waiting === "save",
    saves: booth.saves,
  }),
};

setExclusive(true);
startLive({
  ...booth.liveHandlers,
  onMessage: handleMessage,
  showsOriginal: split.showsOriginal,
  drawOverFrame: split.drawOverFrame,
});
