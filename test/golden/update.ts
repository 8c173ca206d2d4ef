import { GOLDEN_IDS, openTranscripts, readGolden, writeGolden } from "./transcript.js";

/** `npm run golden:update`: re-records every golden transcript; review the diff before committing. */
const transcripts = await openTranscripts();
try {
  for (const id of GOLDEN_IDS) {
    const text = await transcripts.record(id);
    const before = await readGolden(id);
    await writeGolden(id, text);
    console.log(`${before === text ? "unchanged" : before === null ? "created  " : "updated  "} test/golden/${id}.json`);
  }
} finally {
  await transcripts.close();
}
