import { stemmer } from "stemmer";

/** English stopwords: function words that carry no retrieval signal in support questions. */
export const EN_STOPWORDS: ReadonlySet<string> = new Set(
  `a about above after again against all am an and any are aren't as at be because been before being below between both but by
can could did do does doing don't down during each few for from further had has have having he her here hers herself him
himself his how i i'd i'll i'm i've if in into is isn't it it's its itself just let's me more most my myself no nor not of
off on once only or other ought our ours ourselves out over own same she should so some such than that that's the their
theirs them themselves then there there's these they this those through to too under until up very was we were what
what's when where which while who whom why will with would you your yours yourself yourselves also please thanks hi hello
get got tell know want need like would could should may might shall must us yes ok okay
many much actually just really anyway exactly kindly`.split(/\s+/u),
);

export function analyzeEnglishWord(word: string): string | null {
  if (EN_STOPWORDS.has(word)) return null;
  // A contraction is its word: "they're" is "they", "car's" is "car".
  const bare = word.replace(/'(?:s|re|ve|ll|d|m)$/u, "");
  if (EN_STOPWORDS.has(bare)) return null;
  if (bare.length < 2 && !/\d/u.test(bare)) return null;
  // Digits are kept verbatim: amounts and limits are strong retrieval signals.
  return /^\d/u.test(bare) ? bare : stemmer(bare);
}
