// The camera: started front or back (as the system labels them), its frames read as they come and
// handed on (startCamera's `on.frameCame`), stopped, and what went wrong said in words. Which source
// shows, the camera or a still, is sources.js's choice.
//
// Where the browser has MediaStreamTrackProcessor (Chromium), the camera's frames are read from its
// track as VideoFrames and the newest is kept to be drawn; no <video> element plays it. A hidden
// playing <video> with requestVideoFrameCallback cost headless Chromium 2.4 ms of CPU a frame before
// any was drawn (it asks for compositor frames at the display's rate), the track's reader 0.5; drawing
// and encoding from a VideoFrame cost 1.6 ms less a frame than from the <video>. Elsewhere the
// <video> plays the camera and calls back on each of its frames.

import { elements } from "./view.js";

const state = {
  cameraStream: null,
  cameras: { front: null, back: null },  // device ids found by enumerateDevices ("" before permission)
  cameraFrames: 0,          // camera frames that came (read from the track, or called back by the <video>)
  cameraFrameAt: 0,         // when the newest camera frame arrived
  cameraInterval: null,     // the camera's frame interval, smoothed (null before two frames)
  cameraFrame: null,        // the newest VideoFrame read from the track (MediaStreamTrackProcessor), or null
  frameCame: () => {},      // the running camera's on.frameCame
};

/// Whether this browser announces each camera frame as it comes: by reading the track, or by the
/// <video>'s requestVideoFrameCallback.
export const framesAnnounced = Boolean(window.MediaStreamTrackProcessor) || "requestVideoFrameCallback" in HTMLVideoElement.prototype;

/// What the rest of the page may read of the camera.
export const camera = Object.freeze({
  get stream() { return state.cameraStream; },
  /// The cameras found: "front", "back".
  get found() { return Object.keys(state.cameras).filter((name) => state.cameras[name] !== null); },
  get frames() { return state.cameraFrames; },
  /// When the newest camera frame arrived (0 before one).
  get frameAt() { return state.cameraFrameAt; },
  /// The camera's frame interval, smoothed; null before two frames.
  get interval() { return state.cameraInterval; },
  /// What to draw of the camera and its size: {image, width, height}, or null before it has a frame.
  get picture() {
    const frame = state.cameraFrame;
    if (frame) return { image: frame, width: frame.displayWidth, height: frame.displayHeight };
    const video = elements.camera;
    return video.videoWidth ? { image: video, width: video.videoWidth, height: video.videoHeight } : null;
  },
});

/// Why the camera could not start, for the notice (the page shows a still instead).
export function cameraProblem(error) {
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
/// `on.started()` once its frames flow (before the cameras are listed), `on.frameCame()` on each frame,
/// `on.ended()` when it stops by itself. Nothing happens when `superseded()` by the time it is given.
export async function startCamera(choice, superseded, on) {
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
  state.frameCame = on.frameCame;
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
  watchCameraEnd(stream, on.ended);
  on.started();
  await findCameras(stream, choice);
}

/// When the camera stops by itself (unplugged, taken by another program, the system's privacy switch),
/// `ended` shows the still instead of the camera's last frame frozen.
function watchCameraEnd(stream, ended) {
  const track = stream.getVideoTracks()[0];
  if (!track) return;
  track.addEventListener("ended", () => {
    if (state.cameraStream !== stream) return;  // stopped by the page itself
    ended();
  });
}

export function stopCamera() {
  if (state.cameraStream) state.cameraStream.getTracks().forEach((track) => track.stop());
  state.cameraStream = null;
  if (state.cameraFrame) state.cameraFrame.close();
  state.cameraFrame = null;
  elements.camera.srcObject = null;
}

/// Which cameras exist: labelled front or back where the system says so (phones do), else the
/// first camera counts as the front one (a laptop's faces the user) and a second as the back one.
async function findCameras(stream, choice) {
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
  if (settings.deviceId && choice !== "static" && !Object.values(cameras).includes(settings.deviceId)) {
    cameras[choice] = settings.deviceId;
  }
  if (running && cameras[choice] === null) cameras[choice] = settings.deviceId || "";
  state.cameras = cameras;
}

/// A new camera frame came: it is counted, its interval smoothed, and it is prepared for sending.
function cameraFrameCame() {
  state.cameraFrames += 1;
  const now = performance.now();
  // Smoothed over about ten frames; a pause (a hidden tab) is no interval.
  const interval = now - state.cameraFrameAt;
  if (state.cameraFrameAt && interval < 1000) state.cameraInterval = state.cameraInterval === null ? interval : state.cameraInterval + 0.1 * (interval - state.cameraInterval);
  state.cameraFrameAt = now;
  state.frameCame();
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
