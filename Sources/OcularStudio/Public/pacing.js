// The live view's pacing: which frame goes when. Each frame is captured and encoded ahead (prepared)
// and sent when it is due; each answer settles its frame by number and is acknowledged.
//
// One frame is in flight at a time (two where processing sets the rate, below). A camera frame that
// arrives while one is in flight waits, and is sent the moment the answer comes in; only sends faster
// than the studio's cap (its hello's link.framesPerSecond) are held back. So no queue anywhere holds
// frames: what is shown is at most one processing time and one round trip old.
// When the recipe is slower than the camera, the newest frame is up to a camera interval old when the
// answer comes: the page waits for the camera's next one when it will be ready (due, then encoded)
// within a quarter of a round trip (FRESH_FRAME_WAIT_SHARE), and sends the one it has otherwise, so
// neither the delay nor the rate suffers much.
// When the round trip is longer than a camera interval and the server's processing takes longer than
// the transfers, one frame in flight leaves the server idle for both transfers of every frame: the
// Bean Counter (35 ms of processing, a 42 ms round trip on this machine's loopback) showed 1000 / 42
// frames/s where its recipe allows 1000 / 35. So then a second frame goes while the first is
// processed (AHEAD_LIMIT): the newest the camera has, once its next will not be ready before the
// server is free (serverFreeAt). It waits on the server about a camera interval at most, and the rate
// becomes the recipe's (or the camera's). It is preceded by {"type":"upload"}, so that the server can
// still time its upload; the server's newest-frame-wins slot never drops it, as no third goes. Where
// the transfers take longer than the processing, a frame sent ahead would only queue in the link, and
// none is.
// When the source changes (the camera stops, a still is chosen), the frames in flight are of a picture no
// longer shown: the new source's first frame goes at once, whatever is in flight (sourceSwitched). The
// server's newest-frame-wins slot replaces a frame of the old source waiting there (answered `dropped`),
// so the new picture waits for the frame under way at most: on a busy scene of a slow recipe (the Bean
// Counter over a hundred blobs, seconds a frame in a debug build) it waited for two.
// A camera frame that would be replaced before it could go is not encoded at all (replacedBeforeItGoes):
// a slow recipe's page encoded all 30 camera frames a second and sent five, 48 ms of Chromium's CPU a
// frame shown against 13 for a recipe that keeps up.

import { requests } from "./api/protocol.js";
import { isConnected, send, sendFrame } from "./connection.js";
import { encodeFrame, framesEncodedOffThread } from "./encoder.js";
import { frameIntervalMs, hasHello, linkReport, processingSetsTheRate, recipeIsSlow, uploadSettings } from "./link.js";
import { sources } from "./sources.js";
import { elements } from "./view.js";

const STALL_TIMEOUT_MS = 5000;
// A camera's frame intervals jitter around its rate: only hold back what comes much faster than the cap.
const CAMERA_JITTER = 0.75;
// A slow recipe's answer waits for the camera's next frame only when it will be ready within this share
// of a round trip: waiting longer costs more in frames than it saves in delay (a recipe just over the
// camera's interval, waiting every time, lost a third of its rate).
const FRESH_FRAME_WAIT_SHARE = 0.25;
// At most this many frames in flight: the one processed and, where processing sets the rate, the next.
const AHEAD_LIMIT = 2;
// A camera frame is left unencoded only when the next one will be ready this share of a camera interval
// before the answer it waits for is due: round trips wander, and one that comes early finds no frame
// ready and waits an encoding.
const REPLACED_MARGIN_SHARE = 0.5;

const state = {
  inFlight: [],          // {number, sentAt, capturedAt, blob, ahead} of each frame sent and not yet answered, oldest first
  frameNumber: 0,        // the number of the last frame sent on this stream (the server counts them alike)
  lastSend: 0,
  stallTimer: 0,
  capTimer: 0,
  encoding: false,       // a frame is being captured and encoded
  prepareAgain: false,   // a newer camera frame arrived during that encoding
  prepared: null,        // {blob, capturedAt}: the next frame to send
  stillBlob: null,       // {image, blob}: the still's encoding
  encodeMs: 0,           // what capturing and encoding a frame takes, smoothed
  cameraFrameWaiting: false,  // a camera frame came and was not encoded (replacedBeforeItGoes)
  framesEncoded: 0,
  framesNotEncoded: 0,   // camera frames left unencoded, as a newer one would replace them before they went
  framesSent: 0,
  framesSentAhead: 0,    // of those, sent while another was in flight
  answeredAt: 0,         // when the last answer arrived
  roundTrip: 0,          // the last answer's round trip, sent to answered
  sourceSwitched: false, // the source changed while frames were in flight: its first frame goes at once
};

