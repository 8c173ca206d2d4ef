import type { Logger } from "../domain/logger.js";
import { loadConfig } from "../config/config.js";
import { createInProcessTarget, type InProcessTarget } from "./in-process.js";
import type { EvalTargets } from "./runner.js";
import { bundleDirFor, type EvalSet } from "./sets.js";

export interface InProcessSetTargets {
  targets: EvalTargets & { plain: InProcessTarget; fixtures: InProcessTarget };
  close(): Promise<void>;
}

/**
 * The application in this process for one evaluation set: the set's corpus, as its own tenant,
 * with its bundle overlay, threads in memory; and a second instance that also serves the test-only
 * fixture documents (they change retrieval, so plain scenarios never see them).
 */
export async function openInProcessSet(
  set: EvalSet,
  env: Record<string, string | undefined>,
  logger: Logger,
  options: { label?: string; models?: Parameters<typeof createInProcessTarget>[0]["models"] } = {},
): Promise<InProcessSetTargets> {
  const shipped = loadConfig(env).bundleDir;
  const bundle = bundleDirFor(set, shipped);
  try {
    const config = loadConfig({
      ...env,
      ...(set.corpusDir !== undefined ? { FRONTDESK_CORPUS_DIR: set.corpusDir } : {}),
      ...(set.tenant !== undefined ? { FRONTDESK_DEFAULT_TENANT: set.tenant } : {}),
      FRONTDESK_CONFIG_DIR: bundle.dir,
      // Evaluation threads never touch the local checkpoint file: each run starts clean.
      FRONTDESK_CHECKPOINTER: "memory",
      FRONTDESK_LOG_LEVEL: env["FRONTDESK_LOG_LEVEL"] ?? "silent",
    });
    const label = options.label ?? `in-process (${config.models.provider} models)`;
    const common = { config, logger, label, ...(options.models !== undefined ? { models: options.models } : {}) };
    const plain = await createInProcessTarget(common);
    const fixtures = await createInProcessTarget({ ...common, extraCorpusDirs: [set.fixturesDir] });
    return {
      targets: { plain, fixtures },
      async close() {
        await plain.close();
        await fixtures.close();
        bundle.dispose();
      },
    };
  } catch (error) {
    bundle.dispose();
    throw error;
  }
}
