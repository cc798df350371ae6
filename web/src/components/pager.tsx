import { Button, HStack, Text } from '@chakra-ui/react';
import { useState } from 'react';
import { PageSizeSelect } from './page-size-select';

const us = (n: number) => n.toLocaleString('en-US');

/** 'a-b of n' for the rows from offset `start` of a list of `total` ('0 of 0' when it is empty). */
export function pageRange(start: number, pageSize: number, total: number): string {
  return total ? `${us(start + 1)}-${us(Math.min(start + pageSize, total))} of ${us(total)}` : '0 of 0';
}

export interface Paging {
  /** Offset of the first row shown. */
  start: number;
  pageSize: number;
  onStart: (start: number) => void;
  /** A new page size starts again at the first row. */
  onPageSize: (size: number) => void;
}

/** The offset and page size of a list held in the component (a new size goes back to the first row). */
export function usePaging(initialSize: number): Paging {
  const [{ start, pageSize }, set] = useState({ start: 0, pageSize: initialSize });
  return {
    start,
    pageSize,
    onStart: (next) => set((s) => ({ ...s, start: next })),
    onPageSize: (size) => set({ start: 0, pageSize: size }),
  };
}

/**
 * The pager of a list paged by offset: 'a-b of n', Previous and Next, and, given `sizes` and
 * `onPageSize`, a page-size select on the left.
 */
export function Pager({
  start,
  pageSize,
  total,
  onStart,
  onPageSize,
  sizes,
  sizeLabel = 'Rows per page',
  sizeAriaLabel = sizeLabel,
  sizeSelect,
  rangeTestId,
  note,
  disabled = false,
  mt,
}: Omit<Paging, 'onPageSize'> & {
  total: number;
  onPageSize?: (size: number) => void;
  /** The page sizes offered (with `onPageSize`). */
  sizes?: readonly number[];
  sizeLabel?: string;
  sizeAriaLabel?: string;
  sizeSelect?: 'xs' | 'sm';
  rangeTestId?: string;
  /** Said after the range (e.g. ' · 2 selected'). */
  note?: string;
  /** Holds the page (e.g. while edits on it are unsaved). */
  disabled?: boolean;
  mt?: '2' | '3';
}) {
  const select = sizes && onPageSize;
  return (
    <HStack justify={select ? 'space-between' : 'flex-end'} wrap="wrap" gap="2" mt={mt}>
      {select && (
        <PageSizeSelect
          sizes={sizes}
          value={pageSize}
          onChange={onPageSize}
          label={sizeLabel}
          ariaLabel={sizeAriaLabel}
          size={sizeSelect}
        />
      )}
      <HStack gap="2">
        <Text fontSize="sm" data-testid={rangeTestId}>
          {pageRange(start, pageSize, total)}
          {note}
        </Text>
        <Button
          size="xs"
          variant="outline"
          disabled={disabled || start <= 0}
          onClick={() => onStart(Math.max(0, start - pageSize))}
        >
          Previous
        </Button>
        <Button
          size="xs"
          variant="outline"
          disabled={disabled || start + pageSize >= total}
          onClick={() => onStart(start + pageSize)}
        >
          Next
        </Button>
      </HStack>
    </HStack>
  );
}
