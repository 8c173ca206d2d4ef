import type { List, Nodes, Root, RootContent } from "mdast";
import { fromMarkdown } from "mdast-util-from-markdown";
import { gfmTableFromMarkdown } from "mdast-util-gfm-table";
import { gfmTable } from "micromark-extension-gfm-table";
import { parseHtml } from "./html.js";
import { splitFrontMatter } from "./metadata.js";
import type { DraftBlock, DraftDocument, DraftResult } from "./model.js";
import { collapse, flattenList, type ListTree } from "./text.js";

/**
 * Markdown through micromark (CommonMark) with GFM tables. Only the table extension is loaded:
 * strikethrough and autolink literals change no text we index, and every extension is parsing
 * surface. Front matter (`key: value` lines between `---`) is optional here: without it the
 * metadata comes from a sidecar or the caller.
 */
export function parseMarkdown(text: string): DraftResult {
  const split = splitFrontMatter(text);
  if (split.kind === "invalid") return split;
  return { kind: "ok", draft: { ...parseMarkdownBody(split.body), embedded: split.kind === "ok" ? split.fields : {} } };
}

/**
 * A markdown body whose metadata is known already (a stored document, a JSONL record): no front
 * matter is looked for, so a body that happens to open with `---` is text, not metadata.
 */
export function parseMarkdownBody(body: string): DraftDocument {
  const tree = fromMarkdown(body, { extensions: [gfmTable()], mdastExtensions: [gfmTableFromMarkdown()] });
  const blocks: DraftBlock[] = [];
  walk(tree, blocks);
  const firstHeading = blocks.find((block) => block.kind === "heading" && block.level === 1);
  return { blocks, warnings: [], embedded: {}, titleHint: firstHeading?.kind === "heading" ? collapse(firstHeading.text) : null };
}

function walk(parent: Root | Extract<RootContent, { children: unknown }>, out: DraftBlock[]): void {
  for (const node of parent.children as RootContent[]) {
    switch (node.type) {
      case "heading":
        out.push({ kind: "heading", level: node.depth, text: inlineText(node), page: null });
        break;
      case "paragraph":
        out.push({ kind: "paragraph", text: inlineText(node), emphasized: isEmphasized(node), page: null });
        break;
      case "code":
        out.push({ kind: "paragraph", text: node.value, emphasized: false, page: null });
        break;
      case "list":
        out.push({ kind: "list", ordered: node.ordered === true, start: node.ordered === true ? (node.start ?? 1) : null, items: flattenList(listTree(node)), page: null });
        break;
      case "table": {
        const rows = node.children.map((row) => row.children.map((cell) => inlineText(cell)));
        out.push({ kind: "table", caption: null, headerRows: rows.slice(0, 1), bodyRows: rows.slice(1), rowHeaderColumn: null, mergedCells: false, page: null });
        break;
      }
      case "blockquote":
        walk(node, out);
        break;
      case "html":
        // Raw HTML blocks (a CMS's <table>, a <dl>) are document text too; comments give nothing.
        out.push(...parseHtml(node.value).blocks);
        break;
      default:
        // thematicBreak, definition, footnotes, yaml: no customer-facing text of their own.
        break;
    }
  }
}

function listTree(list: List): ListTree {
  return {
    ordered: list.ordered === true,
    items: list.children.map((item) => ({
      text: item.children
        .filter((child) => child.type !== "list")
        .map((child) => inlineText(child))
        .join(" "),
      lists: item.children.filter((child): child is List => child.type === "list").map(listTree),
    })),
  };
}

/** A paragraph that is all bold or all italic ("**Premium for one adult:**"). */
function isEmphasized(node: Nodes & { children: Nodes[] }): boolean {
  const meaningful = node.children.filter((child) => !(child.type === "text" && child.value.trim() === ""));
  return meaningful.length === 1 && (meaningful[0]?.type === "strong" || meaningful[0]?.type === "emphasis");
}

function inlineText(node: Nodes): string {
  switch (node.type) {
    case "text":
    case "inlineCode":
    case "code":
      return node.value;
    case "break":
      return " ";
    case "image":
    case "html":
      return "";
    default:
      return "children" in node ? (node.children as Nodes[]).map(inlineText).join(node.type === "tableRow" ? " " : "") : "";
  }
}
