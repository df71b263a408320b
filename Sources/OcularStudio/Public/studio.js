// Ocular Studio's Light Work page: the live view (live.js) with stages the server declares, the blend,
// colour or gray, tap to focus, and saving the processed frame.
//
// The page builds its controls from the stages the server lists in "hello", so no stage needs HTML of
// its own. It sends {"type": "settings", "recipe": {"stages": [...]}}; the server answers "settings"
// (the recipe with every value spelled out) or "error". {"type": "save"} asks the server to save the
// next processed frame in the gallery, losslessly, with the current recipe; after that frame's answer
// comes {"type": "saved", "item": {id, url, thumbnailURL, fileName, …}} or an error about "save".
// {"type": "tap", x, y, viewWidth, …} asks where a tap on the preview lands in the camera's frame; the
// server maps it through its tested camera geometry and answers "tapped" with the preview rectangle and
// the point of interest (null off the picture), which goes to the camera as the W3C Image Capture
// pointsOfInterest constraint where the camera takes it.

import { shareItem, showSaveOutcome } from "./share.js";
import { elements as liveElements, live, liveStats, liveTools, send, setBusy, showNotice, startLive } from "./live.js";

const SETTINGS_DELAY_MS = 60;  // while a slider moves, at most one settings message per this
const SAVE_TIMEOUT_MS = 15000;  // a save with no answer by then is reported as failed

const elements = {
  ...liveElements,
  stages: document.getElementById("stages"),
  recipeSummary: document.getElementById("recipe-summary"),
  stagesPanel: document.querySelector(".stages-panel"),
  save: document.getElementById("save"),
  share: document.getElementById("share"),
  saveStatus: document.getElementById("save-status"),
  colorMode: document.getElementById("color-mode"),
  grayMode: document.getElementById("gray-mode"),
  blendTools: document.getElementById("blend-tools"),
  blendSource: document.getElementById("blend-source"),
  blendGallery: document.getElementById("blend-gallery"),
  blendPreview: document.getElementById("blend-preview"),
  blendControls: document.getElementById("blend-controls"),
  blendFile: document.getElementById("blend-file"),
  focusMark: document.getElementById("focus-mark"),
};

const state = {
  /// Object URLs of the pictures chosen for image parameters, by "stage.parameter".
  previews: {},
  /// The faces of the last annotations message, and how many such messages came.
  faces: [],
  annotationsReceived: 0,
  stages: [],               // the server's stage declarations, from "hello"
  order: [],                // stage names, top to bottom
  enabled: new Set(),
  values: {},               // stage name → {parameter: value}
  recipe: { stages: [] },   // the recipe the server last confirmed
  settingsTimer: 0,
  saving: false,            // a save waits for its answer
  saveTimer: 0,
  savedItem: null,          // the last item saved, for Share
  saves: [],                // every save's outcome, for tests: {id} or {error}
  pendingTap: null,         // where the last tap landed in the preview, until the server answers
  focus: null,              // the last tap's answer: {x, y, applied, reason, preview} or {x: null}
  taps: 0,                  // taps answered
  focusTimer: 0,
};

// ---- Messages from the server ----------------------------------------------------------------

function handleMessage(message) {
  switch (message.type) {
    case "hello":
      buildStageControls(message.stages);
      buildBlendTools();
      // A reconnect keeps what was chosen; a first connection takes the server's recipe.
      if (state.recipe.stages.length) sendSettings();
      else adoptRecipe(message.recipe);
      break;
    case "settings":
      adoptRecipe(message.recipe);
      hideFindingsUnlessDetecting();
      break;
    case "saved":
      finishSave(message.item, null);
      break;
    case "tapped":
      focusAt(message);
      break;
    case "error":
      if (message.about === "save") { finishSave(null, message.message); break; }
      showNotice(`Server: ${message.message}`, "error");
      break;
    case "annotations":
      listFaces(message.faces ?? []);
      break;
  }
}

