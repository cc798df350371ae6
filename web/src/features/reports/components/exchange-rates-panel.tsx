import { Button, Flex, Heading, Input, Table, Text } from '@chakra-ui/react';
import { EXCHANGE_RATES_HEADER, isProviderStaff } from '@portal/contracts';
import { useRef, useState } from 'react';
import { useProfile } from '../../../lib/auth/auth-context';
import { queryErrorMessage } from '../../../lib/errors';
import { formatCount } from '../../../lib/format';
import { useExchangeRates, useUploadExchangeRates } from '../api/exchange-rates';

/**
 * Exchange rates of the money ledger (issue 33), for provider staff on /reports: the days loaded per
 * currency; admins load more by CSV (`date,currency,rate_to_reporting`). A refused file names its bad
 * rows and loads nothing; loading a file twice changes nothing.
 */
export function ExchangeRatesPanel() {
  const profile = useProfile();
  const roles = [profile.role, ...profile.roles];
  const staff = isProviderStaff(roles);
  const admin = roles.includes('cb911_admin') && !profile.is_read_only;
  const rates = useExchangeRates(staff);
  const upload = useUploadExchangeRates();
  const file = useRef<HTMLInputElement>(null);
  const [message, setMessage] = useState<string | null>(null);
  if (!staff) return null;

  const send = async () => {
    const chosen = file.current?.files?.[0];
    if (!chosen) return setMessage('Choose a CSV file first.');
    setMessage(null);
    try {
      const r = await upload.mutateAsync(await chosen.text());
      setMessage(
        `Loaded: ${formatCount(r.upserted)} new or changed rates, ${formatCount(r.unchanged)} unchanged; ` +
          `${formatCount(r.repriced_cases)} cases repriced.`,
      );
    } catch (e) {
      setMessage(queryErrorMessage(e));
    }
  };
  const summary = rates.data;
  return (
    <Flex
      direction="column"
      gap="3"
      bg="white"
      borderRadius="lg"
      borderWidth="1px"
      p="4"
      data-testid="exchange-rates"
    >
      <Heading size="sm">
        Exchange Rates to {summary?.reporting_currency ?? '…'}
        {summary && summary.unrated_cases > 0
          ? ` (${formatCount(summary.unrated_cases)} cases without a rate)`
          : ''}
      </Heading>
      {summary && (
        <Table.Root size="sm" variant="outline">
          <Table.Header>
            <Table.Row>
              {['Currency', 'From', 'To', 'Days', 'Newest Rate'].map((h) => (
                <Table.ColumnHeader key={h}>{h}</Table.ColumnHeader>
              ))}
            </Table.Row>
          </Table.Header>
          <Table.Body>
            {summary.data.map((r) => (
              <Table.Row key={r.currency_id} data-testid="exchange-rate-row">
                <Table.Cell>{r.currency}</Table.Cell>
                <Table.Cell>{r.first_day}</Table.Cell>
                <Table.Cell>{r.last_day}</Table.Cell>
                <Table.Cell>{formatCount(r.days)}</Table.Cell>
                <Table.Cell>{r.latest_rate}</Table.Cell>
              </Table.Row>
            ))}
          </Table.Body>
        </Table.Root>
      )}
      {admin && (
        <Flex gap="3" align="center" wrap="wrap">
          <Input
            ref={file}
            type="file"
            accept=".csv,text/csv"
            size="sm"
            w="auto"
            aria-label="Exchange rates CSV"
            data-testid="exchange-rates-file"
          />
          <Button size="sm" onClick={send} loading={upload.isPending} data-testid="exchange-rates-upload">
            Load Rates
          </Button>
          <Text fontSize="xs" color="fg.muted">
            CSV header: <code>{EXCHANGE_RATES_HEADER}</code>, one rate per day and currency.
          </Text>
        </Flex>
      )}
      {message && (
        <Text fontSize="sm" role="status" data-testid="exchange-rates-message">
          {message}
        </Text>
      )}
    </Flex>
  );
}
