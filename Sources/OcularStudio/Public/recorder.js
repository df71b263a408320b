// Recording on every live page: the processed view as it is shown (the output canvas, captured at the
// camera's rate) with the microphone's sound, through the browser's MediaRecorder, into the gallery.
//
// The microphone is asked for only when recording starts; refused or absent, the clip is recorded
// without sound and the page says so. While recording: a red mark on the view with the time, the
// size so far and the rate it grows at, and Stop. The studio's limits (the hello's "recording":
// {maxSeconds, maxBytes}) stop a forgotten recording by themselves. The clip is then uploaded
// (POST api/gallery/clips, the body the clip itself, streamed by the browser, with a progress bar);
// a failed upload keeps the clip on the page until Retry succeeds or the page is left.

import { pageName } from "./shell.js";
import { playSound } from "./sounds.js";
import { live } from "./stream.js";
import { showNotice } from "./view.js";

// What MediaRecorder is asked for, best first: WebM where the browser writes it (Chromium, Firefox),
// else MP4 (Safari).
const TYPES = ["video/webm;codecs=vp9,opus", "video/webm;codecs=vp8,opus", "video/webm", "video/mp4;codecs=avc1,mp4a.40.2", "video/mp4"];
const VIDEO_BITS_PER_SECOND = 2_500_000;
const AUDIO_BITS_PER_SECOND = 128_000;
// A chunk a second: the size shown grows as the clip does, and a crash of the tab loses one second.
const CHUNK_MS = 1000;
const DEFAULT_FRAME_RATE = 30;

const elements = {
  output: document.getElementById("output"),
  record: document.getElementById("record"),
  status: document.getElementById("record-status"),
  progress: document.getElementById("upload-progress"),
  retry: document.getElementById("retry-upload"),
  mark: document.getElementById("recording-mark"),
  time: document.getElementById("recording-time"),
};

const state = {
  phase: "idle",         // idle, starting, recording, stopping, uploading, failed
  limits: null,          // the studio's {maxSeconds, maxBytes}, from its hello; Record waits for them
  recorder: null,
  microphone: null,      // the microphone's stream while recording
  chunks: [],
  bytes: 0,
  startedAt: 0,
  stoppedAt: 0,
  timer: 0,
  stopReason: "",
  clip: null,            // {blob, recipe, seconds}: the clip until it is in the gallery
  hasSound: false,
  uploads: [],           // every upload's outcome, for tests: {item} or {error}
};

