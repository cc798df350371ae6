import { NativeSelect } from '@chakra-ui/react';
import { useQueryClient } from '@tanstack/react-query';
import { useProfile } from '../../../lib/auth/auth-context';
import { setSelectedMerchant, useSelectedMerchant } from '../../../lib/merchant-selection';
import { queryRoots } from '../../../lib/query-keys';
import { useMerchants } from '../api/get-merchants';

const ALL = 'all';

/** One merchant or all merchant accounts (spec 1 §1); the choice scopes the dashboard calls (client_id). */
export function MerchantSwitcher() {
  const profile = useProfile();
  const selected = useSelectedMerchant();
  const merchants = useMerchants();
  const queryClient = useQueryClient();
  const options = new Map<number, string>([[profile.merchant.id, profile.merchant.business_name]]);
  for (const m of merchants.data ?? []) options.set(m.id, m.business_name);
  if (selected) options.set(selected.id, selected.name);

  return (
    <NativeSelect.Root size="sm" width="full" data-testid="merchant-switcher">
      <NativeSelect.Field
        aria-label="Merchant"
        bg="white"
        color="gray.800"
        value={selected ? String(selected.id) : ALL}
        onChange={(e) => {
          const v = e.currentTarget.value;
          setSelectedMerchant(v === ALL ? null : { id: Number(v), name: options.get(Number(v)) ?? v });
          void queryClient.invalidateQueries({ queryKey: queryRoots.dashboard });
        }}
      >
        <option value={ALL}>All Merchants</option>
        {[...options].map(([id, name]) => (
          <option key={id} value={id}>
            {name}
          </option>
        ))}
      </NativeSelect.Field>
      <NativeSelect.Indicator />
    </NativeSelect.Root>
  );
}
