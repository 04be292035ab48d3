import { ManualClock, OutboxService } from '@kyc/platform';
import { DataSource, EntityManager, Repository } from 'typeorm';

import { CollectorRegistry } from '../collectors/collector.registry';
import { ChecksConfig } from '../config/checks.config';
import { CheckEntity } from '../engine/check.entity';
import { CheckStore } from '../engine/check.store';
import { CheckDatabaseEntity } from '../engine/check-database.entity';
import { RuleCheckRejected } from '../rule-requests/rule-check-creator';
import { ChecksService } from './checks.service';
import { ChecksRuleCheckCreator } from './checks-rule-check-creator';

function creator() {
  const outer = jest.fn();
  const inTx = jest.fn().mockResolvedValue([{ i: 0, id: 'x', outcome: 'created' }]);
  const repo = {
    create: (v: Partial<CheckEntity>) => v as CheckEntity,
    manager: { query: outer },
    findOneBy: jest.fn(),
  };
  const clock = new ManualClock('2030-01-01T00:00:00Z');
  const config = new ChecksConfig();
  const store = new CheckStore({} as DataSource, new OutboxService(clock), config);
  const checks = new ChecksService(
    repo as unknown as Repository<CheckEntity>,
    {} as Repository<CheckDatabaseEntity>,
    store,
    clock,
    {} as CollectorRegistry,
  );
  return { creator: new ChecksRuleCheckCreator(checks, new OutboxService()), outer, inTx };
}

const meta = (query: jest.Mock) => ({
  manager: { query } as unknown as EntityManager,
  commandId: 'ev1',
  requestedBy: 'u1',
  ruleId: 'RUL1',
  ruleVersion: 1,
  actionId: 'ACT1',
  executionId: 'EXE1',
  depth: 2,
  sourceCheckId: 'CHK0',
});

describe('ChecksRuleCheckCreator', () => {
  it('creates a new check in the command’s transaction, with the rule depth and execution, and replies in it', async () => {
    const { creator: c, outer, inTx } = creator();
    const { checkId } = await c.create(
      't1',
      { type: 'person', country: 'CO', inputs: { national_id: '1000000001' }, user_authorized: true },
      meta(inTx),
    );
    expect(checkId).toMatch(/^CHK/);
    expect(outer).not.toHaveBeenCalled();
    const [row] = JSON.parse(inTx.mock.calls[0][1][0]);
    expect(row).toMatchObject({
      id: checkId,
      tenant_id: 't1',
      force: true,
      rule_depth: 2,
      requested_by_execution: 'EXE1',
    }); // force: the command is the request
    // Then the reply, in the same transaction.
    const [, params] = inTx.mock.calls[1] as [string, unknown[]];
    expect(params).toEqual(expect.arrayContaining(['checks.rule-check.created', 'EXE1']));
    expect(JSON.parse(params[5] as string).payload).toEqual({
      execution_id: 'EXE1',
      check_id: checkId,
      command_id: 'ev1',
    });
  });

  it('refuses inputs the creation rules refuse, so the command is not retried', async () => {
    const { creator: c, inTx } = creator();
    await expect(
      c.create('t1', { type: 'person', country: 'XX', inputs: {}, user_authorized: true }, meta(inTx)),
    ).rejects.toBeInstanceOf(RuleCheckRejected);
    await expect(
      c.create(
        't1',
        { type: 'vehicle', country: 'CO', inputs: { national_id: '1' }, user_authorized: true },
        meta(inTx),
      ),
    ).rejects.toThrow(/license_plate/);
    expect(inTx).not.toHaveBeenCalled();
  });
});
