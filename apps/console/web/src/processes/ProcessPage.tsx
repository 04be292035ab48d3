import { Badge, Button, Card, Group, Stack, Table, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { useParams } from 'react-router-dom';

import { api, ApiError, call, download, useLoad } from '../api/client';
import { statusColor } from '../checks/status';
import { useI18n } from '../i18n/i18n';
import { ErrorState, Loading } from '../shared/states';
import { Decision } from './Decision';

/** A process: its steps, each validation's result, its override history, the PDF, and a decision. */
export default function ProcessPage() {
  const { t } = useI18n();
  const { processId = '' } = useParams();
  const [round, setRound] = useState(0);
  const [error, setError] = useState<ApiError>();
  const path = { path: { process_id: processId } };
  const loaded = useLoad(async () => {
    const [process, validations] = await Promise.all([
      call(api.identity.GET('/v1/processes/{process_id}', { params: path })),
      call(api.identity.GET('/v1/processes/{process_id}/validations', { params: path })),
    ]);
    return { process, validations };
  }, [processId, round]);
  return (
    <Loading loaded={loaded}>
      {({ process, validations }) => (
        <Stack>
          <Group justify="space-between">
            <Title order={2}>{t('processes.detail.title', { id: process.process_id })}</Title>
            <Badge size="lg" variant="light" color={statusColor(process.status)} data-testid="process-status">
              {process.status}
            </Badge>
          </Group>
          {error && <ErrorState error={error} />}
          <Group>
            <Button
              variant="default"
              onClick={() =>
                void download('identity', `/v1/processes/${processId}/pdf`, `${processId}.pdf`).catch((e: ApiError) =>
                  setError(e),
                )
              }
            >
              {t('processes.detail.pdf')}
            </Button>
          </Group>
          <Title order={3}>{t('processes.detail.steps')}</Title>
          <Table.ScrollContainer minWidth={560}>
            <Table>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>step</Table.Th>
                  <Table.Th>type</Table.Th>
                  <Table.Th>{t('common.status')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {process.steps.map((s) => (
                  <Table.Tr key={s.step_id}>
                    <Table.Td>{s.step_id}</Table.Td>
                    <Table.Td>{s.type}</Table.Td>
                    <Table.Td>
                      <Badge variant="light" color={statusColor(s.status)}>
                        {s.status}
                      </Badge>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
          <Card withBorder>
            <Text component="pre" size="xs" style={{ whiteSpace: 'pre-wrap', margin: 0 }}>
              {JSON.stringify(validations, null, 2)}
            </Text>
          </Card>
          {(process.override_status_history ?? []).length > 0 && (
            <Card withBorder>
              {(process.override_status_history ?? []).map((h, i) => (
                <Text size="sm" key={i}>
                  {JSON.stringify(h)}
                </Text>
              ))}
            </Card>
          )}
          {process.status !== 'pending' && <Decision processId={processId} onDecided={() => setRound((r) => r + 1)} />}
        </Stack>
      )}
    </Loading>
  );
}
