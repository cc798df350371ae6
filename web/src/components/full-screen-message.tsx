import { Flex, Spinner, Text } from '@chakra-ui/react';

/** 'Loading UI...', 'Please wait while we log you in...' and the like. */
export function FullScreenMessage({ text, spinner = true }: { text: string; spinner?: boolean }) {
  return (
    <Flex
      minH="100vh"
      align="center"
      justify="center"
      direction="column"
      gap="4"
      data-testid="full-screen-message"
    >
      {spinner && <Spinner size="lg" color="brand.solid" />}
      <Text fontSize="lg">{text}</Text>
    </Flex>
  );
}
