// The page shell every page of Ocular Studio shares, rendered once here instead of copied into each
// HTML file: the header with the navigation, and on a live page the view (the processed frame, its
// figures, the busy state, the notice) and the toolbar with the source. A page's HTML holds only what
// is its own: <body data-page="manyMasks" data-live data-stills="astronaut chelsea" data-view-label="…">,
// its <main> content, and <template data-slot="camera-group"> / <template data-slot="toolbar"> for
// the controls it adds to the toolbar, and <template data-slot="header"> for what it shows at the
// header's end (the gallery's count). Every live page gets the Record group (recorder.js) and the
// header's Sounds switch (sounds.js). `data-save` adds the Save group (status, Share, Save) at the
// toolbar's end, `data-before-after` the Before/after switch of a divided view.
//
// Every page script imports this module first (live.js does), so the shell exists before any module
// looks its elements up.

// The pages, in the bar's order ({name, title, href}): the server's list (StudioPage.swift), served as
// a module so the bar is whole as the page loads. `name` is what a live page streams under (`?page=`).
import { PAGES } from "./api/pages.js";

/// The built-in stills, shown where there is no camera (demo/NAME.jpg).
const STILLS = {
  astronaut: "Still: astronaut",
  chelsea: "Still: chelsea (cat)",
  coffee: "Still: coffee",
  beans: "Still: coins and beans",
};

/// The name this page streams under.
export const pageName = document.body.dataset.page || "";

/// Builds an element: tag with attributes (a string is the text, a Node a child), then children.
export function make(tag, attributes = {}, ...children) {
  const element = document.createElement(tag);
  for (const [key, value] of Object.entries(attributes)) {
    if (value === true) element.setAttribute(key, "");
    else if (value !== false && value != null) element.setAttribute(key, value);
  }
  // The muted attribute only sets a media element's default: the element made here is already created, so
  // it is muted by its property too (an unmuted camera <video> was refused play() by Firefox's autoplay).
  if (attributes.muted === true && element instanceof HTMLMediaElement) element.muted = true;
  element.append(...children);
  return element;
}

function header() {
  const links = PAGES.map((page) => make("a", { href: page.href, "aria-current": page.name === pageName ? "page" : null }, page.title));
  const bar = make("header", { class: "bar" },
    make("div", { class: "brand" }, make("img", { src: "favicon.svg", alt: "", width: 22, height: 22 }), make("span", {}, "Ocular Studio")),
    make("nav", { class: "nav", "aria-label": "Pages" }, ...links));
  if ("live" in document.body.dataset) {
    bar.append(make("button", { id: "sounds", type: "button", class: "pill sound-switch", "aria-pressed": "true" }, "Sounds on"));
    bar.append(make("div", { id: "connection", class: "pill", "data-state": "connecting", role: "status" }, "Connecting…"));
  }
  bar.append(...slot("header"));
  return bar;
}

/// The processed frame with its figures and busy state, and the notice under it.
function view() {
  const hud = make("div", { class: "hud", "aria-live": "off" },
    make("span", {}, make("b", { id: "fps" }, "–"), " fps"),
    make("span", {}, make("b", { id: "latency" }, "–"), " ms"),
    make("span", { id: "frame-size" }));
  const busy = make("div", { id: "busy", class: "busy" },
    make("div", { class: "spinner", "aria-hidden": "true" }), make("span", { id: "busy-text" }, "Starting…"));
  const stage = make("div", { class: "stage" },
    make("canvas", { id: "output", width: 640, height: 480, "data-frames": "0", "aria-label": document.body.dataset.viewLabel || "The processed frame" }),
    make("div", { id: "focus-mark", class: "focus-mark", hidden: true, "aria-hidden": "true" }),
    make("div", { id: "recording-mark", class: "recording-mark", hidden: true }, make("span", { class: "rec-dot", "aria-hidden": "true" }),
      make("span", { id: "recording-time" }, "0:00")),
    hud, busy);
  return make("section", { class: "view" }, stage, make("p", { id: "notice", class: "notice", role: "alert", hidden: true }));
}

/// The page's controls kept in a template, as nodes.
function slot(name) {
  const template = document.querySelector(`template[data-slot="${name}"]`);
  return template ? [...template.content.childNodes] : [];
}

