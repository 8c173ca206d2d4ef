import { create } from "@bufbuild/protobuf";
import { Code, ConnectError, type ConnectRouter, type HandlerContext, type ServiceImpl } from "@connectrpc/connect";
import type { Logger } from "pino";
import { DocumentService, UpsertResultSchema } from "../../gen/frontdesk/v1/document_service_pb.js";
import type { Config } from "../config/config.js";
import type { Chunk, DocumentIndex, DocumentRules, RemoveOutcome } from "../retrieval/index.js";
import { chunkToWire, documentInfoToWire, upsertStatusToWire } from "../wire/index.js";
import { createAuthInterceptor, createTenantResolver, requireTenant, type TenantResolver } from "./auth.js";
import { toConnectError } from "./errors.js";
import type { Validation } from "./validate.js";
import { validateDeleteDocument, validateGetChunk, validateListDocuments, validateUpsertDocuments, type DocumentLimits } from "./validate-documents.js";

export interface DocumentRoutesOptions {
  documents: DocumentIndex;
  /** The size limits documents are checked against (the same as `frontdesk ingest`'s). */
  rules: DocumentRules;
  config: Config;
  logger: Logger;
  /** Defaults to one built from config.auth. */
  tenants?: TenantResolver;
}

/**
 * The largest DocumentService request the server reads: one file of FRONTDESK_MAX_FILE_BYTES in
 * `content`, plus 1 MiB for its other fields and other, Markdown, documents of the call. A larger
 * request is RESOURCE_EXHAUSTED before it is parsed.
 */
export function documentReadMaxBytes(config: Config): number {
  return config.ingest.maxFileBytes + 1024 * 1024;
}

function accept<T>(v: Validation<T>): T {
  if (v.kind === "invalid") throw new ConnectError(v.message, Code.InvalidArgument);
  return v.input;
}

/** DocumentService: tenant-scoped document management, authenticated like AgentService. */
export function createDocumentRoutes(options: DocumentRoutesOptions): (router: ConnectRouter) => void {
  const { documents, rules, config, logger } = options;
  const tenants = options.tenants ?? createTenantResolver(config.auth);
  const limits: DocumentLimits = {
    maxIdChars: config.limits.maxIdChars,
    maxUpsertDocuments: config.ingest.maxUpsertDocuments,
    listPageSize: config.ingest.listPageSize,
    maxSourceChars: config.ingest.maxSourceChars,
  };
  const fail = (err: unknown, ctx: HandlerContext): ConnectError => toConnectError(err, { signal: ctx.signal, logger, procedure: `${ctx.service.typeName}/${ctx.method.name}` });

  const impl: ServiceImpl<typeof DocumentService> = {
    async upsertDocuments(req, ctx) {
      const tenantId = requireTenant(ctx);
      const input = accept(await validateUpsertDocuments(req, tenantId, limits, rules));
      try {
        const outcomes = await documents.upsert(
          input.map((item) => item.document),
          ctx.signal,
        );
        return {
          results: outcomes.map((o, i) =>
            create(UpsertResultSchema, { documentId: o.documentId, status: upsertStatusToWire(o.status), chunkCount: o.chunkCount, warnings: input[i]?.warnings ?? [] }),
          ),
        };
      } catch (err) {
        throw fail(err, ctx);
      }
    },

    async deleteDocument(req, ctx) {
      const tenantId = requireTenant(ctx);
      const { documentId } = accept(validateDeleteDocument(req, limits));
      let outcome: RemoveOutcome;
      try {
        outcome = await documents.remove(tenantId, documentId, ctx.signal);
      } catch (err) {
        throw fail(err, ctx);
      }
      switch (outcome.kind) {
        case "removed":
          return {};
        case "not_found":
          throw new ConnectError("document_id: no such document", Code.NotFound);
        case "read_only":
          throw new ConnectError(`document_id: ${outcome.reason}`, Code.FailedPrecondition);
        default: {
          const unreachable: never = outcome;
          throw new Error(`unhandled remove outcome ${JSON.stringify(unreachable)}`);
        }
      }
    },

    async listDocuments(req, ctx) {
      const tenantId = requireTenant(ctx);
      const listOptions = accept(validateListDocuments(req, limits));
      try {
        const page = await documents.listDocuments(tenantId, listOptions, ctx.signal);
        return { documents: page.documents.map(documentInfoToWire), nextPageToken: page.nextPageToken };
      } catch (err) {
        throw fail(err, ctx);
      }
    },

    async getChunk(req, ctx) {
      const tenantId = requireTenant(ctx);
      const { chunkId } = accept(validateGetChunk(req, limits));
      let chunk: Chunk | undefined;
      try {
        chunk = await documents.getChunk(tenantId, chunkId, ctx.signal);
      } catch (err) {
        throw fail(err, ctx);
      }
      if (chunk === undefined) throw new ConnectError("chunk_id: no such chunk", Code.NotFound);
      return { chunk: chunkToWire(chunk) };
    },
  };

  return (router) => {
    router.service(DocumentService, impl, { interceptors: [createAuthInterceptor(tenants)], readMaxBytes: documentReadMaxBytes(config) });
  };
}
