import { Button, Code, Flex, Stack } from '@chakra-ui/react';
import { useState, type ReactNode } from 'react';
import { Notice } from './notice';

/**
 * A secret the server shows only once (an API key, a webhook signing secret): the warning, the
 * secret with a Copy button, then how to use it (`children`).
 */
export function ShownOnceSecret(props: {
  secret: string;
  warning: ReactNode;
  testId: string;
  children: ReactNode;
}) {
  const [copied, setCopied] = useState(false);
  return (
    <Stack gap="3">
      <Notice status="warning">{props.warning}</Notice>
      <Flex gap="2" align="center">
        <Code data-testid={props.testId} p="2" flex="1" wordBreak="break-all">
          {props.secret}
        </Code>
        <Button
          size="sm"
          variant="outline"
          onClick={() =>
            void navigator.clipboard
              ?.writeText(props.secret)
              .then(() => setCopied(true))
              .catch(() => setCopied(false))
          }
        >
          {copied ? 'Copied' : 'Copy'}
        </Button>
      </Flex>
      {props.children}
    </Stack>
  );
}
