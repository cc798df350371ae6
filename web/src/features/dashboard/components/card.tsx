import { Box, Flex, Heading } from '@chakra-ui/react';
import type { ReactNode } from 'react';

export function Card({
  title,
  actions,
  children,
  testId,
}: {
  title: string;
  actions?: ReactNode;
  children: ReactNode;
  testId?: string;
}) {
  return (
    <Box bg="white" borderRadius="lg" borderWidth="1px" p={{ base: 3, md: 5 }} data-testid={testId} minW="0">
      <Flex align="center" gap="3" mb="3" wrap="wrap">
        <Heading size="md" flex="1" minW="48">
          {title}
        </Heading>
        {actions}
      </Flex>
      {children}
    </Box>
  );
}
