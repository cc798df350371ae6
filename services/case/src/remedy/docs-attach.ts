import {
  INTERNAL_CONTEXT_HEADER,
  REQUEST_ID_HEADER,
  UPLOAD_ORIGIN,
  type InternalContext,
  type RepresentmentUploadAnswer,
  type UploadLinkAnswer,
} from '@portal/contracts';
import {
  assertNotInTransaction,
  CallInTransactionError,
  HttpError,
  ServiceClient,
  signContext,
} from '@portal/core';

/**
 * Attaches the generated CE document to the case through the docs service's
 * own representment upload (spec 2 §7 'Documents'), exactly as the browser
 * uploads a document, with the caller's own context re-signed:
 *
 *   GET  /docs/representment/upload-link   a key issued for this case
 *   POST <form url>                        the PDF stored in the object store
 *   POST /docs/representment               the docs service checks the file,
 *                                          records a new version with the
 *                                          document's provenance (who, when,
 *                                          pages, SHA-256), moves the case to
 *                                          DocCompiling and enqueues the
 *                                          compile -> transport jobs
 *
 * Why this way: the docs service stays the only writer of docs.* and of the
 * representment transitions, the CE document gets the same checks, version
 * history and card-network transport as any upload, and nothing here needs
 * the object store's credentials.
 */
export class DocsAttacher {
  private readonly client: ServiceClient;
  constructor(
    private readonly docsUrl: string,
    private readonly secret: string,
    private readonly timeoutMs = 15_000,
  ) {
    this.client = new ServiceClient(docsUrl, secret, timeoutMs);
  }

  async attach(
    ctx: InternalContext,
    a: { caseId: number; filename: string; bytes: Uint8Array; comment: string },
  ): Promise<RepresentmentUploadAnswer> {
    const { exp: _exp, ...context } = ctx;
    try {
      const q = new URLSearchParams({
        case_id: String(a.caseId),
        filename: a.filename,
        content_type: 'application/pdf',
      });
      const link = await this.client.request<UploadLinkAnswer>(
        'GET',
        `/docs/representment/upload-link?${q}`,
        context,
      );
      await this.postForm(context, link, a.bytes, a.filename);
      return await this.client.request<RepresentmentUploadAnswer>('POST', '/docs/representment', context, {
        case_id: a.caseId,
        origin: UPLOAD_ORIGIN,
        files: [
          {
            s3_key: link.fields.key,
            filename: a.filename,
            content_type: 'application/pdf',
            size: a.bytes.length,
            order_num: 0,
          },
        ],
        templates: [],
        qc_review: false,
        is_reupload: false,
        comment: a.comment,
      });
    } catch (error) {
      if (error instanceof CallInTransactionError) throw error; // a bug to fix, not an outage
      if (error instanceof HttpError && error.statusCode < 500) throw error;
      // Refused connection, timeout or a 5xx: a bounded, generic answer rather than the raw error.
      throw new HttpError(503, 'The document service is unavailable. Please try again later.');
    }
  }

  /** The presigned-POST form: fields first, then `file` (the filesystem store's route, or S3 itself). */
  private async postForm(
    context: Omit<InternalContext, 'exp'>,
    link: UploadLinkAnswer,
    bytes: Uint8Array,
    filename: string,
  ): Promise<void> {
    const form = new FormData();
    for (const [name, value] of Object.entries(link.fields)) form.append(name, value);
    form.append('file', new Blob([new Uint8Array(bytes)], { type: 'application/pdf' }), filename);
    const absolute = /^https?:\/\//.test(link.url);
    // The filesystem store's form url is the gateway path (/api/docs/...): the docs service serves it without /api.
    const url = absolute ? link.url : new URL(link.url.replace(/^\/api\//, '/'), this.docsUrl).toString();
    // The one check of every service call (ServiceClient makes it too): never inside a transaction.
    assertNotInTransaction(`POST ${url.split('?')[0]}`);
    const response = await fetch(url, {
      method: 'POST',
      headers: absolute
        ? {}
        : {
            [INTERNAL_CONTEXT_HEADER]: signContext(context, this.secret),
            [REQUEST_ID_HEADER]: context.request_id,
          },
      body: form,
      signal: AbortSignal.timeout(this.timeoutMs),
    });
    await response.arrayBuffer().catch(() => undefined);
    if (!response.ok) throw new HttpError(503, `The object store answered ${response.status}.`);
  }
}
