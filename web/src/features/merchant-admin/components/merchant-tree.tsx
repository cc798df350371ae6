import { Box, Button, Flex, Input, Skeleton, Stack, Text } from '@chakra-ui/react';
import type { MerchantTree, MerchantTreeNode, TreeMid } from '@portal/contracts';
import { useState } from 'react';

export type Selection =
  { kind: 'merchant'; id: number; name: string } | { kind: 'mid'; id: number; merchantId: number };

function MidRow({
  mid,
  merchantId,
  depth,
  selected,
  onSelect,
}: {
  mid: TreeMid;
  merchantId: number;
  depth: number;
  selected: Selection | null;
  onSelect: (s: Selection) => void;
}) {
  const active = selected?.kind === 'mid' && selected.id === mid.id;
  return (
    <Box
      as="button"
      textAlign="left"
      pl={`${depth * 16 + 24}px`}
      py="1"
      pr="2"
      fontSize="sm"
      borderRadius="sm"
      bg={active ? 'brand.subtle' : undefined}
      _hover={{ bg: 'bg.muted' }}
      onClick={() => onSelect({ kind: 'mid', id: mid.id, merchantId })}
      data-testid="tree-mid"
      data-mid={mid.mid}
    >
      <Text as="span" color="fg.muted" mr="1">
        MID
      </Text>
      {mid.mid}
      {mid.alias ? ` (${mid.alias})` : ''}
    </Box>
  );
}

function NodeRow({
  node,
  depth,
  expanded,
  toggle,
  selected,
  onSelect,
}: {
  node: MerchantTreeNode;
  depth: number;
  expanded: Set<number>;
  toggle: (id: number) => void;
  selected: Selection | null;
  onSelect: (s: Selection) => void;
}) {
  const open = expanded.has(node.id);
  const hasKids = node.children.length > 0 || node.mids.length > 0;
  const active = selected?.kind === 'merchant' && selected.id === node.id;
  return (
    <>
      <Flex align="center" pl={`${depth * 16}px`} borderRadius="sm" bg={active ? 'brand.subtle' : undefined}>
        <Button
          size="2xs"
          variant="ghost"
          aria-label={open ? 'Collapse' : 'Expand'}
          visibility={hasKids ? 'visible' : 'hidden'}
          onClick={() => toggle(node.id)}
        >
          {open ? '▾' : '▸'}
        </Button>
        <Box
          as="button"
          textAlign="left"
          flex="1"
          py="1"
          fontSize="sm"
          fontWeight="medium"
          color={node.status.id === 1 ? undefined : 'fg.muted'}
          onClick={() => onSelect({ kind: 'merchant', id: node.id, name: node.label })}
          data-testid="tree-merchant"
        >
          {node.label}
        </Box>
      </Flex>
      {open && (
        <>
          {node.children.map((c) => (
            <NodeRow
              key={c.id}
              node={c}
              depth={depth + 1}
              expanded={expanded}
              toggle={toggle}
              selected={selected}
              onSelect={onSelect}
            />
          ))}
          {node.mids.map((m) => (
            <MidRow
              key={m.id}
              mid={m}
              merchantId={node.id}
              depth={depth}
              selected={selected}
              onSelect={onSelect}
            />
          ))}
        </>
      )}
    </>
  );
}

/** Left side of the hierarchy: search (Enter), the page of 20 and its subtrees. */
export function MerchantTreeView({
  tree,
  loading,
  start,
  onPage,
  onSearch,
  expanded,
  toggle,
  selected,
  onSelect,
}: {
  tree: MerchantTree | undefined;
  loading: boolean;
  start: number;
  onPage: (start: number) => void;
  onSearch: (text: string) => void;
  expanded: Set<number>;
  toggle: (id: number) => void;
  selected: Selection | null;
  onSelect: (s: Selection) => void;
}) {
  const [text, setText] = useState('');
  const total = tree?.pagination.total ?? 0;
  return (
    <Stack gap="2">
      <Input
        placeholder="Search merchants"
        aria-label="Search merchants"
        value={text}
        onChange={(e) => {
          setText(e.target.value);
          // Clearing the field resets the search.
          if (!e.target.value) onSearch('');
        }}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && text.trim()) onSearch(text.trim());
        }}
      />
      {loading && !tree ? (
        <Skeleton height="300px" />
      ) : tree ? (
        <Stack gap="0" data-testid="merchant-tree">
          <Box
            as="button"
            textAlign="left"
            fontWeight="bold"
            py="1"
            px="2"
            borderRadius="sm"
            bg={selected?.kind === 'merchant' && selected.id === tree.root.id ? 'brand.subtle' : undefined}
            onClick={() => onSelect({ kind: 'merchant', id: tree.root.id, name: tree.root.label })}
            data-testid="tree-root"
          >
            {tree.root.label}
          </Box>
          {tree.data.map((n) => (
            <NodeRow
              key={n.id}
              node={n}
              depth={1}
              expanded={expanded}
              toggle={toggle}
              selected={selected}
              onSelect={onSelect}
            />
          ))}
          {tree.root.mids.map((m) => (
            <MidRow
              key={m.id}
              mid={m}
              merchantId={tree.root.id}
              depth={0}
              selected={selected}
              onSelect={onSelect}
            />
          ))}
          {tree.data.length === 0 && (
            <Text fontSize="sm" color="fg.muted" px="2">
              No Records Found!
            </Text>
          )}
        </Stack>
      ) : null}
      {total > 20 && (
        <Flex gap="2" align="center" justify="space-between">
          <Button
            size="xs"
            variant="outline"
            disabled={start === 0}
            onClick={() => onPage(Math.max(0, start - 20))}
          >
            Previous
          </Button>
          <Text fontSize="xs">
            {start + 1}–{Math.min(start + 20, total)} of {total}
          </Text>
          <Button
            size="xs"
            variant="outline"
            disabled={start + 20 >= total}
            onClick={() => onPage(start + 20)}
          >
            Next
          </Button>
        </Flex>
      )}
    </Stack>
  );
}
