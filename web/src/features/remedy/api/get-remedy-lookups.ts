import type { CountryList, CurrencyList } from '@portal/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { queryRoots } from '../../../lib/query-keys';

/** GET /cm/gen/currencies and /cm/gen/countries, limit 999 (spec 2 §7 'Remedy reads'). */
export const getCurrenciesQueryOptions = () =>
  queryOptions({
    queryKey: [...queryRoots.lookups, 'remedy', 'currencies'] as const,
    queryFn: ({ signal }) => api.get<CurrencyList>('cm/gen/currencies', { limit: 999 }, signal),
    staleTime: 10 * 60_000,
    select: (p) => p.data,
  });
export const getCountriesQueryOptions = () =>
  queryOptions({
    queryKey: [...queryRoots.lookups, 'remedy', 'countries'] as const,
    queryFn: ({ signal }) => api.get<CountryList>('cm/gen/countries', { limit: 999 }, signal),
    staleTime: 10 * 60_000,
    select: (p) => p.data,
  });

export const useCurrencies = () => useQuery(getCurrenciesQueryOptions());
export const useCountries = () => useQuery(getCountriesQueryOptions());
