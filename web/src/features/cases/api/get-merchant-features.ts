import { MERCHANT_FEATURE } from '@portal/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useProfile } from '../../../lib/auth/auth-context';
import { useSelectedMerchant } from '../../../lib/merchant-selection';
import { getMerchantQueryOptions } from '../../../lib/get-merchant';

export { MERCHANT_FEATURE };

/**
 * The feature ids of the merchant being worked (the switcher's choice, else
 * the user's own merchant): 1 issuer documents, 2 outcome verdicts, 3 platform
 * (spec 3 §5). Undefined while first loading; the previous merchant's while
 * the switcher's new choice loads; none when the call fails (gated columns and
 * filters stay hidden).
 */
const NONE: { id: number }[] = [];

export function useMerchantFeatures(): ReadonlySet<number> | undefined {
  const profile = useProfile();
  const selected = useSelectedMerchant();
  const merchant = useQuery({
    ...getMerchantQueryOptions(selected?.id ?? profile.merchant.id),
    placeholderData: keepPreviousData,
  });
  const features = merchant.isError ? NONE : merchant.data?.features;
  return useMemo(() => (features ? new Set(features.map((f) => f.id)) : undefined), [features]);
}
