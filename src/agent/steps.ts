import { Runnable, RunnableLambda, type RunnableConfig } from "@langchain/core/runnables";
import { AsyncLocalStorageProviderSingleton } from "@langchain/core/singletons";

/**
 * Nodes and edge conditions as Runnables of our own instead of bare functions. LangGraph wraps a
 * bare node function in its RunnableCallable and a bare condition in @langchain/core's
 * RunnableLambda; on every call both build a langsmith RunTree even with tracing off (a UUIDv7
 * from `crypto.getRandomValues`, a timestamp string, environment look-ups) and merge configs, and
 * the lambda also goes through the callback machinery — about a quarter of a warm offline turn.
 * The graph, its node names, channels and checkpoints are the same; only these wrappers change.
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
 * A routing condition: a pure function of the state, called as is. When the run has callbacks
 * (LangSmith tracing) it goes through the RunnableLambda LangGraph would have made of it, so the
 * trace keeps the condition's run.
 */
class ConditionStep<S, T> extends Runnable<S, T> {
  lc_namespace = ["frontdesk", "agent"];
  private readonly traced: RunnableLambda<S, T>;

  constructor(private readonly fn: (state: S) => T) {
    super();
    this.traced = RunnableLambda.from(fn);
    // The name LangGraph gives a condition passed as a function (it names the branch).
    this.name = "condition";
  }

  override async invoke(state: S, config?: Partial<RunnableConfig>): Promise<T> {
    if (config?.callbacks !== undefined) return this.traced.invoke(state, config);
    return this.fn(state);
  }
}

export const nodeStep = <S, U>(name: string, fn: NodeFn<S, U>): Runnable<S, U> => new NodeStep(name, fn);

export const conditionStep = <S, T>(fn: (state: S) => T): Runnable<S, T> => new ConditionStep(fn);
