import { createHash } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A fake of the Generative Language API (Gemini) on 127.0.0.1: a real HTTP server speaking the
 * request and response shapes of `models/{model}:generateContent`, `:batchEmbedContents` and
 * `:embedContent`, so that @langchain/google-genai runs unmodified against it. It checks requests
 * the way the real API does where that catches our mistakes: the path, the API key, a JSON body,
 * non-empty contents, and a response schema that uses only the fields Gemini's Schema accepts
 * (the real API answers 400 "Unknown name" for any other). Tests decide the replies.
 */

export interface GenerateContentCall {
  kind: "generateContent";
  model: string;
  apiKey: string | null;
  /** The parsed request body. */
  body: GenerateContentBody;
  /** The system instruction's text. */
  system: string;
  /** The text of every content part, joined by blank lines. */
  user: string;
  responseSchema: unknown;
  /** The frontdesk role whose schema was sent (see roleOfSchema), or null. */
  role: string | null;
}

export interface EmbedCall {
  kind: "batchEmbedContents" | "embedContent";
  model: string;
  apiKey: string | null;
  texts: string[];
  body: unknown;
}

export type FakeCall = GenerateContentCall | EmbedCall;

export interface GenerateContentBody {
  contents: Array<{ role?: string; parts: Array<{ text?: string }> }>;
  systemInstruction?: { parts: Array<{ text?: string }> };
  generationConfig?: { temperature?: number; maxOutputTokens?: number; responseMimeType?: string; responseSchema?: unknown; thinkingConfig?: unknown };
}

export interface FakeUsage {
  promptTokenCount: number;
  candidatesTokenCount: number;
}

/** What the fake answers to one generateContent call. */
export type FakeReply =
  /** A structured reply: `json` serialised as the candidate's text. */
  | { json: unknown; usage?: FakeUsage }
  /** A candidate with this exact text (e.g. not JSON at all). */
  | { text: string; usage?: FakeUsage }
  /** An API error with Google's error body. */
  | { status: number; message?: string }
  /** No reply until the server closes: a timeout. */
  | { hang: true }
  /** The prompt was blocked (no candidates), or the candidate has no content (finish reason only). */
  | { blocked: "prompt" | "candidate"; reason?: string };

export type GenerateHandler = (call: GenerateContentCall) => FakeReply | Promise<FakeReply>;

export interface FakeGeminiOptions {
  /** Replies to generateContent; default: a 500 saying no handler is set. */
  generate?: GenerateHandler;
  /** Embedding of one text; default: a deterministic unit vector derived from its hash. */
  embed?: (text: string, dimensions: number) => number[];
  /** Default 768, or the request's outputDimensionality. */
  embeddingDimensions?: number;
  /** When set, any other key is refused as the real API does (400 API_KEY_INVALID). */
  apiKey?: string;
  /** When set, other models are 404 NOT_FOUND. */
  models?: readonly string[];
}

export interface FakeGemini {
  /** e.g. http://127.0.0.1:41234 — the baseUrl for the client. */
  url: string;
  calls: FakeCall[];
  generateCalls(): GenerateContentCall[];
  setGenerate(handler: GenerateHandler): void;
  close(): Promise<void>;
}

const STATUS_NAMES: Record<number, string> = {
  400: "INVALID_ARGUMENT",
  401: "UNAUTHENTICATED",
  403: "PERMISSION_DENIED",
  404: "NOT_FOUND",
  408: "DEADLINE_EXCEEDED",
  429: "RESOURCE_EXHAUSTED",
  500: "INTERNAL",
  503: "UNAVAILABLE",
  504: "DEADLINE_EXCEEDED",
};

/** The fields of Gemini's `Schema` object (generationConfig.responseSchema). */
const SCHEMA_FIELDS = new Set([
  "type",
  "format",
  "title",
  "description",
  "nullable",
  "enum",
  "maxItems",
  "minItems",
  "properties",
  "required",
  "minProperties",
  "maxProperties",
  "minLength",
  "maxLength",
  "pattern",
  "example",
  "anyOf",
  "propertyOrdering",
  "default",
  "items",
  "minimum",
  "maximum",
]);
const SCHEMA_TYPES = new Set(["STRING", "NUMBER", "INTEGER", "BOOLEAN", "ARRAY", "OBJECT", "NULL"]);

