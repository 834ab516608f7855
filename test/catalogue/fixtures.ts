import sharp from "sharp";

/** A poster-like picture of a given size and colour (what an owner's export would be). */
export async function posterPng(width = 300, height = 450, colour = "#3a6ea5"): Promise<Uint8Array> {
  return new Uint8Array(
    await sharp({ create: { width, height, channels: 3, background: colour } })
      .png()
      .toBuffer(),
  );
}

export async function posterJpeg(width = 300, height = 450, colour = "#a53a6e"): Promise<Uint8Array> {
  return new Uint8Array(
    await sharp({ create: { width, height, channels: 3, background: colour } })
      .jpeg()
      .toBuffer(),
  );
}

/** A catalogue CSV of `count` titles: `poster` names posters cycling over `posters` names. */
export function catalogueCsv(count: number, posters: readonly string[], featuredColumn = false): string {
  const categories = ["Action", "Comédie", "Drame", "Science-fiction", "Documentaires"];
  const kinds = ["film", "series", "documentary", "channel"];
  const lines = [`name,kind,year,category,poster${featuredColumn ? ",featured" : ""}`];
  for (let i = 0; i < count; i++) {
    const name = i === 3 ? '"Amélie, la suite"' : `Titre ${String(i + 1).padStart(4, "0")}`;
    const poster = posters.length === 0 ? "" : (posters[i % posters.length] ?? "");
    lines.push(
      `${name},${kinds[i % kinds.length]},${1990 + (i % 35)},${categories[i % categories.length]},${poster}${featuredColumn ? `,${i % 2 === 0 ? "yes" : "no"}` : ""}`,
    );
  }
  return `${lines.join("\n")}\n`;
}
