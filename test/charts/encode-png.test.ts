/** The PNG writer, read back with an independent decoder (decode-png.ts). */
import { describe, expect, it } from 'vitest';
import { encodePng, unpremultiply } from '../../src/charts/encode-png.js';
import { colourCounts, decodePng } from './decode-png.js';

describe('encodePng', () => {
  it('writes an RGBA PNG whose pixels decode to the input', async () => {
    const width = 3;
    const height = 2;
    // Row 1: red, green, blue; row 2: white, black, half-transparent grey.
    const rgba = Uint8Array.of(
      255,
      0,
      0,
      255,
      0,
      255,
      0,
      255,
      0,
      0,
      255,
      255,
      255,
      255,
      255,
      255,
      0,
      0,
      0,
      255,
      128,
      128,
      128,
      128,
    );
    const png = await encodePng(rgba, width, height);
    const image = decodePng(png);
    expect({
      width: image.width,
      height: image.height,
      bitDepth: image.bitDepth,
      colourType: image.colourType,
    }).toEqual({
      width,
      height,
      bitDepth: 8,
      colourType: 6,
    });
    expect([...image.pixels]).toEqual([...rgba]);
    expect([...colourCounts(image).keys()].sort()).toEqual([
      '#000000',
      '#0000FF',
      '#00FF00',
      '#FF0000',
      '#FFFFFF',
    ]);
  });

  it('refuses pixels that do not fill the image', async () => {
    await expect(encodePng(new Uint8Array(7), 2, 1)).rejects.toThrow(RangeError);
  });
});

describe('unpremultiply', () => {
  it('restores straight colour of translucent pixels and leaves opaque and empty ones alone', () => {
    const pixels = Uint8Array.of(64, 32, 0, 128, 10, 20, 30, 255, 0, 0, 0, 0);
    expect([...unpremultiply(pixels)]).toEqual([128, 64, 0, 128, 10, 20, 30, 255, 0, 0, 0, 0]);
  });
});