/// The Save group of pages that keep the processed frame (`data-save` on the body): what happened,
/// Share (shown where the browser shares files) and Save; booth.js drives them.
function saveGroup() {
  if (!("save" in document.body.dataset)) return [];
  return [make("div", { class: "save-group" },
    make("span", { id: "save-status", class: "save-status", role: "status", "aria-live": "polite" }),
    make("button", { id: "share", type: "button", class: "secondary", hidden: true }, "Share"),
    make("button", { id: "save", type: "button", class: "primary", title: "Save the next processed frame in the gallery, losslessly" }, "Save"))];
}

/// The Record group of every live page (recorder.js drives it): what the recording or its upload is
/// doing, the upload's progress, Retry while a failed upload's clip is still held, and Record / Stop.
function recordGroup() {
  return [make("div", { class: "record-group" },
    make("span", { id: "record-status", class: "save-status", role: "status", "aria-live": "polite" }),
    make("progress", { id: "upload-progress", max: 1, value: 0, hidden: true, "aria-label": "Upload of the recording" }),
    make("button", { id: "retry-upload", type: "button", class: "secondary", hidden: true }, "Retry upload"),
    make("button", { id: "record", type: "button", class: "record", "aria-pressed": "false",
      title: "Record the processed view with the microphone's sound into the gallery" }, "● Record"))];
}

/// The before/after switch of pages with a divider (`data-before-after` on the body; splitview.js).
function beforeAfterToggle() {
  if (!("beforeAfter" in document.body.dataset)) return [];
  return [make("label", { class: "split-toggle", title: "The frame as sent on the left of the divider, processed on the right" },
    make("input", { id: "split-view", type: "checkbox", checked: true }), " Before/after")];
}

function toolbar() {
  const stills = (document.body.dataset.stills || "astronaut").split(/\s+/).filter((name) => name in STILLS);
  const source = make("select", { id: "source" }, make("option", { value: "camera" }, "Camera"),
    ...stills.map((name) => make("option", { value: name }, STILLS[name])));
  const cameraGroup = make("div", { class: "camera-group" },
    make("label", { class: "source" }, make("span", {}, "Source"), source),
    make("button", { id: "switch-camera", type: "button", class: "secondary", title: "Static → front camera → back camera → static, skipping what is absent" }, "Switch camera"),
    ...beforeAfterToggle(), ...slot("camera-group"));
  // Record and Save at the toolbar's end, together: on a phone they stay in view while the rest scrolls.
  return make("footer", { class: "toolbar" }, cameraGroup, ...slot("toolbar"), make("div", { class: "toolbar-end" }, ...recordGroup(), ...saveGroup()));
}

/// On a phone the page's panel is a bottom sheet under the preview: a handle opens and closes it. Light
/// Work's long stage list starts closed (the preview first); a panel page's few controls start open.
function sheet(panel) {
  const title = panel.getAttribute("aria-label") || "Controls";
  const handle = make("button", { type: "button", class: "sheet-handle", "aria-controls": panel.id || null },
    make("span", { class: "sheet-grip", "aria-hidden": "true" }), make("span", { class: "sheet-title" }, title));
  const setOpen = (open) => {
    panel.dataset.sheet = open ? "open" : "closed";
    handle.setAttribute("aria-expanded", String(open));
    handle.title = open ? `Hide the ${title.toLowerCase()}` : `Show the ${title.toLowerCase()}`;
  };
  handle.addEventListener("click", () => setOpen(panel.dataset.sheet !== "open"));
  setOpen(document.body.classList.contains("panel-page"));
  panel.prepend(handle);
}

/// Whether this is a phone (a touch screen a hand holds), where the back camera is the one wanted.
export function isPhone() {
  return window.matchMedia("(pointer: coarse)").matches && Math.min(screen.width, screen.height) <= 600;
}

function render() {
  document.body.prepend(header());
  if (!("live" in document.body.dataset)) return;
  const main = document.querySelector("main");
  main.prepend(view());
  main.after(toolbar());
  const panel = main.querySelector("aside");
  if (panel) sheet(panel);

  document.body.append(make("video", { id: "camera", playsinline: true, muted: true, hidden: true }), make("canvas", { id: "capture", hidden: true }));
}

render();
