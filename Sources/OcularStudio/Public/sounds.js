// The studio's few sounds: a shutter on Save, a rising tone when recording starts and a falling one
// when it stops. They are made here with Web Audio (noise and oscillators), so no sound file ships and
// no licence applies. A setting turns them off, remembered by the browser (localStorage). Browsers
// let a page play sound only after the person has used it (autoplay rules), and the studio goes
// further: no sound is made before that, and the audio context itself is created on the first sound.

import { icon } from "./icons.js";

const STORAGE_KEY = "ocular.sounds";

let context = null;

/// What played, for tests: {name, at} in performance.now() milliseconds.
export const soundLog = [];

/// Whether sounds are on (the default) in this browser.
export function soundsOn() {
  try {
    return localStorage.getItem(STORAGE_KEY) !== "off";
  } catch {
    return true;  // storage blocked: the default
  }
}

/// Turns sounds on or off, remembered.
export function setSoundsOn(on) {
  try {
    localStorage.setItem(STORAGE_KEY, on ? "on" : "off");
  } catch { /* not remembered, still applied for this page */ }
  document.body.dataset.sounds = on ? "on" : "off";
}

/// A burst of filtered noise, fading: one click of a shutter's blades.
function click(audio, at, length, frequency) {
  const samples = Math.round(audio.sampleRate * length);
  const buffer = audio.createBuffer(1, samples, audio.sampleRate);
  const channel = buffer.getChannelData(0);
  for (let index = 0; index < samples; index += 1) channel[index] = (Math.random() * 2 - 1) * (1 - index / samples) ** 3;
  const source = audio.createBufferSource();
  source.buffer = buffer;
  const filter = audio.createBiquadFilter();
  filter.type = "bandpass";
  filter.frequency.value = frequency;
  filter.Q.value = 0.9;
  const gain = audio.createGain();
  gain.gain.value = 0.8;
  source.connect(filter).connect(gain).connect(audio.destination);
  source.start(at);
}

/// A short sine tone gliding from one pitch to another, with soft edges (no click).
function tone(audio, at, from, to, length) {
  const oscillator = audio.createOscillator();
  oscillator.type = "sine";
  oscillator.frequency.setValueAtTime(from, at);
  oscillator.frequency.exponentialRampToValueAtTime(to, at + length);
  const gain = audio.createGain();
  gain.gain.setValueAtTime(0, at);
  gain.gain.linearRampToValueAtTime(0.25, at + 0.01);
  gain.gain.setValueAtTime(0.25, at + length - 0.03);
  gain.gain.linearRampToValueAtTime(0, at + length);
  oscillator.connect(gain).connect(audio.destination);
  oscillator.start(at);
  oscillator.stop(at + length + 0.01);
}

const SOUNDS = {
  // Two clicks 70 ms apart, the second lower: a mechanical shutter opening and closing.
  shutter: (audio, now) => { click(audio, now, 0.045, 3200); click(audio, now + 0.07, 0.06, 1800); },
  recordStart: (audio, now) => { tone(audio, now, 660, 990, 0.12); tone(audio, now + 0.13, 990, 990, 0.1); },
  recordStop: (audio, now) => { tone(audio, now, 990, 660, 0.12); tone(audio, now + 0.13, 660, 660, 0.1); },
};

/// Plays a sound (shutter, recordStart, recordStop) if sounds are on and the person has used the
/// page. Returns whether it played.
export function playSound(name) {
  if (!soundsOn() || !(name in SOUNDS)) return false;
  // Autoplay rules: nothing before the first click, tap or key press on the page.
  if (navigator.userActivation && !navigator.userActivation.hasBeenActive) return false;
  const Audio = window.AudioContext || window.webkitAudioContext;
  if (!Audio) return false;
  try {
    context ??= new Audio();
    if (context.state === "suspended") context.resume();
    SOUNDS[name](context, context.currentTime + 0.01);
  } catch {
    return false;  // no audio output: silence, not an error
  }
  soundLog.push({ name, at: performance.now() });
  return true;
}

function make(text) {
  const label = document.createElement("span");
  label.className = "sound-label";
  label.textContent = text;
  return label;
}

/// The header's switch: "Sounds on" / "Sounds off", pressed when on.
export function attachSoundSwitch(button) {
  const show = () => {
    const on = soundsOn();
    button.setAttribute("aria-pressed", String(on));
    button.replaceChildren(icon(on ? "volume" : "muted"), make(on ? "Sounds on" : "Sounds off"));
    button.title = on ? "Shutter and recording sounds play; click to turn them off" : "No sounds; click to turn the shutter and recording sounds on";
    document.body.dataset.sounds = on ? "on" : "off";
  };
  button.addEventListener("click", () => {
    setSoundsOn(!soundsOn());
    show();
  });
  show();
}

// For tests: what played, and the setting.
window.ocularSounds = { log: soundLog, on: soundsOn };
