import type { FastifyBaseLogger } from 'fastify';
import {
  bytesToMb,
  CASE_MARK_MINUTES,
  CASE_STATUS,
  EVIDENCE_MESSAGES as E,
  REPRESENTMENT_MESSAGES as M,
  type AcceptedWarnings,
  type CaseDetail,
  type InternalContext,
  type PageOp,
} from '@portal/contracts';
import { badRequest, conflict, HttpError, type CaseClient, type Db } from '@portal/core';
import { emitEvent } from '@portal/jobs';
import { newObjectKey, parseObjectKey, type ObjectStore } from '@portal/storage';
import { checkPacket } from '../preview/packet-checks';
import { compileRepresentment } from './compile';
import { checkFile, declaredAs, readAll, sha256 } from './file-check';
import { enqueueCompile } from './jobs';
import { assertDraftable } from './stripe-draft';
import { markDraft } from './stripe-submissions';
import { uploadLimits, type UploadLimits } from './upload-limits';
import {
  heldByOther,
  insertVersion,
  issuedKeys,
  recordCaseEvidence,
  setCaseStatus,
  templatesFor,
  type NewDocument,
} from './version-repository';

export interface AcceptDeps {
  db: Db;
  cases: Pick<CaseClient, 'caseDetail'>;
  store: ObjectStore;
  tenantConfigDir: string;
  /** The request's log: a refusal event that could not be written is noted there. */
  log: Pick<FastifyBaseLogger, 'error'>;
}

/** A stored file of the set: the key of its upload link, its name and its declared type. */
export interface FileInput {
  s3_key: string;
  filename: string;
  content_type: string;
  /** Place in the compiled PDF; by default the file's place in the list. */
  order_num?: number;
  /** Pages removed, turned or masked (issue 34). */
  page_ops?: readonly PageOp[];
  /** The builder's document type: the evidence kind the case's win odds learn from (issue 33). */
  upload_doc_type_id?: number;
}

export interface TemplateInput {
  id: number;
  order_num: number;
  page_ops?: readonly PageOp[];
  upload_doc_type_id?: number;
}

/** A PDF a route makes itself (the builder's case summary). */
export interface GeneratedDocument {
  filename: string;
  bytes: Uint8Array;
  pages: number;
}

/**
 * What sets the two routes that take a representment apart (POST
 * /docs/representment, POST /docs/builder/upload): their words, and the
 * case builder's own steps.
 */
export interface UploadRoute {
  /** The 409 of a case in another status: its status, or 'changing' when it moved during the upload. */
  notUploadable(status: string): string;
  /** How the case history names the new version: 'Representment v2 <verb> (...)'. */
  verb: string;
  /** An empty set is refused (the builder's never is empty: its case summary comes first). */
  requireDocument: boolean;
  /** The form field named (data.fields) by the refusals of the set's size and of a file's type. */
  fileField?: string;
  /** A refusal (400) once the case is in scope is the case's DOC_VALIDATION_ERROR event. */
  reportRefusals: boolean;
  /** The route's own checks once the case and the limits are known, before any file is looked at. */
  check?(c: CaseDetail): Promise<void>;
  /** A document made once every file passed, put first in the compiled PDF. */
  generate?(c: CaseDetail): Promise<GeneratedDocument>;
}

export interface RepresentmentInput {
  caseId: number;
  /** The statuses the case may be in: checked first, and again as the status moves. */
  from: readonly number[];
  files: readonly FileInput[];
  templates: readonly TemplateInput[];
  origin: number;
  qcReview: boolean;
  isReupload: boolean;
  comment: string | null;
  route: UploadRoute;
  /** The packet's warnings accepted with a note, for the packet previewed (issue 34). */
  acceptedWarnings?: AcceptedWarnings | null;
  /** Issue 32: save the evidence as a draft at the processor that owns the case, not submit it. */
  draft?: boolean;
}

export interface AcceptedRepresentment {
  caseId: number;
  version: number;
  jobId: string;
  /** Pages of the whole set. */
  pages: number;
}

/** A document of the set, checked, with its bytes and page operations. */
export type Staged = NewDocument & { position: number; bytes: Uint8Array; ops?: readonly PageOp[] };

