import { Button, Checkbox, Field, Fieldset, Input, Stack, Text } from '@chakra-ui/react';
import {
  API_KEY_SCOPE_LABELS,
  API_KEY_SCOPES,
  type ApiKeyCreated,
  type ApiKeyScope,
} from '@portal/contracts';
import { useState } from 'react';
import { DialogActions, DialogFrame } from '../../../components/dialog-frame';
import { Notice } from '../../../components/notice';
import { GENERIC_ERROR } from '../../../lib/errors';
import { createApiKey } from '../api/api-keys-api';
import { KeySecretPanel } from './key-secret-panel';

/** Create a key for one's own merchant: name, scopes, optional expiry; the key is shown here once. */
export function CreateApiKeyDialog({ onClose, onCreated }: { onClose: () => void; onCreated: () => void }) {
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState<ApiKeyScope[]>([]);
  const [expiry, setExpiry] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [created, setCreated] = useState<ApiKeyCreated | null>(null);
  const valid = name.trim().length > 0 && scopes.length > 0;

  const toggle = (scope: ApiKeyScope, on: boolean) =>
    setScopes((list) => (on ? [...list, scope] : list.filter((s) => s !== scope)));

  async function submit() {
    setBusy(true);
    setError(null);
    try {
      // The date input gives a day: the key works until the end of that day, local time.
      const expires_at = expiry ? new Date(`${expiry}T23:59:59`).toISOString() : null;
      setCreated(await createApiKey({ name: name.trim(), scopes, expires_at }));
      onCreated();
    } catch (e) {
      setError((e as Error).message || GENERIC_ERROR);
    } finally {
      setBusy(false);
    }
  }

  if (created)
    return (
      <DialogFrame
        title="API key created"
        testId="api-key-created-dialog"
        onClose={onClose}
        size="lg"
        footer={<Button onClick={onClose}>Done</Button>}
      >
        <Stack gap="3">
          <Text>
            Key <strong>{created.name}</strong> for {created.scopes.join(', ')}.
          </Text>
          <KeySecretPanel secret={created.secret} />
        </Stack>
      </DialogFrame>
    );

  return (
    <DialogFrame
      title="Create an API key"
      testId="create-api-key-dialog"
      onClose={onClose}
      size="lg"
      footer={
        <DialogActions
          onCancel={onClose}
          primary={{ label: 'Create', onClick: () => void submit(), disabled: !valid || busy, loading: busy }}
        />
      }
    >
      <Stack gap="4">
        <Field.Root required>
          <Field.Label>Name</Field.Label>
          <Input
            name="name"
            placeholder="ERP integration"
            value={name}
            maxLength={100}
            onChange={(e) => setName(e.target.value)}
          />
          <Field.HelperText>What the key is for, to tell keys apart.</Field.HelperText>
        </Field.Root>
        <Fieldset.Root>
          <Fieldset.Legend>Scopes</Fieldset.Legend>
          <Stack gap="1" data-testid="api-key-scopes">
            {API_KEY_SCOPES.map((scope) => (
              <Checkbox.Root
                key={scope}
                checked={scopes.includes(scope)}
                onCheckedChange={(e) => toggle(scope, e.checked === true)}
                data-testid={`scope-${scope}`}
              >
                <Checkbox.HiddenInput />
                <Checkbox.Control />
                <Checkbox.Label>
                  {API_KEY_SCOPE_LABELS[scope]} ({scope})
                </Checkbox.Label>
              </Checkbox.Root>
            ))}
          </Stack>
        </Fieldset.Root>
        <Field.Root>
          <Field.Label>Expires</Field.Label>
          <Input name="expires" type="date" value={expiry} onChange={(e) => setExpiry(e.target.value)} />
          <Field.HelperText>Optional. Without a date the key works until it is revoked.</Field.HelperText>
        </Field.Root>
        {error && (
          <Notice status="error" testId="create-api-key-error">
            {error}
          </Notice>
        )}
      </Stack>
    </DialogFrame>
  );
}
