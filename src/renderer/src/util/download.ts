// Saves exported text as a file through a temporary Blob link (works in Electron and the
// browser without a main-process dialog). Called by the history view's Export buttons.

export function downloadText(filename: string, mimeType: string, content: string): void {
  const url = URL.createObjectURL(new Blob([content], { type: mimeType }));
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  link.rel = 'noopener';
  document.body.append(link);
  link.click();
  link.remove();
  // Revoke on the next turn: revoking synchronously can cancel the download in Chromium.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
