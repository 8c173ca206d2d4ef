import type { Config } from "../config/config.js";
import { ConfigError } from "../config/config.js";
import { createOfflineModelProvider } from "./offline/index.js";
import type { ModelProvider } from "./provider.js";

export { ModelError, type ModelErrorKind } from "./errors.js";
export type { ModelCallOptions, ModelProvider, ModelResponse, TokenUsage } from "./provider.js";
export * from "./roles.js";

/** Chooses the model provider from configuration. */
export function createModelProvider(config: Config): ModelProvider {
  const kind = config.models.provider;
  switch (kind) {
    case "offline":
      return createOfflineModelProvider();
    case "gemini":
      throw new ConfigError("FRONTDESK_MODEL_PROVIDER=gemini is not available in this build yet; use offline");
    default: {
      const unreachable: never = kind;
      throw new ConfigError(`unknown model provider ${String(unreachable)}`);
    }
  }
}
