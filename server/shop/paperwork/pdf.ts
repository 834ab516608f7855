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

type Fonts = { regular: Buffer; bold: Buffer };
let fontsRead: Promise<Fonts> | null = null;
// Read once per process: the files do not change while it runs (they are part of the program).
const fonts = () =>
  (fontsRead ??= Promise.all([Bun.file(regularFontFile).arrayBuffer(), Bun.file(boldFontFile).arrayBuffer()]).then(([regular, bold]) => ({
    regular: Buffer.from(regular),
    bold: Buffer.from(bold),
  })));

export const FONT = { regular: "regular", bold: "bold" } as const;

export async function renderPdf(
  meta: { title: string; author: string; date: Date; lang: string },
  draw: (doc: PdfDoc) => void,
): Promise<Buffer> {
  const [{ regular, bold }, Pdf] = await Promise.all([fonts(), pdfkit()]);
  const doc = new Pdf({
    size: "A4",
    margin: 56,
    font: regularFontFile,
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
  doc.registerFont(FONT.regular, regular);
  doc.registerFont(FONT.bold, bold);
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
