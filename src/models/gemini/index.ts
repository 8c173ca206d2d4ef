import { ChatGoogleGenerativeAI } from "@langchain/google-genai";
import { HumanMessage, SystemMessage, type BaseMessage } from "@langchain/core/messages";
import type { Runnable } from "@langchain/core/runnables";
import type { ModelProfile } from "../bundle.js";
import type { ModelBundle } from "../bundle.js";
import { ModelError } from "../errors.js";
import type { ModelCallOptions, ModelProvider, ModelResponse, TokenUsage } from "../provider.js";
import { ROLES, ROLE_SCHEMAS, type Role, type RoleIO } from "../roles.js";
import { toModelError } from "./errors.js";
import { renderRolePrompt } from "./prompts.js";

export { geminiErrorKind } from "./errors.js";
export { chunkBlock, neutralize, renderRolePrompt } from "./prompts.js";

/** Google's public Generative Language API. */
export const GEMINI_PUBLIC_BASE_URL = "https://generativelanguage.googleapis.com";

export interface GeminiModelProviderOptions {
  /** GOOGLE_API_KEY. */
  apiKey: string;
  /** The API's address: a proxy, or a fake on 127.0.0.1 in tests. Default GEMINI_PUBLIC_BASE_URL. */
  baseUrl?: string | null;
  /** One call's time limit in ms (FRONTDESK_MODEL_TIMEOUT_MS); default 15000. */
  timeoutMs?: number;
  /** The prompts, the model profile of each role and the insurer's name, from the config bundle. */
  bundle: Pick<ModelBundle, "prompts" | "models" | "insurerName">;
}

type StructuredReply = { raw: BaseMessage; parsed: unknown };

/** A function, not a property read, so that TypeScript does not narrow it across an await. */
const isAborted = (signal: AbortSignal | undefined): boolean => signal?.aborted === true;

function usageOf(message: BaseMessage): TokenUsage {
  const usage = "usage_metadata" in message ? (message.usage_metadata as { input_tokens?: number; output_tokens?: number } | undefined) : undefined;
  return { inputTokens: usage?.input_tokens ?? 0, outputTokens: usage?.output_tokens ?? 0 };
}

/** The reply's text when langchain could not parse it, for a precise schema error. */
function reparse(message: BaseMessage): unknown {
  const text = typeof message.content === "string" ? message.content : message.content.map((part) => ("text" in part ? String(part.text) : "")).join("");
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function chatModel(profile: ModelProfile, apiKey: string, baseUrl: string): ChatGoogleGenerativeAI {
  return new ChatGoogleGenerativeAI({
    model: profile.model,
    apiKey,
    // Always explicit: left unset, the library may route to a gateway named by environment variables.
    baseUrl,
    // Deterministic roles: the same input gets the same classification, query and answer.
    temperature: 0,
    maxOutputTokens: profile.maxOutputTokens,
    ...(profile.thinkingBudget !== undefined ? { thinkingConfig: { thinkingBudget: profile.thinkingBudget } } : {}),
    // Retries are ours (src/models/retry.ts, by error kind, counted against the turn's budget).
    maxRetries: 0,
  });
}

/**
 * Gemini through @langchain/google-genai: one structured-output runnable per role (the role's
 * zod schema sent as the response schema), on the model of the role's profile, at temperature 0,
 * prompted from the bundle. Each call has a time limit; failures become ModelError kinds; the
 * reply is validated against the role's schema again here, so a reply that fails it is
 * "malformed_output" (retried) whatever the library did with it.
 *
 * Known limit (@langchain/google-genai 2.3.2): a non-streaming call does not pass the abort
 * signal to its HTTP request; an aborted or timed-out call returns at once, while the request
 * itself runs on until the API answers or the connection closes.
 */
export function createGeminiModelProvider(options: GeminiModelProviderOptions): ModelProvider {
  const { bundle, apiKey } = options;
  const baseUrl = options.baseUrl ?? GEMINI_PUBLIC_BASE_URL;
  const timeoutMs = options.timeoutMs ?? 15_000;
  const chats = new Map<string, ChatGoogleGenerativeAI>();
  const chatFor = (role: Role): ChatGoogleGenerativeAI => {
    const profileName = bundle.models.roles[role];
    const profile = bundle.models.profiles[profileName];
    if (profile === undefined) throw new ModelError("configuration", role, `role ${role} uses unknown model profile "${profileName}"`);
    let chat = chats.get(profileName);
    if (chat === undefined) {
      chat = chatModel(profile, apiKey, baseUrl);
      chats.set(profileName, chat);
    }
    return chat;
  };
  const runnables = new Map<Role, Runnable<BaseMessage[], StructuredReply>>(
    ROLES.map((role) => [role, chatFor(role).withStructuredOutput(ROLE_SCHEMAS[role], { name: role, includeRaw: true })]),
  );

  return {
    id: "gemini",
    async invoke<R extends Role>(role: R, input: RoleIO[R]["input"], callOptions?: ModelCallOptions): Promise<ModelResponse<RoleIO[R]["output"]>> {
      const turnSignal = callOptions?.signal;
      if (isAborted(turnSignal)) throw turnSignal!.reason;
      const limitMs = Math.max(1, Math.min(timeoutMs, callOptions?.timeoutMs ?? timeoutMs));
      const timeout = AbortSignal.timeout(limitMs);
      const signal = turnSignal ? AbortSignal.any([turnSignal, timeout]) : timeout;
      const prompt = renderRolePrompt(role, input, bundle);
      let reply: StructuredReply;
      try {
        reply = await runnables.get(role)!.invoke([new SystemMessage(prompt.system), new HumanMessage(prompt.user)], { signal });
      } catch (error) {
        if (isAborted(turnSignal)) throw turnSignal!.reason;
        if (timeout.aborted) throw new ModelError("timeout", role, `gemini ${role} call got no reply within ${limitMs} ms`, { cause: error });
        throw toModelError(role, error);
      }
      const usage = usageOf(reply.raw);
      const parsed = ROLE_SCHEMAS[role].safeParse(reply.parsed ?? reparse(reply.raw));
      if (!parsed.success) {
        const where = parsed.error.issues.map((issue) => issue.path.join(".") || "(root)").join(", ");
        throw new ModelError("malformed_output", role, `gemini ${role} reply fails its schema at ${where}`, { cause: parsed.error, usage });
      }
      return { output: parsed.data as RoleIO[R]["output"], usage };
    },
  };
}
