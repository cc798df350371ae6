import {
  CASE_STATUS,
  CYCLE,
  REPRESENTMENT_MESSAGES,
  type CaseRow,
  type RepresentmentLink,
} from '@portal/contracts';
import { Badge, Box, Button, Icon, Spinner, Text } from '@chakra-ui/react';
import { Ban, FileText, Flag, Upload } from 'lucide-react';
import { useState } from 'react';
import { api } from '../lib/api-client';

/** Flag cell: a red marker with the flag comment as its title. */
export function FlagCell({ row }: { row: CaseRow }) {
  if (!row.flag?.is_flagged) return null;
  return (
    <Box
      as="span"
      role="img"
      color="red.500"
      title={row.flag.comment ?? 'Flagged'}
      aria-label="Flagged"
      fontSize="lg"
    >
      <Icon boxSize="1em">
        <Flag fill="currentColor" />
      </Icon>
    </Box>
  );
}

/**
 * Document column (spec 2 §2.6): per-row icon and tooltip. A case with a
 * document downloads it ('Downloading...' while the link is fetched); a
 * compiling one shows 'Doc(s) compiling...'; an uploadable one opens the
 * upload modal (nothing for read-only users), with the central arbitration
 * warning on cycle 2 for the tenant's 'central' client kind; otherwise
 * 'Document Unavailable'.
 */
export function DocumentCell({
  row,
  onUpload,
  readOnly = false,
  clientKind,
}: {
  row: CaseRow;
  onUpload?: (row: CaseRow) => void;
  readOnly?: boolean;
  clientKind?: string;
}) {
  const [downloading, setDownloading] = useState(false);
  const p = row.properties;
  if (row.status_id === CASE_STATUS.DocCompiling) {
    return (
      <Box
        as="span"
        title={REPRESENTMENT_MESSAGES.tooltipCompiling}
        aria-label={REPRESENTMENT_MESSAGES.tooltipCompiling}
        data-testid="doc-compiling"
      >
        <Spinner size="xs" color="blue.500" />
      </Box>
    );
  }
  if (p.is_doc_available) {
    const open = async () => {
      setDownloading(true);
      try {
        const doc = await api.get<RepresentmentLink>(`docs/representment/${row.id}`);
        if (doc.link) window.open(doc.link, '_blank', 'noopener');
      } catch {
        // The QC view and the case view say why; the icon stays as it is.
      } finally {
        setDownloading(false);
      }
    };
    const tip = downloading ? REPRESENTMENT_MESSAGES.tooltipDownloading : 'Download Document';
    return (
      <Button
        size="2xs"
        variant="ghost"
        colorPalette="blue"
        title={tip}
        aria-label={tip}
        onClick={() => void open()}
        loading={downloading}
        data-testid="doc-download"
      >
        <Icon size="sm">
          <FileText />
        </Icon>
      </Button>
    );
  }
  if (p.is_upload_representment_enabled) {
    const central = clientKind === 'central' && row.cycle_id === CYCLE.Second;
    const tip = central
      ? REPRESENTMENT_MESSAGES.centralArbitration
      : (p.upload_representment_tooltip ?? 'Upload Representment');
    return (
      <Button
        size="2xs"
        variant="ghost"
        colorPalette="brand"
        title={tip}
        aria-label={tip}
        aria-disabled={readOnly}
        // Read-only users: the icon does nothing (spec 2 §6).
        onClick={() => !readOnly && onUpload?.(row)}
        data-testid="doc-upload"
      >
        <Icon size="sm">
          <Upload />
        </Icon>
      </Button>
    );
  }
  return (
    <Box
      as="span"
      role="img"
      color="gray.400"
      title={REPRESENTMENT_MESSAGES.tooltipUnavailable}
      aria-label={REPRESENTMENT_MESSAGES.tooltipUnavailable}
      data-testid="doc-unavailable"
    >
      <Icon size="sm">
        <Ban />
      </Icon>
    </Box>
  );
}

/** Assigned as an icon (staff and partners) with the name as its title. */
export function AssignedIconCell({ row }: { row: CaseRow }) {
  const u = row.assigned_user;
  if (!u) return <Text color="gray.400">—</Text>;
  return (
    <Badge
      variant="solid"
      colorPalette="brand"
      title={`${u.fname} ${u.lname} (${u.username})`}
      borderRadius="full"
    >
      {`${u.fname[0] ?? ''}${u.lname[0] ?? ''}`.toUpperCase()}
    </Badge>
  );
}
