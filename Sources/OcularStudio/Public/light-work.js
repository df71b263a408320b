// Ocular Studio's Light Work page: the live view (live.js) with the stage panel (stages.js) built
// from the server's declarations, the findings of any detection stage (findings.js), tap to focus
// (focus.js), the toolbar's colour or gray and blend, and saving the processed frame (booth.js).

import { createBooth } from "./booth.js";
import { uploadImage } from "./controls.js";
import { drawFindings, findings, hideFindings, showFindings } from "./findings.js";
import { enableTapToFocus, focus, focusAt } from "./focus.js";
import { startLive } from "./live.js";
import { adoptRecipe, buildStageControls, onPanelChange, parameterControl, renderStages, sendSettings, state } from "./stages.js";
import { live, liveStats, liveTools } from "./stream.js";
import { elements as liveElements } from "./view.js";
import { enableZoom, showZoom, sourceChanged, zoom } from "./zoom.js";
import { answers } from "./api/protocol.js";

const elements = {
  ...liveElements,
  findings: document.getElementById("findings"),
  stagesPanel: document.querySelector(".stages-panel"),
  colorMode: document.getElementById("color-mode"),
  grayMode: document.getElementById("gray-mode"),
  blendTools: document.getElementById("blend-tools"),
  blendSource: document.getElementById("blend-source"),
  blendGallery: document.getElementById("blend-gallery"),
  blendPreview: document.getElementById("blend-preview"),
  blendControls: document.getElementById("blend-controls"),
  blendFile: document.getElementById("blend-file"),
};

const booth = createBooth({
  saveType: "save",
  saving: "Saving the next frame…",
  review: false,
  // While a save waits, the controls that would change what is saved are held.
  whileSaving: (saving) => {
    elements.source.disabled = saving;
    elements.stagesPanel.inert = saving;
    elements.cameraGroup.inert = saving;
    elements.blendTools.inert = saving;
  },
  onSaved: () => loadGalleryPictures(),  // the new photo can be blended in
});

// ---- Messages from the server ----------------------------------------------------------------

function handleMessage(message) {
  if (booth.handled(message)) return;
  switch (message.type) {
    case answers.hello:
      // The tutorial's samples and the Core Image–style filters have pages of their own.
      buildStageControls(message.stages, (stage) => stage.category !== "sample" && !stage.filter);
      buildBlendTools();
      // A reconnect keeps what was chosen; a first connection takes the server's recipe.
      if (state.recipe.stages.length) sendSettings();
      else adoptRecipe(message.recipe);
      break;
    case answers.settings:
      adoptRecipe(message.recipe);
      hideFindingsUnlessFinding();
      break;
    case answers.tapped:
      focusAt(message);
      break;
    case answers.annotations:
      findings.received += 1;
      // A frame processed before the last detection stage was switched off may still be on its way.
      if (!findsThings()) break;
      showFindings(elements.findings, message);
      // The findings are those of the frame just answered, which may still be decoding.
      overlay.answer = live.answers;
      overlay.groups = findings.groups;
      if (live.shownAnswer === overlay.answer) drawFindings(elements.output, overlay.groups);
      break;
  }
}

// ---- Findings --------------------------------------------------------------------------------

/// The findings to draw over their own frame (answer number), for kinds whose stage draws nothing.
const overlay = { answer: 0, groups: {} };

/// Whether a stage of the confirmed recipe declares annotations (faces, blobs, any later kind).
function findsThings() {
  return state.recipe.stages.some((step) => (state.stages.find((stage) => stage.name === step.stage)?.annotations ?? []).length > 0);
}

/// The findings belong to stages that find things: hidden when the recipe has none.
function hideFindingsUnlessFinding() {
  if (!findsThings()) {
    hideFindings(elements.findings);
    overlay.groups = {};
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

onPanelChange({ rendered: () => { showToolbarState(); showZoom(); } });
enableTapToFocus();
enableZoom();

// For tests and the curious: window.ocularStudio.stats()
window.ocularStudio = {
  ...liveTools,
  stats: () => ({
    ...liveStats(),
    recipe: state.recipe,
    faces: findings.groups.faces ?? [],
    findings: findings.groups,
    annotationsReceived: findings.received,
    saving: booth.waiting === "save",
    saves: booth.saves,
    focus: focus.last,
    taps: focus.taps,
    zoom: { ...zoom },
  }),
};

startLive({
  ...booth.liveHandlers,
  onMessage: handleMessage,
  onFrameDrawn: (number) => { if (number === overlay.answer) drawFindings(elements.output, overlay.groups); },
  onSourceChange: sourceChanged,
});
loadGalleryPictures();
