import { Code, Text } from '@chakra-ui/react';
import { ShownOnceSecret } from '../../../components/shown-once-secret';

/** The whole key, shown once after creation or rotation, with a copy button and how to send it. */
export function KeySecretPanel({ secret }: { secret: string }) {
  return (
    <ShownOnceSecret
      secret={secret}
      testId="api-key-secret"
      warning="Copy this key now and keep it somewhere safe: it is shown only once. Anyone holding it can call the API with its scopes; revoke it if it leaks."
    >
      <Text fontSize="sm" color="fg.muted">
        Send it as <Code>Authorization: Bearer {secret.slice(0, 17)}…</Code> with each request.
      </Text>
    </ShownOnceSecret>
  );
}
