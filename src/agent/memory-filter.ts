import { PROFILE_KEYS, type ProfileKey, type UserProfile } from "../domain/profile.js";
import { foldForMatch, toAsciiDigits } from "../text/normalize.js";
import { hasPersonalData } from "../text/pii.js";

/**
 * The last line of defence for long-term memory: whatever a model extracted, a value that holds
 * personal data (the redaction detector: national code, mobile, card, IBAN, e-mail), looks like
 * an identifier at all (any long run of digits: account, policy or phone numbers), or talks about
 * health, is dropped before it is stored. Durable, non-sensitive facts only (issue: memory). Not
 * configurable: redaction.json's policy never applies to memory, which keeps none of it.
 */
const LONG_DIGIT_RUN = /\d[\d\s-]{6,}\d/u;
const IBAN = /\bIR\s?\d{2}/iu;
const EMAIL = /[^\s@]+@[^\s@]+\.[^\s@]+/u;
const HEALTH_WORDS =
  /\b(diabet\w*|cancer|pregnan\w*|hiv|surgery|disease|illness|depress\w*|diagnos\w*|medication|blood|heart|asthma)\b|دیابت|سرطان|باردار|بیماری|جراحی|افسردگی|قلب|آسم|فشار خون/iu;

export function isSensitive(value: string): boolean {
  const ascii = toAsciiDigits(value);
  return hasPersonalData(value) || LONG_DIGIT_RUN.test(ascii) || IBAN.test(ascii) || EMAIL.test(ascii) || HEALTH_WORDS.test(ascii);
}

/** Keeps only the non-sensitive facts of `facts`. */
export function filterSensitive(facts: UserProfile): UserProfile {
  const out: UserProfile = {};
  if (facts.vehicle !== undefined && !isSensitive(facts.vehicle)) out.vehicle = facts.vehicle;
  if (facts.family !== undefined && !isSensitive(facts.family)) out.family = facts.family;
  if (facts.home !== undefined && !isSensitive(facts.home)) out.home = facts.home;
  if (facts.productsHeld !== undefined) {
    const products = facts.productsHeld.filter((p) => !isSensitive(p));
    if (products.length > 0) out.productsHeld = products;
  }
  if (facts.preferredLanguage !== undefined) out.preferredLanguage = facts.preferredLanguage;
  return out;
}

/** Merges new facts over the profile; productsHeld accumulates (bounded). */
export function mergeProfile(profile: UserProfile, facts: UserProfile): UserProfile {
  const merged: UserProfile = { ...profile, ...facts };
  if (profile.productsHeld !== undefined || facts.productsHeld !== undefined) {
    merged.productsHeld = [...new Set([...(profile.productsHeld ?? []), ...(facts.productsHeld ?? [])])].slice(-12);
  }
  return merged;
}

/**
 * "Forget …" requests, in both languages. Matched on every turn (not only after a grounded
 * answer): whatever the user asks to forget is removed from memory before anything else runs,
 * and nothing is extracted from that message.
 */
const FORGET =
  /(?<![\p{L}])(?:forget|don'?t (?:remember|store|save|keep)|do not (?:remember|store|save|keep)|stop remembering|delete (?:my|that|this|what)|erase (?:my|that|this|what)|فراموش|ذخیره نکن|به خاطر نسپار|یادت نماند|یادت نمونه|حذف کن|پاک کن)(?![\p{L}])/u;

/** What each remembered fact is called, so a forget request can name it. */
const FORGET_TOPICS: Record<ProfileKey, RegExp> = {
  vehicle: /\b(car|cars|vehicle|auto|drive|driving|peugeot|pride|samand)\b|ماشین|خودرو|اتومبیل|پژو|پراید|سمند/u,
  family: /\b(wife|husband|spouse|kids?|children|child|son|daughter|family|married|single)\b|همسر|شوهر|خانم|بچه|فرزند|خانواده|متاهل|مجرد/u,
  home: /\b(home|house|apartment|flat|live|address)\b|خانه|منزل|آپارتمان|خونه/u,
  productsHeld: /\b(policy|policies|insurance|product|products|coverage)\b|بیمه/u,
  preferredLanguage: /\b(language|english|persian|farsi)\b|زبان|فارسی|انگلیسی/u,
};

/**
 * null when `text` asks to forget nothing; otherwise the facts it names, or "all" when it names
 * none of them ("forget what I told you").
 */
export function forgetRequest(text: string): ProfileKey[] | "all" | null {
  const folded = foldForMatch(text);
  if (!FORGET.test(folded)) return null;
  const keys = PROFILE_KEYS.filter((key) => FORGET_TOPICS[key].test(folded));
  return keys.length === 0 ? "all" : keys;
}

/** The profile without the forgotten facts. */
export function forgetFacts(profile: UserProfile, forget: ProfileKey[] | "all"): UserProfile {
  if (forget === "all") return {};
  const kept: UserProfile = { ...profile };
  for (const key of forget) delete kept[key];
  return kept;
}
