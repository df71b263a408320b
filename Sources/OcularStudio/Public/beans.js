// Ocular Studio's Bean Counter page: the live view (live.js) with the blobs stage's green boxes, or its
// mask; Classify names the biggest blob in view (SPEC §5) and opens it for review, where it is
// discarded or saved in the gallery captioned with its label, then shared.
//
// The classifier is the studio's (GET /api/beans: {"state": "training", done, total} until it is
// "ready" with its labels, or "failed" with a message). Messages of its own (StreamMessage in the
// server): {"type": "classify"} classifies the biggest blob of the frame just answered, answered
// {"type": "classified", blob: {bounds, label, description, distance}, image}; {"type": "saveBlob"}
// saves that blob, answered "saved" with the gallery item. Each answers an error about "classify" or
// "save" when there is nothing to classify or save. The blobs stay on the server, pixels included, so
// Classify names exactly the blob that was boxed.

import { shareItem, showSaveOutcome } from "./share.js";
import { elements as liveElements, live, liveStats, liveTools, send, setBusy, showNotice, startLive } from "./live.js";

const ANSWER_TIMEOUT_MS = 15000;  // a classify or save with no answer by then is reported as failed
const STATUS_POLL_MS = 300;

const elements = {
  ...liveElements,
  classifier: document.getElementById("classifier"),
  classifierText: document.getElementById("classifier-text"),
  seen: document.getElementById("seen"),
  imageMode: document.getElementById("image-mode"),
  maskMode: document.getElementById("mask-mode"),
  classify: document.getElementById("classify"),
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
  classifier: "training",   // "training", "ready" or "failed"
  labels: [],
  blobs: [],                // the blobs of the frame just shown
  annotationsReceived: 0,
  mask: false,              // showing the mask instead of the picture
  recipe: null,             // the recipe as the server last confirmed it
  waiting: null,            // "classify" or "save": what waits for the server's answer
  waitTimer: 0,
  classified: null,         // the blob under review: {blob, image}
  savedItem: null,
  saves: [],                // every save's outcome, for tests: {id, caption} or {error}
};

// ---- The classifier ------------------------------------------------------------------------------

/// Asks the server how far the classifier is until it is ready (or has failed).
async function watchClassifier() {
  let status;
  try {
    const response = await fetch("api/beans", { cache: "no-store" });
    status = await response.json();
  } catch (error) {
    status = { state: "training" };  // the server may be restarting: ask again
  }
  state.classifier = status.state;
  elements.classifier.dataset.state = status.state;
  if (status.state === "training") {
    elements.classifierText.textContent = status.total
      ? `Training classifier… ${status.done} of ${status.total} pictures` : "Training classifier…";
    setTimeout(watchClassifier, STATUS_POLL_MS);
  } else if (status.state === "ready") {
    state.labels = status.labels;
    const known = status.labels.length - 1;
    elements.classifierText.textContent = `Classifier ready: ${status.references} pictures of ${known} kinds`;
    elements.classifier.title = status.labels.slice(1).join(", ");
    if (status.problems && status.problems.length) showNotice(`Not trained: ${status.problems.join("; ")}`, "error");
  } else {
    elements.classifierText.textContent = `No classifier: ${status.message}`;
  }
  showControls();
}

// ---- The blobs in view ---------------------------------------------------------------------------

/// The recipe of this page: the blobs stage, boxes or mask as the toggle says.
function sendRecipe() {
  send({ type: "settings", recipe: { stages: [{ stage: "blobs", mask: state.mask }] } });
}

function setMask(mask) {
  state.mask = mask;
  elements.imageMode.setAttribute("aria-pressed", String(!mask));
  elements.maskMode.setAttribute("aria-pressed", String(mask));
  sendRecipe();
}

/// Classify works while a blob is in view, the classifier is ready, and nothing else waits.
function showControls() {
  elements.classify.disabled = !(live.connected && state.blobs.length > 0 && state.classifier === "ready") || Boolean(state.waiting);
  elements.classify.title = state.classifier !== "ready" ? "The classifier is not ready yet"
    : state.blobs.length === 0 ? "Put an object in view first" : "Name the biggest object in view, then review";
}

