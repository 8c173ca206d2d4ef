import { analyzeWord, words } from "../text/analysis/index.js";
import { isPersianWord, scriptKey } from "../text/transliterate.js";

/**
 * Names a document spells in the other script beside themselves: «کیل کامل (Keel Complete)»,
 * "Comprehensive (جامع)". The document says the two are one name, so a question in either script
 * finds the other (Taxonomy.glosses). Within a gloss, words that sound alike pair up («کیل» with
 * "Keel"); what is left pairs only when one word is left on each side («کامل» with "Complete"),
 * neither is a word most documents use («حق بیمه (premium)» is not «بیمه»), the name is not part of
 * a compound («گجت‌گارد») and the gloss is not an acronym ("(OCF)" glosses a phrase).
 */
const GLOSS = /\(([^()]{1,60})\)/gu;
const MAX_WORDS = 4;
const ACRONYM = /^(?=.*[A-Z])[\sA-Z0-9&./-]+$/u;
/** How far before a gloss its name may start. */
const LOOK_BACK = 120;

export function glossesOf(texts: readonly string[]): Map<string, string[]> {
  const out = new Map<string, Set<string>>();
  // Common among the documents written in the word's script: a Persian word of every Persian page.
  const frequency = new Map<string, number>();
  const ofScript = { persian: 0, latin: 0 };
  for (const text of texts) {
    const ws = words(text);
    const persian = ws.filter(isPersianWord).length > ws.length / 2;
    ofScript[persian ? "persian" : "latin"]++;
    for (const t of new Set(ws.map(analyzeWord))) if (t !== null) frequency.set(t, (frequency.get(t) ?? 0) + 1);
  }
  const common = (w: string) => (frequency.get(analyzeWord(w) ?? "") ?? 0) > ofScript[isPersianWord(w) ? "persian" : "latin"] / 2;
  const tie = (a: string, b: string) => {
    const ta = analyzeWord(a);
    const tb = analyzeWord(b);
    if (ta === null || tb === null) return;
    out.set(ta, (out.get(ta) ?? new Set()).add(tb));
    out.set(tb, (out.get(tb) ?? new Set()).add(ta));
  };
  for (const text of texts) {
    for (const m of text.matchAll(GLOSS)) {
      const inner = words(m[1]!).filter((w) => !/\d/u.test(w));
      if (inner.length === 0 || inner.length > MAX_WORDS) continue;
      const persian = isPersianWord(inner[0]!);
      if (!inner.every((w) => isPersianWord(w) === persian)) continue;
      const before = text.slice(Math.max(0, m.index - LOOK_BACK), m.index);
      const preceding = words(before).filter((w) => !/\d/u.test(w));
      const outer = preceding.slice(-inner.length);
      if (outer.length !== inner.length || !outer.every((w) => isPersianWord(w) !== persian)) continue;
      const left = [...outer];
      const right: string[] = [];
      for (const w of inner) {
        const i = left.findIndex((o) => scriptKey(o).length >= 2 && scriptKey(o) === scriptKey(w));
        if (i >= 0) tie(left.splice(i, 1)[0]!, w);
        else right.push(w);
      }
      // «ولکام هاربر (WelcomeHarbour)»: one name written as two words in the other script.
      const last = inner.length === 1 ? preceding.slice(-2) : [];
      if (last.length === 2 && last.every((w) => isPersianWord(w) !== persian) && scriptKey(last.join("")) === scriptKey(inner[0]!)) {
        for (const w of last) tie(w, inner[0]!);
        continue;
      }
      // A word left over pairs with the one left on the other side when the rest of the gloss
      // aligned by sound, or, alone, when neither is a common word.
      const anchored = inner.length > 1 && right.length < inner.length;
      const single = left.length === 1 && right.length === 1 && (anchored || (!common(left[0]!) && !common(right[0]!)));
      const acronym = ACRONYM.test(m[1]!.trim()) || ACRONYM.test(before.trim().split(/\s+/u).at(-1) ?? "");
      const compound = new RegExp(`\u200C${left[0] ?? ""}\\s*$`, "u").test(before.trimEnd());
      if (single && !acronym && !compound) tie(left[0]!, right[0]!);
    }
  }
  return new Map([...out].map(([term, others]) => [term, [...others].sort()]));
}
