// The live view every Ocular Studio camera page shares (Light Work, Many Masks, Bean Counter): the
// camera or a built-in still as the source, frames sent to the server over a WebSocket, and what
// comes back shown. A page starts it with startLive(page) and handles the messages that are its own.
// The stream is opened under the page's name (?page=manyMasks): the server's page actions for that
// page see its frames and take its messages; the hello lists them ("actions").
//
// Protocol (/api/stream): binary messages carry frames, JPEG both ways, numbered from 1 in the order the
// page sends them; the server answers every frame with exactly one message naming its number: the
// processed frame, or JSON {type: "error", about: "frame", frame} / {type: "dropped", frame}. A processed
// frame is one binary message: a 4-byte big-endian length, a JSON header {frame, messages: [...]} of that
// length, then the JPEG; the header's messages go with that frame (its annotations, a save's "saved").
// Text messages are JSON objects with a "type". The server opens with "hello", which lists every stage
// with its declared parameters; the page builds its controls from that list, so no stage needs HTML of
// its own. The page sends {"type": "settings", "recipe": {"stages": [...]}}; the server answers
// "settings" (the recipe with every value spelled out) or "error". {"type": "save"} asks the server to
// save the next processed frame in the gallery, losslessly, with the current recipe; after that
// frame's answer comes {"type": "saved", "item": {id, url, thumbnailURL, fileName, …}} or an error
// about "save". {"type": "tap", x, y, viewWidth, …} asks where a tap on the preview lands in the
// camera's frame; the server maps it through its tested camera geometry and answers "tapped" with the
// preview rectangle and the point of interest (null off the picture), which goes to the camera as the
// W3C Image Capture pointsOfInterest constraint where the camera takes it.
//
// Pacing: one frame is in flight at a time (two where processing sets the rate, below). A camera frame that arrives while one is in flight waits,
// and is sent the moment the answer comes in; only sends faster than the studio's cap (the hello's link.framesPerSecond) are held back.
// So no queue anywhere holds frames: what is shown is at most one processing time and one round trip old.
// When the recipe is slower than the camera, the newest frame is up to a camera interval old when the
// answer comes: the page waits for the camera's next one when it will be ready (due, then encoded) within a
// quarter of a round trip (FRESH_FRAME_WAIT_SHARE), and sends the one it has otherwise, so neither the
// delay nor the rate suffers much.
// When the round trip is longer than a camera interval and the server's processing takes longer than
// the transfers, one frame in flight leaves the server idle for both transfers of every frame: the Bean
// Counter (35 ms of processing, a 42 ms round trip on this machine's loopback) showed 1000 / 42
// frames/s where its recipe allows 1000 / 35. So then a second frame goes while the first is processed
// (AHEAD_LIMIT): the newest the camera has, once its next will not be ready before the server is free
// (serverFreeAt). It waits on the server about a camera interval at most, and the rate becomes the
// recipe's (or the camera's). It is preceded by {"type":"upload"}, so that the server can still time
// its upload; the server's newest-frame-wins slot never drops it, as no third goes. Where the transfers
// take longer than the processing, a frame sent ahead would only queue in the link, and none is.
//
// The link: the page acknowledges every answer as it arrives, {"type":"received","next":true|false}, just
// before its next frame ("next": that frame follows at once). From these the server measures the answers'
// round trip and the frames' upload, and sends {"type":"link", level, upload:{longSide, quality},
// answerQuality, processingMs, …} when the level changes and once a second. The page sends frames at that
// size and quality; the server encodes its answers at that quality (LinkMeter.swift).

import { isPhone, pageName } from "./shell.js";
import { attachRecorder, setRecordingLimits } from "./recorder.js";
import { attachSoundSwitch } from "./sounds.js";

