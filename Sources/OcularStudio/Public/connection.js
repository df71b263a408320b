// The live view's connection: the WebSocket to /api/stream, opened under the page's name
// (?page=manyMasks, so that the server's actions for that page see its frames and take its
// messages), retried with a growing pause when it is lost. It imports nothing of the page: what
// arrives goes to the handlers connect() is given (live.js wires them).
//
// Frames go as binary messages, JPEG, numbered from 1 in the order they are sent; the server answers
// every frame with exactly one message naming its number: the processed frame, or JSON
// {type: "error", about: "frame", frame} / {type: "dropped", frame}. A processed frame is one binary
// message: a 4-byte big-endian length, a JSON header {frame, messages: [...]} of that length, then
// the JPEG; the header's messages go with that frame (its annotations, a save's "saved"). Text
// messages are JSON objects with a "type".

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

/// Opens the stream for page `pageName`, and again after each loss. `on` gets what happens:
/// connecting(), opened(), message(object), frame(number, jpegBytes, messages), unreadable(what) for a
/// message or frame that is not what the protocol says, and closed({seconds, tooLarge, wasConnected}).
export function connect(pageName, on) {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const socket = new WebSocket(`${scheme}://${location.host}/api/stream?page=${encodeURIComponent(pageName)}`);
  socket.binaryType = "arraybuffer";
  connection.socket = socket;
  on.connecting();

  socket.addEventListener("open", () => {
    connection.connected = true;
    connection.retryDelay = 500;
    on.opened();
  });
  socket.addEventListener("message", (event) => {
    if (typeof event.data !== "string") {
      receiveFrame(event.data, on);
      return;
    }
    let message;
    try {
      message = JSON.parse(event.data);
    } catch {
      on.unreadable("a message");
      return;
    }
    on.message(message);
  });
  socket.addEventListener("close", (event) => {
    const wasConnected = connection.connected;
    connection.connected = false;
    const seconds = Math.round(connection.retryDelay / 100) / 10;
    on.closed({ seconds, tooLarge: event.code === 1009, wasConnected });
    setTimeout(() => connect(pageName, on), connection.retryDelay);
    connection.retryDelay = Math.min(connection.retryDelay * 2, 5000);
  });
}

/// A processed frame's message: its header's frame number and messages, then the JPEG.
function receiveFrame(buffer, on) {
  let header;
  let length = 0;
  try {
    length = new DataView(buffer).getUint32(0);
    header = JSON.parse(new TextDecoder().decode(new Uint8Array(buffer, 4, length)));
  } catch {
    on.unreadable("a frame");
    return;
  }
  on.frame(header.frame, new Uint8Array(buffer, 4 + length), header.messages || []);
}
