// Sharing a gallery item, for every page of the studio.

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