const STALL_TIMEOUT_MS = 5000;
// A camera's frame intervals jitter around its rate: only hold back what comes much faster than the cap.
const CAMERA_JITTER = 0.75;
// A slow recipe's answer waits for the camera's next frame only when it will be ready within this share
// of a round trip: waiting longer costs more in frames than it saves in delay (a recipe just over the
// camera's interval, waiting every time, lost a third of its rate).
const FRESH_FRAME_WAIT_SHARE = 0.25;
// At most this many frames in flight: the one processed and, where processing sets the rate, the next.
const AHEAD_LIMIT = 2;

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

/// The stream's state; pages read it (exported as `live`), only this module changes it.
const state = {
  socket: null,
  connected: false,
  retryDelay: 500,
  inFlight: [],               // {number, sentAt, capturedAt, blob, ahead} of each frame sent and not yet answered, oldest first
  frameNumber: 0,             // the number of the last frame sent on this stream (the server counts them alike)
  lastSend: 0,
  stallTimer: 0,
  capTimer: 0,
  encoding: false,            // a frame is being captured and encoded
  prepareAgain: false,        // a newer camera frame arrived during that encoding
  prepared: null,             // {blob, capturedAt}: the next frame to send
  stillBlob: null,            // {image, blob}: the still's encoding
  cameraFrames: 0,            // requestVideoFrameCallback calls
  cameraFrameAt: 0,           // when the newest camera frame arrived
  cameraInterval: null,       // the camera's frame interval, smoothed (null before two frames)
  encodeMs: 0,                // what capturing and encoding a frame takes, smoothed
  answers: 0,                 // frames answered
  shownAnswer: 0,             // the newest answer drawn
  framesSent: 0,
  framesSentAhead: 0,         // of those, sent while another was in flight
  source: "still",          // "camera" or "still"
  still: null,              // HTMLImageElement of the chosen still
  cameraStream: null,
  framesReceived: 0,
  arrivals: [],             // times of recent answers, for frames per second
  latencies: [],            // recent camera-to-screen delays in ms
  delayLog: [],             // every frame's delays since the last takeDelays(), for benchmarks
  cameraChoice: "static",   // what Switch camera shows: "static", "front" or "back"
  stillName: "astronaut",   // the still shown for "static"
  cameras: { front: null, back: null },  // device ids found by enumerateDevices ("" before permission)
  actions: [],              // the server's page actions live on this page, from "hello"
  link: null,               // the server's latest "link" report: the size and quality to send at
  answeredAt: 0,            // when the last answer arrived
  roundTrip: 0,             // the last answer's round trip, sent to answered
  recipe: null,             // the recipe in force, every value spelled out (the server's hello and settings)
};
export const live = state;

/// What the server's hello sets for pacing and the camera, and the page keeps no copy of; null until
/// the stream's hello. `frameIntervalMs`: the least time between frames sent (the studio's rate cap);
/// `captureQuality`: frames' JPEG quality until the link is measured (its top rung); `cameraCycle`:
/// what Switch camera goes through, in order.
let server = null;

function adoptServer(hello) {
  server = {
    frameIntervalMs: 1000 / hello.link.framesPerSecond,
    captureQuality: hello.link.levels[0].uploadQuality,
    cameraCycle: hello.cameras,
  };
  setCameraChoice(state.cameraChoice);
}

/// The camera's frame interval as measured, else the studio's cap.
const cameraInterval = () => state.cameraInterval ?? server.frameIntervalMs;

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

// ---- Status, notices, busy state -------------------------------------------------------------

// What the server says for the whole session (a read-only gallery), kept in front of later notices.
let serverNotice = "";

export function showNotice(text, kind = "info") {
  elements.notice.textContent = [serverNotice, text].filter(Boolean).join(" ");
  elements.notice.dataset.kind = kind;
  elements.notice.hidden = !elements.notice.textContent;
}

function setConnection(name, text) {
  document.body.dataset.connection = name;
  elements.connection.dataset.state = name;
  elements.connection.textContent = text;
}

export function setBusy(text) {
  elements.busy.hidden = !text;
  elements.busyText.textContent = text || "";
}

