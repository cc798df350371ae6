import { Input, Stack, Tag, Wrap } from '@chakra-ui/react';
import { useState } from 'react';

/** Adds an entry unless it is empty or already there (compared as typed, trimmed). */
export function addEntry(list: string[], entry: string): string[] {
  const t = entry.trim();
  return t && !list.includes(t) ? [...list, t] : list;
}

/** Free-text multi-value (userDefinedMultiSelect): an entry is added on Enter or blur unless it is a duplicate. */
export function MultiTextFilter({
  label,
  value,
  onChange,
}: {
  label: string;
  value: string[];
  onChange: (value: string[]) => void;
}) {
  const [text, setText] = useState('');
  const add = () => {
    const next = addEntry(value, text);
    if (next !== value) onChange(next);
    setText('');
  };
  return (
    <Stack gap="1">
      <Input
        size="sm"
        aria-label={label}
        placeholder="Type and press Enter"
        value={text}
        onChange={(e) => setText(e.target.value)}
        onBlur={add}
        onKeyDown={(e) => {
          if (e.key === 'Enter') {
            e.preventDefault();
            add();
          }
        }}
      />
      {value.length > 0 && (
        <Wrap gap="1" role="group" aria-label={`${label} entries`}>
          {value.map((x) => (
            <Tag.Root key={x} size="sm" variant="subtle">
              <Tag.Label>{x}</Tag.Label>
              <Tag.EndElement>
                <Tag.CloseTrigger
                  aria-label={`Remove ${x}`}
                  onClick={() => onChange(value.filter((y) => y !== x))}
                />
              </Tag.EndElement>
            </Tag.Root>
          ))}
        </Wrap>
      )}
    </Stack>
  );
}
