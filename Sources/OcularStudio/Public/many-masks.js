// Ocular Studio's Many Masks page: the live view (live.js) with the faces stage's overlay; "Face 1" and
// "Face 2" keep the biggest face in view, Merge makes their merge and opens it for review,
// where it is discarded or saved in the gallery, then shared.
//
// Messages of its own (StreamMessage in the server): {"type": "capture", "slot": 1|2} keeps the biggest
// face of the frame just answered (with "at": [x, y], 0…1 of the frame, the face under a tap, which the
// server's "tap" answer places), answered {"type": "captured", slot, face, thumbnail};
// {"type": "captureBiggest"} keeps the two biggest as face 1 and 2, answered {"type":
// "capturedBiggest", faces: [captured, captured]}; {"type":
// "merge"} answers {"type": "merged", face, image}; {"type": "saveMerge"} saves that merge, captioned
// with its species, answered "saved" with the gallery item. Each answers an error about its own type
// ("capture", "captureBiggest", "merge", "saveMerge") when there is nothing to capture, merge or save. The faces themselves stay on the
// server, pixels and landmarks, so a capture is exactly the face that was listed.

import { answers, requests } from "./api/protocol.js";
import { createBooth } from "./booth.js";
import { send } from "./connection.js";
import { sendTap } from "./focus.js";
import { startLive } from "./live.js";
import { live, liveStats, liveTools } from "./stream.js";
import { elements as liveElements, showNotice } from "./view.js";

const elements = {
  ...liveElements,
  seen: document.getElementById("seen"),
  cats: document.getElementById("cats"),
  pickButtons: [1, 2].map((slot) => document.getElementById(`capture-${slot}`)),
  pickBiggest: document.getElementById("capture-biggest"),
  slots: [1, 2].map((slot) => document.getElementById(`slot-${slot}`)),
  merge: document.getElementById("merge"),
};

const state = {
  faces: [],                // the faces of the frame just shown
  annotationsReceived: 0,
  picked: { 1: null, 2: null },  // each slot's face, as the server described it
  merged: null,             // the merge under review: {face, image}
  tappedSlot: null,         // the slot a tap on the picture is picking, while the server places it
  nextTapSlot: 1,           // taps on faces fill face 1, then face 2, in turn
};

const booth = createBooth({
  saveType: "saveMerge",
  saving: "Saving the merge…",
  failures: { capture: "Not picked", merge: "Not merged" },
  showControls,
});

const speciesName = (species) => species[0].toUpperCase() + species.slice(1);

// ---- The faces in view ---------------------------------------------------------------------------

/// The recipe of this page: the faces stage with everything drawn; cats as the checkbox says.
function sendRecipe() {
  send(requests.settings({ recipe: { stages: [{ stage: "faces", cats: elements.cats.checked }] } }));
}

/// The capture buttons work while a face is in view, and nothing else waits.
function showControls() {
  const waiting = Boolean(booth.waiting);
  const canCapture = live.connected && state.faces.length > 0 && !waiting;
  for (const button of elements.pickButtons) button.disabled = !canCapture;
  elements.pickBiggest.disabled = !canCapture || state.faces.length < 2;
  elements.merge.disabled = !(live.connected && state.picked[1] && state.picked[2]) || waiting;
}

function sawFaces(faces) {
  state.annotationsReceived += 1;
  state.faces = faces;
  const biggest = faces.reduce((best, face) => (!best || face.bounds[2] * face.bounds[3] > best.bounds[2] * best.bounds[3] ? face : best), null);
  elements.seen.dataset.species = biggest ? biggest.species : "";
  elements.seen.textContent = biggest
    ? `${speciesName(biggest.species)} face in view${faces.length > 1 ? ` (the biggest of ${faces.length})` : ""}: ${biggest.bounds[2]}×${biggest.bounds[3]}`
    : "No face in view: face the camera, or pick a still.";
  showControls();
}

// ---- Face 1, Face 2 --------------------------------------------------------------------------------

