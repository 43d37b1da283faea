// Saves bytes the console received as a file on the user's machine, under the given name.
export function saveFile(blob: Blob, fileName: string) {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.rel = 'noopener';
  link.style.display = 'none';
  document.body.append(link);
  link.click();
  link.remove();
  // The download has started by the time the click returns; the address is freed a little later.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
