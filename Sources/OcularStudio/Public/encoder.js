// Encoding the frames the live view sends: JPEG, scaled to the link's size, in jpeg-worker.js off the
// page's main thread where the browser can, else on a canvas here.

// The camera's frames are encoded in jpeg-worker.js, off the page's main thread, where the browser can
// (OffscreenCanvas with convertToBlob; a camera read as VideoFrames, which transfer): from when the worker
// says it runs (`ready`; frames before are encoded here) until it fails to start or to encode, when
// `usable` turns false for good and frames are encoded on the page again.
const offThread = {
  usable: typeof OffscreenCanvas !== "undefined" && "convertToBlob" in OffscreenCanvas.prototype,
  worker: null,
  ready: false,
  lastId: 0,
  waiting: new Map(),  // id → the resolve of each frame given to the worker and not yet back
  encoded: 0,          // frames the worker has encoded
};

/// Resolves every frame the worker still holds with null (each is then encoded here) and stops using it.
function giveUpOffThread() {
  offThread.usable = false;
  offThread.ready = false;
  if (offThread.worker) offThread.worker.terminate();
  offThread.worker = null;
  for (const resolve of offThread.waiting.values()) resolve(null);
  offThread.waiting.clear();
}

/// Starts the worker, once: it says when it runs.
function startWorker() {
  if (offThread.worker) return;
  try {
    offThread.worker = new Worker("jpeg-worker.js");
  } catch {
    giveUpOffThread();
    return;
  }
  offThread.worker.onmessage = ({ data: { ready, id, blob } }) => {
    if (ready) {
      offThread.ready = true;
      return;
    }
    const resolve = offThread.waiting.get(id);
    offThread.waiting.delete(id);
    if (blob) offThread.encoded += 1;
    else giveUpOffThread();
    if (resolve) resolve(blob);
  };
  offThread.worker.onerror = () => giveUpOffThread();
  offThread.worker.onmessageerror = () => giveUpOffThread();
}

/// A VideoFrame of `image` (the camera's VideoFrame, or the <video> playing it) to give the worker, which
/// closes it (the camera keeps its own until a newer one comes); null where the <video> has no frame yet.
function copyForWorker(image) {
  try {
    return image instanceof VideoFrame ? image.clone() : new VideoFrame(image);
  } catch {
    return null;
  }
}

/// Encodes `copy` (a VideoFrame, transferred) in the running worker: its JPEG blob, or null where the worker could not.
function encodeOffThread(copy, width, height, quality) {
  const id = ++offThread.lastId;
  return new Promise((resolve) => {
    offThread.waiting.set(id, resolve);
    offThread.worker.postMessage({ id, frame: copy, width, height, quality }, [copy]);
  });
}

/// Draws the source's picture (`newestPicture()`: {image, width, height}, or null before one exists),
/// scaled down to `longSide` (null: its size), and encodes it as a JPEG blob at `quality`: a camera's
/// frame in jpeg-worker.js where it can be, anything else here, on `canvas`.
export function encodeFrame(newestPicture, { longSide, quality }, canvas) {
  const picture = newestPicture();
  if (!picture) return Promise.resolve(null);  // the camera has not delivered a frame yet
  const { image, width: fullWidth, height: fullHeight } = picture;
  const scale = longSide ? Math.min(1, longSide / Math.max(fullWidth, fullHeight)) : 1;
  // Even sizes: JPEG's 4:2:0 chroma halves them.
  const width = Math.max(2, Math.round((fullWidth * scale) / 2) * 2);
  const height = Math.max(2, Math.round((fullHeight * scale) / 2) * 2);
  // A <video>'s frame goes too, as a VideoFrame made of it, where the camera plays in one (Firefox, WebKit:
  // no MediaStreamTrackProcessor): WebKit took 35 ms of its main thread to encode a 720p frame there.
  if (typeof VideoFrame !== "undefined" && (image instanceof VideoFrame || image instanceof HTMLVideoElement) && offThread.usable) {
    startWorker();
    // Where the worker could not, the newest frame is encoded here (this one may be closed by then).
    const copy = offThread.ready ? copyForWorker(image) : null;
    if (copy) return encodeOffThread(copy, width, height, quality).then((blob) => blob ?? encodeFrame(newestPicture, { longSide, quality }, canvas));
  }
  return encodeHere(image, width, height, quality, canvas);
}

/// Draws `image` into `canvas` at `width`×`height` and encodes it, on the page's own thread.
function encodeHere(image, width, height, quality, canvas) {
  if (canvas.width !== width || canvas.height !== height) {
    canvas.width = width;
    canvas.height = height;
  }
  canvas.getContext("2d").drawImage(image, 0, 0, width, height);
  return new Promise((resolve) => canvas.toBlob(resolve, "image/jpeg", quality));
}

/// How many frames the worker has encoded.
export const framesEncodedOffThread = () => offThread.encoded;