function sawBlobs(blobs) {
  state.annotationsReceived += 1;
  state.blobs = blobs;
  elements.seen.dataset.found = String(blobs.length > 0);
  const biggest = blobs[0];
  elements.seen.textContent = biggest
    ? `${blobs.length} object${blobs.length > 1 ? "s" : ""} in view; the biggest ${biggest.bounds[2]}×${biggest.bounds[3]}`
    : "Nothing in view: lay an object on a plain background, or pick a still.";
  showControls();
}

// ---- Waiting for an answer -------------------------------------------------------------------------

function wait(what, busyText) {
  state.waiting = what;
  setBusy(busyText);
  clearTimeout(state.waitTimer);
  state.waitTimer = setTimeout(() => finish(what, `no answer from the server in ${ANSWER_TIMEOUT_MS / 1000} s`), ANSWER_TIMEOUT_MS);
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
    showNotice(`Not classified: ${reason}`, "error");
  }
}

// ---- Classify and review ---------------------------------------------------------------------------

function classify() {
  if (state.waiting) return;
  showNotice("");
  wait("classify", "Classifying…");
  send({ type: "classify" });
}

function classified(message) {
  finish("classify", null);
  state.classified = message;
  const { blob, image } = message;
  elements.reviewImage.src = image;
  elements.reviewImage.alt = blob.description;
  elements.reviewTitle.textContent = blob.label === 0 ? "Unidentified" : capitalised(blob.description);
  const distance = blob.distance === null ? "no training pictures" : `distance ${blob.distance.toFixed(3)}`;
  elements.reviewMeta.textContent = blob.label === 0
    ? `Nothing in the training set is near enough (${distance}). ${blob.bounds[2]}×${blob.bounds[3]}.`
    : `Label ${blob.label}, ${distance} from its nearest training picture. ${blob.bounds[2]}×${blob.bounds[3]}.`;
  setReviewStatus("", "");
  elements.reviewShare.hidden = true;
  setReviewSaving(false);
  elements.reviewSave.disabled = false;
  if (!elements.review.open) elements.review.showModal();
}

const capitalised = (text) => text[0].toUpperCase() + text.slice(1);

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
  if (state.waiting || !state.classified) return;
  if (!live.connected) {
    setReviewStatus("error", "Not saved: the server is not connected.");
    return;
  }
  setReviewSaving(true);
  setReviewStatus("busy", "");
  wait("save", "Saving…");
  send({ type: "saveBlob" });
}

function saved(item) {
  finish("save", null);
  state.savedItem = item;
  state.saves.push({ id: item.id, caption: item.caption });
  setReviewSaving(false);
  elements.reviewSave.disabled = true;  // saved once; classify again for another
  setReviewStatus("saved", "Saved", { href: `gallery.html#item-${item.id}`, text: "in the gallery" });
  elements.reviewShare.hidden = false;
}

// ---- Messages from the server ----------------------------------------------------------------------

function handleMessage(message) {
  switch (message.type) {
    case "hello":
      sendRecipe();
      break;
    case "settings":
      state.recipe = message.recipe;
      break;
    case "annotations":
      sawBlobs(message.blobs ?? []);
      break;
    case "classified":
      classified(message);
      break;
    case "saved":
      saved(message.item);
      break;
    case "error":
      if (["classify", "save"].includes(message.about) && state.waiting === message.about) {
        finish(message.about, message.message);
      } else {
        showNotice(`Server: ${message.message}`, "error");
      }
      break;
  }
}

elements.classify.addEventListener("click", classify);
elements.imageMode.addEventListener("click", () => setMask(false));
elements.maskMode.addEventListener("click", () => setMask(true));
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
    classifier: state.classifier,
    blobs: state.blobs,
    annotationsReceived: state.annotationsReceived,
    mask: state.mask,
    recipe: state.recipe,
    classified: state.classified ? state.classified.blob : null,
    reviewing: elements.review.open,
    waiting: state.waiting,
    saves: state.saves,
  }),
};

startLive({
  onMessage: handleMessage,
  onClose: () => {
    if (state.waiting) finish(state.waiting, "the connection to the server was lost");
    state.blobs = [];
    showControls();
  },
  keepsBusy: () => Boolean(state.waiting),
});
watchClassifier();