function captured(message) {
  booth.finish("capture", null);
  const { slot, face, thumbnail } = message;
  state.picked[slot] = face;
  const figure = elements.slots[slot - 1];
  figure.dataset.species = face.species;
  const image = figure.querySelector("img");
  image.src = thumbnail;
  image.alt = `Face ${slot}: ${face.species}`;
  image.hidden = false;
  figure.querySelector(".placeholder").hidden = true;
  figure.querySelector("figcaption").textContent = `${speciesName(face.species)}, ${face.bounds[2]}×${face.bounds[3]}`;
  showControls();
}

function clearPicks() {
  state.picked = { 1: null, 2: null };
  for (const figure of elements.slots) {
    figure.dataset.species = "";
    figure.querySelector("img").hidden = true;
    figure.querySelector(".placeholder").hidden = false;
    figure.querySelector("figcaption").textContent = "Not picked yet";
  }
  showControls();
}

// ---- Merge and review ------------------------------------------------------------------------------

function merged(message) {
  booth.finish("merge", null);
  state.merged = message;
  const { face, image } = message;
  booth.open({
    image,
    title: `${speciesName(face.species)} face`,
    meta: `Face 1 (${state.picked[1].species}) × face 2 (${state.picked[2].species}): ` +
      `${face.bounds[2]}×${face.bounds[3]}, the bigger face's size.`,
  });
}

// ---- Messages from the server ----------------------------------------------------------------------

function handleMessage(message) {
  if (booth.handled(message)) return;
  switch (message.type) {
    case answers.hello:
      // A new connection is a new session on the server: the faces picked before are gone there.
      if (state.picked[1] || state.picked[2]) {
        clearPicks();
        showNotice("The connection to the server was renewed: pick the faces again.");
      }
      sendRecipe();
      break;
    case answers.annotations:
      sawFaces(message.faces ?? []);
      break;
    case answers.captured:
      captured(message);
      break;
    case answers.capturedBiggest:
      for (const face of message.faces) captured(face);
      break;
    case answers.tapped:
      pickTapped(message);
      break;
    case answers.merged:
      merged(message);
      break;
  }
}

elements.pickButtons.forEach((button, index) => button.addEventListener("click", () => {
  const slot = index + 1;
  booth.request("capture", requests.capture({ slot }), `Picking face ${slot}…`);
}));
elements.pickBiggest.addEventListener("click", () => booth.request("capture", requests.captureBiggest(), "Picking the two biggest faces…"));
elements.merge.addEventListener("click", () => booth.request("merge", requests.merge(), "Merging…"));

// A tap on a face in the picture picks it: the server says where the tap lands in the frame ("tapped",
// through its camera geometry: letterbox, the front camera's mirror), then keeps the face there.
elements.output.addEventListener("click", (event) => {
  if (!live.connected || booth.waiting || state.faces.length === 0) return;
  state.tappedSlot = state.nextTapSlot;
  sendTap(event);
});

function pickTapped(message) {
  const slot = state.tappedSlot;
  state.tappedSlot = null;
  const point = message.pointOfInterest;
  if (!slot) return;
  if (!point) {
    showNotice("Tap on a face in the picture, not beside it.");
    return;
  }
  state.nextTapSlot = slot === 1 ? 2 : 1;
  booth.request("capture", requests.capture({ slot, at: [point.x, point.y] }), `Picking face ${slot}…`);
}
elements.cats.addEventListener("change", sendRecipe);

// For tests and the curious: window.ocularStudio.stats()
window.ocularStudio = {
  ...liveTools,
  stats: () => ({
    ...liveStats(),
    faces: state.faces,
    annotationsReceived: state.annotationsReceived,
    picked: { 1: state.picked[1]?.species ?? null, 2: state.picked[2]?.species ?? null },
    merged: state.merged ? state.merged.face : null,
    reviewing: booth.reviewing,
    waiting: booth.waiting,
    saves: booth.saves,
  }),
};

startLive({
  onMessage: handleMessage,
  onClose: () => {
    booth.liveHandlers.onClose();
    state.faces = [];
    showControls();
  },
  keepsBusy: booth.liveHandlers.keepsBusy,
});
