import QRCode from 'qrcode';

/** The card number as a QR code a till can scan, drawn here as an SVG image: nothing is fetched from elsewhere. */
export async function CardQr({ cardNumber, label }: { cardNumber: string; label: string }) {
  const svg = await QRCode.toString(cardNumber, { type: 'svg', margin: 1, errorCorrectionLevel: 'M' });
  return (
    // biome-ignore lint/performance/noImgElement: a data URL drawn on the server; next/image would only wrap it.
    <img
      src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`}
      alt={label}
      width={176}
      height={176}
      className="h-44 w-44 rounded-lg bg-white p-1"
      data-testid="card-qr"
    />
  );
}