function updateStats() {
  const now = performance.now();
  state.arrivals = state.arrivals.filter((time) => now - time <= 1000);
  elements.fps.textContent = state.framesReceived ? String(state.arrivals.length) : "–";
  const sorted = [...state.latencies].sort((a, b) => a - b);
  elements.latency.textContent = sorted.length ? String(Math.round(sorted[Math.floor(sorted.length / 2)])) : "–";
}
setInterval(updateStats, 250);

// ---- Sources: the camera, or a built-in still ------------------------------------------------

function cameraProblem(error) {
  if (!window.isSecureContext) {
    // Browsers give the camera only to secure contexts: a phone on plain http gets none, silently.
    return `No camera over plain http: browsers give the camera only to https pages or to localhost, and this page came from ${location.host}. `
      + "Showing a built-in still. To use this device's camera, start the studio with --self-signed "
      + "(ocular studio --host 0.0.0.0 --self-signed) and open the https address it prints, or scan its QR code.";
  }
  switch (error && error.name) {
    case "NotAllowedError": return "Camera permission was refused: showing a built-in still image.";
    case "NotFoundError":
    case "OverconstrainedError": return "No camera found: showing a built-in still image.";
    case "NotReadableError": return "The camera is in use by another program: showing a built-in still image.";
    default: return `The camera could not start (${error ? error.message || error.name : "no camera API"}): showing a built-in still image.`;
  }
}

/// Starts the front or back camera: the device found for it, else the browser's guess by facing mode.
async function startCamera(choice) {
  if (!window.isSecureContext || !navigator.mediaDevices || !navigator.mediaDevices.getUserMedia) {
    throw new DOMException("no camera API in this context", "NotSupportedError");
  }
  const deviceId = state.cameras[choice];
  const which = deviceId ? { deviceId: { exact: deviceId } } : { facingMode: choice === "back" ? "environment" : "user" };
  // 720p where the camera has it: the link's level decides what size is sent.
  const stream = await navigator.mediaDevices.getUserMedia({
    video: { width: { ideal: 1280 }, height: { ideal: 720 }, ...which },
    audio: false,
  });
  elements.camera.srcObject = stream;
  await elements.camera.play();
  state.cameraStream = stream;
  state.source = "camera";
  setCameraChoice(choice);
  watchCameraFrames(elements.camera);
  await findCameras(stream);
}

/// Which cameras exist: labelled front or back where the system says so (phones do), else the
/// first camera counts as the front one (a laptop's faces the user) and a second as the back one.
async function findCameras(stream) {
  let devices = [];
  try {
    devices = (await navigator.mediaDevices.enumerateDevices()).filter((device) => device.kind === "videoinput");
  } catch { /* no list: only the running camera is known */ }
  const cameras = { front: null, back: null };
  const unlabelled = [];
  for (const device of devices) {
    if (/back|rear|environment/i.test(device.label)) cameras.back ??= device.deviceId;
    else if (/front|user|face/i.test(device.label)) cameras.front ??= device.deviceId;
    else unlabelled.push(device.deviceId);
  }
  for (const id of unlabelled) {
    if (cameras.front === null) cameras.front = id;
    else if (cameras.back === null) cameras.back = id;
  }
  // The running camera is the one it was started as, whatever the list says.
  const running = stream && stream.getVideoTracks()[0];
  const settings = running && running.getSettings ? running.getSettings() : {};
  if (settings.deviceId && state.cameraChoice !== "static" && !Object.values(cameras).includes(settings.deviceId)) {
    cameras[state.cameraChoice] = settings.deviceId;
  }
  if (running && cameras[state.cameraChoice] === null) cameras[state.cameraChoice] = settings.deviceId || "";
  state.cameras = cameras;
}

/// The server's cycle (static → front → back → static, CameraSwitcher in Swift), skipping what is absent.
function nextCamera(current, available) {
  const cycle = server ? server.cameraCycle : [current];
  const start = Math.max(0, cycle.indexOf(current));
  for (let step = 1; step <= cycle.length; step += 1) {
    const candidate = cycle[(start + step) % cycle.length];
    if (candidate === "static" || available.has(candidate)) return candidate;
  }
  return current;
}

