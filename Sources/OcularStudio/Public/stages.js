// The stage panel: one card per stage the server declares in "hello", built from its parameters (a
// slider for a number, a menu for a choice, a toggle for a flag, a colour well, two sliders for a
// point, a file picker for an image), so no stage needs HTML or script of its own. Switching a stage
// on, moving it, or changing a value sends {"type": "settings", "recipe": {"stages": [...]}}; the
// server answers "settings" with the recipe spelled out, which the panel adopts.

import { requests } from "./api/protocol.js";
import { send } from "./connection.js";
import { parameterControl as control } from "./controls.js";

const SETTINGS_DELAY_MS = 60;  // while a slider moves, at most one settings message per this

const elements = {
  stages: document.getElementById("stages"),
  recipeSummary: document.getElementById("recipe-summary"),
};

/// The panel's state; the page's toolbar may change which stages are on and their values, then call
/// renderStages() and sendSettings().
export const state = {
  /// Object URLs of the pictures chosen for image parameters, by "stage.parameter".
  previews: {},
  stages: [],               // the server's stage declarations, from "hello"
  order: [],                // stage names, top to bottom
  enabled: new Set(),
  values: {},               // stage name → {parameter: value}
  recipe: { stages: [] },   // the recipe the server last confirmed
  settingsTimer: 0,
  /// One stage at a time: switching one on switches the others off (the Samples page's "One").
  exclusive: false,
  /// Only the switched-on stages have cards, in chain order (the Filters page adds them from a palette).
  chainOnly: false,
};

/// Called after the cards are rendered (the page's toolbar follows the recipe).
const hooks = { rendered: () => {} };

/// Sets what the page does when the panel changes: {rendered}.
export function onPanelChange(handlers) {
  Object.assign(hooks, handlers);
}

/// The recipe the controls describe: the switched-on stages, top to bottom, with their values.
export function currentRecipe() {
  return {
    stages: state.order.filter((name) => state.enabled.has(name))
      .map((name) => ({ stage: name, ...state.values[name] })),
  };
}

export function sendSettings() {
  clearTimeout(state.settingsTimer);
  state.settingsTimer = 0;
  send(requests.settings({ recipe: currentRecipe() }));
  summariseRecipe(currentRecipe());
}

/// While a slider moves: at most one settings message per SETTINGS_DELAY_MS.
function sendSettingsSoon() {
  if (!state.settingsTimer) state.settingsTimer = setTimeout(sendSettings, SETTINGS_DELAY_MS);
}

export function titleOf(name) {
  return (state.stages.find((stage) => stage.name === name) || { title: name }).title;
}

function summariseRecipe(recipe) {
  elements.recipeSummary.textContent = recipe.stages.length
    ? `Stages: ${recipe.stages.map((step) => titleOf(step.stage)).join(" → ")}`
    : "No stages: frames come back as they are.";
}

/// Takes the server's confirmed recipe: which stages are on, in what order, with what values.
export function adoptRecipe(recipe) {
  if (!recipe || !Array.isArray(recipe.stages)) return;
  state.recipe = recipe;
  // A change still waiting to be sent (a slider moved just after a stage was switched on) is newer
  // than this confirmation: adopting it would put the slider back and send the old value. The
  // change's own confirmation follows.
  if (state.settingsTimer) return;
  const named = recipe.stages.map((step) => step.stage);
  state.enabled = new Set(named);
  // The list keeps its order (the registry's, or the user's) while it agrees with the recipe's;
  // otherwise the recipe's stages come first, in its order.
  const listed = state.order.filter((name) => named.includes(name));
  if (listed.length !== named.length || listed.some((name, index) => name !== named[index])) {
    state.order = [...named, ...state.order.filter((name) => !named.includes(name))];
  }
  for (const step of recipe.stages) {
    const { stage, ...values } = step;
    state.values[stage] = { ...state.values[stage], ...values };
  }
  renderStages();
  summariseRecipe(recipe);
}

/// Whether the recipe names only stages this page lists (a page adopts the server's recipe only then).
export function listsEveryStage(recipe) {
  const names = new Set(state.stages.map((stage) => stage.name));
  return Boolean(recipe && Array.isArray(recipe.stages) && recipe.stages.every((step) => names.has(step.stage)));
}

