// What every live page shows besides the frames: its elements, the notice line, the busy overlay and the
// connection's state. Every part may show a notice: this imports nothing of the page but its shell,
// which makes the elements found here, and so must run first.

import "./shell.js";

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

// What the server says for the whole session (a read-only gallery), kept in front of later notices.
let serverNotice = "";

export function showNotice(text, kind = "info") {
  elements.notice.textContent = [serverNotice, text].filter(Boolean).join(" ");
  elements.notice.dataset.kind = kind;
  elements.notice.hidden = !elements.notice.textContent;
}

/// The server's word for the whole session (its hello's notice), shown before every notice from now on.
export function setServerNotice(text) {
  serverNotice = text || "";
  if (serverNotice) showNotice("");
}

export function setBusy(text) {
  elements.busy.hidden = !text;
  elements.busyText.textContent = text || "";
}

/// Sets an element's property only when it changes: a text set, even to itself, lays the page out again.
export function setIfChanged(element, property, value) {
  if (element[property] !== value) element[property] = value;
}

/// Shows the connection as "connecting", "live" or "offline" (with the retry's pause, and why).
export function showConnection(name, { seconds, tooLarge, wasConnected } = {}) {
  const texts = { connecting: "Connecting…", live: "Live", offline: `Server unreachable, retrying in ${seconds} s` };
  document.body.dataset.connection = name;
  elements.connection.dataset.state = name;
  elements.connection.textContent = texts[name];
  if (name === "live") {
    if (elements.notice.dataset.kind === "error") showNotice("");
    if (elements.busy.textContent.includes("server")) setBusy("");
  } else if (name === "offline") {
    showNotice(
      tooLarge
        ? "The server closed the connection: a message was too large."
        : wasConnected
          ? "Lost the connection to the Ocular server. Is `ocular studio` still running?"
          : "Cannot reach the Ocular server. Is `ocular studio` running?",
      "error");
  }
}
