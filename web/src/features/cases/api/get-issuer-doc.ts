import type { IssuerDocLink } from '@portal/contracts';
import { api } from '../../../lib/api-client';

/** GET /docs/issuer-doc/{caseId}/{docId}: a short-lived link to an issuer document. */
export function getIssuerDoc(caseId: number, docId: number) {
  return api.get<IssuerDocLink>(`docs/issuer-doc/${caseId}/${docId}`);
}
