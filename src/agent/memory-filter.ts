import type { UserProfile } from "../domain/profile.js";
import { toAsciiDigits } from "../text/normalize.js";

/**
 * The last line of defence for long-term memory: whatever a model extracted, a value that looks
 * like an identifier (national id, card, account, IBAN, phone), or that talks about health, is
 * dropped before it is stored. Durable, non-sensitive facts only (issue: memory).
 */
const LONG_DIGIT_RUN = /\d[\d\s-]{6,}\d/u;
const IBAN = /\bIR\s?\d{2}/iu;
const EMAIL = /[^\s@]+@[^\s@]+\.[^\s@]+/u;
const HEALTH_WORDS =
  /\b(diabet\w*|cancer|pregnan\w*|hiv|surgery|disease|illness|depress\w*|diagnos\w*|medication|blood|heart|asthma)\b|دیابت|سرطان|باردار|بیماری|جراحی|افسردگی|قلب|آسم|فشار خون/iu;

export function isSensitive(value: string): boolean {
  const ascii = toAsciiDigits(value);
  return LONG_DIGIT_RUN.test(ascii) || IBAN.test(ascii) || EMAIL.test(ascii) || HEALTH_WORDS.test(ascii);
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