/// Builds a card for each of `stages` that `listed` keeps (a page lists its own category).
export function buildStageControls(stages, listed = () => true) {
  if (!Array.isArray(stages)) return;
  stages = stages.filter(listed);
  state.stages = stages;
  const known = stages.map((stage) => stage.name);
  state.order = [...state.order.filter((name) => known.includes(name)), ...known.filter((name) => !state.order.includes(name))];
  for (const stage of stages) {
    const values = {};
    for (const parameter of stage.parameters) values[parameter.name] = parameter.default;
    state.values[stage.name] = { ...values, ...state.values[stage.name] };
  }
  renderStages();
}

/// The names that have cards, top to bottom.
function shownNames() {
  return state.chainOnly ? state.order.filter((name) => state.enabled.has(name)) : state.order;
}

export function renderStages() {
  const names = shownNames();
  const cards = names.map((name, index) => {
    const stage = state.stages.find((candidate) => candidate.name === name);
    return stage ? stageCard(stage, index, names.length) : null;
  }).filter(Boolean);
  elements.stages.replaceChildren(...cards);
  hooks.rendered();
}

/// Switches a stage on at the end of the chain (a page's palette); nothing when it is on already.
export function addStage(name) {
  if (state.enabled.has(name) || !state.stages.some((stage) => stage.name === name)) return;
  if (state.exclusive) state.enabled.clear();
  const chain = state.order.filter((other) => state.enabled.has(other));
  state.enabled.add(name);
  state.order = [...chain, name, ...state.order.filter((other) => other !== name && !chain.includes(other))];
  renderStages();
  sendSettings();
}

function stageCard(stage, index, count) {
  const card = document.createElement("li");
  card.className = "stage-card";
  card.dataset.stage = stage.name;
  card.dataset.enabled = String(state.enabled.has(stage.name));

  const head = document.createElement("div");
  head.className = "stage-head";
  const label = document.createElement("label");
  const toggle = document.createElement("input");
  toggle.type = "checkbox";
  toggle.dataset.stageToggle = stage.name;
  toggle.checked = state.enabled.has(stage.name);
  toggle.addEventListener("change", () => {
    if (toggle.checked && state.exclusive) state.enabled.clear();
    if (toggle.checked) state.enabled.add(stage.name);
    else state.enabled.delete(stage.name);
    if (state.exclusive || state.chainOnly) renderStages();
    else card.dataset.enabled = String(toggle.checked);
    sendSettings();
  });
  label.append(toggle, document.createTextNode(stage.title));
  if (state.chainOnly) toggle.title = "Untick to take it out of the chain";
  head.append(label, moveButton(stage.name, index, count, -1, "↑", "Run earlier"), moveButton(stage.name, index, count, 1, "↓", "Run later"));

  const summary = document.createElement("p");
  summary.className = "stage-summary";
  summary.textContent = stage.summary;

  const parameters = document.createElement("div");
  parameters.className = "parameters";
  parameters.append(...stage.parameters.map((parameter) => parameterControl(stage.name, parameter)));
  card.append(head, summary, parameters);
  return card;
}

/// Swaps the card at `index` (of the `count` shown) with its neighbour above or below.
function moveButton(name, index, count, offset, text, title) {
  const button = document.createElement("button");
  button.type = "button";
  button.textContent = text;
  button.title = title;
  button.setAttribute("aria-label", `${title}: ${titleOf(name)}`);
  button.disabled = index + offset < 0 || index + offset >= count;
  button.addEventListener("click", () => {
    const names = shownNames();
    const order = [...state.order];
    const [here, there] = [order.indexOf(names[index]), order.indexOf(names[index + offset])];
    [order[here], order[there]] = [order[there], order[here]];
    state.order = order;
    renderStages();
    if (state.enabled.has(name)) sendSettings();
  });
  return button;
}

/// The control for `parameter` of stage `stageName` (controls.js), bound to the recipe: a change is sent
/// while the stage is on.
export function parameterControl(stageName, parameter) {
  return control(stageName, parameter, {
    value: state.values[stageName][parameter.name],
    current: () => state.values[stageName][parameter.name],
    set: (next, soon) => {
      state.values[stageName][parameter.name] = next;
      if (!state.enabled.has(stageName)) return;
      if (soon) sendSettingsSoon();
      else sendSettings();
    },
    previews: state.previews,
  });
}
