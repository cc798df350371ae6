import type { StackConfig } from '@portal/contracts';
import { useQuery } from '@tanstack/react-query';
import { api } from './api-client';

/** GET /config/cfg/stack_config_be (answer attr): filter button and expiring-days switches. */
export async function getStackConfig(signal?: AbortSignal): Promise<StackConfig> {
  const r = await api.get<{ attr: StackConfig }>('config/cfg/stack_config_be', undefined, signal);
  return r.attr;
}

export function useStackConfig() {
  return useQuery({
    queryKey: ['cases', 'stack-config'] as const,
    queryFn: ({ signal }) => getStackConfig(signal),
    staleTime: 10 * 60_000,
  });
}
