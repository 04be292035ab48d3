import { Column, DataSource, Entity, PrimaryColumn } from 'typeorm';

import { findOneRaw, mapRow } from './raw-entity';

@Entity({ name: 'things' })
class ThingEntity {
  @PrimaryColumn({ type: 'text' })
  id!: string;

  @Column({ name: 'tenant_id', type: 'text' })
  tenantId!: string;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({
    name: 'price_minor',
    type: 'bigint',
    transformer: { to: (v: number) => v, from: (v: string) => Number(v) },
  })
  priceMinor!: number;

  @Column({
    type: 'text',
    nullable: true,
    transformer: [
      { to: (v: string) => v, from: (v: string | null) => v?.trim() ?? null },
      { to: (v: string) => v, from: (v: string | null) => v?.toUpperCase() ?? 'NONE' },
    ],
  })
  label!: string;
}

describe('raw entity reads', () => {
  const ds = new DataSource({ type: 'postgres', schema: 'svc', entities: [ThingEntity] });
  // Entity metadata is built without connecting.
  beforeAll(() => (ds as any).buildMetadatas());

  it('maps database column names onto entity properties', () => {
    const at = new Date();
    const thing = mapRow(ds.getRepository(ThingEntity), { id: 'a', tenant_id: 't', created_at: at, extra: 1 });
    expect(thing).toBeInstanceOf(ThingEntity);
    expect(thing).toEqual(Object.assign(new ThingEntity(), { id: 'a', tenantId: 't', createdAt: at }));
  });

  it('reads values through the column transformers, as a repository read does', () => {
    const repo = ds.getRepository(ThingEntity);
    const thing = mapRow(repo, { id: 'a', price_minor: '1999', label: ' gold ' });
    expect(thing.priceMinor).toBe(1999);
    expect(thing.label).toBe('GOLD');
    expect(mapRow(repo, { id: 'a', label: null }).label).toBe('NONE');
  });

  it('queries by column names with a named prepared statement on the pool', async () => {
    const repo = ds.getRepository(ThingEntity);
    const query = jest.fn().mockResolvedValue({ rows: [{ id: 'a', tenant_id: 't' }] });
    (ds.driver as any).master = { query };
    const found = await findOneRaw(repo, { tenantId: 't', id: 'a' });
    expect(query).toHaveBeenCalledWith({
      name: 'raw:"svc"."things":tenantId,id',
      text: 'SELECT * FROM "svc"."things" WHERE "tenant_id" = $1 AND "id" = $2 LIMIT 1',
      values: ['t', 'a'],
    });
    expect(found).toBeInstanceOf(ThingEntity);
    expect(found?.tenantId).toBe('t');
    query.mockResolvedValue({ rows: [] });
    expect(await findOneRaw(repo, { id: 'b' })).toBeNull();
    expect(query).toHaveBeenLastCalledWith(
      expect.objectContaining({ text: 'SELECT * FROM "svc"."things" WHERE "id" = $1 LIMIT 1', values: ['b'] }),
    );
  });

  it('names an unknown property', async () => {
    await expect(findOneRaw(ds.getRepository(ThingEntity), { nope: 1 } as any)).rejects.toThrow(
      'ThingEntity has no column nope',
    );
  });
});
