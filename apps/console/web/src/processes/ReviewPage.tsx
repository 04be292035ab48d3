import { Anchor, Card, Group, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { Link } from 'react-router-dom';

import { api, call, useLoad } from '../api/client';
import { useI18n } from '../i18n/i18n';
import { EmptyState, Loading } from '../shared/states';
import { Decision } from './Decision';

/**
 * The processes waiting for a person's decision: finished as failures and not yet overridden, oldest
 * first, each with approve / reject and a reason (identity's override-status takes finished
 * processes only). Up to the API's first page of failed ones.
 */
export default function ReviewPage() {
  const { t } = useI18n();
  const [round, setRound] = useState(0);
  const [decided, setDecided] = useState<string[]>([]);
  const loaded = useLoad(async () => {
    const page = await call(api.identity.GET('/v1/processes', { params: { query: { status: 'failure' } } }));
    return page.processes
      .filter((p) => !p.override_status)
      .sort((a, b) => a.creation_date.localeCompare(b.creation_date));
  }, [round]);
  return (
    <Stack>
      <Title order={2}>{t('review.title')}</Title>
      {decided.length > 0 && (
        <Text role="status" c="green">
          {t('review.decided')}
        </Text>
      )}
      <Loading loaded={loaded}>
        {(processes) =>
          processes.length === 0 ? (
            <EmptyState>{t('review.empty')}</EmptyState>
          ) : (
            processes.map((p) => (
              <Card withBorder key={p.process_id} data-testid="review-item">
                <Group justify="space-between" mb="xs">
                  <Anchor component={Link} to={`/processes/${p.process_id}`}>
                    {p.process_id}
                  </Anchor>
                  <Text size="sm" c="dimmed">
                    {new Date(p.creation_date).toLocaleString()}
                  </Text>
                </Group>
                <Text size="sm">{p.steps.map((s) => `${s.type}: ${s.status}`).join(' · ')}</Text>
                <Decision
                  processId={p.process_id}
                  onDecided={() => {
                    setDecided((d) => [...d, p.process_id]);
                    setRound((r) => r + 1);
                  }}
                />
              </Card>
            ))
          )
        }
      </Loading>
    </Stack>
  );
}