// ---- Findings --------------------------------------------------------------------------------

/// Lists the faces the server found in the frame just shown (the faces stage's annotations).
function listFaces(faces) {
  state.annotationsReceived += 1;
  // A frame processed before the faces stage was switched off may still be on its way.
  if (!detectsFaces()) return;
  state.faces = faces;
  const section = document.getElementById("findings");
  const list = document.getElementById("faces-list");
  section.hidden = false;
  const rows = faces.map((face) => {
    const [x, y, width, height] = face.bounds;
    const details = [`${width}×${height} at (${x}, ${y})`];
    if (face.species === "human") {
      details.push(face.smile ? "smiling" : face.mouth ? "not smiling" : "no mouth found");
      details.push(`tilted ${face.angle}°`);
    }
    const item = document.createElement("li");
    item.dataset.species = face.species;
    const name = document.createElement("b");
    name.textContent = face.species[0].toUpperCase() + face.species.slice(1);
    item.append(name, " ", details.join(" · "));
    return item;
  });
  if (!rows.length) {
    const none = document.createElement("li");
    none.className = "hint";
    none.textContent = "No face in this frame.";
    rows.push(none);
  }
  list.replaceChildren(...rows);
}

function detectsFaces() {
  return state.recipe.stages.some((step) => step.stage === "faces");
}

/// The findings list belongs to detection stages: hide it when the recipe has none.
function hideFindingsUnlessDetecting() {
  if (!detectsFaces()) {
    document.getElementById("findings").hidden = true;
    state.faces = [];
  }
}

// ---- Stages: controls built from the server's declarations ----------------------------------

/// The recipe the controls describe: the switched-on stages, top to bottom, with their values.
function currentRecipe() {
  return {
    stages: state.order.filter((name) => state.enabled.has(name))
      .map((name) => ({ stage: name, ...state.values[name] })),
  };
}

function sendSettings() {
  clearTimeout(state.settingsTimer);
  state.settingsTimer = 0;
  send({ type: "settings", recipe: currentRecipe() });
  summariseRecipe(currentRecipe());
}

/// While a slider moves: at most one settings message per SETTINGS_DELAY_MS.
function sendSettingsSoon() {
  if (!state.settingsTimer) state.settingsTimer = setTimeout(sendSettings, SETTINGS_DELAY_MS);
}

function titleOf(name) {
  return (state.stages.find((stage) => stage.name === name) || { title: name }).title;
}

function summariseRecipe(recipe) {
  elements.recipeSummary.textContent = recipe.stages.length
    ? `Stages: ${recipe.stages.map((step) => titleOf(step.stage)).join(" → ")}`
    : "No stages: frames come back as they are.";
}

/// Takes the server's confirmed recipe: which stages are on, in what order, with what values.
function adoptRecipe(recipe) {
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

function buildStageControls(stages) {
  if (!Array.isArray(stages)) return;
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

function renderStages() {
  const cards = state.order.map((name, index) => {
    const stage = state.stages.find((candidate) => candidate.name === name);
    return stage ? stageCard(stage, index) : null;
  }).filter(Boolean);
  elements.stages.replaceChildren(...cards);
  showToolbarState();
}

function stageCard(stage, index) {
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
    if (toggle.checked) state.enabled.add(stage.name);
    else state.enabled.delete(stage.name);
    card.dataset.enabled = String(toggle.checked);
    sendSettings();
  });
  label.append(toggle, document.createTextNode(stage.title));
  head.append(label, moveButton(stage.name, index, -1, "↑", "Run earlier"), moveButton(stage.name, index, 1, "↓", "Run later"));

  const summary = document.createElement("p");
  summary.className = "stage-summary";
  summary.textContent = stage.summary;

  const parameters = document.createElement("div");
  parameters.className = "parameters";
  parameters.append(...stage.parameters.map((parameter) => parameterControl(stage.name, parameter)));
  card.append(head, summary, parameters);
  return card;
}

