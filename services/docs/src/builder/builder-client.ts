import type { BuilderCase, DocTypeList, InternalContext } from '@portal/contracts';
import { CallInTransactionError, HttpError, type ServiceClient } from '@portal/core';

/**
 * The builder service's answers for a submitted case (design §4: asked with
 * the caller's own context, so the builder applies its role and scope rules):
 * the document types with their required flags, and the pages of answers
 * the case summary shows.
 */
export class BuilderClient {
  constructor(private readonly client: ServiceClient) {}

  private async call<T>(ctx: InternalContext, path: string): Promise<T> {
    const { exp: _exp, ...context } = ctx;
    try {
      return await this.client.get<T>(path, context);
    } catch (error) {
      if (error instanceof CallInTransactionError) throw error; // a bug to fix, not an outage
      if (error instanceof HttpError && error.statusCode < 500) throw error;
      throw new HttpError(503, 'The builder service is unavailable. Please try again later.');
    }
  }

  docTypes(ctx: InternalContext, caseId: number) {
    return this.call<DocTypeList>(ctx, `/builder/gen/doctypes?case_id=${caseId}&limit=999`);
  }

  /** Pages 1 and 2 of the builder case. */
  async pages(ctx: InternalContext, caseId: number): Promise<BuilderCase[]> {
    return Promise.all([1, 2].map((p) => this.call<BuilderCase>(ctx, `/builder/case/${caseId}?page=${p}`)));
  }
}
