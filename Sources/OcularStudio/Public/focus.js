// Tap to focus: a tap on the preview is sent as {"type": "tap", x, y, viewWidth, …}; the server maps
// it through its tested camera geometry and answers "tapped" with the preview rectangle and the point
// of interest (null off the picture), which goes to the camera as the W3C Image Capture
// pointsOfInterest constraint where the camera takes it, and is marked on the preview either way.

import { requests } from "./api/protocol.js";
import { send } from "./connection.js";
import { live } from "./stream.js";
import { elements as liveElements, showNotice } from "./view.js";

const elements = {
  ...liveElements,
  focusMark: document.getElementById("focus-mark"),
};

/// The last tap's answer ({x, y, applied, reason, preview}, x null off the picture) and how many came.
export const focus = { pendingTap: null, last: null, taps: 0, timer: 0 };

/// Asks the server where a click on the preview lands in the camera's frame (answered "tapped"); returns
/// the tap in the view's pixels and the view's box.
export function sendTap(event) {
  const canvas = elements.output;
  const view = canvas.getBoundingClientRect();
  const tap = { x: event.clientX - view.left, y: event.clientY - view.top };
  send(requests.tap({
    x: tap.x, y: tap.y, viewWidth: view.width, viewHeight: view.height,
    frameWidth: canvas.width, frameHeight: canvas.height, layout: "letterbox",
    // The browser turns camera frames upright itself: they arrive as the sensor frame is shown.
    orientation: "landscape-right",
    position: live.cameraChoice === "front" ? "front" : "back",
  }));
  return { ...tap, view };
}

/// Taps on the preview ask the server where they land in the camera's frame.
export function enableTapToFocus() {
  elements.output.addEventListener("click", (event) => {
    focus.pendingTap = sendTap(event);
  });
}

/// The server's answer to a tap: hand the point to the camera where it takes one, and mark it.
export async function focusAt(message) {
  const tap = focus.pendingTap;
  focus.pendingTap = null;
  focus.taps += 1;
  const point = message.pointOfInterest;
  if (!point) {
    focus.last = { x: null, y: null, applied: false, reason: "the tap missed the picture", preview: message.preview };
    showNotice("Tap on the picture to focus there, not on the bars beside it.");
    return;
  }
  let applied = false;
  let reason = "";
  const track = live.source === "camera" && live.cameraStream ? live.cameraStream.getVideoTracks()[0] : null;
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
  focus.last = { x: point.x, y: point.y, applied, reason, preview: message.preview };
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
    clearTimeout(focus.timer);
    focus.timer = setTimeout(() => { mark.hidden = true; }, 4000);
  }
}