function setCameraChoice(choice) {
  state.cameraChoice = choice;
  document.body.dataset.camera = choice;
  const names = { static: "static picture", front: "front camera", back: "back camera" };
  const cycle = server ? [...server.cameraCycle, server.cameraCycle[0]].join(" → ") : "";
  elements.switchCamera.title = `Showing the ${names[choice] ?? choice}.` + (cycle ? ` Switch: ${cycle}, skipping what is absent` : "");
}

async function switchCamera() {
  const available = new Set(Object.entries(state.cameras).filter(([, id]) => id !== null).map(([name]) => name));
  const next = nextCamera(state.cameraChoice, available);
  if (next === "static") await chooseSource(state.stillName);
  else await chooseSource("camera", next);
}

function stopCamera() {
  if (state.cameraStream) state.cameraStream.getTracks().forEach((track) => track.stop());
  state.cameraStream = null;
  state.prepared = null;
  elements.camera.srcObject = null;
}

/// The page's own first still (Light Work's astronaut, Bean Counter's coins and beans).
function firstStill() {
  return elements.source.querySelector('option:not([value="camera"])')?.value ?? "astronaut";
}

async function loadStill(name) {
  const image = new Image();
  image.src = `demo/${name}.jpg`;
  await image.decode();
  return image;
}

async function chooseSource(value, camera = "front") {
  setBusy(value === "camera" ? "Starting the camera…" : "Loading the still image…");
  if (value === "camera") {
    stopCamera();
    try {
      await startCamera(camera);
      showNotice("");
      elements.source.value = "camera";
      setBusy(state.connected ? "" : "Connecting to the server…");
      page.onSourceChange();
      return;
    } catch (error) {
      stopCamera();
      showNotice(cameraProblem(error));
      elements.source.querySelector('option[value="camera"]').disabled = true;
      value = firstStill();
    }
  } else {
    stopCamera();
  }
  try {
    state.still = await loadStill(value);
    state.source = "still";
    state.stillName = value;
    setCameraChoice("static");
    elements.source.value = value;
  } catch (error) {
    showNotice(`The still image '${value}' could not be loaded from the server.`, "error");
  }
  setBusy(state.connected ? "" : "Connecting to the server…");
  page.onSourceChange();
  sendIfDue();  // a still does not wait for camera frames
}

// ---- Frames out ------------------------------------------------------------------------------

/// The size and quality frames go at: the server's word on the link (LinkLevel), else the full size.
/// A still goes as it is: it has no camera rate to keep, and its findings stay the same from one visit
/// to the next.
function uploadSettings() {
  const upload = state.source === "camera" && state.link && state.link.upload;
  return { longSide: (upload && upload.longSide) || null, quality: (upload && upload.quality) || server.captureQuality };
}

/// Draws the current source into the capture canvas, scaled down to the link's size, and encodes it
/// as a JPEG blob at the link's quality.
function grabFrame() {
  const source = state.source === "camera" ? elements.camera : state.still;
  if (!source) return Promise.resolve(null);
  const fullWidth = state.source === "camera" ? source.videoWidth : source.naturalWidth;
  const fullHeight = state.source === "camera" ? source.videoHeight : source.naturalHeight;
  if (!fullWidth || !fullHeight) return Promise.resolve(null);  // the camera has not delivered a frame yet
  const { longSide, quality } = uploadSettings();
  const scale = longSide ? Math.min(1, longSide / Math.max(fullWidth, fullHeight)) : 1;
  // Even sizes: JPEG's 4:2:0 chroma halves them.
  const width = Math.max(2, Math.round((fullWidth * scale) / 2) * 2);
  const height = Math.max(2, Math.round((fullHeight * scale) / 2) * 2);
  const canvas = elements.capture;
  if (canvas.width !== width || canvas.height !== height) {
    canvas.width = width;
    canvas.height = height;
  }
  canvas.getContext("2d").drawImage(source, 0, 0, width, height);
  return new Promise((resolve) => canvas.toBlob(resolve, "image/jpeg", quality));
}

