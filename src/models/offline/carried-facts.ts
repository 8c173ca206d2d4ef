import type { UserProfile } from "../../domain/profile.js";
import { foldForMatch, type Language } from "../../text/index.js";
import { judgeable, parseQuantities, type Quantity } from "../../text/quantities.js";

/** What a follow-up's query carries beyond its own words: the conversation's stated quantities, a profile's home or vehicle type. */

/**
 * The quantities the conversation stated that a follow-up's query must still carry: those of the
 * previous message that its query left out (they were in a statement: "My sister is 25. How much
 * is Mehr for 30 days?"), and, when the follow-up states a quantity of its own, the previous
 * query's of other kinds (its own tokens are dropped then). A kind the follow-up states is
 * replaced ("and for 3 months?" replaces the 30 days, not the age).
 */
export function statedQuantities(previousQuery: string, previousText: string, text: string, turnStatesQuantity: boolean): Quantity[] {
  // What a table's rows can hold: an age band, a trip length, a value band.
  const stated = (t: string) => parseQuantities(t).filter(judgeable);
  const turnKinds = new Set(stated(text).map((q) => q.kind));
  const inQuery = stated(previousQuery);
  const queryKinds = new Set(inQuery.map((q) => q.kind));
  const fromText = stated(previousText).filter((q) => !queryKinds.has(q.kind));
  const candidates = turnStatesQuantity ? [...inQuery, ...fromText] : fromText;
  const seen = new Set<Quantity["kind"]>();
  return candidates.filter((q) => {
    if (turnKinds.has(q.kind) || seen.has(q.kind)) return false;
    seen.add(q.kind);
    return true;
  });
}

/** A quantity in words the query's reader parses back to the same kind and value. */
export function renderQuantity(q: Quantity, language: Language): string {
  const value = String(q.value);
  switch (q.kind) {
    case "age":
      return language === "fa" ? `${value} ساله` : `${value} years old`;
    case "days":
      return language === "fa" ? `${value} روز` : `${value} days`;
    default:
      return language === "fa" ? `ارزش ${value}` : `worth ${value}`;
  }
}

const MY_HOME = /(?<![\p{L}])(?:my (?:home|house|place|property)|(?:خانه|منزل) ?(?:ام|م|من)|منزلم)(?![\p{L}])/u;
const MY_VEHICLE = /(?<![\p{L}])(?:my (?:vehicle|car|ride)|(?:ماشین|خودرو|خودروی|اتومبیل) ?(?:ام|م|من))(?![\p{L}])/u;
const HOME_TYPES = /(?<![\p{L}])(apartment|flat|villa|house|آپارتمان|ویلا|ویلایی)(?![\p{L}])/u;
const VEHICLE_TYPES = /(?<![\p{L}])(motorcycle|motorbike|truck|van|pickup|موتورسیکلت|موتور سیکلت|کامیون|وانت)(?![\p{L}])/u;

/**
 * Profile facts are used sparingly: only a home or vehicle *type* ("apartment", "motorcycle"),
 * and only when the user asks about "my home"/"my car" without saying which kind. A make and
 * model ("Peugeot 206") or a city adds nothing retrieval can use, and profile text is never
 * copied into queries otherwise.
 */
export function withProfileHint(query: string, text: string, profile: UserProfile): string {
  const folded = foldForMatch(text);
  const foldedQuery = foldForMatch(query);
  if (profile.home !== undefined && MY_HOME.test(folded) && !HOME_TYPES.test(foldedQuery)) {
    const type = HOME_TYPES.exec(foldForMatch(profile.home))?.[1];
    if (type !== undefined) return `${query} ${type}`;
  }
  if (profile.vehicle !== undefined && MY_VEHICLE.test(folded) && !VEHICLE_TYPES.test(foldedQuery)) {
    const type = VEHICLE_TYPES.exec(foldForMatch(profile.vehicle))?.[1];
    if (type !== undefined) return `${query} ${type}`;
  }
  return query;
}
