// The QR code of a sign-in session as an image (data URL). The encoder loads only when a QR login starts.

/** The spec's dark and light colours of the QR code: deep teal modules on white, for any phone camera. */
export const QR_COLORS = { dark: '#0b3c49', light: '#ffffff' } as const;

export async function renderQrCode(text: string): Promise<string> {
  const { toDataURL } = await import('qrcode');
  return toDataURL(text, { errorCorrectionLevel: 'M', margin: 2, width: 256, color: QR_COLORS });
}
