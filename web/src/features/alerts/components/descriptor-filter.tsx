import { Box, Button, Input, Stack } from '@chakra-ui/react';
import { useEffect, useState } from 'react';
import { toaster } from '../../../components/toaster';
import { useAlertDescriptors } from '../api/get-alert-descriptors';
import { ALERT_MESSAGES } from '../lib/alert-messages';

/**
 * Descriptor type-ahead ('All Descriptors' when empty); 500 ms debounce like the
 * other select filters. The parent keys it by the applied value to reset the text.
 */
export function DescriptorFilter({
  merchantId,
  value,
  onChange,
}: {
  merchantId: number | undefined;
  value: string;
  onChange: (descriptor: string) => void;
}) {
  const [text, setText] = useState(value);
  const [search, setSearch] = useState('');
  const [open, setOpen] = useState(false);
  useEffect(() => {
    const t = setTimeout(() => setSearch(text), 500);
    return () => clearTimeout(t);
  }, [text]);
  const options = useAlertDescriptors(merchantId, open ? search : '');
  useEffect(() => {
    if (options.isError) toaster.create({ type: 'error', title: ALERT_MESSAGES.descriptorsFailed });
  }, [options.isError]);
  const choose = (d: string) => {
    setText(d);
    setOpen(false);
    onChange(d);
  };
  return (
    <Box position="relative" w={{ base: 'full', md: '64' }}>
      <Input
        size="sm"
        bg="white"
        aria-label="Descriptor"
        placeholder={ALERT_MESSAGES.allDescriptors}
        value={text}
        data-testid="descriptor-filter"
        onFocus={() => setOpen(true)}
        onBlur={() => setTimeout(() => setOpen(false), 150)}
        onChange={(e) => {
          setText(e.target.value);
          setOpen(true);
          if (!e.target.value) onChange('');
        }}
      />
      {open && (
        <Stack
          position="absolute"
          zIndex="dropdown"
          top="100%"
          left="0"
          right="0"
          bg="white"
          borderWidth="1px"
          borderRadius="md"
          shadow="md"
          gap="0"
          maxH="60"
          overflowY="auto"
        >
          <Button size="xs" variant="ghost" justifyContent="start" onMouseDown={() => choose('')}>
            {ALERT_MESSAGES.allDescriptors}
          </Button>
          {(options.data?.data ?? []).map((d) => (
            <Button
              key={d.id}
              size="xs"
              variant="ghost"
              justifyContent="start"
              onMouseDown={() => choose(d.descriptor)}
            >
              {d.descriptor}
            </Button>
          ))}
        </Stack>
      )}
    </Box>
  );
}
