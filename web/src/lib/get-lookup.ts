import type {
  CardTypeList,
  CaseStatusList,
  CountryList,
  CurrencyList,
  CycleList,
  DeflectorList,
  DescriptorList,
  ProcessorList,
  ReasonCodeCategoryList,
  ReasonCodeList,
  ServiceLevelList,
  SourceList,
  StatusGroupList,
  VerdictList,
} from '@portal/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from './api-client';
import { queryRoots } from './query-keys';

/** What each lookup path answers (services/case lookups/lookup-routes.ts). */
interface LookupLists {
  'cm/gen/countries': CountryList;
  'cm/gen/processors': ProcessorList;
  'cm/gen/rc': ReasonCodeList;
  'cm/gen/rc-categories': ReasonCodeCategoryList;
  'cm/gen/cycles': CycleList;
  'cm/gen/currencies': CurrencyList;
  'cm/gen/cctypes': CardTypeList;
  'cm/gen/status-groups': StatusGroupList;
  'cm/gen/statuses': CaseStatusList;
  'cm/gen/verdicts': VerdictList;
  'cm/gen/service-levels': ServiceLevelList;
  'cm/gen/sources': SourceList;
  'cm/gen/deflectors': DeflectorList;
  'cm/gen/descriptors': DescriptorList;
}
type LookupPath = keyof LookupLists;
/** Any lookup's answer: a path from configuration (a builder field's or a filter's endpoint) may name any. */
type LookupList = LookupLists[LookupPath];
export type LookupItem = LookupList['data'][number];
/** The answer of a known path; of any lookup for a path only known at run time. */
type ListAt<P extends string> = P extends LookupPath ? LookupLists[P] : LookupList;

const lookupPath = (path: string) => path.replace(/^\/?(api\/)?/, '');

/** GET /cm/gen/{name} (limit 999, optional search): verdicts, rc, currencies, cycles, cctypes, ... */
export function getLookup<P extends string>(path: P, search?: string, signal?: AbortSignal) {
  return api.get<ListAt<P>>(lookupPath(path), { limit: 999, search }, signal);
}

/** One page of a lookup (`search`, `start`, `limit`; the answer's pagination.total counts all matches). */
export function getLookupPage(
  path: string,
  page: { search?: string; start: number; limit: number },
  signal?: AbortSignal,
) {
  return api.get<LookupList>(
    lookupPath(path),
    { search: page.search || undefined, start: page.start, limit: page.limit },
    signal,
  );
}

export function getLookupQueryOptions<P extends string>(path: P, search?: string) {
  return queryOptions({
    queryKey: [...queryRoots.cases, 'lookup', path, search ?? ''] as const,
    queryFn: ({ signal }) => getLookup(path, search, signal),
    staleTime: 10 * 60_000,
  });
}

export function useLookup<P extends string>(path: P | undefined, search?: string) {
  return useQuery({ ...getLookupQueryOptions((path ?? '') as P, search), enabled: !!path });
}

/** Reason code display name: '{card type name or N/A} - {code}' (spec 2 §3); else the item's name. */
export function lookupLabel(item: LookupItem): string {
  if ('card_type' in item) return `${item.card_type?.name ?? 'N/A'} - ${item.code}`;
  if ('name' in item) return item.name;
  if ('currency' in item) return item.currency;
  return item.descriptor;
}
