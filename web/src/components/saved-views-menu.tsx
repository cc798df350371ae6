import { Badge, Button, Checkbox, HStack, Menu, Portal, Stack, Table, Text } from '@chakra-ui/react';
import {
  SAVED_VIEW_NAME_MAX,
  SAVED_VIEW_QUERY_MAX,
  type SavedView,
  type SavedViewList,
} from '@portal/contracts';
import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { serverMessage } from '../lib/errors';
import { ApiError } from '../lib/errors';
import {
  useCreateSavedView,
  useDeleteSavedView,
  useSavedViews,
  useUpdateSavedView,
} from '../lib/saved-views';
import { DialogFrame } from './dialog-frame';
import { Notice } from './notice';
import { TextField } from './text-field';
import { toaster } from './toaster';

const errorText = (e: unknown) =>
  e instanceof ApiError ? serverMessage(e.body, e.message) : 'The view could not be saved.';

/**
 * The Views menu of a list (issue 21): the user's saved views and the views
 * shared within the merchant (marked with the owner's name) open the list as
 * saved; 'Save current view' names the list's current URL query; 'Manage
 * views' renames, shares and deletes the user's own views.
 */
export function SavedViewsMenu({
  list,
  path,
  query,
}: {
  list: SavedViewList;
  /** The list route the views open on (the current one when saving). */
  path: string;
  /** The list's current URL search string, without '?'. */
  query: string;
}) {
  const navigate = useNavigate();
  const views = useSavedViews(list);
  const [dialog, setDialog] = useState<'save' | 'manage' | null>(null);
  const all = views.data ?? [];
  const own = all.filter((v) => v.is_owner);
  return (
    <>
      <Menu.Root closeOnSelect>
        <Menu.Trigger asChild>
          <Button size="sm" variant="outline" data-testid="views-menu">
            Views
          </Button>
        </Menu.Trigger>
        <Portal>
          <Menu.Positioner>
            <Menu.Content maxH="96" overflowY="auto" minW="64" data-testid="views-menu-content">
              {views.isError && (
                <Menu.Item value="error" disabled>
                  The saved views could not be loaded.
                </Menu.Item>
              )}
              {views.isSuccess && all.length === 0 && (
                <Menu.Item value="none" disabled>
                  No saved views yet.
                </Menu.Item>
              )}
              {all.map((v) => (
                <Menu.Item
                  key={v.id}
                  value={`view-${v.id}`}
                  data-testid="saved-view"
                  onSelect={() => navigate(v.query ? `${v.path}?${v.query}` : v.path)}
                >
                  <Stack gap="0">
                    <HStack gap="2">
                      <Text>{v.name}</Text>
                      {v.is_owner && v.shared && (
                        <Badge size="xs" colorPalette="blue">
                          shared
                        </Badge>
                      )}
                    </HStack>
                    {!v.is_owner && (
                      <Text fontSize="xs" color="fg.muted">
                        shared by {v.owner.name}
                      </Text>
                    )}
                  </Stack>
                </Menu.Item>
              ))}
              <Menu.Separator />
              <Menu.Item value="save" onSelect={() => setDialog('save')} data-testid="save-view">
                Save current view…
              </Menu.Item>
              {own.length > 0 && (
                <Menu.Item value="manage" onSelect={() => setDialog('manage')} data-testid="manage-views">
                  Manage views…
                </Menu.Item>
              )}
            </Menu.Content>
          </Menu.Positioner>
        </Portal>
      </Menu.Root>
      {dialog === 'save' && (
        <SaveViewDialog list={list} path={path} query={query} onClose={() => setDialog(null)} />
      )}
      {dialog === 'manage' && <ManageViewsDialog list={list} views={own} onClose={() => setDialog(null)} />}
    </>
  );
}