/// A new stream, or none: nothing is in flight, and frames are counted afresh.
export function restartPacing() {
  state.inFlight = [];
  state.frameNumber = 0;
  state.sourceSwitched = false;
  clearTimeout(state.stallTimer);
  clearTimeout(state.capTimer);
}

/// The prepared frame is of a source that stopped: it is not sent.
export function forgetPrepared() {
  state.prepared = null;
  state.cameraFrameWaiting = false;
  state.sourceSwitched = state.inFlight.length > 0;
}

/// The figures for window.ocularStudio.stats().
export const pacingStats = () => ({ framesSent: state.framesSent, framesSentAhead: state.framesSentAhead,
                                   framesEncoded: state.framesEncoded, framesNotEncoded: state.framesNotEncoded,
                                   framesEncodedOffThread: framesEncodedOffThread() });

/// The answer to frame `number` has arrived: it is settled, acknowledged, and the next frame sent first,
/// so that its capture and encoding overlap this one's decoding. Returns the frame as it went
/// ({capturedAt, blob, ahead}) with its round trip, or null for one a stall gave up on.
export function answerArrived(number) {
  state.answeredAt = performance.now();
  const sent = settleAnswer(number);
  const roundTrip = sent ? state.answeredAt - sent.sentAt : null;
  if (sent) state.roundTrip = roundTrip;
  // Acknowledged before the next frame goes, so the server can time both (a still is ready at once).
  const due = frameDueIn();
  send(requests.received({ next: due === 0 || (due === null && !state.prepared && sources.kind !== "camera" && Boolean(state.stillBlob)) }));
  sendIfDue();
  return sent ? { ...sent, roundTrip } : null;
}

/// Captures and encodes the newest frame into `state.prepared`, ready to send, while the previous
/// frame may still be in flight: the encoding (~15 ms in a software browser) then costs no round-trip
/// time. A camera frame that arrives during an encoding is encoded after it, replacing it.
export async function prepareFrame() {
  if (state.encoding) {
    state.prepareAgain = true;
    return;
  }
  const camera = sources.kind === "camera";
  const capturedAt = camera && sources.frameAt ? sources.frameAt : performance.now();
  if (!camera && sources.still && state.stillBlob && state.stillBlob.image === sources.still) {
    // A still does not change: its encoding is made once.
    state.prepared = { blob: state.stillBlob.blob, capturedAt };
    sendIfDue();
    return;
  }
  if (camera && replacedBeforeItGoes()) {
    state.cameraFrameWaiting = true;
    state.framesNotEncoded += 1;
    return;
  }
  state.cameraFrameWaiting = false;
  state.encoding = true;
  const began = performance.now();
  const blob = isConnected() && hasHello()
    ? await encodeFrame(() => sources.picture, uploadSettings(camera), elements.capture) : null;
  if (blob) {
    state.encodeMs += 0.2 * (performance.now() - began - state.encodeMs);
    state.framesEncoded += 1;
  }
  if (blob && !camera && sources.still) state.stillBlob = { image: sources.still, blob };
  state.encoding = false;
  if (blob) state.prepared = { blob, capturedAt };
  // The frame goes if it is due, even when a newer one came meanwhile: where an encoding takes longer than
  // the camera's interval (WebKit's 720p, 40–100 ms against 33), one always has, and a page that waited
  // for an encoding no newer frame overtook sent nothing for a second at a time while it encoded on.
  if (blob) sendIfDue();
  else if (isConnected()) setTimeout(sendIfDue, 100);  // no picture yet: try again shortly
  if (state.prepareAgain) {
    state.prepareAgain = false;
    prepareFrame();
  }
}

