// Ocular Studio's Light Work page: sends camera (or still) frames to the server over a WebSocket and shows what comes back.
//
// Protocol (/api/stream): binary messages carry frames, JPEG both ways; the server answers every frame
// with exactly one message: the processed JPEG, or JSON {type: "error", about: "frame"} / {type: "dropped"}.
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
// Pacing: one frame is in flight at a time. A camera frame that arrives while one is in flight waits,
// and is sent the moment the answer comes in; only sends faster than MAX_FRAMES_PER_SECOND are held back.

import { shareItem } from "./share.js";

const MAX_FRAMES_PER_SECOND = 30;
const CAPTURE_QUALITY = 0.85;
const STALL_TIMEOUT_MS = 5000;
// A camera's frame intervals jitter around its rate: only hold back what comes much faster than the cap.
const CAMERA_JITTER = 0.75;
const SETTINGS_DELAY_MS = 60;  // while a slider moves, at most one settings message per this
const SAVE_TIMEOUT_MS = 15000;  // a save with no answer by then is reported as failed

const elements = {
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
  stages: document.getElementById("stages"),
  recipeSummary: document.getElementById("recipe-summary"),
  stagesPanel: document.querySelector(".stages-panel"),
  save: document.getElementById("save"),
  share: document.getElementById("share"),
  saveStatus: document.getElementById("save-status"),
  switchCamera: document.getElementById("switch-camera"),
  colorMode: document.getElementById("color-mode"),
  grayMode: document.getElementById("gray-mode"),
  cameraGroup: document.querySelector(".camera-group"),
  blendTools: document.getElementById("blend-tools"),
  blendSource: document.getElementById("blend-source"),
  blendGallery: document.getElementById("blend-gallery"),
  blendPreview: document.getElementById("blend-preview"),
  blendControls: document.getElementById("blend-controls"),
  blendFile: document.getElementById("blend-file"),
  focusMark: document.getElementById("focus-mark"),
  stage: document.querySelector(".stage"),
};

const state = {
  /// Object URLs of the pictures chosen for image parameters, by "stage.parameter".
  previews: {},
  /// The faces of the last annotations message, and how many such messages came.
  faces: [],
  annotationsReceived: 0,
  socket: null,
  connected: false,
  retryDelay: 500,
  inFlight: false,
  sentAt: 0,
  lastSend: 0,
  stallTimer: 0,
  capTimer: 0,
  encoding: false,            // a frame is being captured and encoded
  prepareAgain: false,        // a newer camera frame arrived during that encoding
  prepared: null,             // {blob, capturedAt}: the next frame to send
  stillBlob: null,            // {image, blob}: the still's encoding
  cameraFrames: 0,            // requestVideoFrameCallback calls
  cameraFrameAt: 0,           // when the newest camera frame arrived
  capturedAt: 0,              // when the frame in flight arrived from the camera (or was grabbed)
  answers: 0,                 // frames answered
  shownAnswer: 0,             // the newest answer drawn
  framesSent: 0,
  stages: [],               // the server's stage declarations, from "hello"
  order: [],                // stage names, top to bottom
  enabled: new Set(),
  values: {},               // stage name → {parameter: value}
  recipe: { stages: [] },   // the recipe the server last confirmed
  settingsTimer: 0,
  source: "still",          // "camera" or "still"
  still: null,              // HTMLImageElement of the chosen still
  cameraStream: null,
  framesReceived: 0,
  arrivals: [],             // times of recent answers, for frames per second
  latencies: [],            // recent camera-to-screen delays in ms
  delayLog: [],             // every frame's delays since the last takeDelays(), for benchmarks
  saving: false,            // a save waits for its answer
  saveTimer: 0,
  savedItem: null,          // the last item saved, for Share
  saves: [],                // every save's outcome, for tests: {id} or {error}
  cameraChoice: "static",   // what Switch camera shows: "static", "front" or "back"
  stillName: "astronaut",   // the still shown for "static"
  cameras: { front: null, back: null },  // device ids found by enumerateDevices ("" before permission)
  pendingTap: null,         // where the last tap landed in the preview, until the server answers
  focus: null,              // the last tap's answer: {x, y, applied, reason, preview} or {x: null}
  taps: 0,                  // taps answered
  focusTimer: 0,
};

