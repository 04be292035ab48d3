import { Caller, OutboxService } from '@kyc/platform';
import { ChecksConfig } from '../config/checks.config';
import { CheckEntity } from './check.entity';
import { ChecksService } from './checks.service';
import { CreateCheckDto } from './dto/create-check.dto';

const caller = (permissions: string[], keyVersion: 0 | 1 = 1) =>
  new Caller('t1', 'u1', 'a@b.c', 'k1', 'backend', keyVersion, 'role', new Set(permissions), []);

function service() {
  const query = jest.fn().mockResolvedValue([{ id: 'x', created: true }]);
  const repo = { create: (v: Partial<CheckEntity>) => v as CheckEntity, query, findOneBy: jest.fn() };
  const config = Object.assign(new ChecksConfig(), { CHECKS_DEDUP_WINDOW_SECONDS: 600 });
  return { svc: new ChecksService(repo as any, new OutboxService(), config), query };
}

const dto = (over: Partial<CreateCheckDto> = {}): CreateCheckDto => Object.assign(new CreateCheckDto(), { country: 'BR', type: 'person', user_authorized: true, national_id: '1' }, over);

describe('ChecksService.create', () => {
  it('needs the country permission or checks.country_all', async () => {
    const { svc, query } = service();
    await expect(svc.create(caller(['checks.country_co']), dto())).rejects.toMatchObject({ status: 403, errorCode: 'forbidden' });
    expect(query).not.toHaveBeenCalled();
    await expect(svc.create(caller(['checks.country_br']), dto())).resolves.toMatchObject({ created: true });
    await expect(svc.create(caller(['checks.country_all']), dto())).resolves.toMatchObject({ created: true });
  });

  it('refuses user_authorized=false for any key version, and a missing one from version 1', async () => {
    const { svc } = service();
    await expect(svc.create(caller(['checks.country_all'], 0), dto({ user_authorized: false }))).rejects.toMatchObject({ status: 400, errorCode: 'user_not_authorized' });
    await expect(svc.create(caller(['checks.country_all'], 1), dto({ user_authorized: undefined }))).rejects.toMatchObject({ fields: [{ field: 'user_authorized', message: expect.any(String) }] });
    await expect(svc.create(caller(['checks.country_all'], 0), dto({ user_authorized: undefined }))).resolves.toBeDefined();
  });

  it('refuses unknown check types naming the field', async () => {
    const { svc } = service();
    await expect(svc.create(caller(['checks.country_all']), dto({ type: 'spaceship' }))).rejects.toMatchObject({ status: 400, fields: [{ field: 'type', message: expect.any(String) }] });
  });

  it('gives identical inputs the same hash (so they de-duplicate) and different inputs another', async () => {
    const { svc, query } = service();
    await svc.create(caller(['checks.country_all']), dto());
    await svc.create(caller(['checks.country_all']), dto());
    await svc.create(caller(['checks.country_all']), dto({ national_id: '2' }));
    const hashes = query.mock.calls.map((c) => c[1][1]);
    expect(hashes[0]).toBe(hashes[1]);
    expect(hashes[2]).not.toBe(hashes[0]);
  });
});
