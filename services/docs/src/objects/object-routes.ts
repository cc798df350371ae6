import multipart from '@fastify/multipart';
import type { FastifyPluginAsync } from 'fastify';
import { Type, type Static } from '@sinclair/typebox';
import { ErrorResponse } from '@portal/contracts';
import { badRequest, HttpError } from '@portal/core';
import {
  attachmentDisposition,
  DOWNLOAD_CSP,
  FilesystemObjectStore,
  FORM_OVERHEAD_BYTES,
  MAX_UPLOAD_BYTES,
  OBJECT_MESSAGES,
  openObjectStore,
  type ObjectInfo,
  type ObjectStore,
} from '@portal/storage';

/**
 * The object store's routes. With S3 (S3_ENDPOINT set) the browser posts and
 * downloads straight to and from the store, and there is nothing to serve
 * here. Without it, the filesystem store answers the same contract through
 * these two routes, which behave as S3 does:
 *
 *   POST /docs/objects/upload    the presigned-POST form (fields, then `file`):
 *                                204 once the file is stored, never before;
 *   GET  /docs/objects/download  a signed, short-lived attachment link.
 *
 * Both are public at the gateway (no bearer token: the web app posts the form
 * as it would to S3, and a download opens in a new tab). The form's signature
 * or the link's is the authority, bound to the tenant of the Host, which the
 * gateway puts in the signed internal context.
 */
const OBJECT_UPLOAD_PATH = '/docs/objects/upload';
const OBJECT_DOWNLOAD_PATH = '/docs/objects/download';

interface ObjectRouteDeps {
  /** The docs link secret (files/signed-links.ts). */
  linkSecret: string;
  /** The store opened by the caller (closed by it); else one is opened here and closed with the app. */
  store?: ObjectStore;
}

const DownloadQuery = Type.Object({
  key: Type.String({ minLength: 1, maxLength: 512 }),
  name: Type.String({ minLength: 1, maxLength: 512 }),
  type: Type.String({ minLength: 1, maxLength: 200 }),
  exp: Type.String({ pattern: '^[0-9]{1,12}$' }),
  sig: Type.String({ minLength: 1, maxLength: 100 }),
});

/** Opens the object store of this process (closed with the app) and serves its routes when it is the filesystem store. */
export function objectRoutes(deps: ObjectRouteDeps): FastifyPluginAsync {
  return async (app) => {
    const store =
      deps.store ?? (await openObjectStore(app.deps.env, app.deps.log, { linkSecret: deps.linkSecret }));
    if (!deps.store) app.addHook('onClose', async () => store.close());
    if (store instanceof FilesystemObjectStore) await app.register(filesystemObjectRoutes(store));
  };
}

/** Upload and download routes of the filesystem store (exported for tests that build the store themselves). */
function filesystemObjectRoutes(store: FilesystemObjectStore): FastifyPluginAsync {
  return async (app) => {
    // Scoped to these routes. The file is streamed, never buffered: the size the
    // form's policy allows is enforced while it streams (fs-store.ts); these
    // limits only bound what any form may carry.
    await app.register(multipart, {
      limits: {
        fieldNameSize: 100,
        fieldSize: 8 * 1024,
        fields: 20,
        files: 1,
        parts: 21,
        headerPairs: 20,
        fileSize: MAX_UPLOAD_BYTES + 1,
      },
    });

    app.post(
      OBJECT_UPLOAD_PATH,
      {
        schema: {
          tags: ['objects'],
          summary: 'Store a file posted with an upload link (filesystem store only; S3 answers this itself)',
          consumes: ['multipart/form-data'],
          response: { 204: Type.Null(), 400: ErrorResponse, 403: ErrorResponse },
        },
      },
      async (request, reply) => {
        if (!request.isMultipart()) throw badRequest('The upload must be a multipart form.');
        const tenant = request.ctx.tenant;
        const declared = Number(request.headers['content-length']);
        const fields: Record<string, string> = {};
        let stored: ObjectInfo | undefined;
        try {
          for await (const part of request.parts()) {
            if (part.type === 'field') {
              // A repeated or cut-off field could make the form mean two things: refuse it, as S3 does.
              if (typeof part.value !== 'string' || part.valueTruncated || part.fieldname in fields)
                throw new HttpError(403, OBJECT_MESSAGES.formInvalid);
              fields[part.fieldname] = part.value;
              continue;
            }
            // S3 takes the file from the part named `file`, which must come after the policy fields.
            if (part.fieldname !== 'file') throw badRequest(OBJECT_MESSAGES.noFile);
            const policy = store.checkUploadForm(tenant, fields);
            // A declared body far over the policy is refused before its bytes are read.
            if (Number.isFinite(declared) && declared > policy.max_bytes + FORM_OVERHEAD_BYTES)
              throw badRequest(OBJECT_MESSAGES.tooLarge);
            stored = await store.receiveUpload(policy, part.file);
            request.log.info({ key: policy.key, size: stored.size }, 'object stored');
            break; // S3 ignores anything after the file.
          }
        } catch (error) {
          // A closed tab or a dropped network: the store has already removed the partial file.
          const code = (error as NodeJS.ErrnoException).code;
          if (
            !(error instanceof HttpError) &&
            (request.raw.readableAborted || code === 'ECONNRESET' || code === 'FST_MP_PREMATURE_CLOSE')
          ) {
            request.log.info({ err: error }, 'upload abandoned by the client; nothing stored');
            throw badRequest(OBJECT_MESSAGES.interrupted);
          }
          // The rest of the body is not worth reading: answer and close the connection.
          reply.header('connection', 'close');
          throw error;
        }
        if (!stored) {
          // A form without its file: say what is wrong with the form first.
          store.checkUploadForm(tenant, fields);
          throw badRequest(OBJECT_MESSAGES.noFile);
        }
        return reply.status(204).send();
      },
    );

    app.get<{ Querystring: Static<typeof DownloadQuery> }>(
      OBJECT_DOWNLOAD_PATH,
      {
        schema: {
          tags: ['objects'],
          summary: 'Download a stored file by signed link (filesystem store only)',
          querystring: DownloadQuery,
          response: { 403: ErrorResponse, 404: ErrorResponse },
        },
      },
      async (request, reply) => {
        const tenant = request.ctx.tenant;
        const grant = store.checkDownload(tenant, request.query);
        const info = await store.head(tenant, grant.key);
        const body = info && (await store.read(tenant, grant.key));
        if (!info || !body) throw new HttpError(404, OBJECT_MESSAGES.notFound);
        return (
          reply
            .header('content-type', grant.contentType)
            .header('content-length', info.size)
            .header('content-disposition', attachmentDisposition(grant.filename))
            // A stored file is never a page of ours: no sniffing, no scripts, no embedding.
            .header('x-content-type-options', 'nosniff')
            .header('content-security-policy', DOWNLOAD_CSP)
            .header('cross-origin-resource-policy', 'same-origin')
            .header('cache-control', 'private, no-store')
            .send(body)
        );
      },
    );
  };
}

export type { ObjectStore };
