import { Box, Button, Flex, Icon, Input, Skeleton, Spinner, Stack, Text } from '@chakra-ui/react';
import type { MerchantTree, MerchantTreeNode, TreeMid } from '@portal/contracts';
import { ChevronDown, ChevronRight } from 'lucide-react';
import { useState } from 'react';
import { Pager } from '../../../components/pager';
import { useTreeChildren } from '../api/get-tree-children';
import { useTreeMids } from '../api/get-tree-mids';

export type Selection =
  { kind: 'merchant'; id: number; name: string } | { kind: 'mid'; id: number; merchantId: number };

/** What every row needs: the open nodes and the selection. */
interface TreeState {
  expanded: Set<number>;
  toggle: (id: number) => void;
  selected: Selection | null;
  onSelect: (s: Selection) => void;
}

const indent = (depth: number) => `${depth * 16}px`;

/** The row shown while a node's children or MIDs are read. */
function LoadingRow({ depth, what }: { depth: number; what: string }) {
  return (
    <Flex
      align="center"
      gap="2"
      pl={indent(depth + 1)}
      py="1"
      fontSize="sm"
      color="fg.muted"
      data-testid="tree-loading"
    >
      <Spinner size="xs" />
      Loading {what}…
    </Flex>
  );
}

function MoreRow({
  depth,
  label,
  onClick,
  busy,
}: {
  depth: number;
  label: string;
  onClick: () => void;
  busy: boolean;
}) {
  return (
    <Box pl={indent(depth + 1)} py="0.5">
      <Button size="2xs" variant="ghost" onClick={onClick} loading={busy} data-testid="tree-more">
        {label}
      </Button>
    </Box>
  );
}

function MidRow({
  mid,
  merchantId,
  depth,
  state,
}: {
  mid: TreeMid;
  merchantId: number;
  depth: number;
  state: TreeState;
}) {
  const active = state.selected?.kind === 'mid' && state.selected.id === mid.id;
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
      onClick={() => state.onSelect({ kind: 'mid', id: mid.id, merchantId })}
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

/** A merchant's own MIDs, read when its node opens (pages of 50). */
export function NodeMids({
  merchantId,
  depth,
  state,
}: {
  merchantId: number;
  depth: number;
  state: TreeState;
}) {
  const mids = useTreeMids(merchantId, true);
  if (mids.isPending) return <LoadingRow depth={depth} what="MIDs" />;
  if (mids.isError)
    return (
      <Text pl={indent(depth + 1)} fontSize="sm" color="fg.error">
        MIDs could not be loaded.
      </Text>
    );
  const rows = mids.data.pages.flatMap((p) => p.data);
  const total = mids.data.pages[0]?.pagination.total ?? 0;
  return (
    <>
      {rows.map((m) => (
        <MidRow key={m.id} mid={m} merchantId={merchantId} depth={depth} state={state} />
      ))}
      {mids.hasNextPage && (
        <MoreRow
          depth={depth}
          label={`Show more MIDs (${rows.length} of ${total})`}
          busy={mids.isFetchingNextPage}
          onClick={() => void mids.fetchNextPage()}
        />
      )}
    </>
  );
}

/** The children of an opened node that the page did not carry, read page by page (20). */
function LazyChildren({ parentId, depth, state }: { parentId: number; depth: number; state: TreeState }) {
  const kids = useTreeChildren(parentId, true);
  if (kids.isPending) return <LoadingRow depth={depth} what="merchants" />;
  if (kids.isError)
    return (
      <Text pl={indent(depth + 1)} fontSize="sm" color="fg.error">
        Merchants could not be loaded.
      </Text>
    );
  const nodes = kids.data.pages.flatMap((p) => p.data);
  const total = kids.data.pages[0]?.pagination.total ?? 0;
  return (
    <>
      {nodes.map((c) => (
        <NodeRow key={c.id} node={c} depth={depth + 1} state={state} />
      ))}
      {kids.hasNextPage && (
        <MoreRow
          depth={depth}
          label={`Show more merchants (${nodes.length} of ${total})`}
          busy={kids.isFetchingNextPage}
          onClick={() => void kids.fetchNextPage()}
        />
      )}
    </>
  );
}

function NodeRow({ node, depth, state }: { node: MerchantTreeNode; depth: number; state: TreeState }) {
  const open = state.expanded.has(node.id);
  // A search page carries the branch to its matches; other nodes read their children when opened.
  const carried = node.children.length > 0;
  const expandable = carried || node.has_children || node.mid_count > 0;
  const active = state.selected?.kind === 'merchant' && state.selected.id === node.id;
  return (
    <>
      <Flex
        align="center"
        pl={indent(depth)}
        borderRadius="sm"
        bg={active ? 'brand.subtle' : undefined}
        data-testid="tree-node"
        data-id={node.id}
      >
        <Button
          size="2xs"
          variant="ghost"
          aria-label={open ? `Collapse ${node.label}` : `Expand ${node.label}`}
          aria-expanded={expandable ? open : undefined}
          visibility={expandable ? 'visible' : 'hidden'}
          onClick={() => state.toggle(node.id)}
        >
          <Icon size="sm">{open ? <ChevronDown /> : <ChevronRight />}</Icon>
        </Button>
        <Box
          as="button"
          textAlign="left"
          flex="1"
          py="1"
          fontSize="sm"
          fontWeight={node.match ? 'bold' : 'medium'}
          color={node.status.id === 1 ? undefined : 'fg.muted'}
          onClick={() => state.onSelect({ kind: 'merchant', id: node.id, name: node.label })}
          data-testid="tree-merchant"
          data-match={node.match || undefined}
        >
          {node.label}
        </Box>
      </Flex>
      {open && (
        <>
          {carried
            ? node.children.map((c) => <NodeRow key={c.id} node={c} depth={depth + 1} state={state} />)
            : node.has_children && <LazyChildren parentId={node.id} depth={depth} state={state} />}
          {node.mid_count > 0 && <NodeMids merchantId={node.id} depth={depth} state={state} />}
        </>
      )}
    </>
  );
}

/** Ids a page opens by itself: the mids_tile_clicked path and every node that carries its branch. */
export function defaultOpen(tree: MerchantTree | undefined): Set<number> {
  const open = new Set(tree?.path ?? []);
  const walk = (nodes: MerchantTreeNode[]) => {
    for (const n of nodes)
      if (n.children.length) {
        open.add(n.id);
        walk(n.children);
      }
  };
  walk(tree?.data ?? []);
  return open;
}

/**
 * Left side of the hierarchy: search (Enter), the page of 20 merchants; a
 * node reads its children and MIDs when opened, with a loading row meanwhile.
 */
export function MerchantTreeView({
  tree,
  loading,
  start,
  searching,
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
  /** A search or the mids_tile_clicked branch is shown (the root's own MIDs are left out). */
  searching: boolean;
  onPage: (start: number) => void;
  onSearch: (text: string) => void;
} & TreeState) {
  const [text, setText] = useState('');
  const total = tree?.pagination.total ?? 0;
  const state: TreeState = { expanded, toggle, selected, onSelect };
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
            <NodeRow key={n.id} node={n} depth={1} state={state} />
          ))}
          {!searching && tree.root.mid_count > 0 && (
            <NodeMids merchantId={tree.root.id} depth={0} state={state} />
          )}
          {tree.data.length === 0 && (
            <Text fontSize="sm" color="fg.muted" px="2">
              No Records Found!
            </Text>
          )}
        </Stack>
      ) : null}
      {total > 20 && <Pager start={start} pageSize={20} total={total} onStart={onPage} />}
    </Stack>
  );
}
