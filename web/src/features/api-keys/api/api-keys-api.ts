import type {
  ApiKey,
  ApiKeyCreateBody,
  ApiKeyCreated,
  ApiKeyList,
  ApiKeyRotateBody,
} from '@portal/contracts';
import { api } from '../../../lib/api-client';

/** Merchant API keys (issue 35.1, `/users/api-keys`). */
export const listApiKeys = () => api.get<ApiKeyList>('users/api-keys', { limit: 200 });

export const createApiKey = (body: ApiKeyCreateBody) => api.post<ApiKeyCreated>('users/api-keys', body);

export const revokeApiKey = (id: string) => api.post<ApiKey>(`users/api-keys/${id}/revoke`, {});

export const rotateApiKey = (id: string, body: ApiKeyRotateBody) =>
  api.post<ApiKeyCreated>(`users/api-keys/${id}/rotate`, body);
