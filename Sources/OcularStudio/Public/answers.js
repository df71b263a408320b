// The live view's answers: each processed frame drawn on the output canvas, and each message routed to
// whoever it is for. Messages about frames settle them with the pacing; the server's hello and link
// reports set what link.js keeps; the rest are the page's. What it calls besides is handed to it by
// startAnswers (live.js wires the page).

import { adoptHello, adoptReport, linkFigures, linkReport } from "./link.js";
import { frameShown } from "./stats.js";
import { elements, setBusy, setIfChanged, setServerNotice, showNotice } from "./view.js";
import { answers } from "./api/protocol.js";

const shown = {
  answers: 0,      // frames answered
  shownAnswer: 0,  // the newest answer drawn
  recipe: null,    // the recipe in force, every value spelled out (the server's hello and settings)
  actions: [],     // the server's page actions live on this page, from "hello"
};

/// What the answers call: `page`, the page's handlers (live.js lists them); the pacing's
/// `answerArrived(number)` and `frameAnswered(number)`; `helloAdopted(hello)` once the hello is adopted,
/// and `helloHandled()` once the page has had it too.
let route = null;

export function startAnswers(handlers) {
  route = handlers;
}

/// What has been answered and shown so far, and the recipe and page actions in force.
export const answered = Object.freeze({
  get answers() { return shown.answers; },
  get shownAnswer() { return shown.shownAnswer; },
  get recipe() { return shown.recipe; },
  get actions() { return shown.actions; },
});

/// Shows the answer to frame `frameNumber` (its JPEG bytes). The next frame is sent first (pacing),
/// so that its capture and encoding overlap this one's decoding; a late decode never overwrites a
/// newer frame. One whose frame a stall gave up on is still shown, but has no delay to count.
export async function showFrame(frameNumber, data) {
  const { page } = route;
  const sent = route.answerArrived(frameNumber);
  const original = sent && page.showsOriginal() ? sent.blob : null;
  const number = ++shown.answers;
  try {
    // Both decoded before either is drawn: the answer never shows without what the page draws over it.
    const [bitmap, before] = await Promise.all([
      createImageBitmap(new Blob([data], { type: "image/jpeg" })),
      original ? createImageBitmap(original).catch(() => null) : null,
    ]);
    if (number < shown.shownAnswer) {
      bitmap.close();
      if (before) before.close();
      return;
    }
    shown.shownAnswer = number;
    const canvas = elements.output;
    if (canvas.width !== bitmap.width || canvas.height !== bitmap.height) {
      canvas.width = bitmap.width;
      canvas.height = bitmap.height;
    }
    canvas.getContext("2d").drawImage(bitmap, 0, 0);
    if (before) page.drawOverFrame(canvas, before);
    const { level, figures } = linkFigures();
    setIfChanged(elements.frameSize, "textContent", `${bitmap.width}×${bitmap.height}${level}`);
    setIfChanged(elements.frameSize, "title", figures);
    bitmap.close();
    const report = linkReport();
    const drawn = frameShown({ now: performance.now(), sent, roundTrip: sent ? sent.roundTrip : null,
                               processingMs: report ? report.processingMs : null, width: canvas.width });
    canvas.dataset.frames = String(drawn);
    if (!elements.busy.hidden && !page.keepsBusy()) setBusy("");
    page.onFrameDrawn(number);
  } catch (error) {
    showNotice("The server sent a frame this browser could not decode.", "error");
  }
}

/// Messages about frames are the live view's; the rest are the page's.
export function handleMessage(message) {
  if (message.type === answers.dropped) {
    route.frameAnswered(message.frame);
    return;
  }
  if (message.type === answers.link) {
    adoptReport(message);
    return;
  }
  if (message.type === answers.hello || message.type === answers.settings) shown.recipe = message.recipe;
  if (message.type === answers.hello) {
    adoptHello(message);
    shown.actions = (message.actions || []).map((action) => action.name);
    // A read-only gallery: saving is off (the Save buttons go), and the page says why.
    document.body.dataset.saving = message.notice ? "off" : "on";
    setServerNotice(message.notice);
    route.helloAdopted(message);
  }
  if (message.type === answers.error && message.about === "frame") {
    showNotice(`Server: ${message.message}`, "error");
    route.frameAnswered(message.frame);
    return;
  }
  route.page.onMessage(message);
  if (message.type === answers.hello) route.helloHandled();  // frames waited for it: the first goes now
}
