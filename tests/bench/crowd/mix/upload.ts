import { randomBytes } from 'node:crypto';
import { makePdf, type UploadLink } from '../../../support/representment-upload';
import { knownCases, loadCasesToWork } from './case-pool';
import { expectStatus, MixError, objectOf, rawCall, type Answer } from './http';
import { chance, pick, weighted } from './random';
import { call, get, profileOfUser, type OpContext } from './session';
import { countSkip, forgetCase, type KnownCase } from './state';
import { noteWithToken, type Acknowledge } from './writes';

/**
 * Representment upload (3%), as the upload modal makes it: hold the case (case
 * patch 16, type upload), the merchant's templates, the upload link, the
 * multipart post of the link's form with the file, then the submission naming
 * the stored key (POST /api/docs/representment). A case someone else holds or
 * moved on (409) is released and another is tried.
 */

/** Evidence PDFs of a few sizes (pdf-lib, incompressible padding), made once. */
const FILES: ReadonlyArray<readonly [{ pages: number; padTo: number }, number]> = [
  [{ pages: 1, padTo: 40_000 }, 5],
  [{ pages: 2, padTo: 150_000 }, 3],
  [{ pages: 4, padTo: 400_000 }, 2],
];
const made = new Map<number, Promise<Uint8Array>>();
function evidencePdf(): { pages: number; bytes: Promise<Uint8Array> } {
  const spec = weighted(FILES);
  let bytes = made.get(spec.pages);
  if (!bytes) {
    bytes = makePdf(spec.pages, { padTo: spec.padTo });
    made.set(spec.pages, bytes);
  }
  return { pages: spec.pages, bytes };
}

/** The form post as FormData writes it: the link's fields, then `file`. */
function multipart(fields: Record<string, string>, file: Uint8Array, filename: string) {
  const boundary = `----crowd${randomBytes(8).toString('hex')}`;
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(fields))
    parts.push(
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`),
    );
  parts.push(
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: application/pdf\r\n\r\n`,
    ),
    Buffer.from(file),
    Buffer.from(`\r\n--${boundary}--\r\n`),
  );
  return { body: Buffer.concat(parts), contentType: `multipart/form-data; boundary=${boundary}` };
}

/** The hold (16) or its release (1) of the upload modal: PATCH /cm/cases/patch. */
const mark = (ctx: OpContext, c: KnownCase, status: 1 | 16) =>
  call(ctx, 'PATCH', '/api/cm/cases/patch', { body: { ids: String(c.id), status, type: 'upload' } });

async function release(ctx: OpContext, c: KnownCase): Promise<void> {
  const answer = await mark(ctx, c, 1);
  expectStatus(answer, 200);
}

type Outcome = 'done' | 'refused';

async function uploadTo(ctx: OpContext, c: KnownCase, ack: Acknowledge): Promise<Outcome> {
  const hold = await mark(ctx, c, 16);
  // 409: another user has it open in the upload modal.
  if (hold.status === 409) {
    forgetCase(ctx.state, c.id);
    return 'refused';
  }
  expectStatus(hold, 200);
  const templates = await get(ctx, '/api/docs/templates', {
    merchant_id: c.merchantId,
    start: 0,
    limit: 999,
  });
  expectStatus(templates, 200);
  const pdf = evidencePdf();
  const file = await pdf.bytes;
  const filename = `evidence-${c.id}-${pdf.pages}p.pdf`;
  const link = await get(ctx, '/api/docs/representment/upload-link', {
    case_id: c.id,
    filename,
    content_type: 'application/pdf',
  });
  expectStatus(link, 200);
  const form = objectOf<UploadLink>(link);
  const key = form.fields.key;
  if (!key) throw new MixError('upload-link answered without fields.key');
  const target = new URL(form.url, 'http://gateway.invalid');
  if (target.host !== 'gateway.invalid' && !form.url.startsWith('/'))
    throw new MixError(
      `upload form posts to another host (${target.host}): only the gateway's store is supported`,
    );
  // The signed form is the authority: no bearer token, as the browser's XHR sends it.
  const posted = await rawCall(ctx.send, ctx.type, 'POST', target.pathname + target.search, {
    raw: multipart(form.fields, file, filename),
  });
  expectStatus(posted, 200, 201, 204);
  const profile = await profileOfUser(ctx);
  const submit: Answer = await call(ctx, 'POST', '/api/docs/representment', {
    body: {
      case_id: c.id,
      origin: 2,
      files: [{ s3_key: key, filename, content_type: 'application/pdf', size: file.length, order_num: 0 }],
      templates: [],
      qc_review: profile.resources.has('QC_REVIEW_CHECKBOX') && chance(0.3),
      is_reupload: false,
      comment: chance(0.6) ? noteWithToken() : null,
    },
  });
  if (submit.status === 409) {
    // The case moved on (or another user took it) between the list and the upload.
    await release(ctx, c);
    forgetCase(ctx.state, c.id);
    return 'refused';
  }
  expectStatus(submit, 200);
  const version = objectOf<{ version?: number }>(submit).version;
  if (typeof version !== 'number')
    throw new MixError('POST /api/docs/representment answered without version');
  forgetCase(ctx.state, c.id);
  ack({
    tenant: ctx.user.tenant,
    kind: 'upload-submit',
    requestId: submit.requestId,
    key: { caseId: c.id, version, s3Key: key },
  });
  return 'done';
}

export async function uploadRepresentment(ctx: OpContext, ack: Acknowledge): Promise<void> {
  const profile = await profileOfUser(ctx);
  if (profile.isReadOnly) return countSkip(ctx.state, 'upload: read-only user');
  for (let attempt = 0; attempt < 4; attempt++) {
    const uploadable = (x: KnownCase) => x.canUpload && (x.statusId === 1 || x.statusId === 2);
    let found = knownCases(ctx.state, uploadable);
    if (!found.length)
      found = (await loadCasesToWork(ctx, pick(['new_cases', 'working_cases']))).filter(uploadable);
    if (!found.length) found = (await loadCasesToWork(ctx, 'new_cases', 1)).filter(uploadable);
    if (!found.length) return countSkip(ctx.state, 'upload: no uploadable case');
    if ((await uploadTo(ctx, pick(found.slice(0, 50)), ack)) === 'done') return;
    ctx.state.refusals++;
  }
  countSkip(ctx.state, 'upload: refused 4 times');
}
