// Domain ↔ protobuf, in one place: the server, the client, the CLI and the evaluation share it.
export { answerKindToWire, escalationReasonFromWire, escalationReasonToWire, escalationToWire, progressToWire, turnResultToWire } from "./turn.js";
export { escalationFromWire, progressFromWire, turnResultFromWire, type ReceivedEscalation, type ReceivedOutcome, type ReceivedTurnResult } from "./turn-from-wire.js";
export { threadToWire } from "./thread.js";
export { watchItemToWire, watchStartedToWire } from "./watch.js";
export { chunkToWire, documentInfoToWire, upsertStatusToWire } from "./documents.js";
