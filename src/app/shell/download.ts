/** Saves text as a file through the browser's download (an object URL on a temporary link). */
export function downloadText(fileName: string, text: string, type: string): void {
  downloadBlob(fileName, new Blob([text], { type }));
}

/** Saves a Blob as a file through the browser's download. */
export function downloadBlob(fileName: string, blob: Blob): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.style.display = 'none';
  document.body.append(link);
  link.click();
  link.remove();
  // The download has started reading the blob; the URL is not needed any more.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
