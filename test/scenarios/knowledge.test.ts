import { defineStrictSuite } from "./support.js";

/** Strict conversations that need the corpus: direct questions, follow-ups, ambiguity, unknown products, clarify loops. */
await defineStrictSuite("strict scenarios: knowledge", ["direct", "follow_up", "ambiguous", "unknown", "clarify_loop"]);
