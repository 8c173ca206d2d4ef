/**
 * "My father likes to speak to someone in Farsi when he calls": a habit told of someone else, not
 * a request. A request phrase right after "likes to", "usually" and the like, in a message whose
 * words before it say no "I" or "we", describes; any first person before it ("I always like to
 * speak to someone") and it asks. Words as the gates fold them (lower case, unified letters).
 */
const HABIT = new Set(["likes", "prefers", "loves", "tends", "usually", "normally", "always", "often", "sometimes", "معمولا", "همیشه"]);
const FIRST_PERSON = new Set(["i", "i'd", "i'm", "me", "we", "we'd", "us", "من", "ما", "میخوام", "میخواهم", "میخواستم"]);
/** How far before the phrase a habit word may stand ("likes to speak", "usually talks to"). */
const HABIT_REACH = 3;

export function toldOfOthers(before: readonly string[]): boolean {
  return before.slice(-HABIT_REACH).some((w) => HABIT.has(w)) && !before.some((w) => FIRST_PERSON.has(w));
}
