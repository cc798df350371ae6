import { Checkbox, Stack, Text } from '@chakra-ui/react';
import type { MerchantMids } from '@portal/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { DialogActions, DialogFrame } from '../../../components/dialog-frame';
import { Notice } from '../../../components/notice';
import { TextField } from '../../../components/text-field';
import { api } from '../../../lib/api-client';
import { serverMessage } from '../../../lib/errors';
import { queryRoots } from '../../../lib/query-keys';
import { useConnectAccount } from '../api/connect-account';

const KEY = /^(rk|sk)_(test|live)_[A-Za-z0-9]{8,}$/;
const SECRET = /^whsec_[A-Za-z0-9+/=]{8,}$/;

/** The merchant's MIDs to choose from (the first 200; a merchant with more names them by search). */
function midChoicesQueryOptions(merchantId: number, search: string) {
  return queryOptions({
    queryKey: [...queryRoots.merchantAdmin, 'connection-mid-choices', merchantId, search] as const,
    queryFn: ({ signal }) =>
      api.get<MerchantMids>(
        `cm/merchants/${merchantId}/mids`,
        { start: 0, limit: 200, search: search || undefined },
        signal,
      ),
  });
}

/**
 * Connect a Stripe account: a restricted key (Disputes and Files: write, Charges: read), the MIDs its
 * disputes belong to, and, when the endpoint already exists in Stripe, its signing secret. The key is
 * never shown again: only its last four characters.
 */
export function ConnectStripeDialog({ merchantId, onClose }: { merchantId: number; onClose: () => void }) {
  const [apiKey, setApiKey] = useState('');
  const [secret, setSecret] = useState('');
  const [search, setSearch] = useState('');
  const [mids, setMids] = useState<number[]>([]);
  const [error, setError] = useState<string | null>(null);
  const choices = useQuery(midChoicesQueryOptions(merchantId, search));
  const connect = useConnectAccount(merchantId);
  const keyError =
    apiKey && !KEY.test(apiKey.trim()) ? 'Enter a Stripe restricted key (rk_…) or secret key (sk_…).' : null;
  const secretError = secret && !SECRET.test(secret.trim()) ? 'A signing secret starts with whsec_.' : null;
  const ready = KEY.test(apiKey.trim()) && mids.length > 0 && !secretError;

  const submit = () => {
    setError(null);
    connect.mutate(
      {
        processor: 'stripe',
        api_key: apiKey.trim(),
        mid_ids: mids,
        ...(secret.trim() ? { webhook_secret: secret.trim() } : {}),
      },
      {
        onSuccess: onClose,
        onError: (e) => setError(serverMessage((e as { body?: unknown }).body)),
      },
    );
  };

  return (
    <DialogFrame
      title="Connect a Stripe account"
      testId="connect-stripe-dialog"
      onClose={onClose}
      footer={
        <DialogActions
          onCancel={onClose}
          primary={{
            label: 'Connect',
            onClick: submit,
            disabled: !ready,
            loading: connect.isPending,
            loadingText: 'Checking the key with Stripe…',
            testId: 'connect-stripe-submit',
          }}
        />
      }
    >
      <Stack gap="4">
        {error && (
          <Notice status="error" testId="connect-stripe-error">
            {error}
          </Notice>
        )}
        <TextField
          label="Restricted API key"
          name="api_key"
          type="password"
          autoComplete="off"
          value={apiKey}
          onChange={setApiKey}
          error={keyError}
          helper="In the Stripe Dashboard, Developers, API keys: create a restricted key with Disputes and Files write, Charges read."
        />
        <Stack gap="2">
          <Text fontWeight="medium" fontSize="sm">
            MIDs its disputes belong to
          </Text>
          <TextField label="Search MIDs" name="mid_search" value={search} onChange={setSearch} />
          <Stack gap="1" maxH="40" overflowY="auto" data-testid="connect-stripe-mids">
            {choices.data?.data.map((m) => (
              <Checkbox.Root
                key={m.id}
                checked={mids.includes(m.id)}
                onCheckedChange={(e) =>
                  setMids((now) => (e.checked ? [...now, m.id] : now.filter((id) => id !== m.id)))
                }
              >
                <Checkbox.HiddenInput />
                <Checkbox.Control />
                <Checkbox.Label>
                  {m.mid}
                  {m.descriptor ? ` · ${m.descriptor}` : ''}
                </Checkbox.Label>
              </Checkbox.Root>
            ))}
            {choices.data?.data.length === 0 && <Text color="fg.muted">No MIDs match.</Text>}
          </Stack>
          <Text fontSize="xs" color="fg.muted">
            The first MID chosen takes the disputes whose statement descriptor names none of them.
          </Text>
        </Stack>
        <TextField
          label="Webhook signing secret (optional now)"
          name="webhook_secret"
          type="password"
          autoComplete="off"
          value={secret}
          onChange={setSecret}
          error={secretError}
          helper="Create the webhook endpoint in Stripe with the URL shown after connecting, then add its secret."
        />
      </Stack>
    </DialogFrame>
  );
}
