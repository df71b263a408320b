// The server's word on how frames go: the constants of its hello (the rate cap, the link's rungs,
// Switch camera's order), which the page keeps no copy of, and its latest "link" report.
//
// The link: the page acknowledges every answer as it arrives, {"type":"received","next":true|false},
// just before its next frame ("next": that frame follows at once). From these the server measures the
// answers' round trip and the frames' upload, and sends {"type":"link", level, upload:{longSide,
// quality}, answerQuality, processingMs, …} when the level changes and once a second. The page sends
// frames at that size and quality; the server encodes its answers at that quality (LinkMeter.swift).

/// From the stream's hello; null before it. `frameIntervalMs`: the least time between frames sent;
/// `captureQuality`: frames' JPEG quality until the link is measured (its top rung); `cameraCycle`:
/// what Switch camera goes through, in order.
let constants = null;
/// The server's latest "link" report: the size and quality to send at, and what it measured.
let report = null;

export function adoptHello(hello) {
  constants = {
    frameIntervalMs: 1000 / hello.link.framesPerSecond,
    captureQuality: hello.link.levels[0].uploadQuality,
    cameraCycle: hello.cameras,
  };
}

export function adoptReport(message) {
  report = message;
}

/// A new stream (perhaps to another studio): nothing is known until its hello and reports.
export function forgetLink() {
  constants = null;
  report = null;
}

/// Whether the hello has come: no frame goes before it.
export const hasHello = () => constants !== null;
export const frameIntervalMs = () => constants.frameIntervalMs;
export const cameraCycle = () => (constants ? constants.cameraCycle : null);
export const linkReport = () => report;

/// The size and quality frames go at: the server's word on the link (LinkLevel), else the full size
/// at the top rung's quality. A still goes as it is: it has no camera rate to keep, and its findings
/// stay the same from one visit to the next.
export function uploadSettings(fromCamera) {
  const upload = fromCamera && report && report.upload;
  return { longSide: (upload && upload.longSide) || null, quality: (upload && upload.quality) || constants.captureQuality };
}

/// Whether the server spends longer on a frame than the camera takes to make one.
export function recipeIsSlow() {
  return Boolean(report && report.processingMs > constants.frameIntervalMs);
}

/// Whether the server's processing takes at least as long as a frame's transfers, as the server
/// measured both: then a frame sent ahead keeps it busy (where the transfers take longer, such a frame
/// would only queue in the link). Where the round trip is shorter than the camera's interval the
/// answer comes first and nothing goes ahead.
export function processingSetsTheRate() {
  return Boolean(report && report.processingMs && report.answerRoundTripMs !== null)
    && report.processingMs >= report.answerRoundTripMs + (report.uploadMs ?? 0);
}

/// What the frame-size label says of the link (" · link 2/7") and its title's figures.
export function linkFigures() {
  if (!report) return { level: "", figures: "" };
  return {
    level: report.level > 0 ? ` · link ${report.level}/${report.levels - 1}` : "",
    figures: `Link: ${report.downloadMbps ?? "?"} Mbit/s down, ${report.uploadMbps ?? "?"} Mbit/s up; `
      + `server ${report.processingMs ?? "?"} ms a frame; answers at quality ${report.answerQuality}`,
  };
}
