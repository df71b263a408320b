// A dedicated worker that encodes the camera's frames as JPEG, so that the page's main thread does not:
// drawing a VideoFrame (its YUV made RGB) and encoding it took 2.5 ms of the 5 the main thread spent on
// a frame in headless Chromium, where a tap or a redraw of the page waited behind them. The total is
// the same either way; what changes is which thread pays.
//
// In: {id, frame (a VideoFrame, transferred), width, height, quality}. Out: {ready: true} once, at start;
// then {id, blob} for each frame — a JPEG Blob, or null where this browser could not draw or encode the
// frame (the page then encodes on its own thread).

let canvas = null;

// The page gives frames only once the worker runs: a VideoFrame sent to a worker whose script never
// loaded would hold one of the camera's few buffers until collected, and the camera stalled on it.
postMessage({ ready: true });

onmessage = async ({ data: { id, frame, width, height, quality } }) => {
  try {
    if (!canvas) canvas = new OffscreenCanvas(width, height);
    if (canvas.width !== width || canvas.height !== height) {
      canvas.width = width;
      canvas.height = height;
    }
    // Opaque, as the page's own canvases: JPEG has no alpha to keep.
    canvas.getContext("2d", { alpha: false }).drawImage(frame, 0, 0, width, height);
    frame.close();
    postMessage({ id, blob: await canvas.convertToBlob({ type: "image/jpeg", quality }) });
  } catch {
    frame.close();
    postMessage({ id, blob: null });
  }
};
