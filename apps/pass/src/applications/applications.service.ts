import { randomBytes, timingSafeEqual } from 'node:crypto';

import { Clock, Page, paginate, ValidationFailedException } from '@kyc/platform';
import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';

import { SecretBox } from '../crypto/secret-box';
import { normalizeScope } from '../scopes/scopes';
import { ApplicationEntity } from './application.entity';
import { ApplicationErrorCode, ApplicationException } from './applications.exception';
import { CreateApplicationDto } from './dto/create-application.dto';
import { ListApplicationsQuery } from './dto/list-applications.query';
import { UpdateApplicationDto } from './dto/update-application.dto';

/** An application with its client secret in clear: only right after registration or a secret rotation. */
export interface ApplicationWithSecret {
  application: ApplicationEntity;
  /** Null for a public client (it has none). */
  clientSecret: string | null;
}

const secretAad = (clientId: string) => `pass-client-secret:${clientId}`;

/** Scopes are stored in their flat form (aliases normalized, as oidc-provider and the authorize gate compare them). */
const flatScopes = (scopes: string[]) => [...new Set(scopes.map(normalizeScope))];

/** A public client has no secret: it must use PKCE and cannot authenticate a CIBA request. */
function checkPublicClient(application: ApplicationEntity): void {
  if (!application.publicClient) return;
  const fields = [
    ...(application.requirePkce ? [] : [{ field: 'require_pkce', message: 'a public client always requires PKCE' }]),
    ...(application.cibaEnabled
      ? [{ field: 'ciba_enabled', message: 'a public client cannot use CIBA (it has no secret)' }]
      : []),
  ];
  if (fields.length) throw new ValidationFailedException(fields);
}
@Injectable()
export class ApplicationsService {
  constructor(
    @InjectRepository(ApplicationEntity) private readonly applications: Repository<ApplicationEntity>,
    private readonly box: SecretBox,
    private readonly clock: Clock,
  ) {}

  async create(dto: CreateApplicationDto): Promise<ApplicationWithSecret> {
    const now = this.clock.now();
    const clientId = `pc_${randomBytes(12).toString('hex')}`;
    const clientSecret = `ps_${randomBytes(32).toString('base64url')}`;
    const application = this.applications.create({
      clientId,
      tenantId: dto.tenant_id,
      name: dto.name,
      clientSecretSealed: this.box.seal(clientSecret, secretAad(clientId)),
      redirectUris: dto.redirect_uris,
      scopes: flatScopes(dto.scopes),
      restrictedScopes: [...new Set(dto.restricted_scopes ?? [])],
      allowsWebMessage: dto.allows_web_message ?? false,
      allowedWebMessageOrigins: dto.allowed_web_message_origins ?? [],
      allowedEmailDomains: dto.allowed_email_domains ?? [],
      requiredAcr: dto.required_acr ?? null,
      maxAuthAge: dto.max_auth_age ?? null,
      cibaEnabled: dto.ciba_enabled ?? false,
      publicClient: dto.public_client ?? false,
      requirePkce: dto.require_pkce ?? true,
      createdAt: now,
      updatedAt: now,
    });
    checkPublicClient(application);
    await this.applications.insert(application);
    return { application, clientSecret: application.publicClient ? null : clientSecret };
  }

  async list(query: ListApplicationsQuery): Promise<Page<ApplicationEntity>> {
    const qb = this.applications.createQueryBuilder('a');
    if (query.tenant_id) qb.where('a.tenantId = :tenantId', { tenantId: query.tenant_id });
    return paginate(qb, { startKey: query.start_key, limit: query.limit ?? 20, idColumn: 'clientId' });
  }

  async get(clientId: string): Promise<ApplicationEntity> {
    const application = await this.find(clientId);
    if (!application)
      throw new ApplicationException(ApplicationErrorCode.ApplicationNotFound, `application ${clientId} not found`);
    return application;
  }

  /** The application or undefined (the provider's client lookup). */
  async find(clientId: string): Promise<ApplicationEntity | undefined> {
    if (!/^pc_[0-9a-f]{24}$/.test(clientId)) return undefined;
    return (await this.applications.findOneBy({ clientId })) ?? undefined;
  }

  async update(clientId: string, dto: UpdateApplicationDto): Promise<ApplicationEntity> {
    const application = await this.get(clientId);
    if (dto.name !== undefined) application.name = dto.name;
    if (dto.redirect_uris !== undefined) application.redirectUris = dto.redirect_uris;
    if (dto.scopes !== undefined) application.scopes = flatScopes(dto.scopes);
    if (dto.restricted_scopes !== undefined) application.restrictedScopes = [...new Set(dto.restricted_scopes)];
    if (dto.allows_web_message !== undefined) application.allowsWebMessage = dto.allows_web_message;
    if (dto.allowed_web_message_origins !== undefined)
      application.allowedWebMessageOrigins = dto.allowed_web_message_origins;
    if (dto.allowed_email_domains !== undefined) application.allowedEmailDomains = dto.allowed_email_domains;
    if (dto.required_acr !== undefined) application.requiredAcr = dto.required_acr;
    if (dto.max_auth_age !== undefined) application.maxAuthAge = dto.max_auth_age;
    if (dto.ciba_enabled !== undefined) application.cibaEnabled = dto.ciba_enabled;
    if (dto.require_pkce !== undefined) application.requirePkce = dto.require_pkce;
    checkPublicClient(application);
    application.updatedAt = this.clock.now();
    await this.applications.save(application);
    return application;
  }

  /** A new client secret, shown once; the previous one stops working. */
  async rotateSecret(clientId: string): Promise<ApplicationWithSecret> {
    const application = await this.get(clientId);
    if (application.publicClient)
      throw new ApplicationException(ApplicationErrorCode.PublicClient, 'a public client has no secret to rotate');
    const clientSecret = `ps_${randomBytes(32).toString('base64url')}`;
    application.clientSecretSealed = this.box.seal(clientSecret, secretAad(clientId));
    application.updatedAt = this.clock.now();
    await this.applications.save(application);
    return { application, clientSecret };
  }

  async delete(clientId: string): Promise<ApplicationEntity> {
    const application = await this.get(clientId);
    await this.applications.delete({ clientId });
    return application;
  }

  /** True when the client id and secret are those of a registered application. */
  async authenticate(clientId: string, clientSecret: string): Promise<boolean> {
    const application = await this.find(clientId);
    if (!application || application.publicClient) return false;
    const expected = Buffer.from(this.clientSecret(application));
    const given = Buffer.from(clientSecret);
    return expected.length === given.length && timingSafeEqual(expected, given);
  }

  /** The client secret in clear, for the provider's client authentication. */
  clientSecret(application: ApplicationEntity): string {
    return this.box.open(application.clientSecretSealed, secretAad(application.clientId));
  }
}