function formatTime(seconds) {
  const whole = Math.floor(seconds);
  return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, "0")}`;
}

function formatBytes(bytes) {
  return bytes >= 1 << 20 ? `${(bytes / (1 << 20)).toFixed(1)} MB` : `${Math.max(1, Math.round(bytes / 1024))} kB`;
}

function setStatus(text, kind = "") {
  elements.status.textContent = text;
  elements.status.dataset.kind = kind;
}

function setPhase(phase) {
  state.phase = phase;
  document.body.dataset.recording = phase;
  const recording = phase === "recording" || phase === "starting";
  elements.record.textContent = recording ? "■ Stop" : "● Record";
  elements.record.setAttribute("aria-pressed", String(recording));
  elements.record.title = recording ? "Stop recording and save the clip in the gallery" : "Record the processed view with the microphone's sound into the gallery";
  elements.record.disabled = !state.limits || phase === "stopping" || phase === "uploading" || phase === "starting";
  elements.mark.hidden = phase !== "recording";
  elements.retry.hidden = phase !== "failed";
  elements.progress.hidden = phase !== "uploading";
}

/// The camera's frame rate, which the recording keeps; a still or an unknown rate gets 30.
function frameRate() {
  const track = live.cameraStream && live.cameraStream.getVideoTracks()[0];
  const rate = track && track.getSettings ? track.getSettings().frameRate : null;
  return rate && rate > 0 ? Math.min(rate, 60) : DEFAULT_FRAME_RATE;
}

async function microphone() {
  if (!navigator.mediaDevices || !navigator.mediaDevices.getUserMedia) {
    return { stream: null, problem: "this browser gives no microphone here" };
  }
  try {
    return { stream: await navigator.mediaDevices.getUserMedia({ audio: { echoCancellation: false, noiseSuppression: false } }), problem: null };
  } catch (error) {
    const problem = error && error.name === "NotAllowedError" ? "the microphone was refused"
      : error && (error.name === "NotFoundError" || error.name === "OverconstrainedError") ? "no microphone was found"
        : `the microphone could not start (${error ? error.message || error.name : "unknown"})`;
    return { stream: null, problem };
  }
}

async function start() {
  if (!window.MediaRecorder || !elements.output.captureStream) {
    showNotice("This browser cannot record the view (no MediaRecorder or canvas capture).", "error");
    return;
  }
  const type = TYPES.find((candidate) => MediaRecorder.isTypeSupported(candidate));
  if (!type) {
    showNotice("This browser records neither WebM nor MP4, so the view cannot be recorded here.", "error");
    return;
  }
  setPhase("starting");
  setStatus("Starting…");
  playSound("recordStart");
  const stream = elements.output.captureStream(frameRate());
  const { stream: sound, problem } = await microphone();
  state.microphone = sound;
  state.hasSound = Boolean(sound && sound.getAudioTracks().length);
  if (state.hasSound) stream.addTrack(sound.getAudioTracks()[0]);
  else showNotice(`Recording without sound: ${problem}.`);
  let recorder;
  try {
    recorder = new MediaRecorder(stream, { mimeType: type, videoBitsPerSecond: VIDEO_BITS_PER_SECOND, audioBitsPerSecond: AUDIO_BITS_PER_SECOND });
  } catch (error) {
    stopMicrophone();
    setPhase("idle");
    setStatus("");
    showNotice(`The recording could not start: ${error.message}`, "error");
    return;
  }
  state.recorder = recorder;
  state.chunks = [];
  state.bytes = 0;
  state.stopReason = "";
  state.recipe = live.recipe;
  recorder.addEventListener("dataavailable", (event) => {
    if (!event.data || !event.data.size) return;
    state.chunks.push(event.data);
    state.bytes += event.data.size;
  });
  recorder.addEventListener("stop", finished, { once: true });
  recorder.addEventListener("error", (event) => {
    state.stopReason = `the browser's recorder failed (${event.error ? event.error.message : "unknown"})`;
  });
  recorder.start(CHUNK_MS);
  state.startedAt = performance.now();
  setPhase("recording");
  tick();
  state.timer = setInterval(tick, 250);
}

/// The time and size while recording; the limits stop it.
function tick() {
  const seconds = (performance.now() - state.startedAt) / 1000;
  const rate = seconds >= 1 ? state.bytes / seconds : 0;
  elements.time.textContent = formatTime(seconds);
  const left = state.limits.maxSeconds - seconds;
  setStatus(`Recording ${formatTime(seconds)} · ${state.bytes ? formatBytes(state.bytes) : "0 kB"}`
    + (rate ? ` · ≈ ${formatBytes(rate * 60)} a minute` : "")
    + (left <= 30 ? ` · stops in ${Math.max(0, Math.ceil(left))} s` : "") + (state.hasSound ? "" : " · no sound"), "busy");
  if (seconds >= state.limits.maxSeconds) stop(`the ${formatTime(state.limits.maxSeconds)} limit was reached`);
  // The next second's chunk must still fit under the studio's size limit.
  else if (state.bytes + 2 * rate > state.limits.maxBytes) stop(`the clip neared the studio's limit of ${formatBytes(state.limits.maxBytes)}`);
}

function stopMicrophone() {
  if (state.microphone) state.microphone.getTracks().forEach((track) => track.stop());
  state.microphone = null;
}

function stop(reason = "") {
  if (state.phase !== "recording") return;
  clearInterval(state.timer);
  state.stopReason = reason;
  state.stoppedAt = performance.now();
  setPhase("stopping");
  setStatus("Finishing the clip…", "busy");
  state.recorder.stop();
}

