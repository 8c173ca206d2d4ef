import { z } from "zod";

/**
 * Durable, non-sensitive facts about a user, kept across threads (the LangGraph Store) and
 * passed to the human agent in the handoff. Sensitive data (national ids, card or account
 * numbers, health details) never enters a profile: write_memory filters it out.
 */
export const UserProfileSchema = z
  .object({
    /** e.g. "2019 Peugeot 206". */
    vehicle: z.string().max(120).optional(),
    /** e.g. "married, two children". */
    family: z.string().max(120).optional(),
    /** Product keys or names the user says they hold. */
    productsHeld: z.array(z.string().max(80)).max(12).optional(),
    /** e.g. "apartment in Tehran". */
    home: z.string().max(120).optional(),
    preferredLanguage: z.enum(["fa", "en"]).optional(),
  })
  .strict();

export type UserProfile = z.infer<typeof UserProfileSchema>;

export const PROFILE_KEYS = ["vehicle", "family", "productsHeld", "home", "preferredLanguage"] as const;
export type ProfileKey = (typeof PROFILE_KEYS)[number];
