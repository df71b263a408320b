// The live view's connection: the WebSocket to /api/stream, opened under the page's name
// (?page=manyMasks, so that the server's actions for that page see its frames and take its
// messages), retried with a growing pause when it is lost.
//
// Frames go as binary messages, JPEG, numbered from 1 in the order they are sent; the server answers
// every frame with exactly one message naming its number: the processed frame, or JSON
// {type: "error", about: "frame", frame} / {type: "dropped", frame}. A processed frame is one binary
// message: a 4-byte big-endian length, a JSON header {frame, messages: [...]} of that length, then
// the JPEG; the header's messages go with that frame (its annotations, a save's "saved"). Text
// messages are JSON objects with a "type".

import { pageName } from "./shell.js";
import { connectionChanged, handleMessage, showFrame, showNotice } from "./live.js";
import { forgetLink } from "./link.js";
import { restartPacing } from "./pacing.js";

const connection = {
  socket: null,
  connected: false,
  retryDelay: 500,
};

export const isConnected = () => connection.connected;

/// Sends a message (an object, as JSON) when connected.
export function send(object) {
  if (connection.connected) connection.socket.send(JSON.stringify(object));
}

/// Sends a text as it is, to try the server's checks by hand.
export const sendText = (text) => connection.connected && connection.socket.send(text);

/// Sends a frame (an encoded picture).
export function sendFrame(blob) {
  connection.socket.send(blob);
}

export function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const socket = new WebSocket(`${scheme}://${location.host}/api/stream?page=${encodeURIComponent(pageName)}`);
  socket.binaryType = "arraybuffer";
  connection.socket = socket;
  connectionChanged("connecting");

  socket.addEventListener("open", () => {
    connection.connected = true;
    connection.retryDelay = 500;
    // A new stream counts its frames afresh, and may be another studio: frames wait for its hello.
    restartPacing();
    forgetLink();
    connectionChanged("live");
  });
  socket.addEventListener("message", (event) => {
    if (typeof event.data === "string") {
      try {
        handleMessage(JSON.parse(event.data));
      } catch (error) {
        showNotice("The server sent a message this page does not understand.", "error");
      }
    } else {
      receiveFrame(event.data);
    }
  });
  socket.addEventListener("close", (event) => {
    const wasConnected = connection.connected;
    connection.connected = false;
    restartPacing();
    const seconds = Math.round(connection.retryDelay / 100) / 10;
    connectionChanged("offline", { seconds, tooLarge: event.code === 1009, wasConnected });
    setTimeout(connect, connection.retryDelay);
    connection.retryDelay = Math.min(connection.retryDelay * 2, 5000);
  });
}

/// A processed frame's message: its header's frame number and messages, then the JPEG. The frame is
/// shown (its decoding started) before its messages are handled, as they belong to it.
function receiveFrame(buffer) {
  let header;
  let length = 0;
  try {
    length = new DataView(buffer).getUint32(0);
    header = JSON.parse(new TextDecoder().decode(new Uint8Array(buffer, 4, length)));
  } catch (error) {
    showNotice("The server sent a frame this page does not understand.", "error");
    return;
  }
  showFrame(header.frame, new Uint8Array(buffer, 4 + length));
  for (const message of header.messages || []) handleMessage(message);
}