function finished() {
  const recorder = state.recorder;
  state.recorder = null;
  stopMicrophone();
  // The canvas capture's track too: nothing keeps capturing after the recording.
  recorder.stream.getTracks().forEach((track) => track.stop());
  playSound("recordStop");
  if (state.stopReason) showNotice(`Recording stopped: ${state.stopReason}.`);
  if (!state.chunks.length) {
    setPhase("idle");
    setStatus("Nothing was recorded.", "error");
    return;
  }
  const blob = new Blob(state.chunks, { type: recorder.mimeType || state.chunks[0].type });
  state.chunks = [];
  state.clip = { blob, recipe: state.recipe, seconds: (state.stoppedAt - state.startedAt) / 1000 };
  upload();
}

/// Sends the held clip; on failure it stays held, and Retry sends it again.
function upload() {
  const clip = state.clip;
  if (!clip) return;
  setPhase("uploading");
  elements.progress.value = 0;
  setStatus(`Uploading ${formatBytes(clip.blob.size)}…`, "busy");
  const query = new URLSearchParams({ page: pageName, recipe: JSON.stringify(clip.recipe || { stages: [] }) });
  const request = new XMLHttpRequest();
  request.open("POST", `api/gallery/clips?${query}`);
  request.setRequestHeader("Content-Type", clip.blob.type || "video/webm");
  request.upload.addEventListener("progress", (event) => {
    if (!event.lengthComputable) return;
    elements.progress.value = event.loaded / event.total;
    setStatus(`Uploading ${Math.round((100 * event.loaded) / event.total)} % of ${formatBytes(event.total)}…`, "busy");
  });
  const failed = (reason) => {
    state.uploads.push({ error: reason });
    setPhase("failed");
    setStatus(`Not saved: ${reason}. The clip is kept on this page: Retry sends it again.`, "error");
  };
  request.addEventListener("load", () => {
    let answer = null;
    try {
      answer = JSON.parse(request.responseText);
    } catch { /* not JSON: the status says it */ }
    if (request.status !== 201 || !answer || !answer.id) {
      // The server's refusals of the clip itself (damaged, too long) will not change on a retry, but
      // the clip stays held: the person decides.
      failed(answer && answer.error ? answer.error : `the server answered ${request.status}`);
      return;
    }
    state.clip = null;
    state.uploads.push({ item: answer });
    setPhase("idle");
    const length = answer.duration ? ` (${answer.duration.toFixed(1)} s${answer.hasAudio ? ", with sound" : ", no sound"})` : "";
    elements.status.dataset.kind = "saved";
    elements.status.replaceChildren(`Clip saved${length} `, Object.assign(document.createElement("a"), {
      href: `gallery.html#item-${answer.id}`, textContent: "in the gallery" }));
  });
  request.addEventListener("error", () => failed("the upload did not reach the server"));
  request.addEventListener("timeout", () => failed("the upload timed out"));
  request.send(clip.blob);
}

/// Connects the Record button; called by startLive once the page's handlers are in.
export function attachRecorder() {
  setPhase("idle");
  elements.record.addEventListener("click", () => {
    if (state.phase === "idle" || state.phase === "failed") {
      if (state.phase === "failed" && !window.confirm("The last clip was not saved. Record a new one and drop it?")) return;
      state.clip = null;
      start();
    } else if (state.phase === "recording") {
      stop();
    }
  });
  elements.retry.addEventListener("click", upload);
  window.addEventListener("beforeunload", (event) => {
    // A clip recording or not yet in the gallery is lost with the page: the browser asks first.
    if (state.phase !== "idle") event.preventDefault();
  });
}

/// The studio's limits, from its hello; Record is enabled once they are known.
export function setRecordingLimits(limits) {
  if (!(limits && limits.maxSeconds > 0 && limits.maxBytes > 0)) return;
  state.limits = { maxSeconds: limits.maxSeconds, maxBytes: limits.maxBytes };
  setPhase(state.phase);
}

// For tests and the curious: the phase, the limits, and every upload's outcome.
window.ocularRecorder = {
  get phase() { return state.phase; },
  get limits() { return state.limits; },
  get uploads() { return state.uploads; },
  get hasSound() { return state.hasSound; },
  get held() { return state.clip ? state.clip.blob.size : 0; },
  /// The recording's chunks so far, one a second (CHUNK_MS): how long it has recorded, counted by the recorder.
  get chunks() { return state.chunks.length; },
  stop: () => stop(),
};
