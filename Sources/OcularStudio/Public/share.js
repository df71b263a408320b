// Sharing a gallery item, and saying how a save went, for every page of the studio.

/// Shares an item's file with the Web Share API where the browser can share files (phones, some
/// desktops), and downloads it otherwise. Closing the share sheet is not an error.
/// @param {{url: string, fileName: string, caption?: string}} item As /api/gallery describes it.
/// @returns {Promise<"shared" | "downloaded" | "cancelled">}
export async function shareItem(item) {
  const response = await fetch(item.url);
  if (!response.ok) throw new Error(`the server answered ${response.status}`);
  const blob = await response.blob();
  const file = new File([blob], item.fileName, { type: blob.type });
  if (navigator.canShare && navigator.canShare({ files: [file] })) {
    try {
      await navigator.share({ files: [file], title: item.caption || item.fileName });
      return "shared";
    } catch (error) {
      if (error.name === "AbortError") return "cancelled";
      throw error;
    }
  }
  const anchor = document.createElement("a");
  anchor.href = URL.createObjectURL(blob);
  anchor.download = item.fileName;
  document.body.append(anchor);
  anchor.click();
  anchor.remove();
  setTimeout(() => URL.revokeObjectURL(anchor.href), 10000);
  return "downloaded";
}

/// Says how a save went in a status element: `kind` is "busy", "saved" or "error" (for the styles),
/// with an optional link, such as to the saved item in the gallery.
/// @param {HTMLElement} element
/// @param {string} kind
/// @param {string} text
/// @param {{href: string, text: string}} [link]
export function showSaveOutcome(element, kind, text, link) {
  element.dataset.kind = kind;
  element.textContent = text;
  if (link) {
    const anchor = document.createElement("a");
    anchor.href = link.href;
    anchor.textContent = link.text;
    element.append(" ", anchor);
  }
}
