import { Button, Code, Flex, Stack } from '@chakra-ui/react';
import { WEBHOOK_MESSAGES } from '@portal/contracts';
import { useState } from 'react';
import { Notice } from '../../../components/notice';

/** The signing secret, shown once, with a copy button and how receivers verify it. */
export function SecretPanel({ secret }: { secret: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <Stack gap="3">
      <Notice status="warning">{WEBHOOK_MESSAGES.created}</Notice>
      <Flex gap="2" align="center">
        <Code data-testid="webhook-secret" p="2" flex="1" wordBreak="break-all">
          {secret}
        </Code>
        <Button
          size="sm"
          variant="outline"
          onClick={() =>
            void navigator.clipboard
              ?.writeText(secret)
              .then(() => setCopied(true))
              .catch(() => setCopied(false))
          }
        >
          {copied ? 'Copied' : 'Copy'}
        </Button>
      </Flex>
      <Notice status="info">
        Each request carries a Portal-Signature header, t=timestamp,v1=signature: the hex HMAC-SHA256 of the
        timestamp, a dot and the raw body, keyed with this secret.
      </Notice>
    </Stack>
  );
}
