export { detectLanguage, isLanguage, LANGUAGES, type Language, type LanguageGuess } from "./language.js";
export { foldForMatch, normalizeText, toAsciiDigits } from "./normalize.js";
export { canonicalNumber, extractNumbers } from "./numbers.js";
export { asksSomething, FOLLOW_UP_TERMS, questionOf, splitSentences } from "./sentences.js";
export { memoByText } from "./memo.js";
export { analyze } from "./analysis/index.js";
