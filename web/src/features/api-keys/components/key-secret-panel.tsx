import { Button, Code, Flex, Stack, Text } from '@chakra-ui/react';
import { useState } from 'react';
import { Notice } from '../../../components/notice';

/** The whole key, shown once after creation or rotation, with a copy button and how to send it. */
export function KeySecretPanel({ secret }: { secret: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <Stack gap="3">
      <Notice status="warning">
        Copy this key now and keep it somewhere safe: it is shown only once. Anyone holding it can call the
        API with its scopes; revoke it if it leaks.
      </Notice>
      <Flex gap="2" align="center">
        <Code data-testid="api-key-secret" p="2" flex="1" wordBreak="break-all">
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
      <Text fontSize="sm" color="fg.muted">
        Send it as <Code>Authorization: Bearer {secret.slice(0, 17)}…</Code> with each request.
      </Text>
    </Stack>
  );
}
