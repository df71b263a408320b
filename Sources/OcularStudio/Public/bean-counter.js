// Ocular Studio's Bean Counter page: the live view (live.js) with the blobs stage's boxes, or its
// mask. Once the classifier is ready the recipe names the studio's training list ("default"): every
// object is named on the picture, and the tally the stage steadies over a few frames ("3 pinto beans,
// 1 loonie: $1.00") is shown beside it. Classify names the biggest blob in view and opens
// it for review, where it is discarded or saved in the gallery captioned with its label, then shared.
//
// The classifier is the studio's (GET /api/bean-counter: {"state": "training", done, total} until it is
// "ready" with its labels, or "failed" with a message). Messages of its own (StreamMessage in the
// server): {"type": "classify"} classifies the biggest blob of the frame just answered, answered
// {"type": "classified", blob: {bounds, label, description, distance}, image}; {"type": "saveBlob"}
// saves that blob, answered "saved" with the gallery item. Each answers an error about its own type
// ("classify", "saveBlob") when there is nothing to classify or save. The blobs stay on the server, pixels included, so
// Classify names exactly the blob that was boxed.

import { answers, requests } from "./api/protocol.js";
import { createBooth } from "./booth.js";
import { send } from "./connection.js";
import { startLive } from "./live.js";
import { live, liveStats, liveTools } from "./stream.js";
import { elements as liveElements, setIfChanged, showNotice } from "./view.js";

const STATUS_POLL_MS = 300;

const elements = {
  ...liveElements,
  classifier: document.getElementById("classifier"),
  classifierText: document.getElementById("classifier-text"),
  seen: document.getElementById("seen"),
  tally: document.getElementById("tally"),
  tallyText: document.getElementById("tally-text"),
  tallyLines: document.getElementById("tally-lines"),
  imageMode: document.getElementById("image-mode"),
  maskMode: document.getElementById("mask-mode"),
  classify: document.getElementById("classify"),
};

const state = {
  classifier: "training",   // "training", "ready" or "failed"
  labels: [],
  blobs: [],                // the blobs of the frame just shown
  tally: null,              // the steadied tally of the frame just shown, once objects are named
  tallyLines: "",           // the tally's lines as last drawn (JSON): the same are not drawn again
  annotationsReceived: 0,
  mask: false,              // showing the mask instead of the picture
  recipe: null,             // the recipe as the server last confirmed it
  classified: null,         // the blob under review: {blob, image}
};

const booth = createBooth({
  saveType: "saveBlob",
  saving: "Saving…",
  failures: { classify: "Not classified" },
  showControls,
});

// ---- The classifier ------------------------------------------------------------------------------

/// Asks the server how far the classifier is until it is ready (or has failed).
async function watchClassifier() {
  let status;
  try {
    const response = await fetch("api/bean-counter", { cache: "no-store" });
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
    elements.classifierText.textContent = `Classifier ready: ${status.references} pictures of ${status.labels.length - 1} kinds`;
    elements.classifier.title = status.labels.slice(1).join(", ");
    if (status.problems && status.problems.length) showNotice(`Not trained: ${status.problems.join("; ")}`, "error");
    if (live.connected) sendRecipe();
  } else {
    elements.classifierText.textContent = `No classifier: ${status.message}`;
  }
  showControls();
}

// ---- The blobs in view ---------------------------------------------------------------------------

/// The recipe of this page: the blobs stage, boxes or mask as the toggle says, naming every object
/// with the studio's training list once the classifier is ready.
function sendRecipe() {
  const stage = { stage: "blobs", mask: state.mask };
  if (state.classifier === "ready") stage.training = "default";
  send(requests.settings({ recipe: { stages: [stage] } }));
}

function setMask(mask) {
  state.mask = mask;
  elements.imageMode.setAttribute("aria-pressed", String(!mask));
  elements.maskMode.setAttribute("aria-pressed", String(mask));
  sendRecipe();
}

