import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { getAssignableUserPage } from '../../../lib/get-assignable-users';
import { getLookupPage, lookupLabel } from '../../../lib/get-lookup';
import {
  concatPages,
  staticOptionPages,
  type Choice,
  type OptionFetcher,
  type OptionPageRequest,
} from '../../../lib/option-pages';
import { queryRoots } from '../../../lib/query-keys';

/** Where a paged select's options come from; `key` names it in the query cache. */
export interface OptionSource {
  key: string;
  fetch: OptionFetcher;
}

/** The endpoint of the assignable users (the assigned-user filter): managers and agents only. */
const ASSIGNABLE_USERS_ENDPOINT = '/users/users';

function endpointPages(endpoint: string): OptionFetcher {
  if (endpoint.replace(/^\/?(api\/)?/, '/') === ASSIGNABLE_USERS_ENDPOINT) return getAssignableUserPage;
  return async (r, signal) => {
    const page = await getLookupPage(endpoint, r, signal);
    return {
      options: page.data.map((i) => ({ value: String(i.id), label: lookupLabel(i) })),
      total: page.pagination.total,
    };
  };
}

/**
 * A select filter's options: its default_options first, then its endpoint's
 * (a lookup under /cm/gen/* or the assignable users), paged as one list.
 */
export function selectOptionSource(
  endpoint: string | undefined,
  defaults: { value: string | number; label: string }[] | undefined,
): OptionSource {
  const fixed: Choice[] = (defaults ?? []).map((o) => ({ value: String(o.value), label: o.label }));
  const parts = [
    ...(fixed.length ? [staticOptionPages(fixed)] : []),
    ...(endpoint ? [endpointPages(endpoint)] : []),
  ];
  return {
    key: JSON.stringify([endpoint ?? null, fixed]),
    fetch: parts.length === 1 ? parts[0]! : concatPages(parts),
  };
}

export function getOptionPageQueryOptions(source: OptionSource, request: OptionPageRequest) {
  return queryOptions({
    queryKey: [...queryRoots.cases, 'select-options', source.key, request] as const,
    queryFn: ({ signal }) => source.fetch(request, signal),
    placeholderData: keepPreviousData,
    staleTime: 5 * 60_000,
  });
}

/** One page of a select's options; the previous page stays shown while the next loads. */
export function useOptionPage(source: OptionSource, request: OptionPageRequest, enabled = true) {
  return useQuery({ ...getOptionPageQueryOptions(source, request), enabled });
}