/// Captures and encodes the newest frame into `state.prepared`, ready to send, while the previous
/// frame may still be in flight: the encoding (~15 ms in a software browser) then costs no round-trip
/// time. A camera frame that arrives during an encoding is encoded after it, replacing it.
async function prepareFrame() {
  if (state.encoding) {
    state.prepareAgain = true;
    return;
  }
  const camera = state.source === "camera";
  const capturedAt = camera && state.cameraFrameAt ? state.cameraFrameAt : performance.now();
  if (!camera && state.still && state.stillBlob && state.stillBlob.image === state.still) {
    // A still does not change: its encoding is made once.
    state.prepared = { blob: state.stillBlob.blob, capturedAt };
    sendIfDue();
    return;
  }
  state.encoding = true;
  const began = performance.now();
  const blob = state.connected && server ? await grabFrame() : null;
  if (blob) state.encodeMs += 0.2 * (performance.now() - began - state.encodeMs);
  if (blob && !camera && state.still) state.stillBlob = { image: state.still, blob };
  state.encoding = false;
  if (blob) state.prepared = { blob, capturedAt };
  if (state.prepareAgain) {
    state.prepareAgain = false;
    prepareFrame();
    return;
  }
  if (blob) sendIfDue();
  else if (state.connected) setTimeout(sendIfDue, 100);  // no picture yet: try again shortly
}

/// Whether the server spends longer on a frame than the camera takes to make one.
function recipeIsSlow() {
  return Boolean(state.link && state.link.processingMs > server.frameIntervalMs);
}

/// Whether the server's processing takes at least as long as a frame's transfers, as the server
/// measured both: then a frame sent ahead keeps it busy (where the transfers take longer, such a frame
/// would only queue in the link). Where the round trip is shorter than the camera's interval the
/// answer comes first and nothing goes ahead.
function processingSetsTheRate() {
  const link = state.link;
  return Boolean(link && link.processingMs && link.answerRoundTripMs !== null)
    && link.processingMs >= link.answerRoundTripMs + (link.uploadMs ?? 0);
}

/// When the server will have processed the frames in flight, as far as the page can tell: each starts
/// once it has arrived (its upload after it went) and the one before it has finished (the last answer
/// came its download after that), and takes a processing time. (Timing a frame sent ahead from when it
/// went, as if it waited for nothing, sent each a little earlier than the last, until every frame
/// waited a whole processing time on the server.)
function serverFreeAt() {
  const { processingMs, answerRoundTripMs, uploadMs } = state.link;
  let free = state.answeredAt - (answerRoundTripMs ?? 0);
  for (const frame of state.inFlight) free = Math.max(free, frame.sentAt + (uploadMs ?? 0)) + processingMs;
  return free;
}

/// How long until the camera's next frame is ready to send: due by its interval so far, then encoded.
function nextCameraFrameIn() {
  return Math.max(0, state.cameraFrameAt + cameraInterval() - performance.now()) + state.encodeMs;
}

/// When the prepared frame may go: 0 now, a number of ms later (the rate cap), or null: nothing to send yet (nothing prepared, a frame in flight that is not
/// followed ahead, or only a frame older than the last answer while the recipe is slow).
function frameDueIn() {
  if (!state.connected || !server || !state.prepared || state.inFlight.length >= AHEAD_LIMIT) return null;
  const camera = state.source === "camera" && elements.camera.requestVideoFrameCallback;
  if (state.inFlight.length > 0) {
    // Ahead, unless the camera's next frame will be ready before the server is free for this one:
    // that one is fresher, and calls again.
    if (!camera || !processingSetsTheRate()) return null;
    if (nextCameraFrameIn() < serverFreeAt() - performance.now()) return null;
    return Math.max(0, state.lastSend + server.frameIntervalMs * CAMERA_JITTER - performance.now());
  }
  // A slow recipe: a frame that waited through the processing would be shown that much later; the
  // camera's next one comes within an interval, and is awaited when it comes soon.
  if (camera && recipeIsSlow() && state.prepared.capturedAt < state.answeredAt
      && nextCameraFrameIn() <= FRESH_FRAME_WAIT_SHARE * state.roundTrip) return null;
  const minimumInterval = server.frameIntervalMs * (camera ? CAMERA_JITTER : 1);
  return Math.max(0, state.lastSend + minimumInterval - performance.now());
}

