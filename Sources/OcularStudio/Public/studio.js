// Ocular Studio: sends camera (or still) frames to the server over a WebSocket and shows what comes back.
//
// Protocol (/api/stream): binary messages carry frames, JPEG both ways; the server answers every frame
// with exactly one message: the processed JPEG, or JSON {type: "error", about: "frame"} / {type: "dropped"}.
// Text messages are JSON: the client sends settings ({"effect": "gray"}); the server sends "hello",
// "settings" and "error". One frame is in flight at a time: the next is sent when the answer arrives.

const MAX_FRAMES_PER_SECOND = 30;
const CAPTURE_QUALITY = 0.85;
const STALL_TIMEOUT_MS = 5000;

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
  effects: document.getElementById("effects"),
};

const state = {
  socket: null,
  connected: false,
  retryDelay: 500,
  inFlight: false,
  sentAt: 0,
  lastSend: 0,
  stallTimer: 0,
  settings: { effect: "none" },
  source: "still",          // "camera" or "still"
  still: null,              // HTMLImageElement of the chosen still
  cameraStream: null,
  framesReceived: 0,
  arrivals: [],             // times of recent answers, for frames per second
  latencies: [],            // recent round trips in ms
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

async function startCamera() {
  if (!window.isSecureContext || !navigator.mediaDevices || !navigator.mediaDevices.getUserMedia) {
    throw new DOMException("no camera API in this context", "NotSupportedError");
  }
  const stream = await navigator.mediaDevices.getUserMedia({
    video: { width: { ideal: 640 }, height: { ideal: 480 }, facingMode: "user" },
    audio: false,
  });
  elements.camera.srcObject = stream;
  await elements.camera.play();
  state.cameraStream = stream;
  state.source = "camera";
}

function stopCamera() {
  if (state.cameraStream) state.cameraStream.getTracks().forEach((track) => track.stop());
  state.cameraStream = null;
  elements.camera.srcObject = null;
}

async function loadStill(name) {
  const image = new Image();
  image.src = `demo/${name}.jpg`;
  await image.decode();
  return image;
}

async function chooseSource(value) {
  setBusy(value === "camera" ? "Starting the camera…" : "Loading the still image…");
  if (value === "camera") {
    try {
      await startCamera();
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
    elements.source.value = value;
  } catch (error) {
    showNotice(`The still image '${value}' could not be loaded from the server.`, "error");
  }
  setBusy(state.connected ? "" : "Connecting to the server…");
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

/// Waits until the next frame is due: a new camera frame, and no faster than the frame-rate cap.
function nextFrameDue() {
  const wait = Math.max(0, state.lastSend + 1000 / MAX_FRAMES_PER_SECOND - performance.now());
  return new Promise((resolve) => {
    const afterCap = () => setTimeout(resolve, wait);
    if (state.source === "camera" && elements.camera.requestVideoFrameCallback) {
      elements.camera.requestVideoFrameCallback(afterCap);
    } else {
      afterCap();
    }
  });
}

async function sendNextFrame() {
  if (!state.connected || state.inFlight) return;
  state.inFlight = true;
  await nextFrameDue();
  const blob = state.connected ? await grabFrame() : null;
  if (!blob || !state.connected) {
    state.inFlight = false;
    if (state.connected) setTimeout(sendNextFrame, 100);
    return;
  }
  state.sentAt = performance.now();
  state.lastSend = state.sentAt;
  state.socket.send(blob);
  clearTimeout(state.stallTimer);
  state.stallTimer = setTimeout(() => {
    // The answer never came (a lost message): do not stall forever.
    state.inFlight = false;
    sendNextFrame();
  }, STALL_TIMEOUT_MS);
}

function frameAnswered() {
  clearTimeout(state.stallTimer);
  state.inFlight = false;
  sendNextFrame();
}

// ---- Frames in -------------------------------------------------------------------------------

async function showFrame(data) {
  const latency = performance.now() - state.sentAt;
  try {
    const bitmap = await createImageBitmap(new Blob([data], { type: "image/jpeg" }));
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
    state.arrivals.push(performance.now());
    state.latencies.push(latency);
    if (state.latencies.length > 30) state.latencies.shift();
    if (!elements.busy.hidden) setBusy("");
  } catch (error) {
    showNotice("The server sent a frame this browser could not decode.", "error");
  }
  frameAnswered();
}

function handleMessage(message) {
  switch (message.type) {
    case "hello":
      buildEffectButtons(message.effects);
      send(state.settings);  // a reconnect keeps the chosen effect
      break;
    case "settings":
      state.settings.effect = message.settings.effect;
      markEffect(message.settings.effect);
      break;
    case "error":
      showNotice(`Server: ${message.message}`, "error");
      if (message.about === "frame") frameAnswered();
      break;
    case "dropped":
      frameAnswered();
      break;
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
    sendNextFrame();
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
    const wasConnected = state.connected;
    state.connected = false;
    state.inFlight = false;
    clearTimeout(state.stallTimer);
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

// ---- Effects ---------------------------------------------------------------------------------

function buildEffectButtons(effects) {
  if (!Array.isArray(effects) || !effects.length) return;
  elements.effects.replaceChildren(...effects.map(({ name, title }) => {
    const button = document.createElement("button");
    button.type = "button";
    button.setAttribute("role", "radio");
    button.dataset.effect = name;
    button.textContent = title;
    return button;
  }));
  markEffect(state.settings.effect);
}

function markEffect(effect) {
  for (const button of elements.effects.querySelectorAll("button")) {
    button.setAttribute("aria-checked", String(button.dataset.effect === effect));
  }
}

elements.effects.addEventListener("click", (event) => {
  const button = event.target.closest("button[data-effect]");
  if (!button) return;
  state.settings.effect = button.dataset.effect;
  markEffect(state.settings.effect);
  send({ effect: state.settings.effect });
});

elements.source.addEventListener("change", () => chooseSource(elements.source.value));

// For tests and the curious: window.ocularStudio.stats()
window.ocularStudio = {
  stats: () => ({
    connected: state.connected,
    source: state.source,
    effect: state.settings.effect,
    framesReceived: state.framesReceived,
    framesPerSecond: state.arrivals.filter((time) => performance.now() - time <= 1000).length,
    medianLatencyMs: [...state.latencies].sort((a, b) => a - b)[Math.floor(state.latencies.length / 2)] ?? null,
  }),
};

// Connect at once: a camera permission prompt may wait for the person; frames flow once a source exists.
connect();
chooseSource("camera");
