import { useSelectedMerchant } from '../../../lib/merchant-selection';

/** client_id of every dashboard call: the merchant switcher's choice (undefined = all merchant accounts). */
export function useClientId(): number | undefined {
  return useSelectedMerchant()?.id;
}
