import { randomUUID } from 'node:crypto';

import { DEFAULT_ACCESS_ROLE, FULL_ACCESS_ROLE } from '@kyc/contracts';
import { Caller, Clock, FieldError, Page, paginate, ValidationFailedException } from '@kyc/platform';
import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { DataSource, EntityManager, Repository } from 'typeorm';

import { AccessStatePublisher } from '../access/access-state.publisher';
import { AuditLogService, diff } from '../audit/audit-log.service';
import { RoleEntity } from '../roles/role.entity';
import { RoleHolders } from '../roles/role-holders';
import { billingHubProblem } from '../tenants/billing-hubs';
import { TenantEntity } from '../tenants/tenant.entity';
import { TenantAdmins } from '../tenants/tenant-admins';
import { ChangeUserStatusDto } from './dto/change-user-status.dto';
import { CreateUserDto } from './dto/create-user.dto';
import { ListUsersQuery } from './dto/list-users.query';
import { UpdateUserDto } from './dto/update-user.dto';
import { UserEntity } from './user.entity';
import { auditedUser, setFields } from './user.presenter';
import { UserErrorCode, UserException } from './users.exception';

const PAGE_SIZE = 20;

/**
 * Users of a tenant. Every change publishes the user's state to `account.users` (every service's
 * access cache: a disabled or deleted user's keys stop working everywhere) and writes an audit
 * entry, both in the change's transaction. Also answers, for roles and tenants, who holds a role
 * and the tenant's administrator (RoleHolders, TenantAdmins).
 */
@Injectable()
export class UsersService implements RoleHolders, TenantAdmins {
  constructor(
    @InjectRepository(UserEntity) private readonly users: Repository<UserEntity>,
    private readonly dataSource: DataSource,
    private readonly access: AccessStatePublisher,
    private readonly audit: AuditLogService,
    private readonly clock: Clock,
  ) {}

  /** How many users of the tenant hold the role. */
  count(m: EntityManager, tenantId: string, role: string): Promise<number> {
    return m.countBy(UserEntity, { tenantId, role });
  }

  /** The tenant's user with this e-mail, created as its full_access administrator when there is none. */
  async admin(m: EntityManager, tenantId: string, email: string): Promise<UserEntity> {
    const existing = await m.findOneBy(UserEntity, { tenantId, username: email });
    if (existing) return existing;
    const now = this.clock.now();
    const admin = m.create(UserEntity, {
      id: randomUUID(),
      tenantId,
      username: email,
      role: FULL_ACCESS_ROLE,
      status: 'enabled',
      createdAt: now,
      updatedAt: now,
    });
    await m.insert(UserEntity, admin);
    return admin;
  }

  create(caller: Caller, dto: CreateUserDto): Promise<UserEntity> {
    return this.dataSource.transaction(async (m) => {
      const role = dto.role ?? DEFAULT_ACCESS_ROLE;
      const problems = [
        ...(await this.roleProblems(m, caller.tenantId, role)),
        ...(await this.billingHubProblems(m, caller.tenantId, dto.billing_hub, true)),
      ];
      if (problems.length) throw new ValidationFailedException(problems);
      const now = this.clock.now();
      const user = m.create(UserEntity, {
        id: randomUUID(),
        tenantId: caller.tenantId,
        username: dto.email,
        role,
        status: 'enabled',
        country: dto.country ?? null,
        phoneNumber: dto.phone_number ?? null,
        language: dto.language ?? null,
        billingHub: dto.billing_hub?.toUpperCase() ?? null,
        displayName: dto.display_name || null,
        createdAt: now,
        updatedAt: now,
      });
      const inserted = await m
        .createQueryBuilder()
        .insert()
        .into(UserEntity)
        .values(user)
        .orIgnore()
        .returning('id')
        .execute();
      if (!(inserted.raw as unknown[]).length)
        throw new UserException(UserErrorCode.UserAlreadyExists, `a user with e-mail ${dto.email} already exists`, [
          { field: 'email', message: 'already in use' },
        ]);
      await this.access.users(m, user);
      await this.audit.record(m, caller, {
        action: 'user.created',
        resourceType: 'user',
        resourceId: user.username,
        changes: diff(null, setFields(auditedUser(user))),
      });
      return user;
    });
  }

