// The live view's sources: the camera (front or back, as the system labels them) or a built-in still,
// and Switch camera's cycle through them in the server's order (its hello's "cameras", CameraSwitcher
// in Swift), skipping what is absent. Each new camera frame is handed to the pacing to prepare.
//
// Where the browser has MediaStreamTrackProcessor (Chromium), the camera's frames are read from its
// track as VideoFrames and the newest is kept to be drawn; no <video> element plays it. A hidden
// playing <video> with requestVideoFrameCallback cost headless Chromium 2.4 ms of CPU a frame before
// any was drawn (it asks for compositor frames at the display's rate), the track's reader 0.5; drawing
// and encoding from a VideoFrame cost 1.6 ms less a frame than from the <video>. Elsewhere the
// <video> plays the camera and calls back on each of its frames.

import { elements, sourceChanged, setBusy, showNotice } from "./live.js";
import { isConnected } from "./connection.js";
import { cameraCycle } from "./link.js";
import { forgetPrepared, prepareFrame, sendIfDue } from "./pacing.js";

const state = {
  source: "still",          // "camera" or "still"
  still: null,              // HTMLImageElement of the chosen still
  stillName: "astronaut",   // the still shown for "static"
  cameraStream: null,
  cameraChoice: "static",   // what Switch camera shows: "static", "front" or "back"
  cameras: { front: null, back: null },  // device ids found by enumerateDevices ("" before permission)
  cameraFrames: 0,          // camera frames that came (read from the track, or called back by the <video>)
  cameraFrameAt: 0,         // when the newest camera frame arrived
  cameraInterval: null,     // the camera's frame interval, smoothed (null before two frames)
  cameraFrame: null,        // the newest VideoFrame read from the track (MediaStreamTrackProcessor), or null
  choices: 0,               // chooseSource calls so far: the newest one's outcome is the one shown
};

/// Whether this browser announces each camera frame as it comes: by reading the track, or by the
/// <video>'s requestVideoFrameCallback.
const framesAnnounced = Boolean(window.MediaStreamTrackProcessor) || "requestVideoFrameCallback" in HTMLVideoElement.prototype;

/// What the rest of the page may read of the sources.
export const sources = Object.freeze({
  /// "camera" or "still".
  get kind() { return state.source; },
  /// Whether frames come from a camera that calls back on each of its frames.
  get fromCamera() { return state.source === "camera" && framesAnnounced; },
  get still() { return state.still; },
  get stream() { return state.cameraStream; },
  get choice() { return state.cameraChoice; },
  /// The cameras found: "front", "back".
  get found() { return Object.keys(state.cameras).filter((name) => state.cameras[name] !== null); },
  get frames() { return state.cameraFrames; },
  /// When the newest camera frame arrived (0 before one).
  get frameAt() { return state.cameraFrameAt; },
  /// The camera's frame interval, smoothed; null before two frames.
  get interval() { return state.cameraInterval; },
  /// What to draw of the source and its size: {image, width, height}, or null before a picture exists.
  get picture() {
    if (state.source === "camera") {
      const frame = state.cameraFrame;
      if (frame) return { image: frame, width: frame.displayWidth, height: frame.displayHeight };
      const video = elements.camera;
      return video.videoWidth ? { image: video, width: video.videoWidth, height: video.videoHeight } : null;
    }
    const still = state.still;
    return still && still.naturalWidth ? { image: still, width: still.naturalWidth, height: still.naturalHeight } : null;
  },
});

/// Starts the sources: the page's menu and Switch camera, then the camera (the back one on a phone,
/// which points it at the world; a laptop's faces its user), or the still where there is none. An
/// address that names one of the page's stills (`beans.html?source=beans`) opens on it and asks for
/// no camera until the person picks Camera: a link that shows the page at work anywhere.
export function startSources(onPhone) {
  state.stillName = firstStill();
  elements.source.addEventListener("change", () => chooseSource(elements.source.value));
  elements.switchCamera.addEventListener("click", () => switchCamera());
  const asked = new URLSearchParams(location.search).get("source");
  const still = asked && asked !== "camera" && elements.source.querySelector(`option[value="${CSS.escape(asked)}"]`);
  if (still) chooseSource(still.value);
  else chooseSource("camera", onPhone ? "back" : "front");
}

function cameraProblem(error) {
  if (!window.isSecureContext) {
    // Browsers give the camera only to secure contexts: a phone on plain http gets none, silently.
    return `No camera over plain http: browsers give the camera only to https pages or to localhost, and this page came from ${location.host}. `
      + "Showing a built-in still. To use this device's camera, start the studio with --self-signed "
      + "(ocular studio --host 0.0.0.0 --self-signed) and open the https address it prints, or scan its QR code.";
  }
  if (error instanceof CameraPlaybackError) {
    return `The camera started but its video would not play (${error.cause.name}: ${error.cause.message}): showing a built-in still image.`;
  }
  switch (error && error.name) {
    case "NotAllowedError": return "Camera permission was refused: showing a built-in still image.";
    case "NotFoundError":
    case "OverconstrainedError": return "No camera found: showing a built-in still image.";
    case "NotReadableError":
    case "AbortError":  // Firefox's word for a camera another program holds
      return "The camera is in use by another program: showing a built-in still image.";
    default: return `The camera could not start (${error ? error.message || error.name : "no camera API"}): showing a built-in still image.`;
  }
}

/// The camera was given, but its <video> would not play it: not the person's refusal, though a play()
/// that an autoplay policy refuses throws NotAllowedError too (Firefox refused an unmuted one).
class CameraPlaybackError extends Error {
  constructor(cause) {
    super(`the camera's video would not play: ${cause.message}`);
    this.name = "CameraPlaybackError";
    this.cause = cause;
  }
}

