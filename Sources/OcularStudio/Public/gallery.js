// Ocular Studio's gallery: thumbnails of every saved photo and video, newest first, from
// /api/gallery; open one full size (videos in the studio's own player, player.js), download, share
// or delete it.
import "./shell.js";
import { shareItem } from "./share.js";
import { createPlayer } from "./player.js";

const PAGE_SIZE = 48;

const elements = {
  grid: document.getElementById("grid"),
  empty: document.getElementById("empty"),
  loading: document.getElementById("loading"),
  more: document.getElementById("more"),
  count: document.getElementById("count"),
  notice: document.getElementById("notice"),
  viewer: document.getElementById("viewer"),
  viewerMedia: document.getElementById("viewer-media"),
  viewerTitle: document.getElementById("viewer-title"),
  viewerMeta: document.getElementById("viewer-meta"),
  download: document.getElementById("viewer-download"),
  share: document.getElementById("viewer-share"),
  remove: document.getElementById("viewer-delete"),
  close: document.getElementById("viewer-close"),
  confirm: document.getElementById("confirm"),
  confirmText: document.getElementById("confirm-text"),
};

const state = {
  items: [],      // what is shown, newest first
  total: 0,
  open: null,     // the item in the viewer
  player: null,   // the video player in the viewer
  loading: false,
};

function showNotice(text, kind = "info") {
  elements.notice.textContent = text;
  elements.notice.dataset.kind = kind;
  elements.notice.hidden = !text;
}

/// The server's {"error": "…"} reason, or the status.
async function failure(response) {
  try {
    return (await response.json()).error || response.statusText;
  } catch {
    return `${response.status} ${response.statusText}`;
  }
}

function describe(item) {
  const date = new Date(item.createdAt);
  const when = date.toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });
  const sound = item.hasAudio === true ? ", with sound" : item.hasAudio === false ? ", no sound" : "";
  const length = item.kind === "video" && item.duration ? ` · ${item.duration.toFixed(1)} s${sound}` : "";
  return `${when} · ${item.width}×${item.height}${length}`;
}

function title(item) {
  return item.caption || item.fileName;
}

function tile(item) {
  const entry = document.createElement("li");
  entry.className = "tile";
  entry.id = `item-${item.id}`;
  entry.dataset.id = item.id;
  entry.dataset.kind = item.kind;
  const button = document.createElement("button");
  button.type = "button";
  button.className = "thumb";
  button.setAttribute("aria-label", `Open ${title(item)}`);
  if (item.thumbnailURL) {
    const picture = document.createElement("img");
    picture.src = item.thumbnailURL;
    picture.alt = "";
    picture.loading = "lazy";
    button.append(picture);
  } else {
    const placeholder = document.createElement("span");
    placeholder.className = "placeholder";
    placeholder.textContent = item.kind === "video" ? "Video" : "Photo";
    button.append(placeholder);
  }
  if (item.kind === "video") {
    const badge = document.createElement("span");
    badge.className = "badge";
    badge.textContent = "▶ video";
    button.append(badge);
  }
  button.addEventListener("click", () => openItem(item));
  const caption = document.createElement("div");
  caption.className = "tile-caption";
  const name = document.createElement("strong");
  name.textContent = title(item);
  const meta = document.createElement("span");
  meta.textContent = describe(item);
  caption.append(name, meta);
  entry.append(button, caption);
  return entry;
}

function render() {
  elements.loading.hidden = true;
  elements.empty.hidden = state.items.length > 0;
  elements.grid.hidden = state.items.length === 0;
  elements.more.hidden = state.items.length >= state.total;
  elements.count.textContent = state.total === 1 ? "1 item" : `${state.total} items`;
  document.body.dataset.items = String(state.items.length);
}