/// Sends the prepared frame if one is due (frameDueIn). Called on every prepared frame and every
/// answer. A still is prepared on demand; a camera frame when it arrives.
function sendIfDue() {
  if (!state.connected || !server || state.inFlight.length >= AHEAD_LIMIT) return;
  const camera = state.source === "camera" && elements.camera.requestVideoFrameCallback;
  if (!state.prepared) {
    if (!camera && !state.encoding) prepareFrame();
    return;
  }
  const early = frameDueIn();
  if (early === null) return;  // the camera's next frame calls again
  if (early > 0) {
    clearTimeout(state.capTimer);
    state.capTimer = setTimeout(sendIfDue, early);
    return;
  }
  const { blob, capturedAt } = state.prepared;
  state.prepared = null;
  // Sent ahead: the answer's acknowledgement does not precede it, so this says when its upload starts.
  if (state.inFlight.length > 0) {
    send({ type: "upload" });
    state.framesSentAhead += 1;
  }
  const sentAt = performance.now();
  state.frameNumber += 1;
  state.inFlight.push({ number: state.frameNumber, sentAt, capturedAt, blob, ahead: state.inFlight.length > 0 });
  state.lastSend = sentAt;
  state.framesSent += 1;
  state.socket.send(blob);
  if (state.inFlight.length === 1) watchForStall();
}

/// Gives up on the oldest frame in flight when its answer has not come for STALL_TIMEOUT_MS (a lost
/// message), so the page never stalls forever.
function watchForStall() {
  clearTimeout(state.stallTimer);
  state.stallTimer = setTimeout(() => {
    state.inFlight = [];
    sendIfDue();
  }, STALL_TIMEOUT_MS);
}

/// Counts each new camera frame and prepares it for sending.
function watchCameraFrames(video) {
  if (!video.requestVideoFrameCallback) return;
  const stream = state.cameraStream;
  const onFrame = () => {
    if (!stream || state.cameraStream !== stream) return;  // this camera stopped (or was restarted)
    state.cameraFrames += 1;
    const now = performance.now();
    // Smoothed over about ten frames; a pause (a hidden tab) is no interval.
    const interval = now - state.cameraFrameAt;
    if (state.cameraFrameAt && interval < 1000) state.cameraInterval = state.cameraInterval === null ? interval : state.cameraInterval + 0.1 * (interval - state.cameraInterval);
    state.cameraFrameAt = now;
    prepareFrame();
    video.requestVideoFrameCallback(onFrame);
  };
  video.requestVideoFrameCallback(onFrame);
}

/// Frame `number` has its answer (or its fate): it is returned, or null when a stall gave up on it.
/// By its number, not its place: a frame the server drops is answered at once, before the frame it
/// is processing.
function settleAnswer(number) {
  clearTimeout(state.stallTimer);
  const index = state.inFlight.findIndex((frame) => frame.number === number);
  const settled = index >= 0 ? state.inFlight.splice(index, 1)[0] : null;
  if (state.inFlight.length > 0) watchForStall();
  return settled;
}

function frameAnswered(number) {
  settleAnswer(number);
  sendIfDue();
}

// ---- Frames in -------------------------------------------------------------------------------

