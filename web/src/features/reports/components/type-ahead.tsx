import { Box, Button, Flex, Input, Stack, Text } from '@chakra-ui/react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { getTypeAheadQueryOptions, type Option } from '../api/reports-api';

/** Searches need 2 or more characters (spec 3 §5). */
export const MIN_SEARCH = 2;
export const MIN_SEARCH_MESSAGE = 'Please enter 2 or more characters';

/** A type-ahead picker: 'All …' until an option is chosen; options load once 2 characters are typed. */
export function TypeAhead({
  allLabel,
  value,
  onChange,
  search,
  queryKey,
  testId,
}: {
  allLabel: string;
  value: Option | null;
  onChange: (o: Option | null) => void;
  search: (text: string, signal: AbortSignal) => Promise<Option[]>;
  queryKey: unknown[];
  testId: string;
}) {
  const [open, setOpen] = useState(false);
  const [text, setText] = useState('');
  const ready = text.trim().length >= MIN_SEARCH;
  const q = useQuery({ ...getTypeAheadQueryOptions(queryKey, text.trim(), search), enabled: open && ready });
  const pick = (o: Option | null) => {
    onChange(o);
    setOpen(false);
    setText('');
  };
  return (
    <Box position="relative" minW="52" data-testid={testId}>
      <Input
        size="sm"
        bg="white"
        placeholder={value?.label ?? allLabel}
        value={open ? text : (value?.label ?? allLabel)}
        onFocus={() => setOpen(true)}
        onBlur={() => setTimeout(() => setOpen(false), 150)}
        onChange={(e) => setText(e.target.value)}
        aria-label={allLabel}
        data-testid={`${testId}-input`}
      />
      {open && (
        <Stack
          position="absolute"
          zIndex="dropdown"
          top="100%"
          left="0"
          right="0"
          mt="1"
          bg="white"
          borderWidth="1px"
          borderRadius="md"
          shadow="md"
          gap="0"
          maxH="64"
          overflowY="auto"
          data-testid={`${testId}-options`}
        >
          <Button size="xs" variant="ghost" justifyContent="start" onMouseDown={() => pick(null)}>
            {allLabel}
          </Button>
          {!ready ? (
            <Text fontSize="xs" color="fg.muted" px="3" py="2">
              {MIN_SEARCH_MESSAGE}
            </Text>
          ) : q.isPending ? (
            <Text fontSize="xs" color="fg.muted" px="3" py="2">
              Loading…
            </Text>
          ) : (
            (q.data ?? []).map((o) => (
              <Button
                key={o.id}
                size="xs"
                variant="ghost"
                justifyContent="start"
                onMouseDown={() => pick(o)}
                data-testid={`${testId}-option`}
              >
                {o.label}
              </Button>
            ))
          )}
          {ready && q.data?.length === 0 && (
            <Flex px="3" py="2">
              <Text fontSize="xs" color="fg.muted">
                No matches
              </Text>
            </Flex>
          )}
        </Stack>
      )}
    </Box>
  );
}
