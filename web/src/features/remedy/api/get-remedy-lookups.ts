import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

export interface CurrencyItem {
  id: number;
  currency: string;
  code: string;
}
export interface CountryItem {
  id: number;
  code: string;
  name: string;
}
interface Page<T> {
  data: T[];
}

/** GET /cm/gen/currencies and /cm/gen/countries, limit 999 (spec 2 §7 'Remedy reads'). */
export const getCurrenciesQueryOptions = () =>
  queryOptions({
    queryKey: ['lookups', 'remedy', 'currencies'],
    queryFn: ({ signal }) => api.get<Page<CurrencyItem>>('cm/gen/currencies', { limit: 999 }, signal),
    staleTime: 10 * 60_000,
    select: (p) => p.data,
  });
export const getCountriesQueryOptions = () =>
  queryOptions({
    queryKey: ['lookups', 'remedy', 'countries'],
    queryFn: ({ signal }) => api.get<Page<CountryItem>>('cm/gen/countries', { limit: 999 }, signal),
    staleTime: 10 * 60_000,
    select: (p) => p.data,
  });

export const useCurrencies = () => useQuery(getCurrenciesQueryOptions());
export const useCountries = () => useQuery(getCountriesQueryOptions());