/// Loads the next page (or the first, with `restart`).
async function load(restart = false) {
  if (state.loading) return;
  state.loading = true;
  elements.more.disabled = true;
  try {
    const offset = restart ? 0 : state.items.length;
    const response = await fetch(`api/gallery?limit=${PAGE_SIZE}&offset=${offset}`);
    if (!response.ok) throw new Error(await failure(response));
    const page = await response.json();
    if (restart) {
      state.items = [];
      elements.grid.replaceChildren();
    }
    state.items.push(...page.items);
    state.total = page.total;
    elements.grid.append(...page.items.map(tile));
    render();
  } catch (error) {
    elements.loading.hidden = true;
    elements.count.textContent = "Unavailable";
    showNotice(`The gallery could not be loaded: ${error.message}`, "error");
  } finally {
    state.loading = false;
    elements.more.disabled = false;
  }
}

function openItem(item) {
  state.open = item;
  if (state.player) state.player.destroy();
  state.player = null;
  let media;
  if (item.kind === "video") {
    // The studio's own player (player.js): it says itself when a format cannot play here.
    state.player = createPlayer(item);
    media = state.player.element;
  } else {
    media = document.createElement("img");
    media.alt = title(item);
    media.src = item.url;
    media.id = "viewer-content";
  }
  elements.viewerMedia.replaceChildren(media);
  elements.viewerTitle.textContent = title(item);
  const recipe = item.recipe && item.recipe.stages && item.recipe.stages.length
    ? ` · ${item.recipe.stages.map((stage) => stage.stage).join(" → ")}` : "";
  elements.viewerMeta.textContent = `${describe(item)} · ${item.source}${recipe}`;
  delete elements.viewerMeta.dataset.kind;
  elements.download.href = item.url;
  elements.download.download = item.fileName;
  elements.viewer.showModal();
  if (state.player) state.player.element.focus();
  history.replaceState(null, "", `#item-${item.id}`);
}

function closeViewer() {
  elements.viewer.close();
}

async function deleteOpenItem() {
  const item = state.open;
  if (!item) return;
  elements.confirmText.textContent = `"${title(item)}" will be removed from the gallery for good.`;
  elements.confirm.returnValue = "cancel";
  elements.confirm.showModal();
  const choice = await new Promise((resolve) =>
    elements.confirm.addEventListener("close", () => resolve(elements.confirm.returnValue), { once: true }));
  if (choice !== "delete") return;
  elements.remove.disabled = true;
  elements.remove.setAttribute("aria-busy", "true");
  try {
    const response = await fetch(`api/gallery/${item.id}`, { method: "DELETE" });
    // Already gone (deleted elsewhere) is what was asked for.
    if (!response.ok && response.status !== 404) throw new Error(await failure(response));
    state.items = state.items.filter((shown) => shown.id !== item.id);
    state.total = Math.max(0, state.total - 1);
    document.getElementById(`item-${item.id}`)?.remove();
    closeViewer();
    render();
    showNotice(`Deleted "${title(item)}".`);
  } catch (error) {
    showNotice(`Could not delete: ${error.message}`, "error");
  } finally {
    elements.remove.disabled = false;
    elements.remove.removeAttribute("aria-busy");
  }
}

elements.more.addEventListener("click", () => load());
elements.close.addEventListener("click", closeViewer);
elements.viewer.addEventListener("close", () => {
  state.open = null;
  if (state.player) state.player.destroy();
  state.player = null;
  history.replaceState(null, "", location.pathname);
});
elements.remove.addEventListener("click", deleteOpenItem);
elements.share.addEventListener("click", async () => {
  if (!state.open) return;
  try {
    await shareItem(state.open);
  } catch (error) {
    showNotice(`Could not share: ${error.message}`, "error");
  }
});

// Opened from a camera page's "Saved" link: #item-ID opens that item once the list is in.
await load(true);
const wanted = /^#item-(\d+)$/.exec(location.hash);
if (wanted) {
  const item = state.items.find((shown) => String(shown.id) === wanted[1]);
  if (item) openItem(item);
}