function moveButton(name, index, offset, text, title) {
  const button = document.createElement("button");
  button.type = "button";
  button.textContent = text;
  button.title = title;
  button.setAttribute("aria-label", `${title}: ${titleOf(name)}`);
  button.disabled = index + offset < 0 || index + offset >= state.order.length;
  button.addEventListener("click", () => {
    const order = [...state.order];
    [order[index], order[index + offset]] = [order[index + offset], order[index]];
    state.order = order;
    renderStages();
    if (state.enabled.has(name)) sendSettings();
  });
  return button;
}

/// One control per parameter kind: a slider for a number, a menu for a choice, a toggle for a flag,
/// a colour well for a colour, two sliders for a point, a file picker for an image.
function parameterControl(stageName, parameter) {
  const row = document.createElement("label");
  row.className = "parameter";
  row.title = parameter.help || "";
  const caption = document.createElement("span");
  caption.textContent = parameter.title;
  row.append(caption);
  const value = state.values[stageName][parameter.name];
  const set = (next, soon) => {
    state.values[stageName][parameter.name] = next;
    if (!state.enabled.has(stageName)) return;
    if (soon) sendSettingsSoon();
    else sendSettings();
  };
  const mark = (input) => {
    input.dataset.stage = stageName;
    input.dataset.parameter = parameter.name;
    return input;
  };

  switch (parameter.kind) {
    case "number": {
      const slider = mark(document.createElement("input"));
      slider.type = "range";
      const box = document.createElement("input");
      box.type = "number";
      for (const input of [slider, box]) {
        input.min = parameter.minimum;
        input.max = parameter.maximum;
        input.step = parameter.step;
        input.value = value;
      }
      box.setAttribute("aria-label", parameter.title);
      slider.addEventListener("input", () => { box.value = slider.value; set(Number(slider.value), true); });
      box.addEventListener("change", () => {
        const number = Number(box.value);
        if (box.value === "" || !Number.isFinite(number)) { box.value = state.values[stageName][parameter.name]; return; }
        slider.value = box.value;
        set(number, false);  // out of range: the server says what is allowed
      });
      row.append(box, slider);
      break;
    }
    case "choice": {
      const menu = mark(document.createElement("select"));
      for (const option of parameter.options) menu.add(new Option(option.title, option.value));
      menu.value = value;
      menu.addEventListener("change", () => set(menu.value, false));
      row.append(menu);
      break;
    }
    case "flag": {
      const box = mark(document.createElement("input"));
      box.type = "checkbox";
      box.checked = Boolean(value);
      box.addEventListener("change", () => set(box.checked, false));
      row.append(box);
      break;
    }
    case "colour": {
      const well = mark(document.createElement("input"));
      well.type = "color";
      well.value = value;
      well.addEventListener("input", () => set(well.value, true));
      row.append(well);
      break;
    }
    case "point": {
      const [x, y] = Array.isArray(value) ? value : [0.5, 0.5];
      const sliders = [x, y].map((coordinate, axis) => {
        const slider = mark(document.createElement("input"));
        slider.type = "range";
        slider.min = 0;
        slider.max = 1;
        slider.step = 0.01;
        slider.value = coordinate;
        slider.setAttribute("aria-label", `${parameter.title} ${axis ? "y" : "x"}`);
        return slider;
      });
      const update = () => set(sliders.map((slider) => Number(slider.value)), true);
      sliders.forEach((slider) => slider.addEventListener("input", update));
      row.append(...sliders);
      break;
    }
    case "image": {
      // The picture itself shows beside the picker: it says more than a file name.
      const key = `${stageName}.${parameter.name}`;
      const preview = document.createElement("img");
      preview.className = "picture-preview";
      preview.alt = `${parameter.title} chosen`;
      preview.hidden = !state.previews[key];
      if (state.previews[key]) preview.src = state.previews[key];
      const picker = mark(document.createElement("input"));
      picker.type = "file";
      picker.accept = "image/*";
      picker.addEventListener("change", () => uploadImage(picker.files[0], (id) => {
        if (state.previews[key]) URL.revokeObjectURL(state.previews[key]);
        state.previews[key] = URL.createObjectURL(picker.files[0]);
        preview.src = state.previews[key];
        preview.hidden = false;
        set(id, false);
      }));
      row.append(picker, preview);
      break;
    }
    case "trainingList": {
      // The studio names one list, its own ("default"): on, or off for boxes only.
      const box = mark(document.createElement("input"));
      box.type = "checkbox";
      box.checked = value === "default";
      box.title = "Name and count every object with the studio's training list";
      box.addEventListener("change", () => set(box.checked ? "default" : null, false));
      row.append(box);
      break;
    }
    default: {
      const unknown = document.createElement("span");
      unknown.textContent = `(${parameter.kind}: not settable here)`;
      row.append(unknown);
    }
  }
  return row;
}

