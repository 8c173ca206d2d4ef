import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GOLDEN_IDS, openTranscripts, readGolden, type Transcripts } from "./transcript.js";

/**
 * Golden transcripts: node path, checkpointed state after each turn, and result of a dozen
 * representative conversations. A change shows as a line diff of the JSON; if it is intended,
 * run `npm run golden:update` and commit the new files with the reason.
 */
describe("golden transcripts", () => {
  let transcripts: Transcripts;
  beforeAll(async () => {
    transcripts = await openTranscripts();
  });
  afterAll(async () => {
    await transcripts?.close();
  });

  it.each(GOLDEN_IDS)("%s", async (id) => {
    const expected = await readGolden(id);
    if (expected === null) throw new Error(`test/golden/${id}.json is missing: run npm run golden:update`);
    expect(await transcripts.record(id), `test/golden/${id}.json changed; if intended, run npm run golden:update`).toBe(expected);
  });
});
