/**
 * The two classifiers frontdesk trains, by name: their closed class lists (a label outside them
 * in the data is an error, not a new class) and the options they train with.
 */

/** Intent gates, checked before any model call. `knowledge` is "none of the gates: answer from documents". */
export const GATE_CLASSES = [
  "handoff_request",
  "restricted:claim_dispute",
  "restricted:complaint",
  "restricted:cancellation",
  "restricted:payout",
  "restricted:legal",
  "account",
  "frustration",
  "chitchat",
  "out_of_scope",
  "knowledge",
] as const;
export type GateClass = (typeof GATE_CLASSES)[number];

/** Planted-instruction detector for document text. */
export const DETECTOR_CLASSES = ["instruction", "policy"] as const;
export type DetectorClass = (typeof DETECTOR_CLASSES)[number];
