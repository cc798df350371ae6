import { Button, Field, NativeSelect, Stack, Text } from '@chakra-ui/react';
import { API_KEY_GRACE_SECONDS, type ApiKey, type ApiKeyCreated } from '@portal/contracts';
import { useState } from 'react';
import { DialogActions, DialogFrame } from '../../../components/dialog-frame';
import { Notice } from '../../../components/notice';
import { GENERIC_ERROR } from '../../../lib/errors';
import { rotateApiKey } from '../api/api-keys-api';
import { KeySecretPanel } from './key-secret-panel';

type Grace = (typeof API_KEY_GRACE_SECONDS)[number];
const GRACE_LABELS: Record<Grace, string> = {
  0: 'None: the old key stops now',
  3600: '1 hour',
  86400: '24 hours',
  604800: '7 days',
};

/** Rotate: a new key with the same scopes; the old one keeps working for the grace period chosen. */
export function RotateApiKeyDialog({
  apiKey,
  onClose,
  onRotated,
}: {
  apiKey: ApiKey;
  onClose: () => void;
  onRotated: () => void;
}) {
  const [grace, setGrace] = useState<Grace>(86400);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [created, setCreated] = useState<ApiKeyCreated | null>(null);

  async function submit() {
    setBusy(true);
    setError(null);
    try {
      setCreated(await rotateApiKey(apiKey.id, { grace_seconds: grace }));
      onRotated();
    } catch (e) {
      setError((e as Error).message || GENERIC_ERROR);
    } finally {
      setBusy(false);
    }
  }

  if (created)
    return (
      <DialogFrame
        title="API key rotated"
        testId="api-key-rotated-dialog"
        onClose={onClose}
        size="lg"
        footer={<Button onClick={onClose}>Done</Button>}
      >
        <KeySecretPanel secret={created.secret} />
      </DialogFrame>
    );

  return (
    <DialogFrame
      title="Rotate API key"
      testId="rotate-api-key-dialog"
      onClose={onClose}
      footer={
        <DialogActions
          onCancel={onClose}
          primary={{ label: 'Rotate', onClick: () => void submit(), disabled: busy, loading: busy }}
        />
      }
    >
      <Stack gap="4">
        <Text>
          A new key replaces <strong>{apiKey.name}</strong> ({apiKey.prefix}…{apiKey.last_four}) with the same
          scopes. Update your systems, then let the old key end.
        </Text>
        <Field.Root>
          <Field.Label>Old key valid for</Field.Label>
          <NativeSelect.Root size="sm">
            <NativeSelect.Field
              name="grace"
              value={String(grace)}
              onChange={(e) => setGrace(Number(e.target.value) as Grace)}
            >
              {API_KEY_GRACE_SECONDS.map((s) => (
                <option key={s} value={s}>
                  {GRACE_LABELS[s]}
                </option>
              ))}
            </NativeSelect.Field>
            <NativeSelect.Indicator />
          </NativeSelect.Root>
        </Field.Root>
        {error && <Notice status="error">{error}</Notice>}
      </Stack>
    </DialogFrame>
  );
}
