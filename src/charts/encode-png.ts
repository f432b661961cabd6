/**
 * RGBA pixels to a PNG file (RFC 2083) with the compression on libuv's thread pool.
 * resvg rasterises off the event loop (`renderAsync`) but encodes PNG synchronously
 * (`asPng()`, 70–200 ms for a 1600×800 chart on a busy 2-core machine), which would hold
 * a slash-command ack that arrives meanwhile. Here the only work left on the event loop is
 * copying rows; node:zlib deflates asynchronously and computes the checksums.
 */
import { promisify } from 'node:util';
import { crc32, deflate } from 'node:zlib';

const deflateAsync = promisify(deflate);

const SIGNATURE = Uint8Array.of(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a);

function chunk(type: string, data: Uint8Array): Buffer {
  const out = Buffer.alloc(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  out.write(type, 4, 'latin1');
  out.set(data, 8);
  out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)), 8 + data.length);
  return out;
}

/**
 * `rgba` holds straight (not premultiplied) 8-bit RGBA, row by row. Every scanline uses
 * filter 0 (none): charts are mostly flat colour, which deflate compresses well as it is,
 * and the per-byte filters would be main-thread work again.
 */
export async function encodePng(rgba: Uint8Array, width: number, height: number): Promise<Uint8Array> {
  const stride = width * 4;
  if (rgba.length !== stride * height)
    throw new RangeError(`${rgba.length} bytes is not a ${width}×${height} RGBA image`);
  const raw = Buffer.alloc(height * (stride + 1));
  for (let y = 0; y < height; y++) raw.set(rgba.subarray(y * stride, (y + 1) * stride), y * (stride + 1) + 1);
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 6; // colour type: RGBA
  // compression, filter method and interlace stay 0
  const data = await deflateAsync(raw);
  return new Uint8Array(
    Buffer.concat([SIGNATURE, chunk('IHDR', header), chunk('IDAT', data), chunk('IEND', new Uint8Array())]),
  );
}

/**
 * resvg's pixels are premultiplied by alpha; PNG wants straight colour. The house
 * background is opaque white, so this is a no-op scan unless a chart leaves pixels
 * transparent.
 */
export function unpremultiply(rgba: Uint8Array): Uint8Array {
  for (let i = 3; i < rgba.length; i += 4) {
    const a = rgba[i]!;
    if (a === 255) continue;
    if (a === 0) continue;
    for (let k = i - 3; k < i; k++) rgba[k] = Math.min(255, Math.round((rgba[k]! * 255) / a));
  }
  return rgba;
}
