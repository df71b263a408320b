// The live view every Ocular Studio camera page shares (Light Work, Many Masks, Bean Counter, Samples,
// Filters): the camera or a built-in still as the source (camera.js), frames sent to the server when
// due (pacing.js) over a WebSocket (connection.js) at what the server's hello and link reports say
// (link.js), and what comes back shown here, its figures kept (stats.js). A page starts it with
// startLive(handlers) and handles the messages that are its own.
//
// Text messages are JSON objects with a "type". The server opens with "hello", which lists every stage
// with its declared parameters (the page builds its controls from that list, so no stage needs HTML
// of its own), the messages the page may send with their schemas, and the constants the page follows.
// The page sends {"type": "settings", "recipe": {"stages": [...]}}; the server answers "settings" (the
// recipe with every value spelled out) or "error". {"type": "save"} asks the server to save the next
// processed frame in the gallery, losslessly, with the current recipe; that frame's answer carries
// {"type": "saved", "item": {id, url, thumbnailURL, fileName, …}} or an error about "save" follows.
// {"type": "tap", x, y, viewWidth, …} asks where a tap on the preview lands in the camera's frame; the
// server maps it through its tested camera geometry and answers "tapped" with the preview rectangle
// and the point of interest (null off the picture), which goes to the camera as the W3C Image Capture
// pointsOfInterest constraint where the camera takes it.

import { isPhone, pageName } from "./shell.js";
import { attachRecorder, setRecordingLimits } from "./recorder.js";
import { attachSoundSwitch } from "./sounds.js";
import { setCameraChoice, sources, startSources } from "./camera.js";
import { connect, isConnected, send, sendText } from "./connection.js";
import { adoptHello, adoptReport, linkFigures, linkReport } from "./link.js";
import { answerArrived, frameAnswered, pacingStats, sendIfDue } from "./pacing.js";
import { frameShown, shownStats, takeDelays } from "./stats.js";

export { send };

/// The elements every live page has.
export const elements = {
  output: document.getElementById("output"),
  capture: document.getElementById("capture"),
  camera: document.getElementById("camera"),
  fps: document.getElementById("fps"),
  latency: document.getElementById("latency"),
  frameSize: document.getElementById("frame-size"),
  busy: document.getElementById("busy"),
  busyText: document.getElementById("busy-text"),
  notice: document.getElementById("notice"),
  connection: document.getElementById("connection"),
  source: document.getElementById("source"),
  switchCamera: document.getElementById("switch-camera"),
  cameraGroup: document.querySelector(".camera-group"),
  stage: document.querySelector(".stage"),
};

/// What the page using the live view does with the stream; startLive sets it.
const page = {
  /// Every text message but `dropped` and errors about a frame, which the live view answers itself.
  onMessage: () => {},
  /// The connection was lost (it is retried).
  onClose: () => {},
  /// Whether the busy overlay must stay when a frame arrives (a save waits).
  keepsBusy: () => false,
  /// Answer `number` (counted from 1) was drawn on the output canvas.
  onFrameDrawn: () => {},
  /// Whether the frame that was sent is wanted beside its answer (a before/after view).
  showsOriginal: () => false,
  /// Called, when showsOriginal(), right after an answer is drawn and before it can be seen, with the
  /// output canvas and the frame as it was sent (an ImageBitmap the page then owns and closes).
  drawOverFrame: () => {},
  /// The source changed: a camera started (live.cameraStream holds it) or a still replaced it.
  onSourceChange: () => {},
};

const shown = {
  answers: 0,      // frames answered
  shownAnswer: 0,  // the newest answer drawn
  recipe: null,    // the recipe in force, every value spelled out (the server's hello and settings)
  actions: [],     // the server's page actions live on this page, from "hello"
};

/// What pages may read of the stream, read-only.
export const live = Object.freeze({
  get connected() { return isConnected(); },
  get source() { return sources.kind; },
  get cameraStream() { return sources.stream; },
  get cameraChoice() { return sources.choice; },
  get answers() { return shown.answers; },
  get shownAnswer() { return shown.shownAnswer; },
  get recipe() { return shown.recipe; },
});

// ---- Status, notices, busy state -------------------------------------------------------------

// What the server says for the whole session (a read-only gallery), kept in front of later notices.
let serverNotice = "";

export function showNotice(text, kind = "info") {
  elements.notice.textContent = [serverNotice, text].filter(Boolean).join(" ");
  elements.notice.dataset.kind = kind;
  elements.notice.hidden = !elements.notice.textContent;
}

export function setBusy(text) {
  elements.busy.hidden = !text;
  elements.busyText.textContent = text || "";
}

/// Sets an element's property only when it changes: a text set, even to itself, lays the page out again.
export function setIfChanged(element, property, value) {
  if (element[property] !== value) element[property] = value;
}

/// The source changed: a camera started (live.cameraStream holds it) or a still replaced it.
export const sourceChanged = () => page.onSourceChange();