/** Problems the real API would report for this response schema, as "Unknown name" and type errors. */
export function schemaProblems(schema: unknown, at = "generation_config.response_schema"): string[] {
  if (typeof schema !== "object" || schema === null || Array.isArray(schema)) return [`Invalid value at '${at}': expected an object`];
  const problems: string[] = [];
  for (const [key, value] of Object.entries(schema)) {
    if (!SCHEMA_FIELDS.has(key)) problems.push(`Invalid JSON payload received. Unknown name "${key}" at '${at}': Cannot find field.`);
    if (key === "type" && (typeof value !== "string" || !SCHEMA_TYPES.has(value.toUpperCase()))) problems.push(`Invalid value at '${at}.type': ${JSON.stringify(value)}`);
    if (key === "properties" && typeof value === "object" && value !== null) {
      for (const [name, child] of Object.entries(value)) problems.push(...schemaProblems(child, `${at}.properties[${name}].value`));
    }
    if (key === "items") problems.push(...schemaProblems(value, `${at}.items`));
    if (key === "anyOf" && Array.isArray(value)) {
      value.forEach((child, i) => {
        problems.push(...schemaProblems(child, `${at}.any_of[${i}]`));
      });
    }
  }
  return problems;
}

/** Which frontdesk role a response schema belongs to, from its distinctive top-level property. */
export function roleOfSchema(schema: unknown): string | null {
  const properties = (schema as { properties?: Record<string, { items?: { properties?: Record<string, unknown> } }> } | undefined)?.properties;
  if (properties === undefined) return null;
  if ("intent" in properties) return "triage";
  if ("query" in properties) return "contextualize";
  if ("verdict" in properties) return "grade";
  if ("question" in properties) return "clarify";
  if ("answered" in properties) return "generate";
  if ("facts" in properties) return "extract_memory";
  if (properties["claims"]?.items?.properties !== undefined && "supported" in properties["claims"].items.properties) return "verify";
  return null;
}

/** A deterministic unit vector from a text's hash: equal texts embed equally. */
export function hashEmbedding(text: string, dimensions: number): number[] {
  const values: number[] = [];
  for (let block = 0; values.length < dimensions; block++) {
    const digest = createHash("sha256").update(`${block}:${text}`).digest();
    for (let i = 0; i + 1 < digest.length && values.length < dimensions; i += 2) values.push(digest.readUInt16BE(i) / 32_768 - 1);
  }
  const norm = Math.hypot(...values) || 1;
  return values.map((v) => v / norm);
}

function textOf(parts: Array<{ text?: string }> | undefined): string {
  return (parts ?? []).map((p) => p.text ?? "").join("");
}

function estimateTokens(text: string): number {
  return Math.max(1, Math.ceil(text.length / 4));
}

class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

const ROUTE = /^\/(v1beta|v1)\/models\/([^/:]+):([A-Za-z]+)$/u;

