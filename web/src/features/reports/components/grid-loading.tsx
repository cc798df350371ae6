import { Skeleton } from '@chakra-ui/react';

/** Placeholder while a report grid's code loads. */
export function GridLoading() {
  return <Skeleton h="420px" />;
}
