import type { FastifyPluginAsync } from 'fastify';
import {
  CaseIdParams,
  ErrorResponse,
  INT32_MAX,
  REMEDY_FEATURE,
  REMEDY_MESSAGES as M,
  RemedyAnswer,
  RemedyBody,
  RemedyFailure,
  type RemedyBody as RemedyBodyT,
} from '@portal/contracts';
import { badRequest, conflict, forbidden, HttpError, notFound } from '@portal/core';
import { getCase } from '../cases/case-repository';
import { addHistory } from '../cases/case-history';
import { renderCeDocument } from './ce-document';
import { DocsAttacher } from './docs-attach';
import { completeSubmission, releaseSubmission, reserveSubmission } from './remedy-repository';
import { setTenantConfigDir, tenantFlag } from './tenant-features';
import { remedyLookups, remedyViolations } from './validate-remedy';

/**
 * POST /cm/cases/{id}/ce (spec 2 §7): the CE 3.0 remedy. The body is checked
 * here, whole, against the schema and every rule of spec 2 §5 (validate-remedy.ts),
 * so that each refusal answers `{message, data: {violations: [{propertyPath, title}]}}`
 * (Fastify's own validation would answer `data.fields`): the route's schemas
 * document the call and feed OpenAPI, its validator lets the body through.
 *
 * On success: the submission is stored, the CE document is generated from
 * `doc` and attached to the case as a new representment version through the
 * docs service (docs-attach.ts), which moves the case on (DocCompiling ->
 * compile -> transport); `can_remedy` is false from then on. A refusal or a
 * failed attachment leaves nothing behind.
 */
export const remedyRoutes: FastifyPluginAsync = async (app) => {
  const { db, env, contextSecret } = app.deps;
  setTenantConfigDir(env.TENANT_CONFIG_DIR);
  const docs = new DocsAttacher(env.DOCS_SERVICE_URL, contextSecret);

  app.post<{ Params: { id: string }; Body: unknown }>(
    '/cm/cases/:id/ce',
    {
      schema: {
        tags: ['cases'],
        summary: 'Submit a CE 3.0 remedy for a case',
        params: CaseIdParams,
        body: RemedyBody,
        response: {
          200: RemedyAnswer,
          400: RemedyFailure,
          403: ErrorResponse,
          404: ErrorResponse,
          409: ErrorResponse,
          503: ErrorResponse,
        },
      },
      // Checked in the handler (violations, not data.fields).
      validatorCompiler: () => (value: unknown) => ({ value }),
    },
    async (request) => {
      const ctx = request.ctx;
      if (ctx.kind !== 'user' || ctx.user_id === null) throw forbidden();
      if (ctx.read_only) throw forbidden(M.readOnly);
      if (!tenantFlag(ctx.tenant, REMEDY_FEATURE)) throw forbidden(M.featureOff);
      const raw = request.params.id;
      const id = /^\d{1,10}$/.test(raw) ? Number(raw) : NaN;
      if (!Number.isInteger(id) || id < 1 || id > INT32_MAX) throw badRequest('params/id must be a case id');

      const c = await getCase(db, ctx, id);
      if (!c) throw notFound('Case not found.');
      if (!c.properties.can_remedy) {
        const { rows } = await db.query(
          `select 1 from cases.remedy_submissions where tenant_id = $1 and case_id = $2`,
          [ctx.tenant, id],
        );
        throw conflict(rows.length ? M.alreadySubmitted : M.notEligible);
      }
      const violations = remedyViolations(
        request.body,
        { case_no: c.case_no, date_post: c.date_post },
        await remedyLookups(db),
      );
      if (violations.length) throw new HttpError(400, M.invalid, { violations });
      const body = request.body as RemedyBodyT;

      const submittedAt = new Date().toISOString();
      const document = await renderCeDocument({
        caseId: c.id,
        caseNo: c.case_no,
        merchantName: c.merchant_name,
        submittedBy: ctx.username,
        submittedAt,
        doc: body.doc,
      });
      const submissionId = await reserveSubmission(db, ctx, c.id, body, {
        sha256: document.sha256,
        pages: document.pages,
        size: document.bytes.length,
      });
      if (submissionId === null) throw conflict(M.alreadySubmitted);

      let attached;
      try {
        attached = await docs.attach(ctx, {
          caseId: c.id,
          filename: `ce3-remedy-${c.id}.pdf`,
          bytes: document.bytes,
          comment: `CE 3.0 Remedy (submission ${submissionId})`,
        });
      } catch (error) {
        await releaseSubmission(db, submissionId);
        throw error;
      }
      await db.transaction(async (tx) => {
        await completeSubmission(tx, submissionId, { version: attached.version, jobId: attached.job_id });
        await addHistory(tx, ctx, [
          {
            caseId: c.id,
            action: `CE 3.0 Remedy submitted (document ${document.pages} page(s), representment v${attached.version})`,
          },
        ]);
      });
      request.log.info(
        { case: c.id, submission: submissionId, version: attached.version },
        'remedy submitted',
      );
      return {
        message: M.success,
        submission_id: submissionId,
        version: attached.version,
        status_id: attached.status_id,
        job_id: attached.job_id,
      };
    },
  );
};
