import { Caller, Clock, Page, paginate } from '@kyc/platform';
import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, Repository } from 'typeorm';

import { randomAccountId } from '../shared/ids';
import { AccountErrorCode, AccountException } from './accounts.exception';
import { CreateAccountDto } from './dto/create-account.dto';
import { ValidatorAccountEntity } from './validator-account.entity';

const PAGE_SIZE = 20;

/** Validation accounts: one per user of the tenant, shared by every validator. */
@Injectable()
export class AccountsService {
  constructor(
    @InjectRepository(ValidatorAccountEntity) private readonly accounts: Repository<ValidatorAccountEntity>,
    private readonly clock: Clock,
  ) {}

  async create(caller: Caller, dto: CreateAccountDto): Promise<ValidatorAccountEntity> {
    const now = this.clock.now();
    const account = this.accounts.create({
      tenantId: caller.tenantId,
      accountId: dto.account_id ?? randomAccountId(),
      email: dto.email ?? null,
      firstName: dto.first_name ?? null,
      lastName: dto.last_name ?? null,
      phoneNumber: dto.phone_number ?? null,
      country: dto.country ?? null,
      documentNumber: dto.document_number ?? null,
      documentType: dto.document_type ?? null,
      documentIssueDate: dto.document_issue_date ?? null,
      facebookUser: dto.facebook_user ?? null,
      twitterUser: dto.twitter_user ?? null,
      createdAt: now,
      updatedAt: now,
    });
    const inserted = await this.accounts
      .createQueryBuilder()
      .insert()
      .values(account)
      .orIgnore()
      .returning(['accountId'])
      .execute();
    if (!(inserted.raw as unknown[]).length)
      throw new AccountException(
        AccountErrorCode.AccountExists,
        `account ${account.accountId} already exists; each user needs a distinct account_id`,
        [{ field: 'account_id', message: 'account_id is taken by another user of this tenant' }],
      );
    return account;
  }

  async get(caller: Caller, accountId: string, manager?: EntityManager): Promise<ValidatorAccountEntity> {
    const repo = manager ? manager.getRepository(ValidatorAccountEntity) : this.accounts;
    const account = await repo.findOneBy({ tenantId: caller.tenantId, accountId });
    if (!account) throw new AccountException(AccountErrorCode.AccountNotFound, `account ${accountId} not found`);
    return account;
  }

  /** The account, created empty when it does not exist (enrollments and document validations may name a new one). */
  async getOrCreate(
    manager: EntityManager,
    tenantId: string,
    accountId: string | undefined,
  ): Promise<ValidatorAccountEntity> {
    const repo = manager.getRepository(ValidatorAccountEntity);
    const id = accountId || randomAccountId();
    const now = this.clock.now();
    await repo
      .createQueryBuilder()
      .insert()
      .values({ tenantId, accountId: id, createdAt: now, updatedAt: now })
      .orIgnore()
      .execute();
    return (await repo.findOneBy({ tenantId, accountId: id }))!;
  }

  list(caller: Caller, startKey?: string): Promise<Page<ValidatorAccountEntity>> {
    const qb = this.accounts.createQueryBuilder('a').where('a.tenantId = :tenant', { tenant: caller.tenantId });
    return paginate(qb, { startKey, limit: PAGE_SIZE, idColumn: 'accountId' });
  }
}
