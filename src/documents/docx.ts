import mammoth from "mammoth";
import { parseHtml } from "./html.js";
import type { DocumentWarning, DraftBlock, DraftResult } from "./model.js";

/**
 * DOCX through mammoth, which maps Word's semantic styles (Heading 1…6, lists, tables with
 * merged cells) to clean HTML; the HTML path then builds the blocks, so a DOCX and the same
 * document as HTML give the same units. Images are dropped (they carry no indexable text), but
 * counted, so a scan pasted into Word is reported as such instead of indexing nothing.
 */
export async function parseDocx(bytes: Uint8Array, maxUnpackedBytes: number): Promise<DraftResult> {
  if (!(bytes[0] === 0x50 && bytes[1] === 0x4b)) return { kind: "invalid", reason: "not a DOCX file (no ZIP signature)" };
  // A small ZIP can unpack to gigabytes (a "zip bomb"); mammoth would unpack it all in memory.
  const unpacked = unpackedTextBytes(bytes);
  if (unpacked !== null && unpacked > maxUnpackedBytes) {
    return { kind: "invalid", reason: `DOCX unpacks to more than ${maxUnpackedBytes} bytes of text parts (maxUnpackedBytes)` };
  }
  let images = 0;
  let result: { value: string; messages: { type: string; message: string }[] };
  try {
    result = await mammoth.convertToHtml(
      { buffer: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength) },
      {
        // Keep no image data: count it and emit nothing.
        convertImage: mammoth.images.imgElement(async () => {
          images += 1;
          return { src: "" };
        }),
        // Word's "Caption" style is a table or figure label: bold it so it reads as one.
        styleMap: ["p[style-name='Caption'] => p > strong:fresh", "p[style-name='Table Caption'] => p > strong:fresh"],
      },
    );
  } catch (error) {
    return { kind: "invalid", reason: `unreadable DOCX (${shortMessage(error)})` };
  }
  const draft = parseHtml(result.value);
  if (!hasText(draft.blocks)) {
    return { kind: "invalid", reason: images > 0 ? `no text found (images only? ${images} image(s))` : "no text found" };
  }
  // mammoth reports styles it had no mapping for; they are harmless, so only real errors are kept.
  const warnings: DocumentWarning[] = result.messages
    .filter((message) => message.type === "error")
    .map((message) => ({ code: "converter", message: `mammoth: ${message.message.slice(0, 200)}` }));
  // A DOCX carries no frontdesk metadata of its own: front matter is for text, <meta> for HTML.
  return { kind: "ok", draft: { ...draft, warnings: [...draft.warnings, ...warnings], embedded: {} } };
}

export function shortMessage(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.split("\n")[0]?.slice(0, 160) ?? "unknown error";
}

/** Whether any block has text a customer could be answered from (headings alone are not). */
export function hasText(blocks: readonly DraftBlock[]): boolean {
  return blocks.some((block) => {
    if (block.kind === "paragraph") return block.text.trim() !== "";
    if (block.kind === "list") return block.items.some((item) => item.trim() !== "");
    if (block.kind === "table") return [...block.headerRows, ...block.bodyRows].some((row) => row.some((cell) => cell.trim() !== ""));
    return false;
  });
}

/**
 * The declared unpacked size of a ZIP's entries, from its central directory, leaving out
 * word/media and word/embeddings (images are never unpacked here). ZIP64 markers count as
 * infinite: no genuine DOCX text part is 4 GB. Null when there is no readable directory; mammoth
 * then reports the damage itself. Declared sizes can lie; jszip checks them as it inflates.
 */
export function unpackedTextBytes(bytes: Uint8Array): number | null {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let end = -1;
  for (let i = bytes.byteLength - 22; i >= Math.max(0, bytes.byteLength - 22 - 0xffff); i--) {
    if (view.getUint32(i, true) === 0x06054b50) {
      end = i;
      break;
    }
  }
  if (end < 0) return null;
  const entries = view.getUint16(end + 10, true);
  let offset = view.getUint32(end + 16, true);
  if (entries === 0xffff || offset === 0xffffffff) return Infinity;
  let total = 0;
  for (let n = 0; n < entries; n++) {
    if (offset + 46 > bytes.byteLength || view.getUint32(offset, true) !== 0x02014b50) return null;
    const size = view.getUint32(offset + 24, true);
    const nameLength = view.getUint16(offset + 28, true);
    const skip = 46 + nameLength + view.getUint16(offset + 30, true) + view.getUint16(offset + 32, true);
    const name = new TextDecoder().decode(bytes.subarray(offset + 46, offset + 46 + nameLength));
    if (!/^word\/(?:media|embeddings)\//u.test(name)) total += size === 0xffffffff ? Infinity : size;
    offset += skip;
  }
  return total;
}
