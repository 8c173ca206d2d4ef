import { getDocumentProxy } from "unpdf";
import { shortMessage } from "./docx.js";
import type { DocumentWarning, DraftResult } from "./model.js";
import { layoutPages, type PageItem } from "./pdf-layout.js";

/**
 * PDF through pdf.js (the unpdf build, which needs no canvas or worker): the positioned text
 * items of every page, then pdf-layout.ts rebuilds lines, headings, lists and tables from their
 * geometry. A PDF without a text layer (a scan) is a problem, not an empty document: indexing
 * nothing silently would make every question about it unanswerable.
 */
export async function parsePdf(bytes: Uint8Array): Promise<DraftResult> {
  const head = new TextDecoder("latin1").decode(bytes.subarray(0, 1024));
  if (!head.includes("%PDF-")) return { kind: "invalid", reason: "not a PDF file (no %PDF- header)" };

  let pdf: Awaited<ReturnType<typeof getDocumentProxy>>;
  try {
    // pdf.js wants a plain Uint8Array (not a Buffer) and takes ownership of it: hand it a copy.
    pdf = await getDocumentProxy(new Uint8Array(bytes), { verbosity: 0, isEvalSupported: false, disableFontFace: true });
  } catch (error) {
    const name = error instanceof Error ? error.name : "";
    if (name === "PasswordException") return { kind: "invalid", reason: "encrypted PDF (a password is needed to read it)" };
    return { kind: "invalid", reason: `unreadable PDF (${shortMessage(error)})` };
  }
  try {
    const pages: PageItem[][] = [];
    for (let number = 1; number <= pdf.numPages; number++) {
      const page = await pdf.getPage(number);
      const content = await page.getTextContent();
      const items: PageItem[] = [];
      for (const item of content.items) {
        if (!("str" in item) || item.str.trim() === "") continue;
        const [, , c = 0, d = 0, x = 0, y = 0] = item.transform as number[];
        items.push({ text: item.str, x, y, width: item.width, size: Math.hypot(c, d) });
      }
      pages.push(items);
      page.cleanup();
    }
    const warnings: DocumentWarning[] = [];
    const empty = pages.flatMap((items, index) => (items.length === 0 ? [index + 1] : []));
    if (empty.length === pages.length) return { kind: "invalid", reason: "no text layer (scanned PDF?)" };
    for (const page of empty) warnings.push({ code: "page-without-text", message: `page ${page} has no text layer (scanned?); it is not indexed` });

    const blocks = layoutPages(pages);
    const info = await pdf.getMetadata().catch(() => null);
    const title = info !== null && typeof (info.info as Record<string, unknown>)["Title"] === "string" ? String((info.info as Record<string, unknown>)["Title"]).trim() : "";
    const h1 = blocks.find((block) => block.kind === "heading" && block.level === 1);
    return {
      kind: "ok",
      draft: { blocks, warnings, embedded: {}, titleHint: title !== "" ? title : h1?.kind === "heading" ? h1.text : null },
    };
  } catch (error) {
    return { kind: "invalid", reason: `unreadable PDF (${shortMessage(error)})` };
  } finally {
    await pdf.destroy();
  }
}
