import { GoogleGenerativeAIEmbeddings } from "@langchain/google-genai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hashEmbedding, schemaProblems, startFakeGemini, type FakeGemini } from "../../support/fake-gemini.js";

/** The fake Generative Language API itself: it must fail the way the real one does, or tests against it prove little. */

let fake: FakeGemini;
beforeAll(async () => {
  fake = await startFakeGemini({ apiKey: "k", embeddingDimensions: 8 });
});
afterAll(() => fake.close());

async function post(path: string, body: unknown, headers: Record<string, string> = { "x-goog-api-key": "k" }) {
  const response = await fetch(`${fake.url}${path}`, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify(body) });
  return { status: response.status, json: (await response.json()) as { error?: { status: string; message: string } } & Record<string, unknown> };
}

describe("the fake Gemini API", () => {
  it("serves embeddings to @langchain/google-genai's client: batchEmbedContents and embedContent, deterministic", async () => {
    const embeddings = new GoogleGenerativeAIEmbeddings({ model: "gemini-embedding-001", apiKey: "k", baseUrl: fake.url, maxRetries: 0 });
    const vectors = await embeddings.embedDocuments(["بیمه بدنه", "travel insurance"]);
    expect(vectors).toEqual([hashEmbedding("بیمه بدنه", 8), hashEmbedding("travel insurance", 8)]);
    expect(Math.hypot(...vectors[0]!)).toBeCloseTo(1, 10);
    expect(await embeddings.embedQuery("travel insurance")).toEqual(vectors[1]);
    expect(fake.calls.map((c) => [c.kind, c.model])).toEqual([
      ["batchEmbedContents", "gemini-embedding-001"],
      ["embedContent", "gemini-embedding-001"],
    ]);
  });

  it("refuses what the real API refuses: no key, a wrong key, an unknown method, empty contents, unknown schema fields", async () => {
    const ok = { contents: [{ role: "user", parts: [{ text: "hi" }] }] };
    expect((await post("/v1beta/models/m:generateContent", ok, {})).json.error?.status).toBe("PERMISSION_DENIED");
    expect((await post("/v1beta/models/m:generateContent", ok, { "x-goog-api-key": "other" })).status).toBe(400);
    expect((await post("/v1beta/models/m:countTokens", ok)).status).toBe(404);
    expect((await post("/v1beta/models/m:generateContent", { contents: [] })).json.error?.message).toContain("contents is not specified");
    const schema = { type: "object", properties: { a: { type: "string", additionalProperties: false } }, $schema: "x" };
    const refused = await post("/v1beta/models/m:generateContent", { ...ok, generationConfig: { responseMimeType: "application/json", responseSchema: schema } });
    expect(refused.status).toBe(400);
    expect(refused.json.error?.message).toContain('Unknown name "$schema"');
    expect(schemaProblems(schema)).toEqual([
      `Invalid JSON payload received. Unknown name "additionalProperties" at 'generation_config.response_schema.properties[a].value': Cannot find field.`,
      `Invalid JSON payload received. Unknown name "$schema" at 'generation_config.response_schema': Cannot find field.`,
    ]);
    const batch = await post("/v1beta/models/e:batchEmbedContents", { requests: [{ model: "models/other", content: { parts: [{ text: "x" }] } }] });
    expect(batch.json.error?.message).toContain("the model must be models/e");
  });
});
