// What the page and its parts may read of the live stream, read-only: the connection, the source, the
// answers shown; and, for tests and benchmarks, every figure (window.ocularStudio.stats()) and a way to
// send a text as it is.

import { answered } from "./answers.js";
import { isConnected, sendText } from "./connection.js";
import { linkReport } from "./link.js";
import { pacingStats } from "./pacing.js";
import { pageName } from "./shell.js";
import { sources } from "./sources.js";
import { shownStats, takeDelays } from "./stats.js";

/// What pages may read of the stream, read-only.
export const live = Object.freeze({
  get connected() { return isConnected(); },
  get source() { return sources.kind; },
  get cameraStream() { return sources.stream; },
  get cameraChoice() { return sources.choice; },
  get answers() { return answered.answers; },
  get shownAnswer() { return answered.shownAnswer; },
  get recipe() { return answered.recipe; },
});

/// The stream's figures, for tests and the curious (window.ocularStudio.stats()).
export function liveStats() {
  return {
    connected: isConnected(),
    source: sources.kind,
    ...shownStats(),
    cameraFrames: sources.frames,
    ...pacingStats(),
    camera: sources.choice,
    cameras: sources.found,
    page: pageName,
    actions: answered.actions,
    link: linkReport(),
  };
}

/// For tests and benchmarks: send a text message as it is; take the delays logged since the last call.
export const liveTools = {
  /// Sends a text message as it is, to try the server's checks by hand.
  sendText,
  /// {delay, roundTrip, ahead, processingMs, width} of every frame shown since the last call: camera
  /// frame to screen and frame sent to answer received (ms), whether it was sent while another was in
  /// flight, the server's processing time as last reported, and the width of the frame shown.
  takeDelays,
};
