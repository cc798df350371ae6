import type { StackConfig } from '@portal/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from './api-client';
import { queryRoots } from './query-keys';

/**
 * GET /config/cfg/stack_config_be: filter button and expiring-days switches. The gateway builds the
 * answer `{attr: StackConfig}` itself (gateway/src/stack-config) and declares no response schema.
 */
export async function getStackConfig(signal?: AbortSignal): Promise<StackConfig> {
  const r = await api.get<{ attr: StackConfig }>('config/cfg/stack_config_be', undefined, signal);
  return r.attr;
}

export function getStackConfigQueryOptions() {
  return queryOptions({
    queryKey: [...queryRoots.cases, 'stack-config'] as const,
    queryFn: ({ signal }) => getStackConfig(signal),
    staleTime: 10 * 60_000,
  });
}

export function useStackConfig() {
  return useQuery(getStackConfigQueryOptions());
}
