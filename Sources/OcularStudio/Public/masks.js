// Ocular Studio's Many Masks page: the live view (live.js) with the faces stage's overlay; "Face 1" and
// "Face 2" keep the biggest face in view, Merge makes their merge (SPEC §4) and opens it for review,
// where it is discarded or saved in the gallery, then shared.
//
// Messages of its own (StreamMessage in the server): {"type": "capture", "slot": 1|2} keeps the biggest
// face of the frame just answered, answered {"type": "captured", slot, face, thumbnail}; {"type":
// "merge"} answers {"type": "merged", face, image}; {"type": "saveMerge"} saves that merge, captioned
// with its species, answered "saved" with the gallery item. Each answers an error about "capture",
// "merge" or "save" when there is nothing to capture, merge or save. The faces themselves stay on the
// server, pixels and landmarks, so a capture is exactly the face that was listed.

import { shareItem, showSaveOutcome } from "./share.js";
import { elements as liveElements, live, liveStats, liveTools, send, setBusy, showNotice, startLive } from "./live.js";

const SAVE_TIMEOUT_MS = 15000;  // a save or merge with no answer by then is reported as failed

const elements = {
  ...liveElements,
  seen: document.getElementById("seen"),
  cats: document.getElementById("cats"),
  pickButtons: [1, 2].map((slot) => document.getElementById(`capture-${slot}`)),
  slots: [1, 2].map((slot) => document.getElementById(`slot-${slot}`)),
  merge: document.getElementById("merge"),
  review: document.getElementById("review"),
  reviewImage: document.getElementById("review-image"),
  reviewTitle: document.getElementById("review-title"),
  reviewMeta: document.getElementById("review-meta"),
  reviewStatus: document.getElementById("review-status"),
  reviewDiscard: document.getElementById("review-discard"),
  reviewSave: document.getElementById("review-save"),
  reviewShare: document.getElementById("review-share"),
};

const state = {
  faces: [],                // the faces of the frame just shown
  annotationsReceived: 0,
  picked: { 1: null, 2: null },  // each slot's face, as the server described it
  waiting: null,            // "capture", "merge" or "save": what waits for the server's answer
  waitTimer: 0,
  merged: null,             // the merge under review: {face, image}
  savedItem: null,
  saves: [],                // every save's outcome, for tests: {id, caption} or {error}
};

const speciesName = (species) => species[0].toUpperCase() + species.slice(1);

// ---- The faces in view ---------------------------------------------------------------------------

/// The recipe of this page: the faces stage with everything drawn; cats as the checkbox says.
function sendRecipe() {
  send({ type: "settings", recipe: { stages: [{ stage: "faces", cats: elements.cats.checked }] } });
}

