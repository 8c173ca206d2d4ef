import { createHash, timingSafeEqual } from "node:crypto";
import { Code, ConnectError, createContextKey, type HandlerContext, type Interceptor } from "@connectrpc/connect";
import type { Config } from "../config/config.js";

/**
 * The caller's tenant, set by the auth interceptor. `null` (the default) means no interceptor ran:
 * handlers treat that as unauthenticated rather than falling back to some tenant.
 */
export const tenantKey = createContextKey<string | null>(null, { description: "frontdesk tenant" });

export interface TenantResolver {
  /** The tenant bound to the presented key, or null when the key is missing or unknown. */
  resolve(headers: Headers): string | null;
  /** Tenant ids this resolver can yield, for the start-up log line. */
  readonly tenants: readonly string[];
}

function digest(value: string): Buffer {
  return createHash("sha256").update(value, "utf8").digest();
}

/** `authorization: Bearer <key>` wins; `x-api-key` is accepted for callers that cannot set it. */
function presentedKey(headers: Headers): string | null {
  const auth = headers.get("authorization");
  if (auth !== null) {
    const match = /^Bearer\s+(\S+)\s*$/iu.exec(auth);
    return match?.[1] ?? null;
  }
  const apiKey = headers.get("x-api-key");
  return apiKey !== null && apiKey.trim() !== "" ? apiKey.trim() : null;
}

export function createTenantResolver(auth: Config["auth"]): TenantResolver {
  if (auth.apiKeys.length === 0) {
    // No keys: one default tenant for everyone. server.ts only allows this on loopback.
    return { resolve: () => auth.defaultTenant, tenants: [auth.defaultTenant] };
  }
  // Hashing both sides gives equal-length buffers for timingSafeEqual, so neither the length
  // nor the content of a configured key leaks through response timing.
  const bindings = auth.apiKeys.map((b) => ({ hash: digest(b.key), tenantId: b.tenantId }));
  return {
    tenants: [...new Set(bindings.map((b) => b.tenantId))],
    resolve(headers) {
      const key = presentedKey(headers);
      if (key === null) return null;
      const presented = digest(key);
      let tenant: string | null = null;
      // Every binding is compared, without breaking on a match, so the position of the
      // matching key in the list is not observable either.
      for (const binding of bindings) {
        if (timingSafeEqual(presented, binding.hash) && tenant === null) tenant = binding.tenantId;
      }
      return tenant;
    },
  };
}

/** Resolves the tenant from the request headers, or refuses the call before its handler runs. */
export function createAuthInterceptor(resolver: TenantResolver): Interceptor {
  return (next) => async (req) => {
    const tenant = resolver.resolve(req.header);
    if (tenant === null) {
      throw new ConnectError("missing or invalid API key", Code.Unauthenticated);
    }
    req.contextValues.set(tenantKey, tenant);
    return next(req);
  };
}

/** The tenant of this call; UNAUTHENTICATED if the auth interceptor did not run. */
export function requireTenant(ctx: HandlerContext): string {
  const tenant = ctx.values.get(tenantKey);
  if (tenant === null) throw new ConnectError("missing or invalid API key", Code.Unauthenticated);
  return tenant;
}
