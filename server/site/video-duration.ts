// The demo video's length, read from the file itself (its MP4 movie header), so the page states
// the duration of the video it really serves, whichever file the owner puts in public/.

const text = (bytes: Uint8Array, at: number) => String.fromCharCode(...bytes.subarray(at, at + 4));

/** Walks the boxes between `start` and `end`; the body's bounds of the first of type `type`. */
function findBox(bytes: Uint8Array, view: DataView, start: number, end: number, type: string): { start: number; end: number } | null {
  let at = start;
  while (at + 8 <= end) {
    let size = view.getUint32(at);
    let header = 8;
    if (size === 1 && at + 16 <= end) {
      size = Number(view.getBigUint64(at + 8));
      header = 16;
    } else if (size === 0) size = end - at;
    if (size < header || at + size > end) return null;
    if (text(bytes, at + 4) === type) return { start: at + header, end: at + size };
    at += size;
  }
  return null;
}

/**
 * Whole seconds of an MP4 file, counted as a video player's time shows them (25.8 s is "0:25"), so the
 * title above the player never says more than the player itself; at least 1. Null when the file has
 * no readable movie header.
 */
export function mp4DurationSeconds(bytes: Uint8Array): number | null {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const moov = findBox(bytes, view, 0, bytes.length, "moov");
  const mvhd = moov === null ? null : findBox(bytes, view, moov.start, moov.end, "mvhd");
  if (mvhd === null) return null;
  const version = bytes[mvhd.start];
  const timescaleAt = mvhd.start + (version === 1 ? 20 : 12);
  if (timescaleAt + (version === 1 ? 12 : 8) > mvhd.end) return null;
  const timescale = view.getUint32(timescaleAt);
  const duration = version === 1 ? Number(view.getBigUint64(timescaleAt + 4)) : view.getUint32(timescaleAt + 4);
  if (timescale === 0 || duration === 0) return null;
  return Math.max(1, Math.floor(duration / timescale));
}
