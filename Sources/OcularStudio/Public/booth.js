// The booth every page shares: a request to the server that the page waits for (busy state, a time
// limit, its error said where the person looks), and saving into the gallery (a busy Save, then
// "Saved in the gallery" with a link to the item, then Share, or why not). A page's own requests
// (Many Masks' capture and merge, Bean Counter's classify) wait here too.
//
// Two ways to save. Light Work saves the next processed frame ({"type": "save"}) from its toolbar
// (#save, #share, #save-status). Many Masks and Bean Counter open an answer for review in a dialog
// (review, review-image, review-title, review-meta, review-status, review-discard, review-save,
// review-share: the same ids on every page), where it is discarded or saved ("saveMerge", "saveBlob").

import { answers, requests } from "./api/protocol.js";
import { send } from "./connection.js";
import { shareItem, showSaveOutcome } from "./share.js";
import { playSound } from "./sounds.js";
import { live } from "./stream.js";
import { setBusy, showNotice } from "./view.js";

const ANSWER_TIMEOUT_MS = 15000;  // a request with no answer by then is reported as failed

/// @param {object} options
/// @param {string} options.saveType The message that saves: "save" (the next frame), or what is
///   reviewed ("saveMerge", "saveBlob").
/// @param {string} options.saving The busy text while saving ("Saving the merge…").
/// @param {boolean} [options.review] Whether saving follows a review in the dialog (true), or the
///   toolbar's Save saves the next frame (false).
/// @param {Object<string, string>} [options.failures] For each request but "save", how its failure
///   begins ("Not picked", "Not merged").
/// @param {() => void} [options.showControls] Called whenever what waits changes.
/// @param {(saving: boolean) => void} [options.whileSaving] Called as a save starts and ends (to hold
///   still the controls that would change what is saved).
/// @param {(item: object) => void} [options.onSaved] Called with the item saved.
export function createBooth({ saveType, saving, review = true, failures = {}, showControls = () => {}, whileSaving = () => {}, onSaved = () => {} }) {
  // The review dialog's parts, or the toolbar's Save, Share and status.
  const part = (name) => (review ? document.getElementById(`review-${name}`) : null);
  const elements = {
    review: review ? document.getElementById("review") : null,
    image: part("image"),
    title: part("title"),
    meta: part("meta"),
    discard: part("discard"),
    status: document.getElementById(review ? "review-status" : "save-status"),
    save: document.getElementById(review ? "review-save" : "save"),
    share: document.getElementById(review ? "review-share" : "share"),
  };
  const state = {
    waiting: null,     // the request that waits for the server's answer: "capture", "merge", "save"…
    asked: null,       // the type of the message it sent, which the server's errors about it name
    timer: 0,
    reviewed: !review, // something can be saved: the next frame always; a review once opened
    savedItem: null,
    saves: [],         // every save's outcome, for tests: {id} (with its caption, if any) or {error}
  };

  function setStatus(kind, text, link) {
    showSaveOutcome(elements.status, kind, text, link);
  }

  function setSaving(busy) {
    // "off" (a read-only gallery: no Save at all) stays.
    if (document.body.dataset.saving !== "off") document.body.dataset.saving = String(busy);
    elements.save.disabled = busy;
    elements.save.setAttribute("aria-busy", String(busy));
    elements.save.textContent = busy ? "Saving…" : "Save";
    if (elements.discard) elements.discard.disabled = busy;
    if (busy) elements.share.hidden = true;
    whileSaving(busy);
  }

  /// Sends a request and waits for its answer; `what` names the wait ("capture" for both ways of
  /// picking), the server's errors name the message's type.
  function request(what, message, busyText) {
    if (state.waiting) return;
    if (what !== "save") showNotice("");
    state.waiting = what;
    state.asked = message.type;
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
    if (elements.review && !elements.review.open) elements.review.showModal();
  }

  function save() {
    if (state.waiting || !state.reviewed) return;
    if (!live.connected) {
      setStatus("error", "Not saved: the server is not connected.");
      return;
    }
    setSaving(true);
    setStatus("busy", "");
    playSound("shutter");
    request("save", requests[saveType](), saving);
  }

  function saved(item) {
    finish("save", null);
    state.savedItem = item;
    state.saves.push(item.caption ? { id: item.id, caption: item.caption } : { id: item.id });
    setSaving(false);
    if (review) elements.save.disabled = true;  // saved once; review again for another
    setStatus("saved", "Saved", { href: `gallery.html#item-${item.id}`, text: "in the gallery" });
    elements.share.hidden = false;
    onSaved(item);
  }

  /// An error message from the server: ends the wait it answers and returns true, or returns false.
  function failed(message) {
    if (!state.waiting || state.asked !== message.about) return false;
    finish(state.waiting, message.message);
    return true;
  }

  /// The booth's part of a page's messages: "saved", and errors (about what it waits for, else said in
  /// the notice). Returns whether it took the message.
  function handled(message) {
    if (message.type === answers.saved) {
      saved(message.item);
      return true;
    }
    if (message.type === answers.error) {
      if (!failed(message)) showNotice(`Server: ${message.message}`, "error");
      return true;
    }
    return false;
  }

  /// What startLive needs of the booth: a lost connection ends the wait, and the busy state stays while one waits.
  const liveHandlers = {
    onClose: () => { if (state.waiting) finish(state.waiting, "the connection to the server was lost"); },
    keepsBusy: () => Boolean(state.waiting),
  };

  elements.save.addEventListener("click", save);
  if (review) {
    elements.discard.addEventListener("click", () => elements.review.close());
    elements.review.addEventListener("cancel", (event) => { if (state.waiting === "save") event.preventDefault(); });
  }
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
    handled,
    liveHandlers,
    get waiting() { return state.waiting; },
    get saves() { return state.saves; },
    get reviewing() { return Boolean(elements.review && elements.review.open); },
  };
}
