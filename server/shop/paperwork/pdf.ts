import type { Font, FontCollection } from "fontkit";
import type PDFDocument from "pdfkit";
import regularFontFile from "./fonts/DejaVuSans.ttf" with { type: "file" };
import boldFontFile from "./fonts/DejaVuSans-Bold.ttf" with { type: "file" };

// One PDF made with pdfkit, its fonts embedded (DejaVu Sans covers é, à, ç, ñ, €... and every Latin
// name a buyer may type). The font files are imported `with { type: "file" }`, so they are inside
// the single executable too. pdfkit's own fonts are never opened: the document starts in DejaVu
// (the `font` option), since Helvetica, pdfkit's default, is a module the single executable cannot
// load. The creation date is the document's own date, so the same data always gives the same bytes.

export type PdfDoc = InstanceType<typeof PDFDocument>;

// pdfkit (with fontkit and a JavaScript brotli) is about 1 MB of code a server start would
// otherwise evaluate: loaded at the first document, once per process.
let pdfkitLoaded: Promise<typeof PDFDocument> | null = null;
const pdfkit = () => (pdfkitLoaded ??= import("pdfkit").then((module) => module.default));

type Fonts = { regular: Font; bold: Font };
let fontsRead: Promise<Fonts> | null = null;
/**
 * The two fonts, read and opened once per process (the files are part of the program) and given to
 * every document. Handed the files' bytes, pdfkit opened them again for each document and read
 * again the tables fontkit lays text out with: half of a document's CPU (six headed sections: 73 ms,
 * 38 ms with the fonts opened once; the same bytes). A document only reads a font (its subset of
 * glyphs is its own) and is drawn and ended within one turn, so two documents never meet in one.
 */
const fonts = () =>
  (fontsRead ??= Promise.all([import("fontkit"), Bun.file(regularFontFile).bytes(), Bun.file(boldFontFile).bytes()]).then(
    ([fontkit, regular, bold]) => ({
      regular: openFont(fontkit.create(Buffer.from(regular))),
      bold: openFont(fontkit.create(Buffer.from(bold))),
    }),
  ));

/** A font file holds one font (a collection, several: not ours). */
function openFont(opened: Font | FontCollection): Font {
  if (!("layout" in opened)) throw new Error("a font collection where one font was expected");
  return opened;
}

/** pdfkit takes an opened fontkit font wherever it takes a font file; its typings know only files
 * (and, for the document's first font, only a file's path). */
const asSource = (font: Font) => font as unknown as string;

export const FONT = { regular: "regular", bold: "bold" } as const;

export async function renderPdf(
  meta: { title: string; author: string; date: Date; lang: string },
  draw: (doc: PdfDoc) => void,
): Promise<Buffer> {
  const [{ regular, bold }, Pdf] = await Promise.all([fonts(), pdfkit()]);
  const doc = new Pdf({
    size: "A4",
    margin: 56,
    font: asSource(regular),
    lang: meta.lang,
    info: {
      Title: meta.title,
      Author: meta.author,
      Creator: meta.author,
      Producer: meta.author,
      CreationDate: meta.date,
      ModDate: meta.date,
    },
  });
  doc.registerFont(FONT.regular, asSource(regular));
  doc.registerFont(FONT.bold, asSource(bold));
  doc.font(FONT.regular);
  const chunks: Buffer[] = [];
  doc.on("data", (chunk: Buffer) => chunks.push(chunk));
  const ended = new Promise<void>((resolve, reject) => {
    doc.on("end", resolve);
    doc.on("error", reject);
  });
  draw(doc);
  doc.end();
  await ended;
  return Buffer.concat(chunks);
}
