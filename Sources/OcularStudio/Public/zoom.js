// Light Work's zoom: one slider for the whole zoom. Where the running camera lists `zoom` in
// track.getCapabilities() (phones, some webcams), as much of it as the camera can do is asked of the
// camera (W3C Image Capture's zoom constraint: an optical zoom or a crop of the full sensor, which
// keeps detail an enlarged frame loses, see `ocular zoom prove`); the rest is the server's zoom stage,
// digital. Without a camera zoom, or when the camera refuses, all of it is digital: nothing fails.

import { renderStages, sendSettings, state } from "./stages.js";
import { live } from "./stream.js";

const elements = {
  slider: document.getElementById("zoom-level"),
  readout: document.getElementById("zoom-readout"),
};

/// The zoom shown (total), the camera's part and the digital part; `cameraRange` is the camera's
/// {min, max, step} (null without one) and `reason` why the camera does none of it.
export const zoom = { total: 1, camera: 1, digital: 1, cameraRange: null, reason: "no camera running", requests: 0 };

/// The highest zoom the slider offers: the camera's reach or 8×, whichever is more (the zoom stage's
/// own card goes to 128×).
const SLIDER_MAX = 8;

function cameraTrack() {
  return live.source === "camera" && live.cameraStream ? live.cameraStream.getVideoTracks()[0] : null;
}

/// The camera's zoom as {min, max, step}, or null where it lists none (or a range of one value).
function cameraZoomRange(track) {
  const capabilities = track && track.getCapabilities ? track.getCapabilities() : {};
  const range = capabilities.zoom;
  return range && range.max > range.min && range.min > 0 ? range : null;
}

/// Sets the whole zoom: the camera's part first (its zoom values are taken as ratios of its minimum),
/// the rest as the zoom stage's factor.
export async function setZoom(total) {
  zoom.total = Math.max(1, total);
  // A slider sends many values while it moves: only the newest request, once the camera answers, counts.
  const request = ++zoom.requests;
  const track = cameraTrack();
  const range = cameraZoomRange(track);
  zoom.cameraRange = range;
  let cameraPart = 1;
  if (!track) {
    zoom.reason = "a still picture has no camera to zoom";
  } else if (!range) {
    zoom.reason = "this camera has no zoom of its own";
  } else {
    const step = range.step > 0 ? range.step : 0.1;
    const wanted = Math.min(range.max, Math.round((range.min * zoom.total) / step) * step);
    try {
      await track.applyConstraints({ advanced: [{ zoom: Math.max(range.min, wanted) }] });
      const settings = track.getSettings ? track.getSettings() : {};
      cameraPart = (settings.zoom ?? Math.max(range.min, wanted)) / range.min;
      zoom.reason = "";
    } catch (error) {
      zoom.reason = `the camera refused its zoom (${error.message})`;
    }
  }
  if (request !== zoom.requests) return;
  zoom.camera = cameraPart;
  zoom.digital = Math.round((zoom.total / cameraPart) * 100) / 100;
  if (zoom.digital > 1.001) {
    // First in the chain, as the camera's own zoom would be: faces are found and pictures blended in the view.
    if (!state.enabled.has("zoom")) state.order = ["zoom", ...state.order.filter((name) => name !== "zoom")];
    state.enabled.add("zoom");
    state.values.zoom = { ...state.values.zoom, factor: zoom.digital };
  } else {
    state.enabled.delete("zoom");
  }
  renderStages();
  sendSettings();
  showZoom();
}

/// The slider and its readout follow the camera's part and the zoom stage's card (which may change it).
export function showZoom() {
  if (!elements.slider) return;
  const stageOn = state.enabled.has("zoom");
  const digital = stageOn ? Number((state.values.zoom || {}).factor ?? 1) : 1;
  zoom.digital = digital;
  zoom.total = zoom.camera * digital;
  const reach = zoom.cameraRange ? zoom.cameraRange.max / zoom.cameraRange.min : 1;
  elements.slider.max = String(Math.max(SLIDER_MAX, Math.ceil(reach)));
  if (document.activeElement !== elements.slider) elements.slider.value = String(zoom.total);
  const parts = zoom.camera > 1.001 ? ` (camera ${format(zoom.camera)}×${digital > 1.001 ? `, digital ${format(digital)}×` : ""})` : "";
  elements.readout.textContent = `${format(zoom.total)}×${parts}`;
  elements.slider.title = zoom.reason ? `Digital zoom: ${zoom.reason}` : "The camera zooms first, then the zoom stage";
  elements.slider.dataset.camera = zoom.cameraRange ? "zoom" : "none";
}

function format(value) {
  return String(Math.round(value * 10) / 10);
}

/// The slider sets the zoom; a new source starts at the camera's own zoom again, so the total is re-applied.
export function enableZoom() {
  if (!elements.slider) return;
  elements.slider.addEventListener("input", () => setZoom(Number(elements.slider.value)));
}

export function sourceChanged() {
  zoom.camera = 1;
  zoom.cameraRange = null;
  if (zoom.total > 1.001 || cameraZoomRange(cameraTrack())) setZoom(zoom.total);
  else showZoom();
}
