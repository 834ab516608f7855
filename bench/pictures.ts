import sharp from "sharp";

/** A JPEG with some detail (a gradient and noise compress like a photograph, a flat colour does not). */
export async function noisyJpeg(seed: number, width: number, height: number): Promise<Buffer> {
  const noise = Buffer.alloc(width * height * 3);
  for (let p = 0; p < noise.length; p += 3) {
    const x = (p / 3) % width;
    const y = Math.floor(p / 3 / width);
    noise[p] = (x * 255) / width + Math.random() * 40;
    noise[p + 1] = (y * 255) / height + ((seed * 37) % 128);
    noise[p + 2] = ((x + y) * 127) / (width + height) + Math.random() * 40;
  }
  return sharp(noise, { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 88 })
    .toBuffer();
}