/// Uploads a picture for an image parameter; the server answers its id.
async function uploadImage(file, use) {
  if (!file) return;
  setBusy("Uploading the picture…");
  try {
    const response = await fetch("api/sources", { method: "POST", body: file, headers: { "Content-Type": file.type || "application/octet-stream" } });
    if (!response.ok) {
      const text = (await response.text()).trim();
      let reason = text || response.statusText;
      try { reason = JSON.parse(text).error ?? reason; } catch { /* not JSON: the text itself */ }
      throw new Error(reason);
    }
    const { id } = await response.json();
    use(id);
  } catch (error) {
    showNotice(`The picture could not be uploaded: ${error.message}`, "error");
  } finally {
    setBusy("");
  }
}


// ---- Light Work's toolbar: colour or gray, the blend, switching cameras -----------------------

/// Colour or gray: the gray stage, first of all when on, so every later stage sees the luma.
function setGray(on) {
  if (on) {
    state.enabled.add("gray");
    state.order = ["gray", ...state.order.filter((name) => name !== "gray")];
  } else {
    state.enabled.delete("gray");
  }
  renderStages();
  sendSettings();
}

/// The toolbar follows the recipe, whichever control changed it.
function showToolbarState() {
  const gray = state.enabled.has("gray");
  elements.colorMode.setAttribute("aria-pressed", String(!gray));
  elements.grayMode.setAttribute("aria-pressed", String(gray));
  const blend = state.values.blend || {};
  const on = state.enabled.has("blend") && blend.source;
  const value = on ? String(blend.source) : "";
  if (!on) elements.blendSource.value = "";
  else if ([...elements.blendSource.options].some((option) => option.value === value)) elements.blendSource.value = value;
  // Each control's row holds its inputs (a slider and its number box, or a menu); all show the value.
  for (const row of elements.blendControls.querySelectorAll(".parameter")) {
    const marked = row.querySelector("[data-parameter]");
    const current = marked ? blend[marked.dataset.parameter] : undefined;
    if (current === undefined) continue;
    for (const field of row.querySelectorAll("input, select")) {
      if (document.activeElement !== field) field.value = current;
    }
  }
}

/// The blend's mode and opacity in the toolbar, from the stage's own declarations.
function buildBlendTools() {
  const stage = state.stages.find((candidate) => candidate.name === "blend");
  elements.blendTools.hidden = !stage;
  if (!stage) return;
  const controls = stage.parameters.filter((parameter) => parameter.kind !== "image").map((parameter) => parameterControl("blend", parameter));
  // Marked as the toolbar's: the stage panel's controls keep data-stage to themselves.
  for (const input of controls.flatMap((control) => [...control.querySelectorAll("[data-stage]")])) {
    delete input.dataset.stage;
    input.dataset.toolbar = "blend";
  }
  elements.blendControls.replaceChildren(...controls);
}

