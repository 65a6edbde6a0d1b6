/**
 * Hands a file made in the browser to the person as a download. The object URL outlives the click long enough
 * for a slow disk to take a large file, then is freed.
 */
export function saveFile(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement("a");
  link.href = url;
  link.download = fileName;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
