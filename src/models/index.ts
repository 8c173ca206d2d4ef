import type { ModelBundle } from "./bundle.js";
import type { Config } from "../config/config.js";
import { ConfigError } from "../config/config.js";
import { createGeminiModelProvider } from "./gemini/index.js";
import { createOfflineModelProvider } from "./offline/index.js";
import type { ModelProvider } from "./provider.js";

export { ModelError, type ModelErrorKind } from "./errors.js";
export type { ModelCallOptions, ModelProvider, ModelResponse, TokenUsage } from "./provider.js";
export * from "./roles.js";

/** Chooses the model provider from configuration; Gemini takes its prompts and model profiles from the bundle. */
export function createModelProvider(config: Config, bundle: ModelBundle): ModelProvider {
  const kind = config.models.provider;
  switch (kind) {
    case "offline":
      return createOfflineModelProvider();
    case "gemini": {
      // loadConfig refuses gemini without a key; this guards programmatic configurations.
      if (config.models.googleApiKey === null) throw new ConfigError("FRONTDESK_MODEL_PROVIDER=gemini needs GOOGLE_API_KEY");
      return createGeminiModelProvider({
        apiKey: config.models.googleApiKey,
        baseUrl: config.models.geminiBaseUrl,
        timeoutMs: config.models.timeoutMs,
        bundle,
      });
    }
    default: {
      const unreachable: never = kind;
      throw new ConfigError(`unknown model provider ${String(unreachable)}`);
    }
  }
}
