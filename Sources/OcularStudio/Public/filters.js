// Ocular Studio's Filters page: the Core Image–style filters (the registry's stages marked "filter"),
// grouped by category in a palette; a click adds one to the end of the chain, whose cards (stages.js)
// set its values, move it up or down, or take it out. Before/after as on Samples (splitview.js); Save
// keeps the processed frame (booth.js). The server fuses consecutive colour filters into one pass.

import { createBooth } from "./booth.js";
import { startLive } from "./live.js";
import { createSplitView } from "./splitview.js";
import { addStage, adoptRecipe, buildStageControls, listsEveryStage, onPanelChange, renderStages, sendSettings, state, titleOf } from "./stages.js";
import { liveStats, liveTools } from "./stream.js";
import { elements as liveElements } from "./view.js";
import { answers } from "./api/protocol.js";

const FIRST_CHAIN = ["sepiaTone"];  // what a first visit shows: something happens at once

const elements = {
  ...liveElements,
  panel: document.querySelector(".stages-panel"),
  palette: document.getElementById("palette"),
  clear: document.getElementById("clear-chain"),
  chainEmpty: document.getElementById("chain-empty"),
  splitView: document.getElementById("split-view"),
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

// ---- The palette -----------------------------------------------------------------------------

/// A group of buttons per category that has filters, in the server's order and under its titles
/// (the hello's categories); a filter already in the chain is marked.
function buildPalette(categories) {
  const groups = categories.map(({ name: category, title }) => {
    const filters = state.stages.filter((stage) => stage.category === category);
    if (!filters.length) return null;
    const group = document.createElement("section");
    group.className = "palette-group";
    group.dataset.category = category;
    const heading = document.createElement("h3");
    heading.textContent = title;
    const buttons = document.createElement("div");
    buttons.className = "palette-buttons";
    for (const filter of filters) {
      const button = document.createElement("button");
      button.type = "button";
      button.className = "palette-filter";
      button.dataset.add = filter.name;
      button.textContent = filter.title;
      button.title = filter.summary;
      button.addEventListener("click", () => {
        addStage(filter.name);
        // The chain sits below the palette: the new card comes into view, its controls ready.
        document.querySelector(`li.stage-card[data-stage="${filter.name}"]`)?.scrollIntoView({ block: "nearest", behavior: "smooth" });
      });
      buttons.append(button);
    }
    group.append(heading, buttons);
    return group;
  }).filter(Boolean);
  elements.palette.replaceChildren(...groups);
  markPalette();
}

/// The palette shows which filters are in the chain; the chain's placeholder shows when it is empty.
function markPalette() {
  for (const button of elements.palette.querySelectorAll("[data-add]")) {
    const added = state.enabled.has(button.dataset.add);
    button.setAttribute("aria-pressed", String(added));
    button.disabled = added;
  }
  elements.chainEmpty.hidden = state.enabled.size > 0;
  elements.clear.disabled = state.enabled.size === 0;
}

onPanelChange({ rendered: markPalette });

elements.clear.addEventListener("click", () => {
  state.enabled = new Set();
  renderStages();
  sendSettings();
});

// ---- Messages from the server ----------------------------------------------------------------

function handleMessage(message) {
  if (booth.handled(message)) return;
  switch (message.type) {
    case answers.hello:
      buildStageControls(message.stages, (stage) => stage.filter);
      buildPalette(message.categories);
      if (state.recipe.stages.length || state.enabled.size) {
        sendSettings();  // a reconnect keeps what was chosen
      } else if (listsEveryStage(message.recipe) && message.recipe.stages.length) {
        adoptRecipe(message.recipe);
      } else {
        for (const name of FIRST_CHAIN) addStage(name);
      }
      break;
    case answers.settings:
      adoptRecipe(message.recipe);
      break;
  }
}

// For tests and the curious: window.ocularStudio.stats()
window.ocularStudio = {
  ...liveTools,
  stats: () => ({
    ...liveStats(),
    recipe: state.recipe,
    filters: state.stages.map((stage) => stage.name),
    chain: state.order.filter((name) => state.enabled.has(name)),
    titles: state.recipe.stages.map((step) => titleOf(step.stage)),
    split: split.split,
    saving: booth.waiting === "save",
    saves: booth.saves,
  }),
};

state.chainOnly = true;
startLive({
  ...booth.liveHandlers,
  onMessage: handleMessage,
  showsOriginal: split.showsOriginal,
  drawOverFrame: split.drawOverFrame,
});
