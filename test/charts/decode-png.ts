/**
 * Just enough of a PNG decoder (RFC 2083) to check what resvg wrote: the signature, the
 * IHDR header, and the pixels of an 8-bit RGBA image after undoing the scanline filters,
 * with node:zlib for the inflate. Tests only; an image library would be one more package.
 */
import { inflateSync } from 'node:zlib';

export const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

export interface DecodedPng {
  width: number;
  height: number;
  bitDepth: number;
  colourType: number;
  /** RGBA bytes, row by row, filters undone (8-bit RGBA images only). */
  pixels: Uint8Array;
}

function paeth(a: number, b: number, c: number): number {
  const p = a + b - c;
  const pa = Math.abs(p - a);
  const pb = Math.abs(p - b);
  const pc = Math.abs(p - c);
  return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}

export function decodePng(png: Uint8Array): DecodedPng {
  const bytes = Buffer.from(png.buffer, png.byteOffset, png.byteLength);
  if (!PNG_SIGNATURE.every((b, i) => bytes[i] === b)) throw new Error('not a PNG: bad signature');
  let offset = 8;
  let header: { width: number; height: number; bitDepth: number; colourType: number } | undefined;
  const idat: Buffer[] = [];
  while (offset < bytes.length) {
    const length = bytes.readUInt32BE(offset);
    const type = bytes.toString('latin1', offset + 4, offset + 8);
    const data = bytes.subarray(offset + 8, offset + 8 + length);
    if (type === 'IHDR') {
      header = {
        width: data.readUInt32BE(0),
        height: data.readUInt32BE(4),
        bitDepth: data[8]!,
        colourType: data[9]!,
      };
    } else if (type === 'IDAT') {
      idat.push(data);
    } else if (type === 'IEND') {
      break;
    }
    offset += 12 + length;
  }
  if (!header) throw new Error('not a PNG: no IHDR');
  if (header.bitDepth !== 8 || header.colourType !== 6) {
    throw new Error(`unexpected PNG format: depth ${header.bitDepth}, colour type ${header.colourType}`);
  }
  const raw = inflateSync(Buffer.concat(idat));
  const bpp = 4;
  const stride = header.width * bpp;
  if (raw.length !== header.height * (stride + 1))
    throw new Error(`IDAT holds ${raw.length} bytes, not a full image`);
  const pixels = new Uint8Array(header.height * stride);
  for (let y = 0; y < header.height; y++) {
    const filter = raw[y * (stride + 1)]!;
    const line = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    const out = y * stride;
    for (let x = 0; x < stride; x++) {
      const a = x >= bpp ? pixels[out + x - bpp]! : 0;
      const b = y > 0 ? pixels[out - stride + x]! : 0;
      const c = x >= bpp && y > 0 ? pixels[out - stride + x - bpp]! : 0;
      const v = line[x]!;
      pixels[out + x] =
        (filter === 0
          ? v
          : filter === 1
            ? v + a
            : filter === 2
              ? v + b
              : filter === 3
                ? v + ((a + b) >> 1)
                : v + paeth(a, b, c)) & 0xff;
    }
  }
  return { ...header, pixels };
}

/** How many opaque pixels have each colour, keyed `#RRGGBB`. */
export function colourCounts(image: DecodedPng): Map<string, number> {
  // Numeric keys while counting: a string per pixel would dominate the test's run time.
  const counts = new Map<number, number>();
  const { pixels } = image;
  for (let i = 0; i < pixels.length; i += 4) {
    if (pixels[i + 3] !== 255) continue;
    const key = (pixels[i]! << 16) | (pixels[i + 1]! << 8) | pixels[i + 2]!;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return new Map(
    [...counts].map(([key, n]) => [`#${key.toString(16).padStart(6, '0').toUpperCase()}`, n] as const),
  );
}
