// The live view every Ocular Studio camera page shares (Light Work, Many Masks, Bean Counter, Samples,
// Filters), wired here and only here: a page calls startLive(handlers), and this module hands each part
// the callbacks it needs. No part imports this module, and none imports another that imports it back.
//
// A frame's way, camera to screen and back:
//   sources.js (camera.js or a still) ──frameCame──▶ pacing.js: prepares it (encoder.js), sends it when
//   due ──▶ connection.js ──▶ server ──▶ connection.js ──frame/message──▶ answers.js: settles the frame
//   with pacing.js (the next goes), draws it (view.js), counts it (stats.js), hands the page its messages.
// What the page may read of it all is in stream.js; the server's constants and link reports in link.js.
//
// Text messages are JSON objects with a "type". The server opens with "hello", which lists every stage
// with its declared parameters (the page builds its controls from that list, so no stage needs HTML
// of its own), the messages the page may send with their schemas, and the constants the page follows.
// The page sends {"type": "settings", "recipe": {"stages": [...]}}; the server answers "settings" (the
// recipe with every value spelled out) or "error". {"type": "save"} asks the server to save the next
// processed frame in the gallery, losslessly, with the current recipe; that frame's answer carries
// {"type": "saved", "item": {id, url, thumbnailURL, fileName, …}} or an error about "save" follows.
// {"type": "tap", x, y, viewWidth, …} asks where a tap on the preview lands in the camera's frame; the
// server maps it through its tested camera geometry and answers "tapped" with the preview rectangle
// and the point of interest (null off the picture), which goes to the camera as the W3C Image Capture
// pointsOfInterest constraint where the camera takes it.

import { handleMessage, showFrame, startAnswers } from "./answers.js";
import { connect } from "./connection.js";
import { forgetLink } from "./link.js";
import { answerArrived, forgetPrepared, frameAnswered, prepareFrame, restartPacing, sendIfDue } from "./pacing.js";
import { attachRecorder, setRecordingLimits } from "./recorder.js";
import { isPhone, pageName } from "./shell.js";
import { attachSoundSwitch } from "./sounds.js";
import { setCameraChoice, sources, startSources } from "./sources.js";
import { elements, showConnection, showNotice } from "./view.js";

/// What a page does with the stream: every handler is optional.
const pageDefaults = {
  /// Every text message but `dropped`, `link` and errors about a frame, which the live view answers itself.
  onMessage: () => {},
  /// The connection was lost (it is retried).
  onClose: () => {},
  /// Whether the busy overlay must stay when a frame arrives (a save waits).
  keepsBusy: () => false,
  /// Answer `number` (counted from 1) was drawn on the output canvas.
  onFrameDrawn: () => {},
  /// Whether the frame that was sent is wanted beside its answer (a before/after view).
  showsOriginal: () => false,
  /// Called, when showsOriginal(), right after an answer is drawn and before it can be seen, with the
  /// output canvas and the frame as it was sent (an ImageBitmap the page then owns and closes).
  drawOverFrame: () => {},
  /// The source changed: a camera started (live.cameraStream holds it) or a still replaced it.
  onSourceChange: () => {},
};

/// Starts the live view for a page: connects at once (a camera permission prompt may wait for the
/// person; frames flow once a source exists) and starts the camera, or the still where there is none.
export function startLive(handlers) {
  const page = { ...pageDefaults, ...handlers };
  // The frames are opaque JPEGs: an opaque canvas is composited without blending (a few per cent of
  // Chromium's CPU a frame shown). Its first context fixes that, so it is made here, before any other.
  elements.output.getContext("2d", { alpha: false });
  elements.capture.getContext("2d", { alpha: false });
  startAnswers({
    page,
    answerArrived,
    frameAnswered,
    helloAdopted: (hello) => {
      setCameraChoice(sources.choice);  // its title names the server's cycle
      setRecordingLimits(hello.recording);
    },
    helloHandled: sendIfDue,  // frames waited for it: the first goes now
  });
  attachRecorder();
  attachSoundSwitch(document.getElementById("sounds"));
  const unreadable = (what) => showNotice(`The server sent ${what} this page does not understand.`, "error");
  connect(pageName, {
    connecting: () => showConnection("connecting"),
    opened: () => {
      // A new stream counts its frames afresh, and may be another studio: frames wait for its hello.
      restartPacing();
      forgetLink();
      showConnection("live");
    },
    message: (message) => {
      try {
        handleMessage(message);
      } catch {
        unreadable("a message");  // one whose fields are not what the protocol says
      }
    },
    // The frame is shown (its decoding started) before its messages are handled, as they belong to it.
    frame: (number, jpeg, messages) => {
      showFrame(number, jpeg);
      for (const message of messages) handleMessage(message);
    },
    unreadable,
    closed: (details) => {
      restartPacing();
      page.onClose();
      showConnection("offline", details);
    },
  });
  startSources(isPhone(), {
    frameCame: prepareFrame,
    stopped: forgetPrepared,
    cameraStarted: () => page.onSourceChange(),
    stillShown: () => {
      page.onSourceChange();
      sendIfDue();  // a still does not wait for camera frames
    },
  });
}
