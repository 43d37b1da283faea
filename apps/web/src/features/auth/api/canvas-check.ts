// Spec §5: QR login needs a browser that lets a page read back what it drew on a canvas. Browsers that
// block or randomise that read (anti-fingerprinting settings) cannot show the QR code reliably.

export function canExtractCanvas(): boolean {
  try {
    const canvas = document.createElement('canvas');
    canvas.width = 4;
    canvas.height = 4;
    const context = canvas.getContext('2d');
    if (!context) return false;
    context.fillStyle = 'rgb(12, 34, 56)';
    context.fillRect(0, 0, 4, 4);
    const [red, green, blue] = context.getImageData(1, 1, 1, 1).data;
    return (
      red === 12 && green === 34 && blue === 56 && canvas.toDataURL('image/png').startsWith('data:image/png')
    );
  } catch {
    return false;
  }
}