/// Shows the answer to frame `frameNumber` (its JPEG bytes). The next frame is sent first, so that
/// its capture and encoding overlap this one's decoding; a late decode never overwrites a newer frame.
async function showFrame(frameNumber, data) {
  state.answeredAt = performance.now();
  // One whose frame a stall gave up on is still shown, but has no round trip or delay to count.
  const sent = settleAnswer(frameNumber);
  const capturedAt = sent ? sent.capturedAt : null;
  const original = sent && page.showsOriginal() ? sent.blob : null;
  const roundTrip = sent ? state.answeredAt - sent.sentAt : null;
  if (sent) state.roundTrip = roundTrip;
  const number = ++state.answers;
  // Acknowledged before the next frame goes, so the server can time both (a still is ready at once).
  const due = frameDueIn();
  send({ type: "received", next: due === 0 || (due === null && !state.prepared && state.source !== "camera" && Boolean(state.stillBlob)) });
  sendIfDue();
  try {
    // Both decoded before either is drawn: the answer never shows without what the page draws over it.
    const [bitmap, before] = await Promise.all([
      createImageBitmap(new Blob([data], { type: "image/jpeg" })),
      original ? createImageBitmap(original).catch(() => null) : null,
    ]);
    if (number < state.shownAnswer) {
      bitmap.close();
      if (before) before.close();
      return;
    }
    state.shownAnswer = number;
    const canvas = elements.output;
    if (canvas.width !== bitmap.width || canvas.height !== bitmap.height) {
      canvas.width = bitmap.width;
      canvas.height = bitmap.height;
    }
    canvas.getContext("2d").drawImage(bitmap, 0, 0);
    if (before) page.drawOverFrame(canvas, before);
    // Set only when they change: a text set, even to itself, lays the page out again.
    const size = `${bitmap.width}×${bitmap.height}`
      + (state.link && state.link.level > 0 ? ` · link ${state.link.level}/${state.link.levels - 1}` : "");
    if (elements.frameSize.textContent !== size) elements.frameSize.textContent = size;
    const figures = state.link
      ? `Link: ${state.link.downloadMbps ?? "?"} Mbit/s down, ${state.link.uploadMbps ?? "?"} Mbit/s up; `
        + `server ${state.link.processingMs ?? "?"} ms a frame; answers at quality ${state.link.answerQuality}`
      : "";
    if (elements.frameSize.title !== figures) elements.frameSize.title = figures;
    bitmap.close();
    state.framesReceived += 1;
    canvas.dataset.frames = String(state.framesReceived);
    const now = performance.now();
    state.arrivals.push(now);
    if (sent) state.latencies.push(now - capturedAt);  // camera (or still) frame to screen
    if (sent && state.delayLog.length < 100000) {
      state.delayLog.push({ delay: now - capturedAt, roundTrip, ahead: sent.ahead, processingMs: state.link ? state.link.processingMs : null, width: canvas.width });
    }
    if (state.latencies.length > 30) state.latencies.shift();
    if (!elements.busy.hidden && !page.keepsBusy()) setBusy("");
    page.onFrameDrawn(number);
  } catch (error) {
    showNotice("The server sent a frame this browser could not decode.", "error");
  }
}