export async function startFakeGemini(options: FakeGeminiOptions = {}): Promise<FakeGemini> {
  let generate: GenerateHandler = options.generate ?? (() => ({ status: 500, message: "the fake has no generateContent handler" }));
  const calls: FakeCall[] = [];
  const dimensionsDefault = options.embeddingDimensions ?? 768;
  const embed = options.embed ?? hashEmbedding;

  const send = (res: http.ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { "content-type": "application/json; charset=UTF-8" });
    res.end(JSON.stringify(body));
  };
  const sendError = (res: http.ServerResponse, status: number, message: string) =>
    send(res, status, { error: { code: status, message, status: STATUS_NAMES[status] ?? "UNKNOWN" } });

  function parseRequest(req: http.IncomingMessage, raw: string): { model: string; task: string; apiKey: string | null; body: unknown } {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    const route = ROUTE.exec(url.pathname);
    if (req.method !== "POST" || route === null) throw new ApiError(404, `${req.method} ${url.pathname} is not a method of this API`);
    const header = req.headers["x-goog-api-key"];
    const apiKey = (Array.isArray(header) ? header[0] : header) ?? url.searchParams.get("key");
    if (apiKey === undefined || apiKey === null || apiKey === "")
      throw new ApiError(
        403,
        "Method doesn't allow unregistered callers (callers without established identity). Please use API Key or other form of API consumer identity to call this API.",
      );
    if (options.apiKey !== undefined && apiKey !== options.apiKey) throw new ApiError(400, "API key not valid. Please pass a valid API key.");
    const model = route[2]!;
    if (options.models !== undefined && !options.models.includes(model))
      throw new ApiError(404, `models/${model} is not found for API version ${route[1]}, or is not supported for ${route[3]}.`);
    let body: unknown;
    try {
      body = JSON.parse(raw) as unknown;
    } catch {
      throw new ApiError(400, "Invalid JSON payload received.");
    }
    return { model, task: route[3]!, apiKey, body };
  }

  function generateCall(model: string, apiKey: string, body: unknown): GenerateContentCall {
    const b = body as Partial<GenerateContentBody>;
    if (!Array.isArray(b.contents) || b.contents.length === 0) throw new ApiError(400, "* GenerateContentRequest.contents: contents is not specified");
    for (const [i, content] of b.contents.entries()) {
      if (!Array.isArray(content.parts) || content.parts.length === 0) throw new ApiError(400, `* GenerateContentRequest.contents[${i}].parts: contents.parts must not be empty.`);
      if (content.role !== undefined && content.role !== "user" && content.role !== "model")
        throw new ApiError(400, `* GenerateContentRequest.contents[${i}].role: Please use a valid role: user, model.`);
    }
    const responseSchema = b.generationConfig?.responseSchema;
    if (responseSchema !== undefined) {
      const problems = schemaProblems(responseSchema);
      if (problems.length > 0) throw new ApiError(400, problems.join("\n"));
      if (b.generationConfig?.responseMimeType !== "application/json") throw new ApiError(400, "responseSchema needs responseMimeType application/json");
    }
    const full = b as GenerateContentBody;
    return {
      kind: "generateContent",
      model,
      apiKey,
      body: full,
      system: textOf(full.systemInstruction?.parts),
      user: full.contents.map((c) => textOf(c.parts)).join("\n\n"),
      responseSchema,
      role: roleOfSchema(responseSchema),
    };
  }

  function embedTexts(model: string, task: string, body: unknown): { texts: string[]; dimensions: number } {
    if (task === "embedContent") {
      const b = body as { content?: { parts?: Array<{ text?: string }> }; outputDimensionality?: number };
      if (b.content?.parts === undefined || b.content.parts.length === 0) throw new ApiError(400, "* EmbedContentRequest.content: content is not specified");
      return { texts: [textOf(b.content.parts)], dimensions: b.outputDimensionality ?? dimensionsDefault };
    }
    const b = body as { requests?: Array<{ model?: string; content?: { parts?: Array<{ text?: string }> }; outputDimensionality?: number }> };
    if (!Array.isArray(b.requests) || b.requests.length === 0) throw new ApiError(400, "* BatchEmbedContentsRequest.requests: requests is not specified");
    if (b.requests.length > 100) throw new ApiError(400, "* BatchEmbedContentsRequest.requests: at most 100 requests can be in one batch");
    for (const [i, request] of b.requests.entries()) {
      if (request.model !== `models/${model}`) throw new ApiError(400, `* BatchEmbedContentsRequest.requests[${i}].model: the model must be models/${model}`);
      if (request.content?.parts === undefined || request.content.parts.length === 0)
        throw new ApiError(400, `* BatchEmbedContentsRequest.requests[${i}].content: content is not specified`);
    }
    return { texts: b.requests.map((r) => textOf(r.content?.parts)), dimensions: b.requests[0]?.outputDimensionality ?? dimensionsDefault };
  }

  async function handle(req: http.IncomingMessage, res: http.ServerResponse, raw: string): Promise<void> {
    const { model, task, apiKey, body } = parseRequest(req, raw);
    const key = apiKey ?? "";
    if (task === "generateContent") {
      const call = generateCall(model, key, body);
      calls.push(call);
      const reply = await generate(call);
      if ("hang" in reply) return; // the response stays open until close()
      if ("status" in reply) return sendError(res, reply.status, reply.message ?? `fake ${reply.status}`);
      const promptTokenCount = estimateTokens(raw);
      if ("blocked" in reply) {
        const usageMetadata = { promptTokenCount, totalTokenCount: promptTokenCount };
        return reply.blocked === "prompt"
          ? send(res, 200, { promptFeedback: { blockReason: reply.reason ?? "SAFETY" }, usageMetadata, modelVersion: model })
          : send(res, 200, { candidates: [{ finishReason: reply.reason ?? "SAFETY", index: 0 }], usageMetadata, modelVersion: model });
      }
      const text = "json" in reply ? JSON.stringify(reply.json) : reply.text;
      const usage = reply.usage ?? { promptTokenCount, candidatesTokenCount: estimateTokens(text) };
      return send(res, 200, {
        candidates: [{ content: { role: "model", parts: [{ text }] }, finishReason: "STOP", index: 0 }],
        usageMetadata: { ...usage, totalTokenCount: usage.promptTokenCount + usage.candidatesTokenCount },
        modelVersion: model,
      });
    }
    if (task === "batchEmbedContents" || task === "embedContent") {
      const { texts, dimensions } = embedTexts(model, task, body);
      calls.push({ kind: task, model, apiKey: key, texts, body });
      const vectors = texts.map((t) => embed(t, dimensions));
      return task === "embedContent" ? send(res, 200, { embedding: { values: vectors[0] } }) : send(res, 200, { embeddings: vectors.map((values) => ({ values })) });
    }
    throw new ApiError(404, `${task} is not implemented by the fake`);
  }

  const server = http.createServer((req, res) => {
    let raw = "";
    req.setEncoding("utf8");
    req.on("data", (chunk: string) => (raw += chunk));
    req.on("end", () => {
      handle(req, res, raw).catch((error: unknown) => {
        if (error instanceof ApiError) sendError(res, error.status, error.message);
        else sendError(res, 500, `fake failure: ${error instanceof Error ? error.message : String(error)}`);
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    calls,
    generateCalls: () => calls.filter((c): c is GenerateContentCall => c.kind === "generateContent"),
    setGenerate(handler) {
      generate = handler;
    },
    close() {
      return new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      });
    },
  };
}

/** The chunk blocks of a prompt (as src/models/gemini/prompts.ts writes them), in order. */
export function chunksInPrompt(prompt: string): Array<{ id: string; text: string }> {
  const unescapeXml = (v: string) =>
    v
      .replace(/&quot;/gu, '"')
      .replace(/&lt;/gu, "<")
      .replace(/&gt;/gu, ">")
      .replace(/&amp;/gu, "&");
  return [...prompt.matchAll(/<chunk id="([^"]*)"[^>]*>\n([\s\S]*?)\n<\/chunk>/gu)].map((m) => ({ id: unescapeXml(m[1]!), text: m[2]! }));
}

/** The user's message block of a prompt, or "" when there is none. */
export function userMessageInPrompt(prompt: string): string {
  return /<user_message>\n([\s\S]*?)\n<\/user_message>/u.exec(prompt)?.[1] ?? "";
}

/** The statements of a verify prompt's claim blocks, in order. */
export function statementsInPrompt(prompt: string): string[] {
  return [...prompt.matchAll(/<statement>\n([\s\S]*?)\n<\/statement>/gu)].map((m) => m[1]!);
}
