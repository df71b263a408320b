// The gallery's own video player: play/pause, a scrubber that shows the frame under the pointer,
// frame-by-frame steps, speed from 0.25× to 2×, mute and volume, fullscreen, and the keys space
// (play/pause), ←/→ (5 s), ↑/↓ (volume), `,`/`.` (a frame back/forward), M (mute), F (fullscreen).
//
// A recorder's WebM carries no duration (the browser learns it only at the end), so the length the
// server measured (the item's `duration`) is the scrubber's. When the browser cannot play the file's
// format, the player says so and offers the item's other file (the MP4 beside a WebM) or a download.
// A frame's length is learnt from the frames shown while playing (requestVideoFrameCallback); until
// then a step is 1/30 s.

import { icon } from "./icons.js";
import { make } from "./shell.js";

const SPEEDS = [0.25, 0.5, 0.75, 1, 1.25, 1.5, 2];
const SEEK_SECONDS = 5;
const DEFAULT_FRAME_SECONDS = 1 / 30;
const PREVIEW_WIDTH = 160;

function clock(seconds) {
  if (!Number.isFinite(seconds)) return "–:–";
  const tenths = Math.floor(Math.max(0, seconds) * 10);
  const whole = Math.floor(tenths / 10);
  return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, "0")}.${tenths % 10}`;
}

/// The item's files, the one this browser plays first: [{url, type, label}].
function sources(item) {
  const typeOf = (name) => (/\.webm$/i.test(name) ? "video/webm" : /\.(mp4|m4v)$/i.test(name) ? "video/mp4"
    : /\.mov$/i.test(name) ? "video/quicktime" : /\.avi$/i.test(name) ? "video/x-msvideo" : /\.mkv$/i.test(name) ? "video/x-matroska" : "");
  const label = (name) => (name.split(".").pop() || "video").toUpperCase();
  const files = [{ url: item.url, type: typeOf(item.fileName), label: label(item.fileName), name: item.fileName }];
  if (item.alternateURL && item.alternateFileName) {
    files.push({ url: item.alternateURL, type: typeOf(item.alternateFileName), label: label(item.alternateFileName), name: item.alternateFileName });
  }
  const probe = document.createElement("video");
  const rank = (file) => (!file.type ? 1 : probe.canPlayType(file.type) === "probably" ? 3 : probe.canPlayType(file.type) === "maybe" ? 2 : 0);
  return files.map((file, index) => ({ ...file, rank: rank(file), index })).sort((a, b) => b.rank - a.rank || a.index - b.index);
}

/// Builds the player for a video item. Returns {element, video, destroy()}.
export function createPlayer(item) {
  const files = sources(item);
  const video = make("video", { id: "viewer-content", playsinline: true, preload: "metadata", poster: item.thumbnailURL || null });
  const message = make("div", { class: "player-message", role: "alert", hidden: true });
  const play = make("button", { type: "button", class: "player-play", "aria-label": "Play", title: "Play (space)" }, icon("play"));
  const back = make("button", { type: "button", class: "player-step", "aria-label": "Previous frame", title: "Previous frame (,)" }, icon("previousFrame"));
  const forward = make("button", { type: "button", class: "player-step", "aria-label": "Next frame", title: "Next frame (.)" }, icon("nextFrame"));
  const time = make("span", { class: "player-time", "aria-live": "off" }, "0:00.0 / –:–");
  const scrubber = make("input", { type: "range", class: "player-scrubber", min: 0, max: 1000, step: 1, value: 0, "aria-label": "Position" });
  const previewCanvas = make("canvas", { width: PREVIEW_WIDTH, height: 90 });
  const previewTime = make("span", {}, "");
  const preview = make("div", { class: "player-preview", hidden: true, "aria-hidden": "true" }, previewCanvas, previewTime);
  const scrub = make("div", { class: "player-scrub" }, scrubber, preview);
  const speed = make("select", { class: "player-speed", "aria-label": "Speed", title: "Playback speed" },
    ...SPEEDS.map((rate) => make("option", { value: rate, selected: rate === 1 }, `${rate}×`)));
  const mute = make("button", { type: "button", class: "player-mute", "aria-label": "Mute", "aria-pressed": "false", title: "Mute (M)" }, icon("volume"));
  const volume = make("input", { type: "range", class: "player-volume", min: 0, max: 1, step: 0.05, value: 1, "aria-label": "Volume" });
  const fullscreen = make("button", { type: "button", class: "player-fullscreen", "aria-label": "Fullscreen", title: "Fullscreen (F)" }, icon("fullscreen"));
  const controls = make("div", { class: "player-controls" }, play, back, forward, time, scrub, speed, mute, volume, fullscreen);
  const element = make("div", { class: "player", tabindex: "0", "data-state": "paused", "aria-label": "Video player" }, video, message, controls);

  const state = {
    file: 0,                // index in `files` of the file playing
    frameSeconds: DEFAULT_FRAME_SECONDS,
    lastFrameTime: null,
    scrubbing: false,
    previewVideo: null,     // a second, silent copy that seeks under the pointer
    previewWanted: null,
    previewBusy: false,
    destroyed: false,
  };

  /// The clip's length: the browser's when it knows it, else the server's measurement.
  function duration() {
    return Number.isFinite(video.duration) && video.duration > 0 ? video.duration : item.duration || 0;
  }

  function showTime() {
    const length = duration();
    time.textContent = `${clock(video.currentTime)} / ${clock(length)}`;
    if (!state.scrubbing && length > 0) scrubber.value = String(Math.round((1000 * video.currentTime) / length));
    element.dataset.time = video.currentTime.toFixed(3);
  }

  function showPlaying() {
    const playing = !video.paused && !video.ended;
    element.dataset.state = playing ? "playing" : "paused";
    play.replaceChildren(icon(playing ? "pause" : "play"));
    play.setAttribute("aria-label", playing ? "Pause" : "Play");
    play.title = playing ? "Pause (space)" : "Play (space)";
  }

  function showVolume() {
    mute.replaceChildren(icon(video.muted || video.volume === 0 ? "muted" : video.volume < 0.5 ? "volumeLow" : "volume"));
    mute.setAttribute("aria-pressed", String(video.muted));
    mute.setAttribute("aria-label", video.muted ? "Unmute" : "Mute");
    volume.value = String(video.muted ? 0 : video.volume);
  }

  function togglePlay() {
    if (video.paused || video.ended) video.play().catch((error) => { if (error.name !== "AbortError") unplayable(); });
    else video.pause();
  }

  function seek(seconds) {
    const length = duration();
    video.currentTime = Math.max(0, length ? Math.min(length, seconds) : seconds);
    showTime();
  }

  /// One frame back or forward, paused: the frame's length as measured while playing.
  function step(frames) {
    video.pause();
    seek(video.currentTime + frames * state.frameSeconds);
  }

  function setSpeed(rate) {
    video.playbackRate = rate;
    speed.value = String(rate);
  }

  function changeVolume(by) {
    video.muted = false;
    video.volume = Math.min(1, Math.max(0, Math.round((video.volume + by) * 20) / 20));
  }

  async function toggleFullscreen() {
    try {
      if (document.fullscreenElement) await document.exitFullscreen();
      else await element.requestFullscreen();
    } catch (error) {
      message.hidden = false;
      message.textContent = `Fullscreen is not available here (${error.message}).`;
    }
  }

  /// The browser cannot play this file: say so, and offer what is left.
  function unplayable() {
    const current = files[state.file];
    const others = files.filter((_, index) => index !== state.file);
    element.dataset.state = "unplayable";
    message.hidden = false;
    message.replaceChildren(make("p", {}, `This browser cannot play this ${current.label} video.`));
    const offers = make("div", { class: "player-offers" });
    for (const other of others) {
      const button = make("button", { type: "button", class: "primary" }, `Play the ${other.label} file`);
      button.addEventListener("click", () => load(files.indexOf(other)));
      offers.append(button);
    }
    if (!others.length && item.kind === "video" && /\.webm$/i.test(item.fileName)) {
      offers.append(make("span", { class: "muted" }, "Its MP4 is made in the background where the studio has FFmpeg; reopen it in a moment. "));
    }
    offers.append(make("a", { class: "button secondary", href: current.url, download: current.name }, `Download the ${current.label} file`));
    message.append(offers);
  }

  function load(index) {
    state.file = index;
    message.hidden = true;
    element.dataset.state = "paused";
    element.dataset.file = files[index].label.toLowerCase();
    video.src = files[index].url;
    video.load();
    if (state.previewVideo) state.previewVideo.src = files[index].url;
  }

  // ---- The scrubber's preview: a silent second copy seeks to the hovered moment and is drawn. ----

  function previewAt(fraction) {
    const length = duration();
    if (!length) return;
    const seconds = fraction * length;
    preview.hidden = false;
    preview.style.left = `${fraction * 100}%`;
    previewTime.textContent = clock(seconds);
    if (!state.previewVideo) {
      state.previewVideo = make("video", { muted: true, preload: "auto", playsinline: true });
      state.previewVideo.muted = true;
      state.previewVideo.src = files[state.file].url;
      state.previewVideo.addEventListener("seeked", drawPreview);
    }
    state.previewWanted = seconds;
    if (!state.previewBusy) seekPreview();
  }

  function seekPreview() {
    if (state.previewWanted === null) return;
    state.previewBusy = true;
    state.previewVideo.currentTime = state.previewWanted;
    preview.dataset.seconds = state.previewWanted.toFixed(2);
    state.previewWanted = null;
  }

  function drawPreview() {
    const source = state.previewVideo;
    state.previewBusy = false;
    if (source.videoWidth) {
      const height = Math.round((PREVIEW_WIDTH * source.videoHeight) / source.videoWidth);
      if (previewCanvas.height !== height) previewCanvas.height = height;
      previewCanvas.getContext("2d").drawImage(source, 0, 0, PREVIEW_WIDTH, height);
      preview.dataset.drawn = String(Number(preview.dataset.drawn || 0) + 1);
    }
    seekPreview();  // the pointer moved on meanwhile
  }

  function pointerFraction(event) {
    const box = scrubber.getBoundingClientRect();
    return Math.min(1, Math.max(0, (event.clientX - box.left) / box.width));
  }

  // ---- Frame length, learnt while playing ----

  function watchFrames() {
    if (!video.requestVideoFrameCallback || state.destroyed) return;
    video.requestVideoFrameCallback((now, metadata) => {
      if (state.lastFrameTime !== null && !video.paused) {
        const interval = metadata.mediaTime - state.lastFrameTime;
        // A plausible frame interval (2–120 fps) nudges the estimate; seeks and stalls do not.
        if (interval > 1 / 120 && interval < 0.5) state.frameSeconds = 0.8 * state.frameSeconds + 0.2 * interval;
      }
      state.lastFrameTime = metadata.mediaTime;
      element.dataset.frameSeconds = state.frameSeconds.toFixed(4);
      watchFrames();
    });
  }

  // ---- Events ----

  play.addEventListener("click", togglePlay);
  video.addEventListener("click", togglePlay);
  back.addEventListener("click", () => step(-1));
  forward.addEventListener("click", () => step(1));
  speed.addEventListener("change", () => setSpeed(Number(speed.value)));
  mute.addEventListener("click", () => { video.muted = !video.muted; });
  volume.addEventListener("input", () => { video.muted = false; video.volume = Number(volume.value); });
  fullscreen.addEventListener("click", toggleFullscreen);
  scrubber.addEventListener("input", () => {
    state.scrubbing = true;
    seek((Number(scrubber.value) / 1000) * duration());
    state.scrubbing = false;
  });
  scrubber.addEventListener("pointermove", (event) => previewAt(pointerFraction(event)));
  scrubber.addEventListener("pointerleave", () => { preview.hidden = true; });
  video.addEventListener("play", showPlaying);
  video.addEventListener("pause", showPlaying);
  video.addEventListener("ended", showPlaying);
  video.addEventListener("timeupdate", showTime);
  video.addEventListener("seeked", showTime);
  video.addEventListener("loadedmetadata", showTime);
  video.addEventListener("durationchange", showTime);
  video.addEventListener("ratechange", () => { speed.value = String(video.playbackRate); element.dataset.speed = String(video.playbackRate); });
  video.addEventListener("volumechange", showVolume);
  video.addEventListener("error", unplayable);
  element.addEventListener("keydown", (event) => {
    if (event.target instanceof HTMLSelectElement || event.altKey || event.ctrlKey || event.metaKey) return;
    const keys = {
      " ": togglePlay,
      ArrowLeft: () => seek(video.currentTime - SEEK_SECONDS),
      ArrowRight: () => seek(video.currentTime + SEEK_SECONDS),
      ArrowUp: () => changeVolume(0.1),
      ArrowDown: () => changeVolume(-0.1),
      ",": () => step(-1),
      ".": () => step(1),
      m: () => { video.muted = !video.muted; },
      f: toggleFullscreen,
    };
    const action = keys[event.key] || keys[event.key.toLowerCase()];
    // The scrubber and volume sliders keep their own arrow keys.
    if (!action || (event.target instanceof HTMLInputElement && event.key.startsWith("Arrow"))) return;
    event.preventDefault();
    action();
  });

  if (!files[0].rank && files[0].type) {
    // Not even "maybe": no need to wait for the error.
    load(0);
    unplayable();
  } else {
    load(0);
  }
  showVolume();
  watchFrames();

  return {
    element,
    video,
    destroy() {
      state.destroyed = true;
      video.pause();
      video.removeAttribute("src");
      video.load();
      if (state.previewVideo) state.previewVideo.removeAttribute("src");
    },
  };
}