// ---- Status, notices, busy state -------------------------------------------------------------

function showNotice(text, kind = "info") {
  elements.notice.textContent = text;
  elements.notice.dataset.kind = kind;
  elements.notice.hidden = !text;
}

function setConnection(name, text) {
  document.body.dataset.connection = name;
  elements.connection.dataset.state = name;
  elements.connection.textContent = text;
}

function setBusy(text) {
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
    return `The camera needs https or localhost; this page was opened over plain http at ${location.host}, so it shows a built-in still image.`;
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
  const stream = await navigator.mediaDevices.getUserMedia({
    video: { width: { ideal: 640 }, height: { ideal: 480 }, ...which },
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

/// SPEC §3's cycle: static → front → back → static, skipping what is absent (CameraSwitcher in Swift).
function nextCamera(current, available) {
  const cycle = ["static", "front", "back"];
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
  elements.switchCamera.title = `Showing the ${names[choice]}. Switch: static → front → back → static, skipping what is absent`;
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
      return;
    } catch (error) {
      stopCamera();
      showNotice(cameraProblem(error));
      elements.source.querySelector('option[value="camera"]').disabled = true;
      value = "astronaut";
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
  sendIfDue();  // a still does not wait for camera frames
}

// ---- Frames out ------------------------------------------------------------------------------

/// Draws the current source into the capture canvas and encodes it as a JPEG blob.
function grabFrame() {
  const source = state.source === "camera" ? elements.camera : state.still;
  if (!source) return Promise.resolve(null);
  const width = state.source === "camera" ? source.videoWidth : source.naturalWidth;
  const height = state.source === "camera" ? source.videoHeight : source.naturalHeight;
  if (!width || !height) return Promise.resolve(null);  // the camera has not delivered a frame yet
  const canvas = elements.capture;
  if (canvas.width !== width || canvas.height !== height) {
    canvas.width = width;
    canvas.height = height;
  }
  canvas.getContext("2d").drawImage(source, 0, 0, width, height);
  return new Promise((resolve) => canvas.toBlob(resolve, "image/jpeg", CAPTURE_QUALITY));
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
  const blob = state.connected ? await grabFrame() : null;
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

/// Sends the prepared frame if one is due: nothing in flight, and not faster than the cap. Called on
/// every prepared frame and every answer. A still is prepared on demand; a camera frame when it arrives.
function sendIfDue() {
  if (!state.connected || state.inFlight) return;
  const camera = state.source === "camera" && elements.camera.requestVideoFrameCallback;
  if (!state.prepared) {
    if (!camera && !state.encoding) prepareFrame();
    return;
  }
  const minimumInterval = (1000 / MAX_FRAMES_PER_SECOND) * (camera ? CAMERA_JITTER : 1);
  const early = state.lastSend + minimumInterval - performance.now();
  if (early > 0) {
    clearTimeout(state.capTimer);
    state.capTimer = setTimeout(sendIfDue, early);
    return;
  }
  const { blob, capturedAt } = state.prepared;
  state.prepared = null;
  state.inFlight = true;
  state.sentAt = performance.now();
  state.capturedAt = capturedAt;
  state.lastSend = state.sentAt;
  state.framesSent += 1;
  state.socket.send(blob);
  clearTimeout(state.stallTimer);
  state.stallTimer = setTimeout(() => {
    // The answer never came (a lost message): do not stall forever.
    state.inFlight = false;
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
    state.cameraFrameAt = performance.now();
    prepareFrame();
    video.requestVideoFrameCallback(onFrame);
  };
  video.requestVideoFrameCallback(onFrame);
}

function frameAnswered() {
  clearTimeout(state.stallTimer);
  state.inFlight = false;
  sendIfDue();
}

// ---- Frames in -------------------------------------------------------------------------------

/// Shows an answer. The next frame is sent first, so that its capture and encoding overlap this
/// one's decoding; a late decode never overwrites a newer frame.
async function showFrame(data) {
  const capturedAt = state.capturedAt;
  const roundTrip = performance.now() - state.sentAt;  // sent → answered, before the next send resets sentAt
  const number = ++state.answers;
  frameAnswered();
  try {
    const bitmap = await createImageBitmap(new Blob([data], { type: "image/jpeg" }));
    if (number < state.shownAnswer) { bitmap.close(); return; }
    state.shownAnswer = number;
    const canvas = elements.output;
    if (canvas.width !== bitmap.width || canvas.height !== bitmap.height) {
      canvas.width = bitmap.width;
      canvas.height = bitmap.height;
    }
    canvas.getContext("2d").drawImage(bitmap, 0, 0);
    elements.frameSize.textContent = `${bitmap.width}×${bitmap.height}`;
    bitmap.close();
    state.framesReceived += 1;
    canvas.dataset.frames = String(state.framesReceived);
    const now = performance.now();
    state.arrivals.push(now);
    state.latencies.push(now - capturedAt);  // camera (or still) frame to screen
    if (state.delayLog.length < 100000) state.delayLog.push({ delay: now - capturedAt, roundTrip });
    if (state.latencies.length > 30) state.latencies.shift();
    if (!elements.busy.hidden && !state.saving) setBusy("");
  } catch (error) {
    showNotice("The server sent a frame this browser could not decode.", "error");
  }
}

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
      if (message.about === "frame") frameAnswered();
      break;
    case "dropped":
      frameAnswered();
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

// ---- Connection ------------------------------------------------------------------------------

function send(object) {
  if (state.connected) state.socket.send(JSON.stringify(object));
}

function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const socket = new WebSocket(`${scheme}://${location.host}/api/stream`);
  socket.binaryType = "arraybuffer";
  state.socket = socket;
  setConnection("connecting", "Connecting…");

  socket.addEventListener("open", () => {
    state.connected = true;
    state.retryDelay = 500;
    state.inFlight = false;
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
      showFrame(event.data);
    }
  });
  socket.addEventListener("close", (event) => {
    if (state.saving) finishSave(null, "the connection to the server was lost");
    const wasConnected = state.connected;
    state.connected = false;
    state.inFlight = false;
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

elements.source.addEventListener("change", () => chooseSource(elements.source.value));

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
elements.switchCamera.addEventListener("click", () => switchCamera());
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
    position: state.cameraChoice === "front" ? "front" : "back",
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
  const track = state.source === "camera" && state.cameraStream ? state.cameraStream.getVideoTracks()[0] : null;
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
  elements.saveStatus.dataset.kind = kind;
  elements.saveStatus.textContent = text;
  if (link) {
    const anchor = document.createElement("a");
    anchor.href = link.href;
    anchor.textContent = link.text;
    elements.saveStatus.append(" ", anchor);
  }
}

function save() {
  if (state.saving) return;
  if (!state.connected) {
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
  /// Sends a text message as it is, to try the server's checks by hand.
  sendText: (text) => state.connected && state.socket.send(text),
  /// {delay, roundTrip} in ms of every frame shown since the last call: camera frame to screen, and
  /// frame sent to answer received.
  takeDelays: () => state.delayLog.splice(0),
  stats: () => ({
    connected: state.connected,
    source: state.source,
    recipe: state.recipe,
    framesReceived: state.framesReceived,
    faces: state.faces,
    annotationsReceived: state.annotationsReceived,
    cameraFrames: state.cameraFrames,
    framesSent: state.framesSent,
    framesPerSecond: state.arrivals.filter((time) => performance.now() - time <= 1000).length,
    medianLatencyMs: [...state.latencies].sort((a, b) => a - b)[Math.floor(state.latencies.length / 2)] ?? null,
    saving: state.saving,
    saves: state.saves,
    camera: state.cameraChoice,
    cameras: Object.keys(state.cameras).filter((name) => state.cameras[name] !== null),
    focus: state.focus,
    taps: state.taps,
  }),
};

// Connect at once: a camera permission prompt may wait for the person; frames flow once a source exists.
connect();
chooseSource("camera");
loadGalleryPictures();