/**
 * A representment upload (spec 2 §2.6, §2.7, §4, §5, §7), for both routes.
 * The case is asked of the case service once; every check runs before the
 * one transaction that stores the version, moves the case to DocCompiling
 * and enqueues the compile job (no call to another service inside it), so
 * a refused upload changes nothing.
 */
export async function acceptRepresentment(
  deps: AcceptDeps,
  ctx: InternalContext,
  input: RepresentmentInput,
): Promise<AcceptedRepresentment> {
  const c = await deps.cases.caseDetail(ctx, input.caseId);
  try {
    return await acceptForCase(deps, ctx, input, c);
  } catch (error) {
    if (input.route.reportRefusals && error instanceof HttpError && error.statusCode === 400)
      await docValidationError(deps.db, ctx, c, error.message).catch((err: unknown) =>
        deps.log.error({ err }, 'DOC_VALIDATION_ERROR event not emitted'),
      );
    throw error;
  }
}

async function acceptForCase(
  deps: AcceptDeps,
  ctx: InternalContext,
  input: RepresentmentInput,
  c: CaseDetail,
): Promise<AcceptedRepresentment> {
  const { route } = input;
  if (!input.from.includes(c.status_id)) throw conflict(route.notUploadable(c.status));
  const holder = await heldByOther(deps.db, ctx.tenant, c.id, ctx.user_id, CASE_MARK_MINUTES);
  if (holder) throw conflict(M.heldByOther(holder));
  if (route.requireDocument && input.files.length + input.templates.length === 0) throw badRequest(M.noFile);
  const limits = uploadLimits(deps.tenantConfigDir, ctx);
  if (input.draft) await assertDraftable(deps.db, ctx.tenant, c.id);
  await route.check?.(c);
  const staged = await stageDocuments(deps, ctx, c, input, limits);
  const generated = await route.generate?.(c);
  const raw = staged.reduce((n, d) => n + d.pages, generated?.pages ?? 0);
  const removes = staged.some((d) => d.ops?.some((op) => op.op === 'remove'));
  if (limits.maxPages > 0 && raw > limits.maxPages && !removes)
    throw badRequest(M.tooManyPages(limits.maxPages));
  if (generated) staged.push(generatedDocument(generated));
  orderStaged(staged);
  // The packet as the compile job will build it, checked before anything is stored (issue 34).
  const packet = await compilePacket(staged);
  const review = await reviewPacket(packet, c, limits, input.acceptedWarnings ?? null);
  const { pages } = packet;
  const generatedKey = generated ? await putGenerated(deps.store, ctx.tenant, staged) : null;
  try {
    const stored = await storeVersion(deps.db, ctx, c, input, staged, pages, review);
    return { caseId: c.id, ...stored, pages };
  } catch (error) {
    // Nothing half-written: a generated document goes with the refused transaction.
    if (generatedKey) await deps.store.delete(ctx.tenant, generatedKey).catch(() => undefined);
    throw error;
  }
}

/**
 * Every document of the set, within the size limit and checked by its bytes (type, JPEG end
 * marker, PDF loads and is not encrypted; pages and sha256), in the set's order.
 */