/// The capture buttons work while a face is in view, and nothing else waits.
function showControls() {
  const canCapture = live.connected && state.faces.length > 0 && !state.waiting;
  for (const button of elements.pickButtons) button.disabled = !canCapture;
  elements.merge.disabled = !(live.connected && state.picked[1] && state.picked[2]) || Boolean(state.waiting);
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

// ---- Waiting for an answer -------------------------------------------------------------------------

function wait(what, busyText) {
  state.waiting = what;
  setBusy(busyText);
  clearTimeout(state.waitTimer);
  state.waitTimer = setTimeout(() => finish(what, `no answer from the server in ${SAVE_TIMEOUT_MS / 1000} s`), SAVE_TIMEOUT_MS);
  showControls();
}

/// Ends a wait; with a reason when it failed, which is said where the person looks.
function finish(what, reason) {
  if (state.waiting !== what) return;
  clearTimeout(state.waitTimer);
  state.waiting = null;
  setBusy("");
  showControls();
  if (!reason) return;
  if (what === "save") {
    state.saves.push({ error: reason });
    setReviewSaving(false);
    setReviewStatus("error", `Not saved: ${reason}`);
  } else {
    showNotice(what === "capture" ? `Not picked: ${reason}` : `Not merged: ${reason}`, "error");
  }
}

// ---- Face 1, Face 2 --------------------------------------------------------------------------------

function capture(slot) {
  if (state.waiting) return;
  showNotice("");
  wait("capture", `Picking face ${slot}…`);
  send({ type: "capture", slot });
}

function captured(message) {
  finish("capture", null);
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

function merge() {
  if (state.waiting) return;
  showNotice("");
  wait("merge", "Merging…");
  send({ type: "merge" });
}

function merged(message) {
  finish("merge", null);
  state.merged = message;
  const { face, image } = message;
  elements.reviewImage.src = image;
  elements.reviewTitle.textContent = `${speciesName(face.species)} face`;
  elements.reviewMeta.textContent = `Face 1 (${state.picked[1].species}) × face 2 (${state.picked[2].species}): ` +
    `${face.bounds[2]}×${face.bounds[3]}, the bigger face's size.`;
  setReviewStatus("", "");
  elements.reviewShare.hidden = true;
  setReviewSaving(false);
  elements.reviewSave.disabled = false;
  if (!elements.review.open) elements.review.showModal();
}

function setReviewStatus(kind, text, link) {
  showSaveOutcome(elements.reviewStatus, kind, text, link);
}

function setReviewSaving(saving) {
  elements.reviewSave.disabled = saving;
  elements.reviewSave.setAttribute("aria-busy", String(saving));
  elements.reviewSave.textContent = saving ? "Saving…" : "Save";
  elements.reviewDiscard.disabled = saving;
}

function save() {
  if (state.waiting || !state.merged) return;
  if (!live.connected) {
    setReviewStatus("error", "Not saved: the server is not connected.");
    return;
  }
  setReviewSaving(true);
  setReviewStatus("busy", "");
  wait("save", "Saving the merge…");
  send({ type: "saveMerge" });
}

function saved(item) {
  finish("save", null);
  state.savedItem = item;
  state.saves.push({ id: item.id, caption: item.caption });
  setReviewSaving(false);
  elements.reviewSave.disabled = true;  // saved once; merge again for another
  setReviewStatus("saved", "Saved", { href: `gallery.html#item-${item.id}`, text: "in the gallery" });
  elements.reviewShare.hidden = false;
}

// ---- Messages from the server ----------------------------------------------------------------------

function handleMessage(message) {
  switch (message.type) {
    case "hello":
      // A new connection is a new session on the server: the faces picked before are gone there.
      if (state.picked[1] || state.picked[2]) {
        clearPicks();
        showNotice("The connection to the server was renewed: pick the faces again.");
      }
      sendRecipe();
      break;
    case "annotations":
      sawFaces(message.faces ?? []);
      break;
    case "captured":
      captured(message);
      break;
    case "merged":
      merged(message);
      break;
    case "saved":
      saved(message.item);
      break;
    case "error":
      if (["capture", "merge", "save"].includes(message.about) && state.waiting === message.about) {
        finish(message.about, message.message);
      } else {
        showNotice(`Server: ${message.message}`, "error");
      }
      break;
  }
}

elements.pickButtons.forEach((button, index) => button.addEventListener("click", () => capture(index + 1)));
elements.merge.addEventListener("click", merge);
elements.cats.addEventListener("change", sendRecipe);
elements.reviewSave.addEventListener("click", save);
elements.reviewDiscard.addEventListener("click", () => elements.review.close());
elements.review.addEventListener("cancel", (event) => { if (state.waiting === "save") event.preventDefault(); });
elements.reviewShare.addEventListener("click", async () => {
  if (!state.savedItem) return;
  try {
    await shareItem(state.savedItem);
  } catch (error) {
    setReviewStatus("error", `Could not share: ${error.message}`);
  }
});

// For tests and the curious: window.ocularStudio.stats()
window.ocularStudio = {
  ...liveTools,
  stats: () => ({
    ...liveStats(),
    faces: state.faces,
    annotationsReceived: state.annotationsReceived,
    picked: { 1: state.picked[1]?.species ?? null, 2: state.picked[2]?.species ?? null },
    merged: state.merged ? state.merged.face : null,
    reviewing: elements.review.open,
    waiting: state.waiting,
    saves: state.saves,
  }),
};

startLive({
  onMessage: handleMessage,
  onClose: () => {
    if (state.waiting) finish(state.waiting, "the connection to the server was lost");
    state.faces = [];
    showControls();
  },
  keepsBusy: () => Boolean(state.waiting),
});