/// The connection is "connecting", "live" or "offline" (with the retry's pause, and why).
export function connectionChanged(name, { seconds, tooLarge, wasConnected } = {}) {
  if (name === "offline") page.onClose();
  const texts = { connecting: "Connecting…", live: "Live", offline: `Server unreachable, retrying in ${seconds} s` };
  document.body.dataset.connection = name;
  elements.connection.dataset.state = name;
  elements.connection.textContent = texts[name];
  if (name === "live") {
    if (elements.notice.dataset.kind === "error") showNotice("");
    if (elements.busy.textContent.includes("server")) setBusy("");
  } else if (name === "offline") {
    showNotice(
      tooLarge
        ? "The server closed the connection: a message was too large."
        : wasConnected
          ? "Lost the connection to the Ocular server. Is `ocular studio` still running?"
          : "Cannot reach the Ocular server. Is `ocular studio` running?",
      "error");
  }
}

// ---- Frames in -------------------------------------------------------------------------------

/// Shows the answer to frame `frameNumber` (its JPEG bytes). The next frame is sent first (pacing),
/// so that its capture and encoding overlap this one's decoding; a late decode never overwrites a
/// newer frame. One whose frame a stall gave up on is still shown, but has no delay to count.
export async function showFrame(frameNumber, data) {
  const sent = answerArrived(frameNumber);
  const original = sent && page.showsOriginal() ? sent.blob : null;
  const number = ++shown.answers;
  try {
    // Both decoded before either is drawn: the answer never shows without what the page draws over it.
    const [bitmap, before] = await Promise.all([
      createImageBitmap(new Blob([data], { type: "image/jpeg" })),
      original ? createImageBitmap(original).catch(() => null) : null,
    ]);
    if (number < shown.shownAnswer) {
      bitmap.close();
      if (before) before.close();
      return;
    }
    shown.shownAnswer = number;
    const canvas = elements.output;
    if (canvas.width !== bitmap.width || canvas.height !== bitmap.height) {
      canvas.width = bitmap.width;
      canvas.height = bitmap.height;
    }
    canvas.getContext("2d").drawImage(bitmap, 0, 0);
    if (before) page.drawOverFrame(canvas, before);
    const { level, figures } = linkFigures();
    setIfChanged(elements.frameSize, "textContent", `${bitmap.width}×${bitmap.height}${level}`);
    setIfChanged(elements.frameSize, "title", figures);
    bitmap.close();
    const report = linkReport();
    const drawn = frameShown({ now: performance.now(), sent, roundTrip: sent ? sent.roundTrip : null,
                               processingMs: report ? report.processingMs : null, width: canvas.width });
    canvas.dataset.frames = String(drawn);
    if (!elements.busy.hidden && !page.keepsBusy()) setBusy("");
    page.onFrameDrawn(number);
  } catch (error) {
    showNotice("The server sent a frame this browser could not decode.", "error");
  }
}

/// Messages about frames are the live view's; the rest are the page's.
export function handleMessage(message) {
  if (message.type === "dropped") {
    frameAnswered(message.frame);
    return;
  }
  if (message.type === "link") {
    adoptReport(message);
    return;
  }
  if (message.type === "hello" || message.type === "settings") shown.recipe = message.recipe;
  if (message.type === "hello") {
    adoptHello(message);
    setCameraChoice(sources.choice);  // its title names the server's cycle
    setRecordingLimits(message.recording);
    shown.actions = (message.actions || []).map((action) => action.name);
    // A read-only gallery: saving is off (the Save buttons go), and the page says why.
    serverNotice = message.notice || "";
    document.body.dataset.saving = message.notice ? "off" : "on";
    if (message.notice) showNotice("");
  }
  if (message.type === "error" && message.about === "frame") {
    showNotice(`Server: ${message.message}`, "error");
    frameAnswered(message.frame);
    return;
  }
  page.onMessage(message);
  if (message.type === "hello") sendIfDue();  // frames waited for it: the first goes now
}

/// The stream's figures, for tests and the curious (window.ocularStudio.stats()).
export function liveStats() {
  return {
    connected: isConnected(),
    source: sources.kind,
    ...shownStats(),
    cameraFrames: sources.frames,
    ...pacingStats(),
    camera: sources.choice,
    cameras: sources.found,
    page: pageName,
    actions: shown.actions,
    link: linkReport(),
  };
}

/// For tests and benchmarks: send a text message as it is; take the delays logged since the last call.
export const liveTools = {
  /// Sends a text message as it is, to try the server's checks by hand.
  sendText,
  /// {delay, roundTrip, ahead, processingMs, width} of every frame shown since the last call: camera
  /// frame to screen and frame sent to answer received (ms), whether it was sent while another was in
  /// flight, the server's processing time as last reported, and the width of the frame shown.
  takeDelays,
};

/// Starts the live view for a page: connects at once (a camera permission prompt may wait for the
/// person; frames flow once a source exists) and starts the camera, or the still where there is none.
export function startLive(handlers) {
  Object.assign(page, handlers);
  // The frames are opaque JPEGs: an opaque canvas is composited without blending (a few per cent of
  // Chromium's CPU a frame shown). Its first context fixes that, so it is made here, before any other.
  elements.output.getContext("2d", { alpha: false });
  elements.capture.getContext("2d", { alpha: false });
  attachRecorder();
  attachSoundSwitch(document.getElementById("sounds"));
  connect();
  startSources(isPhone());
}