  update(caller: Caller, username: string, dto: UpdateUserDto): Promise<UserEntity> {
    return this.dataSource.transaction(async (m) => {
      const user = await this.lock(m, caller.tenantId, username);
      const before = auditedUser(user);
      const problems = [
        ...(dto.role !== undefined ? await this.roleProblems(m, caller.tenantId, dto.role) : []),
        ...(dto.billing_hub !== undefined
          ? await this.billingHubProblems(m, caller.tenantId, dto.billing_hub, false)
          : []),
      ];
      if (problems.length) throw new ValidationFailedException(problems);
      if (dto.role !== undefined) user.role = dto.role;
      if (dto.billing_hub !== undefined) user.billingHub = dto.billing_hub.toUpperCase();
      if (dto.display_name !== undefined) user.displayName = dto.display_name || null;
      if (dto.phone_number !== undefined) user.phoneNumber = dto.phone_number || null;
      return this.saveChanges(m, caller, user, before, 'user.updated');
    });
  }

  /** enabled ⇄ disabled, with the reason in the audit log; setting the current status again changes nothing. */
  setStatus(caller: Caller, username: string, dto: ChangeUserStatusDto): Promise<UserEntity> {
    return this.dataSource.transaction(async (m) => {
      const user = await this.lock(m, caller.tenantId, username);
      if (user.status === dto.status) return user;
      if (user.id === caller.userId && dto.status === 'disabled')
        throw new UserException(UserErrorCode.SelfModification, 'you cannot disable your own user');
      const before = auditedUser(user);
      user.status = dto.status;
      return this.saveChanges(m, caller, user, before, 'user.status_changed', dto.reason);
    });
  }

  delete(caller: Caller, email: string): Promise<UserEntity> {
    return this.dataSource.transaction(async (m) => {
      const user = await this.lock(m, caller.tenantId, email);
      if (user.id === caller.userId)
        throw new UserException(UserErrorCode.SelfModification, 'you cannot delete your own user');
      await m.delete(UserEntity, { tenantId: caller.tenantId, id: user.id });
      await this.access.userDeleted(m, user);
      await this.audit.record(m, caller, {
        action: 'user.deleted',
        resourceType: 'user',
        resourceId: user.username,
        changes: diff(setFields(auditedUser(user)), null),
      });
      return user;
    });
  }

  async get(caller: Caller, username: string): Promise<UserEntity> {
    const user = await this.users.findOneBy({ tenantId: caller.tenantId, username: username.toLowerCase() });
    if (!user) throw notFound(username);
    return user;
  }

  list(caller: Caller, query: ListUsersQuery): Promise<Page<UserEntity>> {
    const qb = this.users.createQueryBuilder('u').where('u.tenantId = :tenant', { tenant: caller.tenantId });
    return paginate(qb, { startKey: query.start_key, limit: query.limit ?? PAGE_SIZE });
  }

  private async saveChanges(
    m: EntityManager,
    caller: Caller,
    user: UserEntity,
    before: Record<string, unknown>,
    action: string,
    reason?: string,
  ): Promise<UserEntity> {
    const changes = diff(before, auditedUser(user));
    if (!Object.keys(changes).length) return user;
    user.updatedAt = this.clock.now();
    await m.update(
      UserEntity,
      { tenantId: user.tenantId, id: user.id },
      {
        role: user.role,
        status: user.status,
        billingHub: user.billingHub,
        displayName: user.displayName,
        phoneNumber: user.phoneNumber,
        updatedAt: user.updatedAt,
      },
    );
    await this.access.users(m, user);
    await this.audit.record(m, caller, { action, resourceType: 'user', resourceId: user.username, changes, reason });
    return user;
  }

  private async lock(m: EntityManager, tenantId: string, username: string): Promise<UserEntity> {
    const user = await m.findOne(UserEntity, {
      where: { tenantId, username: username.toLowerCase() },
      lock: { mode: 'pessimistic_write' },
    });
    if (!user) throw notFound(username);
    return user;
  }

  /** The role must exist in the tenant; it stays locked (FOR SHARE) so it cannot be deleted before this commits. */
  private async roleProblems(m: EntityManager, tenantId: string, role: string): Promise<FieldError[]> {
    const found = await m.findOne(RoleEntity, { where: { tenantId, name: role }, lock: { mode: 'pessimistic_read' } });
    return found ? [] : [{ field: 'role', message: `role ${role} does not exist in this account` }];
  }

  private async billingHubProblems(
    m: EntityManager,
    tenantId: string,
    given: string | undefined,
    required: boolean,
  ): Promise<FieldError[]> {
    const tenant = await m.findOne(TenantEntity, { where: { id: tenantId }, lock: { mode: 'pessimistic_read' } });
    const problem = billingHubProblem(tenant?.billingHubs ?? [], given, required);
    return problem ? [{ field: 'billing_hub', message: problem }] : [];
  }
}

const notFound = (username: string) => new UserException(UserErrorCode.UserNotFound, `user ${username} not found`);
