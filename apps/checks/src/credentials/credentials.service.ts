import { Caller, Clock, SecretSealer } from '@kyc/platform';
import { Injectable, Logger } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';

import type { CollectorCredentials } from '../collectors/collector';
import { CollectorRegistry } from '../collectors/collector.registry';
import { CollectorCredentialEntity } from './collector-credential.entity';
import { CollectorCredentialStore } from './collector-credential.store';
import { CredentialErrorCode, CredentialException } from './credentials.exception';
import { SaveCredentialDto } from './dto/save-credential.dto';

/** A credential as the API shows it: never the password or the complements. */
export interface CredentialView {
  database_id: string;
  database_name: string;
  username: string;
  has_complements: boolean;
  creation_date: string;
  update_date: string;
}

const aad = (tenantId: string, databaseId: string) => `${tenantId}/${databaseId}`;

/** Collector credentials per tenant and database, encrypted at rest (AES-256-GCM, CHECKS_CREDENTIALS_KEY). */
@Injectable()
export class CredentialsService {
  private readonly logger = new Logger('credentials');

  constructor(
    @InjectRepository(CollectorCredentialEntity) private readonly credentials: Repository<CollectorCredentialEntity>,
    private readonly store: CollectorCredentialStore,
    private readonly cipher: SecretSealer,
    private readonly registry: CollectorRegistry,
    private readonly clock: Clock,
  ) {}

  /** Creates or replaces the tenant's credentials for a database. */
  async save(caller: Caller, databaseId: string, dto: SaveCredentialDto): Promise<CredentialView> {
    const name = this.databaseName(databaseId);
    const now = this.clock.now();
    const secret = this.cipher.sealJson(
      { password: dto.password, complements: dto.complements ?? null },
      aad(caller.tenantId, databaseId),
    );
    const row = await this.store.upsert(
      caller.tenantId,
      databaseId,
      dto.username,
      secret,
      dto.complements !== undefined,
      now,
    );
    this.logger.log({ msg: 'collector credentials saved', tenant_id: caller.tenantId, database_id: databaseId });
    return {
      database_id: databaseId,
      database_name: name,
      username: dto.username,
      has_complements: dto.complements !== undefined,
      creation_date: new Date(row.created_at).toISOString(),
      update_date: new Date(row.updated_at).toISOString(),
    };
  }

  async list(caller: Caller): Promise<CredentialView[]> {
    const rows = await this.credentials.find({ where: { tenantId: caller.tenantId }, order: { databaseId: 'ASC' } });
    return rows.map((r) => this.view(r));
  }

  async remove(caller: Caller, databaseId: string): Promise<void> {
    this.databaseName(databaseId);
    const { affected } = await this.credentials.delete({ tenantId: caller.tenantId, databaseId });
    if (!affected)
      throw new CredentialException(
        CredentialErrorCode.CredentialNotFound,
        `no credentials stored for database ${databaseId}`,
      );
  }

  /** Decrypted credentials for a collector run; undefined when the tenant stored none. */
  async forCollector(tenantId: string, databaseId: string): Promise<CollectorCredentials | undefined> {
    const row = await this.credentials.findOneBy({ tenantId, databaseId });
    if (!row) return undefined;
    const secret = this.cipher.openJson<{ password: string; complements: unknown }>(
      row.secret,
      aad(tenantId, databaseId),
    );
    return {
      username: row.username,
      password: secret.password,
      ...(secret.complements !== null ? { complements: secret.complements } : {}),
    };
  }

  private databaseName(databaseId: string): string {
    const collector = this.registry.get(databaseId);
    if (!collector)
      throw new CredentialException(CredentialErrorCode.UnknownDatabase, `database ${databaseId} does not exist`);
    return collector.databaseName;
  }

  private view(r: CollectorCredentialEntity): CredentialView {
    return {
      database_id: r.databaseId,
      database_name: this.registry.get(r.databaseId)?.databaseName ?? r.databaseId,
      username: r.username,
      has_complements: r.hasComplements,
      creation_date: r.createdAt.toISOString(),
      update_date: r.updatedAt.toISOString(),
    };
  }
}