/// Messages about frames are the live view's; the rest are the page's.
function handleMessage(message) {
  if (message.type === "dropped") {
    frameAnswered(message.frame);
    return;
  }
  if (message.type === "link") {
    state.link = message;
    return;
  }
  if (message.type === "hello" || message.type === "settings") state.recipe = message.recipe;
  if (message.type === "hello") {
    adoptServer(message);
    setRecordingLimits(message.recording);
    state.actions = (message.actions || []).map((action) => action.name);
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
  if (message.type === "hello") sendIfDue();  // frames wait for it
}

/// A processed frame's message: its header's frame number and messages, then the JPEG. The frame is
/// shown (its decoding started) before its messages are handled, as they belong to it.
function receiveFrame(buffer) {
  let header;
  let length = 0;
  try {
    length = new DataView(buffer).getUint32(0);
    header = JSON.parse(new TextDecoder().decode(new Uint8Array(buffer, 4, length)));
  } catch (error) {
    showNotice("The server sent a frame this page does not understand.", "error");
    return;
  }
  showFrame(header.frame, new Uint8Array(buffer, 4 + length));
  for (const message of header.messages || []) handleMessage(message);
}

// ---- Connection ------------------------------------------------------------------------------

export function send(object) {
  if (state.connected) state.socket.send(JSON.stringify(object));
}

function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const socket = new WebSocket(`${scheme}://${location.host}/api/stream?page=${encodeURIComponent(pageName)}`);
  socket.binaryType = "arraybuffer";
  state.socket = socket;
  setConnection("connecting", "Connecting…");

  socket.addEventListener("open", () => {
    state.connected = true;
    state.retryDelay = 500;
    state.inFlight = [];
    state.frameNumber = 0;  // a new stream counts its frames afresh
    server = null;  // and may be another studio: frames wait for its hello
    state.link = null;  // a new stream measures its link afresh
    setConnection("live", "Live");
    if (elements.notice.dataset.kind === "error") showNotice("");
    if (elements.busy.textContent.includes("server")) setBusy("");
    sendIfDue();
  });
  socket.addEventListener("message", (event) => {
    if (typeof event.data === "string") {
      try {
        handleMessage(JSON.parse(event.data));
      } catch (error) {
        showNotice("The server sent a message this page does not understand.", "error");
      }
    } else {
      receiveFrame(event.data);
    }
  });
  socket.addEventListener("close", (event) => {
    page.onClose();
    const wasConnected = state.connected;
    state.connected = false;
    state.inFlight = [];
    clearTimeout(state.stallTimer);
    clearTimeout(state.capTimer);
    const seconds = Math.round(state.retryDelay / 100) / 10;
    setConnection("offline", `Server unreachable, retrying in ${seconds} s`);
    showNotice(
      event.code === 1009
        ? "The server closed the connection: a message was too large."
        : wasConnected
          ? "Lost the connection to the Ocular server. Is `ocular studio` still running?"
          : "Cannot reach the Ocular server. Is `ocular studio` running?",
      "error");
    setTimeout(connect, state.retryDelay);
    state.retryDelay = Math.min(state.retryDelay * 2, 5000);
  });
}

/// The stream's figures, for tests and the curious (window.ocularStudio.stats()).
export function liveStats() {
  return {
    connected: state.connected,
    source: state.source,
    framesReceived: state.framesReceived,
    cameraFrames: state.cameraFrames,
    framesSent: state.framesSent,
    framesSentAhead: state.framesSentAhead,
    framesPerSecond: state.arrivals.filter((time) => performance.now() - time <= 1000).length,
    medianLatencyMs: [...state.latencies].sort((a, b) => a - b)[Math.floor(state.latencies.length / 2)] ?? null,
    camera: state.cameraChoice,
    cameras: Object.keys(state.cameras).filter((name) => state.cameras[name] !== null),
    page: pageName,
    actions: state.actions,
    link: state.link,
  };
}

/// For tests and benchmarks: send a text message as it is; take the delays logged since the last call.
export const liveTools = {
  /// Sends a text message as it is, to try the server's checks by hand.
  sendText: (text) => state.connected && state.socket.send(text),
  /// {delay, roundTrip, ahead, processingMs, width} of every frame shown since the last call: camera
  /// frame to screen and frame sent to answer received (ms), whether it was sent while another was in
  /// flight, the server's processing time as last reported, and the width of the frame shown.
  takeDelays: () => state.delayLog.splice(0),
};

/// Starts the live view for a page: connects at once (a camera permission prompt may wait for the
/// person; frames flow once a source exists) and starts the camera, or the still where there is none.
export function startLive(handlers) {
  Object.assign(page, handlers);
  state.stillName = firstStill();
  elements.source.addEventListener("change", () => chooseSource(elements.source.value));
  elements.switchCamera.addEventListener("click", () => switchCamera());
  attachRecorder();
  attachSoundSwitch(document.getElementById("sounds"));
  connect();
  // A phone points its back camera at the world; a laptop's camera faces its user.
  chooseSource("camera", isPhone() ? "back" : "front");
}