export async function stageDocuments(
  deps: Pick<AcceptDeps, 'db' | 'store'>,
  ctx: InternalContext,
  c: CaseDetail,
  input: Pick<RepresentmentInput, 'files' | 'templates'> & { route: Pick<UploadRoute, 'fileField'> },
  limits: UploadLimits,
): Promise<Staged[]> {
  const mb = bytesToMb(limits.maxBytes);
  const field = input.route.fileField;
  const refuseSet = (text: string) =>
    badRequest(text, field ? { fields: [{ id: field, errors: [text] }] } : undefined);
  const files = await checkKeys(deps, ctx, c.id, input.files);
  const ids = input.templates.map((t) => t.id);
  const templates = await templatesFor(deps.db, ctx.tenant, c.merchant_id, ids);
  let total = [...files.values()].reduce((n, f) => n + f.size, 0);
  for (const t of input.templates) {
    const found = templates.get(t.id);
    if (!found) throw badRequest(M.unknownTemplate(t.id));
    total += found.size;
  }
  if (total > limits.maxBytes) throw refuseSet(M.tooLarge(mb));

  const staged: Staged[] = [];
  for (const [i, f] of input.files.entries()) {
    const checked = await checkStored(deps.store, ctx.tenant, f.s3_key, mb);
    // The type declared for it, at link time and here, must be the type of its bytes.
    if (!declaredAs(checked.contentType, [files.get(f.s3_key)!.contentType, f.content_type]))
      throw refuseSet(M.wrongType(mb));
    staged.push({
      ...checked,
      ...stagedFile(f.s3_key, f.filename),
      position: f.order_num ?? i,
      ops: f.page_ops,
    });
  }
  // Templates were checked when they entered the library; their pages and hash are taken from their bytes.
  for (const t of input.templates) {
    const found = templates.get(t.id)!;
    const { pages, sha256, bytes } = await checkStored(deps.store, ctx.tenant, found.s3_key, mb);
    staged.push({
      bytes,
      ops: t.page_ops,
      position: t.order_num,
      orderNum: 0,
      kind: 'template',
      templateId: t.id,
      s3Key: found.s3_key,
      filename: found.file_name,
      contentType: found.content_type,
      size: found.size,
      pages,
      sha256,
    });
  }
  return staged;
}

/** The one transaction: the version and its documents, the case's move to DocCompiling, the compile job. */
function storeVersion(
  db: Db,
  ctx: InternalContext,
  c: CaseDetail,
  input: RepresentmentInput,
  staged: Staged[],
  pages: number,
  review: PacketReview,
) {
  return db.transaction(async (tx) => {
    const v = await insertVersion(tx, {
      tenant: ctx.tenant,
      caseId: c.id,
      merchantId: c.merchant_id,
      origin: input.origin,
      qcReview: input.qcReview,
      isReupload: input.isReupload,
      comment: input.comment,
      uploadedBy: ctx.username,
      uploadedById: ctx.user_id,
      documents: staged.map(({ position: _p, bytes: _b, ops: _o, ...d }) => d),
      pageOps: staged.flatMap((d) => (d.ops ?? []).map((op) => ({ document: d.orderNum, op }))),
      acceptedWarnings: review.accepted,
    });
    if (input.draft) await markDraft(tx, v.id);
    const documents = `${staged.length} document(s), ${pages} page(s)`;
    const reviewed = review.history ? `. ${review.history}` : '';
    const previous = await setCaseStatus(tx, {
      tenant: ctx.tenant,
      caseId: c.id,
      from: input.from,
      to: CASE_STATUS.DocCompiling,
      action: `Representment v${v.version} ${input.route.verb} (${documents})${reviewed}`,
      userId: ctx.user_id,
      username: ctx.username,
    });
    if (previous === null) throw conflict(input.route.notUploadable('changing'));
    await recordCaseEvidence(tx, ctx.tenant, c.id, [...input.files, ...input.templates]);
    const job = await enqueueCompile(tx, ctx.tenant, c.id, v.id, ctx.user_id);
    return { version: v.version, jobId: job.id };
  });
}

/**
 * The set's keys: well formed, of this tenant, issued for this case, not used by a version yet,
 * once each; then each object's size and the type its upload link was asked for (the form had to
 * name it), from the store before any byte is read: a missing object stops here.
 */
async function checkKeys(
  deps: Pick<AcceptDeps, 'db' | 'store'>,
  ctx: InternalContext,
  caseId: number,
  files: readonly FileInput[],
): Promise<Map<string, { size: number; contentType: string }>> {
  const keys = files.map((f) => f.s3_key);
  if (new Set(keys).size !== keys.length) throw badRequest(M.foreignKey);
  const issued = await issuedKeys(deps.db, ctx.tenant, keys);
  for (const key of keys) {
    const parsed = parseObjectKey(key);
    const link = issued.get(key);
    if (
      !parsed ||
      parsed.tenant !== ctx.tenant ||
      parsed.area !== 'representments' ||
      !link ||
      link.caseId !== caseId ||
      link.used
    )
      throw badRequest(M.foreignKey);
    // Past its grace the hourly purge may delete the file at any moment (upload-link-purge.ts).
    if (link.stale) throw badRequest(M.linkExpired);
  }
  const stored = new Map<string, { size: number; contentType: string }>();
  for (const key of keys) {
    const info = await deps.store.head(ctx.tenant, key).catch(() => null);
    if (!info) throw badRequest(M.missingFile);
    stored.set(key, { size: info.size, contentType: info.contentType });
  }
  return stored;
}

