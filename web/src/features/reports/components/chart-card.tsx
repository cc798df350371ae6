import { Box, Flex, Heading, Skeleton, Text } from '@chakra-ui/react';
import { Suspense, type ReactNode } from 'react';
import { CHART_HEIGHT, EMPTY_CHART_HEIGHT, NO_DATA } from '../charts/donut-rules';

/** A report chart's frame: title, a skeleton while loading, 'No Data' when empty (failures too, spec 3 §8). */
export function ChartCard({
  title,
  loading,
  empty,
  children,
  testId,
  height = CHART_HEIGHT,
}: {
  title: string;
  loading: boolean;
  empty: boolean;
  children: ReactNode;
  testId: string;
  height?: number;
}) {
  return (
    <Box bg="white" borderRadius="lg" borderWidth="1px" p="4" minW="0" data-testid={testId}>
      <Heading size="sm" mb="2">
        {title}
      </Heading>
      {loading ? (
        <Skeleton h={`${height}px`} />
      ) : empty ? (
        <Flex h={`${EMPTY_CHART_HEIGHT}px`} align="center" justify="center" data-testid={`${testId}-empty`}>
          <Text color="fg.muted" fontSize="lg">
            {NO_DATA}
          </Text>
        </Flex>
      ) : (
        <Box data-testid={`${testId}-drawn`}>
          <Suspense fallback={<Skeleton h={`${height}px`} />}>{children}</Suspense>
        </Box>
      )}
    </Box>
  );
}
