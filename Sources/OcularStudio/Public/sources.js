// The live view's sources: the camera (camera.js) or a built-in still, the page's menu of them, and
// Switch camera's cycle through them in the server's order (its hello's "cameras", CameraSwitcher in
// Swift), skipping what is absent. What follows from a change goes to the hooks startSources is given
// (live.js wires them to the pacing and the page).

import { camera, cameraProblem, framesAnnounced, startCamera, stopCamera } from "./camera.js";
import { isConnected } from "./connection.js";
import { cameraCycle } from "./link.js";
import { elements, setBusy, showNotice } from "./view.js";

const state = {
  source: "still",          // "camera" or "still"
  still: null,              // HTMLImageElement of the chosen still
  stillName: "astronaut",   // the still shown for "static"
  cameraChoice: "static",   // what Switch camera shows: "static", "front" or "back"
  choices: 0,               // chooseSource calls so far: the newest one's outcome is the one shown
};

/// What startSources is given: frameCame() on each camera frame, stopped() when the camera stops (its
/// frames are of a picture no longer shown), cameraStarted() and stillShown() once either shows.
const hooks = { frameCame: () => {}, stopped: () => {}, cameraStarted: () => {}, stillShown: () => {} };

/// What the rest of the page may read of the sources.
export const sources = Object.freeze({
  /// "camera" or "still".
  get kind() { return state.source; },
  /// Whether frames come from a camera that calls back on each of its frames.
  get fromCamera() { return state.source === "camera" && framesAnnounced; },
  get still() { return state.still; },
  get stream() { return camera.stream; },
  get choice() { return state.cameraChoice; },
  /// The cameras found: "front", "back".
  get found() { return camera.found; },
  get frames() { return camera.frames; },
  /// When the newest camera frame arrived (0 before one).
  get frameAt() { return camera.frameAt; },
  /// The camera's frame interval, smoothed; null before two frames.
  get interval() { return camera.interval; },
  /// What to draw of the source and its size: {image, width, height}, or null before a picture exists.
  get picture() {
    if (state.source === "camera") return camera.picture;
    const still = state.still;
    return still && still.naturalWidth ? { image: still, width: still.naturalWidth, height: still.naturalHeight } : null;
  },
});

/// Starts the sources: the page's menu and Switch camera, then the camera (the back one on a phone,
/// which points it at the world; a laptop's faces its user), or the still where there is none. An
/// address that names one of the page's stills (`bean-counter.html?source=beans`) opens on it and asks for
/// no camera until the person picks Camera: a link that shows the page at work anywhere.
export function startSources(onPhone, on) {
  Object.assign(hooks, on);
  state.stillName = firstStill();
  elements.source.addEventListener("change", () => chooseSource(elements.source.value));
  elements.switchCamera.addEventListener("click", () => switchCamera());
  const asked = new URLSearchParams(location.search).get("source");
  const still = asked && asked !== "camera" && elements.source.querySelector(`option[value="${CSS.escape(asked)}"]`);
  if (still) chooseSource(still.value);
  else chooseSource("camera", onPhone ? "back" : "front");
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
  const next = nextCamera(state.cameraChoice, new Set(camera.found));
  if (next === "static") await chooseSource(state.stillName);
  else await chooseSource("camera", next);
}

function stopTheCamera() {
  stopCamera();
  hooks.stopped();  // a frame of the camera that stopped is not sent
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

/// When the camera stops by itself (unplugged, taken by another program, the system's privacy switch),
/// the page says so and shows the still instead of the camera's last frame frozen.
async function cameraEnded() {
  await chooseSource(firstStill());
  showNotice("The camera stopped (it was unplugged, or another program or the system took it): showing a built-in still image.");
}

/// Shows `value` ("camera" or a still's name). Choices can overlap (a camera waiting on its permission
/// prompt, a still picked meanwhile): the newest wins, and an older one that finishes later changes nothing.
export async function chooseSource(value, facing = "front") {
  const choice = ++state.choices;
  const superseded = () => choice !== state.choices;
  setBusy(value === "camera" ? "Starting the camera…" : "Loading the still image…");
  stopTheCamera();
  if (value === "camera") {
    try {
      await startCamera(facing, superseded, {
        frameCame: () => hooks.frameCame(),
        ended: cameraEnded,
        started: () => {
          state.source = "camera";
          setCameraChoice(facing);
        },
      });
      if (superseded()) return;
      showNotice("");
      elements.source.value = "camera";
      setBusy(isConnected() ? "" : "Connecting to the server…");
      hooks.cameraStarted();
      return;
    } catch (error) {
      if (superseded()) return;
      stopTheCamera();
      showNotice(cameraProblem(error));
      elements.source.querySelector('option[value="camera"]').disabled = true;
      value = firstStill();
    }
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
  hooks.stillShown();  // a still does not wait for camera frames
}
