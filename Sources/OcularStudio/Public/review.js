// The booth pattern shared by Many Masks and Bean Counter: a request to the server that the page waits
// for (busy state, a time limit, its error said where the person looks), and the review dialog of what
// came back (Discard, Save into the gallery with a busy state and a link to the item, then Share).
//
// The dialog's elements have the same ids on every page: review, review-image, review-title,
// review-meta, review-status, review-discard, review-save, review-share.

import { shareItem, showSaveOutcome } from "./share.js";
import { live, send, setBusy, showNotice } from "./live.js";

const ANSWER_TIMEOUT_MS = 15000;  // a request with no answer by then is reported as failed

/// @param {object} options
/// @param {string} options.saveType The message that saves what is reviewed ("saveMerge", "saveBlob").
/// @param {string} options.saving The busy text while saving ("Saving the merge…").
/// @param {Object<string, string>} options.failures For each request but "save", how its failure
///   begins ("Not picked", "Not merged").
/// @param {() => void} options.showControls Called whenever what waits changes.
export function createBooth({ saveType, saving, failures, showControls }) {
  const elements = {
    review: document.getElementById("review"),
    image: document.getElementById("review-image"),
    title: document.getElementById("review-title"),
    meta: document.getElementById("review-meta"),
    status: document.getElementById("review-status"),
    discard: document.getElementById("review-discard"),
    save: document.getElementById("review-save"),
    share: document.getElementById("review-share"),
  };
  const state = {
    waiting: null,     // the request that waits for the server's answer: "capture", "merge", "save"…
    timer: 0,
    reviewed: false,   // something is open for review and can be saved
    savedItem: null,
    saves: [],         // every save's outcome, for tests: {id, caption} or {error}
  };

  function setStatus(kind, text, link) {
    showSaveOutcome(elements.status, kind, text, link);
  }

  function setSaving(busy) {
    elements.save.disabled = busy;
    elements.save.setAttribute("aria-busy", String(busy));
    elements.save.textContent = busy ? "Saving…" : "Save";
    elements.discard.disabled = busy;
  }

  /// Sends a request and waits for its answer (`what` names it in the server's errors).
  function request(what, message, busyText) {
    if (state.waiting) return;
    if (what !== "save") showNotice("");
    state.waiting = what;
    setBusy(busyText);
    clearTimeout(state.timer);
    state.timer = setTimeout(() => finish(what, `no answer from the server in ${ANSWER_TIMEOUT_MS / 1000} s`), ANSWER_TIMEOUT_MS);
    showControls();
    send(message);
  }

  /// Ends a wait; with a reason when it failed, which is said where the person looks.
  function finish(what, reason) {
    if (state.waiting !== what) return;
    clearTimeout(state.timer);
    state.waiting = null;
    setBusy("");
    showControls();
    if (!reason) return;
    if (what === "save") {
      state.saves.push({ error: reason });
      setSaving(false);
      setStatus("error", `Not saved: ${reason}`);
    } else {
      showNotice(`${failures[what] ?? "Failed"}: ${reason}`, "error");
    }
  }

  /// Opens the review of an answer.
  function open({ image, alt, title, meta }) {
    state.reviewed = true;
    elements.image.src = image;
    if (alt) elements.image.alt = alt;
    elements.title.textContent = title;
    elements.meta.textContent = meta;
    setStatus("", "");
    elements.share.hidden = true;
    setSaving(false);
    elements.save.disabled = false;
    if (!elements.review.open) elements.review.showModal();
  }

  function save() {
    if (state.waiting || !state.reviewed) return;
    if (!live.connected) {
      setStatus("error", "Not saved: the server is not connected.");
      return;
    }
    setSaving(true);
    setStatus("busy", "");
    request("save", { type: saveType }, saving);
  }

  function saved(item) {
    finish("save", null);
    state.savedItem = item;
    state.saves.push({ id: item.id, caption: item.caption });
    setSaving(false);
    elements.save.disabled = true;  // saved once; ask again for another
    setStatus("saved", "Saved", { href: `gallery.html#item-${item.id}`, text: "in the gallery" });
    elements.share.hidden = false;
  }

  /// An error message from the server: ends the wait it answers and returns true, or returns false.
  function failed(message) {
    if (state.waiting !== message.about) return false;
    finish(message.about, message.message);
    return true;
  }

  elements.save.addEventListener("click", save);
  elements.discard.addEventListener("click", () => elements.review.close());
  elements.review.addEventListener("cancel", (event) => { if (state.waiting === "save") event.preventDefault(); });
  elements.share.addEventListener("click", async () => {
    if (!state.savedItem) return;
    try {
      await shareItem(state.savedItem);
    } catch (error) {
      setStatus("error", `Could not share: ${error.message}`);
    }
  });

  return {
    request,
    finish,
    open,
    saved,
    failed,
    get waiting() { return state.waiting; },
    get saves() { return state.saves; },
    get reviewing() { return elements.review.open; },
  };
}
