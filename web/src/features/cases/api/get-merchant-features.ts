import { MERCHANT_FEATURE } from '@portal/contracts';
import { useMemo } from 'react';
import { useProfile } from '../../../lib/auth/auth-context';
import { useSelectedMerchant } from '../../../lib/merchant-selection';
import { useMerchant } from '../../merchants/api/get-merchant';

export { MERCHANT_FEATURE };

/**
 * The feature ids of the merchant being worked (the switcher's choice, else
 * the user's own merchant): 1 issuer documents, 2 outcome verdicts, 3 platform
 * (spec 3 §5). Undefined while loading; gated columns and filters stay hidden
 * until it is known.
 */
export function useMerchantFeatures(): ReadonlySet<number> | undefined {
  const profile = useProfile();
  const selected = useSelectedMerchant();
  const merchant = useMerchant(selected?.id ?? profile.merchant.id);
  const features = merchant.data?.features;
  return useMemo(() => (features ? new Set(features.map((f) => f.id)) : undefined), [features]);
}
