/**
 * What the local Slack checks of an uploaded chart: the PNG signature and a well-formed
 * IHDR chunk (length 13, non-zero size, its CRC). Real Slack takes any bytes; ours refuses
 * what would show as a broken image, so a test catches a renderer that wrote garbage.
 * https://www.w3.org/TR/png-3/#5PNG-file-signature and #11IHDR
 */
import { crc32 } from 'node:zlib';

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const IHDR_DATA_LENGTH = 13;
/** PNG's own bound on width and height (2^31 - 1). */
const MAX_DIMENSION = 0x7fffffff;

type PngCheck = { ok: true; width: number; height: number } | { ok: false; problem: string };

export function checkPng(bytes: Uint8Array): PngCheck {
  const b = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (b.length < SIGNATURE.length || !b.subarray(0, SIGNATURE.length).equals(SIGNATURE))
    return { ok: false, problem: 'not a PNG: the signature is missing' };
  // Signature (8) + chunk length (4) + type (4) + IHDR data (13) + CRC (4).
  if (b.length < 8 + 4 + 4 + IHDR_DATA_LENGTH + 4)
    return { ok: false, problem: 'PNG too short for its IHDR' };
  if (b.readUInt32BE(8) !== IHDR_DATA_LENGTH || b.toString('latin1', 12, 16) !== 'IHDR')
    return { ok: false, problem: 'PNG does not start with an IHDR chunk' };
  const width = b.readUInt32BE(16);
  const height = b.readUInt32BE(20);
  if (width === 0 || height === 0 || width > MAX_DIMENSION || height > MAX_DIMENSION)
    return { ok: false, problem: `PNG has an impossible size ${width}x${height}` };
  const crc = crc32(b.subarray(12, 16 + IHDR_DATA_LENGTH));
  if (crc !== b.readUInt32BE(16 + IHDR_DATA_LENGTH))
    return { ok: false, problem: 'PNG IHDR checksum does not match' };
  return { ok: true, width, height };
}