/// When the server will have processed the frames in flight, as far as the page can tell: each starts
/// once it has arrived (its upload after it went) and the one before it has finished (the last answer
/// came its download after that), and takes a processing time. (Timing a frame sent ahead from when it
/// went, as if it waited for nothing, sent each a little earlier than the last, until every frame
/// waited a whole processing time on the server.)
function serverFreeAt() {
  const { processingMs, answerRoundTripMs, uploadMs } = linkReport();
  let free = state.answeredAt - (answerRoundTripMs ?? 0);
  for (const frame of state.inFlight) free = Math.max(free, frame.sentAt + (uploadMs ?? 0)) + processingMs;
  return free;
}

/// How long until the camera's next frame is ready to send: due by its interval so far, then encoded.
function nextCameraFrameIn() {
  return Math.max(0, sources.frameAt + (sources.interval ?? frameIntervalMs()) - performance.now()) + state.encodeMs;
}

/// Whether the camera frame that just came would be replaced before it could go, so that encoding it is
/// work thrown away: frames are in flight, and the camera's next frame will be ready (nextCameraFrameIn),
/// with a margin to spare, before this one could go: when the server is nearly free, for a frame that
/// may follow ahead (frameDueIn); else when the oldest frame's answer is due, a round trip (the last
/// one's) after it went.
function replacedBeforeItGoes() {
  if (state.inFlight.length === 0 || !state.roundTrip || !hasHello()) return false;
  const now = performance.now();
  const goesIn = state.inFlight.length < AHEAD_LIMIT && processingSetsTheRate()
    ? serverFreeAt() - now
    : state.inFlight[0].sentAt + state.roundTrip - now;
  const margin = REPLACED_MARGIN_SHARE * (sources.interval ?? frameIntervalMs());
  return nextCameraFrameIn() + margin < goesIn;
}

/// When the prepared frame may go: 0 now, a number of ms later (the rate cap), or null: nothing to send yet (nothing prepared, a frame in flight that is not
/// followed ahead, or only a frame older than the last answer while the recipe is slow).
function frameDueIn() {
  if (!isConnected() || !hasHello() || !state.prepared) return null;
  if (state.sourceSwitched) return 0;
  if (state.inFlight.length >= AHEAD_LIMIT) return null;
  const camera = sources.fromCamera;
  if (state.inFlight.length > 0) {
    // Ahead, unless the camera's next frame will be ready before the server is free for this one:
    // that one is fresher, and calls again.
    if (!camera || !processingSetsTheRate()) return null;
    if (nextCameraFrameIn() < serverFreeAt() - performance.now()) return null;
    return Math.max(0, state.lastSend + frameIntervalMs() * CAMERA_JITTER - performance.now());
  }
  // A slow recipe: a frame that waited through the processing would be shown that much later; the
  // camera's next one comes within an interval, and is awaited when it comes soon.
  if (camera && recipeIsSlow() && state.prepared.capturedAt < state.answeredAt
      && nextCameraFrameIn() <= FRESH_FRAME_WAIT_SHARE * state.roundTrip) return null;
  const minimumInterval = frameIntervalMs() * (camera ? CAMERA_JITTER : 1);
  return Math.max(0, state.lastSend + minimumInterval - performance.now());
}

/// Sends the prepared frame if one is due (frameDueIn). Called on every prepared frame and every
/// answer. A still is prepared on demand; a camera frame when it arrives.
export function sendIfDue() {
  if (!isConnected() || !hasHello() || (state.inFlight.length >= AHEAD_LIMIT && !state.sourceSwitched)) return;
  const camera = sources.fromCamera;
  if (!state.prepared) {
    // A still is encoded on demand; so is a camera frame left unencoded, now that it may go.
    if ((!camera || state.cameraFrameWaiting) && !state.encoding) prepareFrame();
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
  state.sourceSwitched = false;
  // Sent ahead: the answer's acknowledgement does not precede it, so this says when its upload starts.
  if (state.inFlight.length > 0) {
    send(requests.upload());
    state.framesSentAhead += 1;
  }
  const sentAt = performance.now();
  state.frameNumber += 1;
  state.inFlight.push({ number: state.frameNumber, sentAt, capturedAt, blob, ahead: state.inFlight.length > 0 });
  state.lastSend = sentAt;
  state.framesSent += 1;
  sendFrame(blob);
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

export function frameAnswered(number) {
  settleAnswer(number);
  sendIfDue();
}
