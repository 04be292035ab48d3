import { BUILT_IN_ROLES } from '@kyc/contracts';
import { Caller, Clock, Page, paginate, ValidationFailedException } from '@kyc/platform';
import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { DataSource, EntityManager, Repository } from 'typeorm';

import { AccessStatePublisher } from '../access/access-state.publisher';
import { AuditLogService, diff } from '../audit/audit-log.service';
import { parseAccessRules } from './access-rules';
import { CreateRoleDto } from './dto/create-role.dto';
import { ListRolesQuery } from './dto/list-roles.query';
import { UpdateRoleDto } from './dto/update-role.dto';
import { RoleEntity } from './role.entity';
import { auditedRole } from './role.presenter';
import { RoleHolders } from './role-holders';
import { RoleErrorCode, RoleException } from './roles.exception';

const PAGE_SIZE = 20;
const RESERVED = new Set(Object.keys(BUILT_IN_ROLES));
const isReserved = (name: string) => RESERVED.has(name.toLowerCase());

/**
 * Roles of a tenant: a set of permissions and optional access rules (JSON-Logic over check
 * fields). full_access and default_access are built in and cannot be created, changed or
 * deleted. Every change publishes the role's state to `account.roles` (every service's access
 * cache) and writes an audit entry, in the change's transaction.
 */
@Injectable()
export class RolesService {
  constructor(
    @InjectRepository(RoleEntity) private readonly roles: Repository<RoleEntity>,
    private readonly dataSource: DataSource,
    private readonly access: AccessStatePublisher,
    private readonly holders: RoleHolders,
    private readonly audit: AuditLogService,
    private readonly clock: Clock,
  ) {}

  create(caller: Caller, dto: CreateRoleDto): Promise<RoleEntity> {
    if (isReserved(dto.name)) {
      throw new RoleException(RoleErrorCode.ReservedRoleName, `${dto.name} is a built-in role name`, [
        { field: 'name', message: `${dto.name} is reserved (built-in roles: ${[...RESERVED].join(', ')})` },
      ]);
    }
    return this.dataSource.transaction(async (m) => {
      const now = this.clock.now();
      const role = m.create(RoleEntity, {
        tenantId: caller.tenantId,
        name: dto.name,
        description: dto.description ?? '',
        permissions: dto.permissions ?? [],
        accessRules: parseAccessRules(dto.access_rules ?? []),
        builtIn: false,
        createdAt: now,
        updatedAt: now,
      });
      const inserted = await m
        .createQueryBuilder()
        .insert()
        .into(RoleEntity)
        .values(role)
        .orIgnore()
        .returning('name')
        .execute();
      if (!(inserted.raw as unknown[]).length)
        throw new RoleException(RoleErrorCode.RoleAlreadyExists, `role ${dto.name} already exists`, [
          { field: 'name', message: 'already in use' },
        ]);
      await this.access.roles(m, role);
      await this.audit.record(m, caller, {
        action: 'role.created',
        resourceType: 'role',
        resourceId: role.name,
        changes: diff(null, auditedRole(role)),
      });
      return role;
    });
  }

  update(caller: Caller, name: string, dto: UpdateRoleDto): Promise<RoleEntity> {
    this.assertNotBuiltIn(name, 'changed');
    if (dto.name !== undefined && dto.name !== name) {
      throw new ValidationFailedException([
        { field: 'name', message: `roles cannot be renamed: leave name out or send ${name}` },
      ]);
    }
    return this.dataSource.transaction(async (m) => {
      const role = await this.lock(m, caller.tenantId, name);
      const before = auditedRole(role);
      if (dto.description !== undefined) role.description = dto.description;
      if (dto.permissions !== undefined) role.permissions = dto.permissions;
      if (dto.access_rules !== undefined) role.accessRules = parseAccessRules(dto.access_rules);
      const changes = diff(before, auditedRole(role));
      if (!Object.keys(changes).length) return role;
      role.updatedAt = this.clock.now();
      await m.update(
        RoleEntity,
        { tenantId: role.tenantId, name: role.name },
        {
          description: role.description,
          permissions: role.permissions,
          accessRules: role.accessRules,
          updatedAt: role.updatedAt,
        },
      );
      await this.access.roles(m, role);
      await this.audit.record(m, caller, {
        action: 'role.updated',
        resourceType: 'role',
        resourceId: role.name,
        changes,
      });
      return role;
    });
  }

  /** Not in the spec; refused for built-in roles and while any user holds the role. */
  delete(caller: Caller, name: string): Promise<RoleEntity> {
    this.assertNotBuiltIn(name, 'deleted');
    return this.dataSource.transaction(async (m) => {
      const role = await this.lock(m, caller.tenantId, name);
      const holders = await this.holders.count(m, caller.tenantId, name);
      if (holders)
        throw new RoleException(
          RoleErrorCode.RoleInUse,
          `role ${name} is held by ${holders} user${holders > 1 ? 's' : ''}: give them another role first`,
        );
      await m.delete(RoleEntity, { tenantId: caller.tenantId, name });
      await this.access.roleDeleted(m, role);
      await this.audit.record(m, caller, {
        action: 'role.deleted',
        resourceType: 'role',
        resourceId: name,
        changes: diff(auditedRole(role), null),
      });
      return role;
    });
  }

  async get(caller: Caller, name: string): Promise<RoleEntity> {
    const role = await this.roles.findOneBy({ tenantId: caller.tenantId, name });
    if (!role) throw notFound(name);
    return role;
  }

  list(caller: Caller, query: ListRolesQuery): Promise<Page<RoleEntity>> {
    const qb = this.roles.createQueryBuilder('r').where('r.tenantId = :tenant', { tenant: caller.tenantId });
    return paginate(qb, { startKey: query.start_key, limit: query.limit ?? PAGE_SIZE, idColumn: 'name' });
  }

  private assertNotBuiltIn(name: string, verb: string) {
    if (isReserved(name))
      throw new RoleException(RoleErrorCode.BuiltInRole, `${name} is a built-in role and cannot be ${verb}`);
  }

  /** Locks the role (FOR UPDATE): user changes that pick it hold it FOR SHARE, so a delete waits for them and sees them. */
  private async lock(m: EntityManager, tenantId: string, name: string): Promise<RoleEntity> {
    const role = await m.findOne(RoleEntity, { where: { tenantId, name }, lock: { mode: 'pessimistic_write' } });
    if (!role) throw notFound(name);
    return role;
  }
}

const notFound = (name: string) => new RoleException(RoleErrorCode.RoleNotFound, `role ${name} not found`);