/// Blends `source` (an upload's id or "gallery:ID") in, or stops blending when it is empty.
function useBlendSource(source, preview) {
  if (!source) {
    state.enabled.delete("blend");
    elements.blendPreview.hidden = true;
  } else {
    state.values.blend = { ...state.values.blend, source };
    state.enabled.add("blend");
    if (preview) {
      elements.blendPreview.src = preview;
      elements.blendPreview.hidden = false;
    }
  }
  renderStages();
  sendSettings();
}

/// The gallery's photos, offered as blend pictures.
async function loadGalleryPictures() {
  try {
    const response = await fetch("api/gallery?limit=100");
    if (!response.ok) return;
    const { items } = await response.json();
    const options = items.filter((item) => item.kind === "photo").map((item) => {
      const option = new Option(`${item.caption || item.fileName} (#${item.id})`, `gallery:${item.id}`);
      option.dataset.thumbnail = item.thumbnailURL || item.url;
      return option;
    });
    elements.blendGallery.replaceChildren(...options);
    elements.blendGallery.label = options.length ? "From the gallery" : "From the gallery (no photos yet)";
    showToolbarState();
  } catch { /* the gallery is optional here: uploads still work */ }
}

elements.colorMode.addEventListener("click", () => setGray(false));
elements.grayMode.addEventListener("click", () => setGray(true));
elements.blendSource.addEventListener("focus", loadGalleryPictures);
elements.blendSource.addEventListener("change", () => {
  const value = elements.blendSource.value;
  if (value === "upload") {
    elements.blendFile.value = "";
    elements.blendFile.click();
    showToolbarState();  // back to what is blended until a picture is chosen
    return;
  }
  const option = elements.blendSource.selectedOptions[0];
  useBlendSource(value, option && option.dataset.thumbnail);
});
elements.blendFile.addEventListener("change", () => {
  const file = elements.blendFile.files[0];
  uploadImage(file, (id) => {
    const option = new Option(`Uploaded: ${file.name}`, id);
    const preview = URL.createObjectURL(file);
    option.dataset.thumbnail = preview;
    elements.blendSource.add(option, elements.blendGallery);
    useBlendSource(id, preview);
  });
});

// ---- Tap to focus ----------------------------------------------------------------------------

elements.output.addEventListener("click", (event) => {
  const canvas = elements.output;
  const view = canvas.getBoundingClientRect();
  const tap = { x: event.clientX - view.left, y: event.clientY - view.top };
  state.pendingTap = { ...tap, view };
  send({
    type: "tap", x: tap.x, y: tap.y, viewWidth: view.width, viewHeight: view.height,
    frameWidth: canvas.width, frameHeight: canvas.height, layout: "letterbox",
    // The browser turns camera frames upright itself: they arrive as the sensor frame is shown.
    orientation: "landscape-right",
    position: live.cameraChoice === "front" ? "front" : "back",
  });
});