/// Starts the front or back camera: the device found for it, else the browser's guess by facing mode.
async function startCamera(choice, superseded) {
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
  if (superseded()) {
    // Another source was chosen while this camera started (a permission prompt can wait minutes).
    stream.getTracks().forEach((track) => track.stop());
    return;
  }
  state.cameraStream = stream;
  if (window.MediaStreamTrackProcessor) {
    readCameraFrames(stream);
  } else {
    // Muted and inline (shell.js), as WebKit on an iPhone plays a video unasked only then.
    elements.camera.srcObject = stream;
    try {
      await elements.camera.play();
    } catch (error) {
      throw new CameraPlaybackError(error);
    }
    if (superseded()) return;  // its stream was stopped by the newer choice
    watchCameraFrames(elements.camera);
  }
  watchCameraEnd(stream);
  state.source = "camera";
  setCameraChoice(choice);
  await findCameras(stream);
}

/// When the camera stops by itself (unplugged, taken by another program, the system's privacy switch),
/// the page says so and shows the still instead of the camera's last frame frozen.
function watchCameraEnd(stream) {
  const track = stream.getVideoTracks()[0];
  if (!track) return;
  track.addEventListener("ended", async () => {
    if (state.cameraStream !== stream) return;  // stopped by the page itself
    await chooseSource(firstStill());
    showNotice("The camera stopped (it was unplugged, or another program or the system took it): showing a built-in still image.");
  });
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
  const cycle = cameraCycle() ?? [current];
  const start = Math.max(0, cycle.indexOf(current));
  for (let step = 1; step <= cycle.length; step += 1) {
    const candidate = cycle[(start + step) % cycle.length];
    if (candidate === "static" || available.has(candidate)) return candidate;
  }
  return current;
}

export function setCameraChoice(choice) {
  state.cameraChoice = choice;
  document.body.dataset.camera = choice;
  const names = { static: "static picture", front: "front camera", back: "back camera" };
  const cycle = cameraCycle() ? [...cameraCycle(), cameraCycle()[0]].join(" → ") : "";
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
  if (state.cameraFrame) state.cameraFrame.close();
  state.cameraFrame = null;
  forgetPrepared();  // a frame of the camera that stopped is not sent
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

/// Shows `value` ("camera" or a still's name). Choices can overlap (a camera waiting on its permission
/// prompt, a still picked meanwhile): the newest wins, and an older one that finishes later changes nothing.
export async function chooseSource(value, facing = "front") {
  const choice = ++state.choices;
  const superseded = () => choice !== state.choices;
  setBusy(value === "camera" ? "Starting the camera…" : "Loading the still image…");
  if (value === "camera") {
    stopCamera();
    try {
      await startCamera(facing, superseded);
      if (superseded()) return;
      showNotice("");
      elements.source.value = "camera";
      setBusy(isConnected() ? "" : "Connecting to the server…");
      sourceChanged();
      return;
    } catch (error) {
      if (superseded()) return;
      stopCamera();
      showNotice(cameraProblem(error));
      elements.source.querySelector('option[value="camera"]').disabled = true;
      value = firstStill();
    }
  } else {
    stopCamera();
  }
  try {
    const still = await loadStill(value);
    if (superseded()) return;
    state.still = still;
    state.source = "still";
    state.stillName = value;
    setCameraChoice("static");
    elements.source.value = value;
  } catch (error) {
    if (superseded()) return;
    showNotice(`The still image '${value}' could not be loaded from the server.`, "error");
  }
  setBusy(isConnected() ? "" : "Connecting to the server…");
  sourceChanged();
  sendIfDue();  // a still does not wait for camera frames
}

/// A new camera frame came: it is counted, its interval smoothed, and it is prepared for sending.
function cameraFrameCame() {
  state.cameraFrames += 1;
  const now = performance.now();
  // Smoothed over about ten frames; a pause (a hidden tab) is no interval.
  const interval = now - state.cameraFrameAt;
  if (state.cameraFrameAt && interval < 1000) state.cameraInterval = state.cameraInterval === null ? interval : state.cameraInterval + 0.1 * (interval - state.cameraInterval);
  state.cameraFrameAt = now;
  prepareFrame();
}

/// Reads the camera's frames from its track, keeping the newest (each older one is closed at once, so
/// the camera's buffers go back to it), until the track ends or another camera replaces this one.
async function readCameraFrames(stream) {
  const reader = new MediaStreamTrackProcessor({ track: stream.getVideoTracks()[0] }).readable.getReader();
  try {
    for (;;) {
      const { value: frame, done } = await reader.read();
      if (done) return;
      if (state.cameraStream !== stream) {  // this camera stopped (or was restarted)
        frame.close();
        reader.cancel().catch(() => {});
        return;
      }
      if (document.hidden) {  // as a <video>'s callbacks pause in a hidden tab, nothing is sent from one
        frame.close();
        continue;
      }
      if (state.cameraFrame) state.cameraFrame.close();
      state.cameraFrame = frame;
      cameraFrameCame();
    }
  } catch {
    // The track failed (its device went away): the frames stop, as a <video>'s would.
  }
}

/// Counts each new camera frame of a playing <video> and prepares it for sending.
function watchCameraFrames(video) {
  if (!video.requestVideoFrameCallback) return;
  const stream = state.cameraStream;
  const onFrame = () => {
    if (!stream || state.cameraStream !== stream) return;  // this camera stopped (or was restarted)
    cameraFrameCame();
    video.requestVideoFrameCallback(onFrame);
  };
  video.requestVideoFrameCallback(onFrame);
}
