import { Runnable, type RunnableConfig } from "@langchain/core/runnables";
import { Command } from "@langchain/langgraph";
import { AsyncLocalStorageProviderSingleton } from "@langchain/core/singletons";

/**
 * Nodes as Runnables of our own instead of bare functions. LangGraph wraps a bare node function
 * in its RunnableCallable, which builds a langsmith RunTree on every call even with tracing off
 * (a UUIDv7 from `crypto.getRandomValues`, a timestamp string, environment look-ups) and merges
 * configs; an edge condition (a RunnableLambda) went through the callback machinery as well. The
 * node names, channels and checkpoints are the same; only these wrappers change.
 */

type NodeFn<S, U> = (state: S, config: RunnableConfig) => Promise<U>;

/**
 * A node. The node runs in the run tree of a LangSmith tracer when the run has one (what
 * RunnableCallable does, so model calls made inside still nest under the node's run); without one
 * it runs with no ambient config: nothing inside a node reads it, every node takes its config
 * (signal, metadata) as an argument.
 */
class NodeStep<S, U> extends Runnable<S, U> {
  lc_namespace = ["frontdesk", "agent"];

  constructor(
    name: string,
    private readonly fn: NodeFn<S, U>,
  ) {
    super();
    this.name = name;
  }

  override invoke(state: S, config?: Partial<RunnableConfig>): Promise<U> {
    const options = config ?? {};
    return AsyncLocalStorageProviderSingleton.runWithConfig(options, () => this.fn(state, options), true);
  }
}

/**
 * A node that routes: it returns a Command whose `goto` is `route` applied to the state the node
 * leaves (every field is replaced by its update, so that is the state merged with the update),
 * which is what a conditional edge on the node would read. An edge condition costs LangGraph a
 * fresh copy of the channels the node wrote and three more runnables per step; the Command
 * writes the same `branch:to:<node>` trigger the edge did.
 */
class RoutedStep<S extends object, U extends Record<string, unknown>, T extends string> extends Runnable<S, Command> {
  lc_namespace = ["frontdesk", "agent"];
  private readonly step: NodeStep<S, U>;

  constructor(
    name: string,
    fn: NodeFn<S, U>,
    private readonly route: (state: S) => T,
  ) {
    super();
    this.name = name;
    this.step = new NodeStep(name, fn);
  }

  override async invoke(state: S, config?: Partial<RunnableConfig>): Promise<Command> {
    const update = await this.step.invoke(state, config);
    return new Command({ update, goto: this.route({ ...state, ...update }) });
  }
}

export const nodeStep = <S, U>(name: string, fn: NodeFn<S, U>): Runnable<S, U> => new NodeStep(name, fn);

export const routedStep = <S extends object, U extends Record<string, unknown>, T extends string>(name: string, fn: NodeFn<S, U>, route: (state: S) => T): Runnable<S, Command> =>
  new RoutedStep(name, fn, route);

let untracedRunTreesSkipped = false;

/**
 * With no LangSmith tracer, LangChain still builds a langsmith RunTree (a UUIDv7 from crypto
 * random bytes, a timestamp string, environment look-ups) for each runnable LangGraph runs inside
 * a step: a node's channel writer, its update mapper, its Command branch, about 27 a turn and a
 * sixth of the turn's CPU. That tree is not traced; it only carries the config for
 * `getRunnableConfig()`, which nothing in this graph reads (each node takes its config as an
 * argument, as NodeStep above; LangGraph hands its own runnables theirs explicitly). Installed by
 * the application only when LangSmith is off: a tracer's runs take the other branch of
 * `runWithConfig` and are unchanged. Process-wide and idempotent.
 */
export function skipUntracedRunTrees(): void {
  if (untracedRunTreesSkipped) return;
  untracedRunTreesSkipped = true;
  const provider = AsyncLocalStorageProviderSingleton;
  const runWithConfig = provider.runWithConfig.bind(provider);
  provider.runWithConfig = (config, callback, avoidCreatingRootRunTree) => runWithConfig(config, callback, avoidCreatingRootRunTree ?? true);
}