/// Classify works while a blob is in view, the classifier is ready, and nothing else waits.
function showControls() {
  const disabled = !(live.connected && state.blobs.length > 0 && state.classifier === "ready") || Boolean(booth.waiting);
  setIfChanged(elements.classify, "disabled", disabled);
  const title = state.classifier !== "ready" ? "The classifier is not ready yet"
    : state.blobs.length === 0 ? "Put an object in view first" : "Name the biggest object in view, then review";
  setIfChanged(elements.classify, "title", title);
}

function sawBlobs(blobs) {
  state.annotationsReceived += 1;
  state.blobs = blobs;
  // Set only when they change (as the tally below).
  setIfChanged(elements.seen.dataset, "found", String(blobs.length > 0));
  const biggest = blobs[0];  // the server lists the biggest first
  const seen = biggest
    ? `${blobs.length} object${blobs.length > 1 ? "s" : ""} in view; the biggest ${biggest.bounds[2]}×${biggest.bounds[3]}`
    : "Nothing in view: lay an object on a plain background, or pick a still.";
  setIfChanged(elements.seen, "textContent", seen);
  showControls();
}

/// The steadied tally: its sentence, and one line per label with its colour's count.
function showTally(tally) {
  state.tally = tally;
  elements.tally.hidden = !tally;
  if (!tally) return;
  // Set only when they change: the tally is steadied, and rebuilding the same lines at every answer
  // laid the page out again each time.
  const text = tally.count ? tally.text : "Nothing counted yet";
  setIfChanged(elements.tallyText, "textContent", text);
  const lines = JSON.stringify(tally.lines);
  if (lines === state.tallyLines) return;
  state.tallyLines = lines;
  elements.tallyLines.replaceChildren(...tally.lines.map((line) => {
    const item = document.createElement("li");
    item.dataset.label = String(line.label);
    item.textContent = `${line.count} × ${line.description.split(",")[0]}`;
    if (line.value != null) item.title = `${line.currency} ${line.value.toFixed(2)} each`;
    return item;
  }));
}

// ---- Classify and review ---------------------------------------------------------------------------

const capitalised = (text) => text[0].toUpperCase() + text.slice(1);

function classified(message) {
  booth.finish("classify", null);
  state.classified = message;
  const { blob, image } = message;
  const distance = blob.distance === null ? "no training pictures" : `distance ${blob.distance.toFixed(3)}`;
  const size = `${blob.bounds[2]}×${blob.bounds[3]}`;
  booth.open({
    image,
    alt: blob.description,
    title: blob.label === 0 ? "Unidentified" : capitalised(blob.description),
    meta: blob.label === 0
      ? `Nothing in the training set is near enough (${distance}). ${size}.`
      : `Label ${blob.label}, ${distance} from its nearest training picture. ${size}.`,
  });
}

// ---- Messages from the server ----------------------------------------------------------------------

function handleMessage(message) {
  if (booth.handled(message)) return;
  switch (message.type) {
    case answers.hello:
      sendRecipe();
      break;
    case answers.settings:
      state.recipe = message.recipe;
      break;
    case answers.annotations:
      sawBlobs(message.blobs ?? []);
      showTally((message.counts ?? [])[0] ?? null);
      break;
    case answers.classified:
      classified(message);
      break;
  }
}

elements.classify.addEventListener("click", () => booth.request("classify", requests.classify(), "Classifying…"));
elements.imageMode.addEventListener("click", () => setMask(false));
elements.maskMode.addEventListener("click", () => setMask(true));

// For tests and the curious: window.ocularStudio.stats()
window.ocularStudio = {
  ...liveTools,
  stats: () => ({
    ...liveStats(),
    classifier: state.classifier,
    blobs: state.blobs,
    tally: state.tally,
    annotationsReceived: state.annotationsReceived,
    mask: state.mask,
    recipe: state.recipe,
    classified: state.classified ? state.classified.blob : null,
    reviewing: booth.reviewing,
    waiting: booth.waiting,
    saves: booth.saves,
  }),
};

startLive({
  onMessage: handleMessage,
  onClose: () => {
    booth.liveHandlers.onClose();
    state.blobs = [];
    showControls();
  },
  keepsBusy: booth.liveHandlers.keepsBusy,
});
watchClassifier();
