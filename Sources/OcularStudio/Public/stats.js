// What the live view measures of the frames it shows: how many, how many a second, and how long from
// the camera (or still) to the screen; shown in the toolbar (#fps, #latency) four times a second.

import { elements } from "./view.js";

const figures = {
  framesReceived: 0,
  arrivals: [],   // times of recent answers, for frames per second
  latencies: [],  // recent camera-to-screen delays in ms
  delayLog: [],   // every frame's delays since the last takeDelays(), for benchmarks
};

/// A frame was drawn at `now`. With `sent` (the frame as it went: capturedAt, ahead), its delays count:
/// camera to screen, and `roundTrip` (sent to answered); `processingMs` is the server's last word.
/// Returns how many frames have been drawn.
export function frameShown({ now, sent, roundTrip, processingMs, width }) {
  figures.framesReceived += 1;
  figures.arrivals.push(now);
  if (sent) {
    figures.latencies.push(now - sent.capturedAt);
    if (figures.latencies.length > 30) figures.latencies.shift();
    if (figures.delayLog.length < 100000) {
      figures.delayLog.push({ delay: now - sent.capturedAt, roundTrip, ahead: sent.ahead, processingMs, width });
    }
  }
  return figures.framesReceived;
}

const framesPerSecond = () => figures.arrivals.filter((time) => performance.now() - time <= 1000).length;
const medianLatency = () => [...figures.latencies].sort((a, b) => a - b)[Math.floor(figures.latencies.length / 2)] ?? null;

/// The figures for window.ocularStudio.stats().
export function shownStats() {
  return { framesReceived: figures.framesReceived, framesPerSecond: framesPerSecond(), medianLatencyMs: medianLatency() };
}

/// {delay, roundTrip, ahead, processingMs, width} of every frame shown since the last call.
export const takeDelays = () => figures.delayLog.splice(0);

function showStats() {
  const now = performance.now();
  figures.arrivals = figures.arrivals.filter((time) => now - time <= 1000);
  elements.fps.textContent = figures.framesReceived ? String(figures.arrivals.length) : "–";
  const median = medianLatency();
  elements.latency.textContent = median === null ? "–" : String(Math.round(median));
}
setInterval(showStats, 250);