/// The server's answer to a tap: hand the point to the camera where it takes one, and mark it.
async function focusAt(message) {
  const tap = state.pendingTap;
  state.pendingTap = null;
  state.taps += 1;
  const point = message.pointOfInterest;
  if (!point) {
    state.focus = { x: null, y: null, applied: false, reason: "the tap missed the picture", preview: message.preview };
    showNotice("Tap on the picture to focus there, not on the bars beside it.");
    return;
  }
  let applied = false;
  let reason = "";
  const track = live.source === "camera" && live.cameraStream ? live.cameraStream.getVideoTracks()[0] : null;
  if (!track) {
    reason = "a still picture has no camera to focus";
  } else {
    const capabilities = track.getCapabilities ? track.getCapabilities() : {};
    if ("pointsOfInterest" in capabilities) {
      const wanted = { pointsOfInterest: [{ x: point.x, y: point.y }] };
      if ((capabilities.focusMode || []).includes("single-shot")) wanted.focusMode = "single-shot";
      if ((capabilities.exposureMode || []).includes("single-shot")) wanted.exposureMode = "single-shot";
      try {
        await track.applyConstraints({ advanced: [wanted] });
        applied = true;
      } catch (error) {
        reason = `the camera refused it (${error.message})`;
      }
    } else {
      reason = "this camera cannot be told where to focus";
    }
  }
  state.focus = { x: point.x, y: point.y, applied, reason, preview: message.preview };
  if (tap) {
    const stage = elements.stage.getBoundingClientRect();
    const mark = elements.focusMark;
    mark.style.left = `${tap.view.left - stage.left + tap.x}px`;
    mark.style.top = `${tap.view.top - stage.top + tap.y}px`;
    mark.dataset.applied = String(applied);
    const label = document.createElement("span");
    const where = `(${point.x.toFixed(2)}, ${point.y.toFixed(2)})`;
    label.textContent = applied ? `Focus ${where}` : `${where} marked`;
    // The label stays inside the preview near its left and right edges.
    const x = tap.view.left - stage.left + tap.x;
    label.dataset.align = x < 90 ? "start" : x > stage.width - 90 ? "end" : "centre";
    mark.replaceChildren(label);
    mark.title = applied ? `The camera focuses at ${where}` : `Focus point ${where} marked only: ${reason}`;
    mark.hidden = false;
    clearTimeout(state.focusTimer);
    state.focusTimer = setTimeout(() => { mark.hidden = true; }, 4000);
  }
}

// ---- Save and share --------------------------------------------------------------------------

/// While a save waits, the controls that would change what is saved are disabled.
function setSaving(saving) {
  state.saving = saving;
  document.body.dataset.saving = String(saving);
  elements.save.disabled = saving;
  elements.save.setAttribute("aria-busy", String(saving));
  elements.save.textContent = saving ? "Saving…" : "Save";
  elements.source.disabled = saving;
  elements.stagesPanel.inert = saving;
  elements.cameraGroup.inert = saving;
  elements.blendTools.inert = saving;
  if (saving) elements.share.hidden = true;
}

function setSaveStatus(kind, text, link) {
  showSaveOutcome(elements.saveStatus, kind, text, link);
}

function save() {
  if (state.saving) return;
  if (!live.connected) {
    setSaveStatus("error", "Not saved: the server is not connected.");
    return;
  }
  setSaving(true);
  setSaveStatus("busy", "");
  setBusy("Saving the next frame…");
  send({ type: "save" });
  state.saveTimer = setTimeout(() => finishSave(null, `no answer from the server in ${SAVE_TIMEOUT_MS / 1000} s`), SAVE_TIMEOUT_MS);
}

/// Ends a save: with the saved item, or with the reason it failed.
function finishSave(item, reason) {
  if (!state.saving) return;
  clearTimeout(state.saveTimer);
  setSaving(false);
  setBusy("");
  if (item) {
    state.savedItem = item;
    state.saves.push({ id: item.id });
    setSaveStatus("saved", "Saved", { href: `gallery.html#item-${item.id}`, text: "in the gallery" });
    loadGalleryPictures();  // the new photo can be blended in
    elements.share.hidden = false;
  } else {
    state.saves.push({ error: reason });
    setSaveStatus("error", `Not saved: ${reason}`);
  }
}

elements.save.addEventListener("click", save);
elements.share.addEventListener("click", async () => {
  if (!state.savedItem) return;
  try {
    await shareItem(state.savedItem);
  } catch (error) {
    showNotice(`Could not share: ${error.message}`, "error");
  }
});

// For tests and the curious: window.ocularStudio.stats()
window.ocularStudio = {
  ...liveTools,
  stats: () => ({
    ...liveStats(),
    recipe: state.recipe,
    faces: state.faces,
    annotationsReceived: state.annotationsReceived,
    saving: state.saving,
    saves: state.saves,
    focus: state.focus,
    taps: state.taps,
  }),
};

startLive({
  onMessage: handleMessage,
  onClose: () => { if (state.saving) finishSave(null, "the connection to the server was lost"); },
  keepsBusy: () => state.saving,
});
loadGalleryPictures();