/** A stored object by its bytes: type, JPEG end marker, PDF loads and is not encrypted; pages, sha256, bytes. */
async function checkStored(store: ObjectStore, tenant: string, key: string, mb: number) {
  const stream = await store.read(tenant, key);
  if (!stream) throw badRequest(M.missingFile);
  const bytes = await readAll(stream);
  return { ...(await checkFile(bytes, mb)), bytes };
}

const stagedFile = (s3Key: string, filename: string) =>
  ({ orderNum: 0, kind: 'file', templateId: null, s3Key, filename }) as const;

/** A generated PDF staged first (its key is given when it is stored). */
export function generatedDocument(doc: GeneratedDocument): Staged {
  const checked = {
    contentType: 'application/pdf',
    size: doc.bytes.length,
    pages: doc.pages,
    sha256: sha256(doc.bytes),
  };
  return { ...checked, ...stagedFile('', doc.filename), position: -1, bytes: doc.bytes };
}

/** Stores the staged generated PDF (the one without a key yet); answers its key. */
async function putGenerated(store: ObjectStore, tenant: string, staged: Staged[]) {
  const doc = staged.find((d) => d.s3Key === '')!;
  const key = newObjectKey(tenant, 'representments', doc.filename);
  await store.put(tenant, key, doc.bytes, { contentType: 'application/pdf' });
  doc.s3Key = key;
  return key;
}

/** The set in its order, each document numbered by its place. */
export function orderStaged(staged: Staged[]) {
  staged.sort((a, b) => a.position - b.position);
  staged.forEach((d, i) => (d.orderNum = i));
}

/** The packet of the ordered set, by the compile job's own function (a refusal of its page operations is a 400). */
export async function compilePacket(staged: readonly Staged[]) {
  try {
    const parts = staged.map((d) => ({
      contentType: d.contentType,
      bytes: d.bytes,
      ops: d.ops,
      filename: d.filename,
    }));
    const out = await compileRepresentment(parts);
    return { ...out, sha256: sha256(out.bytes) };
  } catch (error) {
    if (error instanceof HttpError) throw error;
    throw badRequest(M.compileFailed);
  }
}

export type Packet = Awaited<ReturnType<typeof compilePacket>>;

interface PacketReview {
  accepted: { note: string; sha256: string; warnings: string[] } | null;
  /** What the case history adds to the upload's row. */
  history: string | null;
}

/**
 * The submission's checks (issue 34): a finding that cannot be accepted (a
 * card number, over the limits) refuses the upload; warnings accepted with a
 * note, for exactly this packet, go into the case history with the note;
 * warnings nobody accepted (a call that skipped the preview) are named there.
 */
async function reviewPacket(
  packet: Packet,
  c: CaseDetail,
  limits: UploadLimits,
  accepted: AcceptedWarnings | null,
): Promise<PacketReview> {
  const checks = await checkPacket({ ...packet, dueDate: c.date_due, limits });
  const blocked = checks.find((x) => x.level === 'blocked');
  if (blocked) throw badRequest(blocked.message);
  if (accepted && accepted.sha256 !== packet.sha256) throw badRequest(E.previewChanged);
  const warnings = checks.filter((x) => x.level === 'warning').map((x) => x.message);
  if (!warnings.length) return { accepted: null, history: null };
  if (!accepted) return { accepted: null, history: E.unreviewedHistory(warnings) };
  return {
    accepted: { note: accepted.note, sha256: accepted.sha256, warnings },
    history: E.acceptedHistory(warnings.length, accepted.note),
  };
}

/** The DOC_VALIDATION_ERROR event of a refused upload, for the merchant the case service answered. */
async function docValidationError(db: Db, ctx: InternalContext, c: CaseDetail, message: string) {
  const data = { case_id: c.id, stage: 'upload', message };
  await db.transaction((tx) =>
    emitEvent(
      tx,
      ctx.tenant,
      { type: 'DOC_VALIDATION_ERROR', merchant_id: c.merchant_id, data },
      ctx.user_id,
    ),
  );
}
