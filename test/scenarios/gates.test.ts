import { defineStrictSuite } from "./support.js";

/** Strict conversations decided by gates and conversation handling: handoff, restricted, frustration, account, chitchat, out of scope, injection. */
await defineStrictSuite("strict scenarios: gates and conversation", ["handoff", "restricted", "frustration", "account", "chitchat", "out_of_scope", "injection"]);
