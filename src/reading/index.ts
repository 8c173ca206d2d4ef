/**
 * Reading what retrieval found: question analysis (the asked attribute, the stated quantities),
 * tables (the row and column a question's constraints select), and the reader's verdict — answer
 * with this cell, item or sentence; ask which product or which of a table's labels; or the
 * evidence does not answer. Deterministic, shared by the agent (grade) and the offline model.
 */
export { read, READER_RULES, type ReaderClaim, type ReaderInput, type ReaderOption, type ReaderVerdict } from "./read.js";
export { namedProducts } from "./products.js";
export { addsToQuestion, questionTerms } from "./evidence-terms.js";
export { analyzeQuestion, type Attribute, type QuestionAnalysis } from "./question.js";
export { statedWith } from "./attributes.js";
export { parseInterval, parseQuantities, type Interval, type Quantity } from "../text/quantities.js";
export type { ReadingUnit, UnitShape } from "./types.js";
