import {
  BUILDER_MESSAGES as B,
  type BuilderCase,
  type BuilderUploadBody,
  type InternalContext,
} from '@portal/contracts';
import { badRequest, conflict, type CaseClient } from '@portal/core';
import type { UploadRoute } from '../representment/accept-representment';
import type { BuilderClient } from './builder-client';
import { caseSummary } from './case-summary';

/**
 * The case builder's submission as an upload (spec 2 §2.7 steps 3 and 4, §5
 * 'Case builder'): its words, then its own steps. Once the case is known the
 * builder's answers and document types are asked with the caller's context:
 * step 1 must be saved, every item must name a document type, every required
 * type must have a document and a template may be added once. When every
 * file has passed, the case summary is made from those answers (its lookup
 * answers named by the case service) and goes first in the compiled PDF.
 */
export function builderSubmission(
  builder: BuilderClient,
  cases: Pick<CaseClient, 'lookup'>,
  ctx: InternalContext,
  body: BuilderUploadBody,
): UploadRoute {
  let answers: BuilderCase[] = [];
  return {
    notUploadable: B.notBuildable,
    verb: 'submitted from the case builder',
    requireDocument: false,
    fileField: 'files',
    reportRefusals: false,
    async check(c) {
      const [pages, docTypes] = await Promise.all([builder.pages(ctx, c.id), builder.docTypes(ctx, c.id)]);
      if (!pages[0]!.last_updated) throw conflict(B.firstPage);
      const types = new Map(docTypes.data.map((t) => [t.id, t]));
      const items = [...body.files, ...body.templates];
      for (const item of items) if (!types.has(item.upload_doc_type_id)) throw badRequest(B.selectDocType);
      const missing = docTypes.data.filter(
        (t) => t.required && !items.some((i) => i.upload_doc_type_id === t.id),
      );
      if (missing.length)
        throw badRequest(B.missingDocType(missing[0]!.name), {
          fields: missing.map((t) => ({ id: `doc_type_${t.id}`, errors: [B.missingDocType(t.name)] })),
        });
      const templateIds = body.templates.map((t) => t.id);
      if (new Set(templateIds).size !== templateIds.length) throw badRequest(B.templateAdded);
      answers = pages;
    },
    generate: (c) => caseSummary(cases, ctx, c, answers),
  };
}