function SaveViewDialog({
  list,
  path,
  query,
  onClose,
}: {
  list: SavedViewList;
  path: string;
  query: string;
  onClose: () => void;
}) {
  const create = useCreateSavedView(list);
  const [name, setName] = useState('');
  const [shared, setShared] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const tooLong = query.length > SAVED_VIEW_QUERY_MAX;
  const save = () => {
    if (!name.trim()) return setError('Enter a name for the view.');
    create.mutate(
      { list, path, name: name.trim(), query, shared },
      {
        onSuccess: () => {
          toaster.create({ type: 'success', description: `View '${name.trim()}' saved.` });
          onClose();
        },
        onError: (e) => setError(errorText(e)),
      },
    );
  };
  return (
    <DialogFrame
      title="Save current view"
      testId="save-view-dialog"
      onClose={onClose}
      footer={
        <HStack>
          <Button size="sm" variant="outline" onClick={onClose}>
            Cancel
          </Button>
          <Button
            size="sm"
            colorPalette="brand"
            onClick={save}
            loading={create.isPending}
            disabled={tooLong}
            data-testid="save-view-submit"
          >
            Save
          </Button>
        </HStack>
      }
    >
      <Stack gap="3">
        <TextField
          label="View name"
          name="view-name"
          value={name}
          autoFocus
          onChange={(v) => {
            setName(v.slice(0, SAVED_VIEW_NAME_MAX));
            setError(null);
          }}
        />
        <Checkbox.Root checked={shared} onCheckedChange={(e) => setShared(e.checked === true)}>
          <Checkbox.HiddenInput />
          <Checkbox.Control />
          <Checkbox.Label>Share with the users of my merchant</Checkbox.Label>
        </Checkbox.Root>
        {tooLong && <Notice status="warning">This list's filters are too long to save as a view.</Notice>}
        {error && (
          <Notice status="error" testId="save-view-error">
            {error}
          </Notice>
        )}
      </Stack>
    </DialogFrame>
  );
}

function ManageViewsDialog({
  list,
  views,
  onClose,
}: {
  list: SavedViewList;
  views: SavedView[];
  onClose: () => void;
}) {
  const update = useUpdateSavedView(list);
  const remove = useDeleteSavedView(list);
  const [names, setNames] = useState<Record<number, string>>({});
  const [error, setError] = useState<string | null>(null);
  const onError = (e: unknown) => setError(errorText(e));
  return (
    <DialogFrame title="Manage views" testId="manage-views-dialog" onClose={onClose} size="lg">
      <Stack gap="3">
        <Table.Root size="sm">
          <Table.Header>
            <Table.Row>
              <Table.ColumnHeader>Name</Table.ColumnHeader>
              <Table.ColumnHeader>Shared</Table.ColumnHeader>
              <Table.ColumnHeader />
            </Table.Row>
          </Table.Header>
          <Table.Body>
            {views.map((v) => {
              const name = names[v.id] ?? v.name;
              return (
                <Table.Row key={v.id} data-testid="manage-view-row">
                  <Table.Cell>
                    <TextField
                      label={`Name of ${v.name}`}
                      name={`view-${v.id}`}
                      value={name}
                      onChange={(x) => setNames({ ...names, [v.id]: x.slice(0, SAVED_VIEW_NAME_MAX) })}
                    />
                  </Table.Cell>
                  <Table.Cell>
                    <Checkbox.Root
                      checked={v.shared}
                      aria-label={`Share ${v.name}`}
                      onCheckedChange={(e) =>
                        update.mutate({ id: v.id, shared: e.checked === true }, { onError })
                      }
                    >
                      <Checkbox.HiddenInput />
                      <Checkbox.Control />
                    </Checkbox.Root>
                  </Table.Cell>
                  <Table.Cell>
                    <HStack justify="flex-end">
                      <Button
                        size="xs"
                        variant="outline"
                        disabled={!name.trim() || name.trim() === v.name}
                        onClick={() => update.mutate({ id: v.id, name: name.trim() }, { onError })}
                      >
                        Rename
                      </Button>
                      <Button
                        size="xs"
                        variant="outline"
                        colorPalette="red"
                        onClick={() => remove.mutate(v.id, { onError })}
                      >
                        Delete
                      </Button>
                    </HStack>
                  </Table.Cell>
                </Table.Row>
              );
            })}
          </Table.Body>
        </Table.Root>
        {error && (
          <Notice status="error" testId="manage-views-error">
            {error}
          </Notice>
        )}
      </Stack>
    </DialogFrame>
  );
}
