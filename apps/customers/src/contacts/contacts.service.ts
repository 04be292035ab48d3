import { Caller, Clock, lockForTransaction, newId, Page, paginate, ValidationFailedException } from '@kyc/platform';
import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { DataSource, EntityManager, Repository } from 'typeorm';

import { normalizePhone } from '../profiles/consumers/profile-facts';
import { ProfileStore } from '../profiles/profile.store';
import { ContactEntity } from './contact.entity';
import { ContactPropertyEntity } from './contact-property.entity';
import { ContactErrorCode, ContactException } from './contacts.exception';
import { applyCustomValues } from './custom-values';
import { ContactKeyType } from './dto/contact-key.query';
import { CreateContactDto } from './dto/create-contact.dto';
import { CreateContactPropertyDto } from './dto/create-contact-property.dto';
import { ListContactsQuery } from './dto/list-contacts.query';
import { UpdateContactDto } from './dto/update-contact.dto';

/** At most this many visible (non-hidden) contact properties per tenant (spec 2, Limits). */
export const MAX_VISIBLE_PROPERTIES = 25;
const PAGE = 20;

/** Contacts and contact properties of a tenant; a contact links to the customer profile sharing its phone. */
@Injectable()
export class ContactsService {
  constructor(
    @InjectRepository(ContactEntity) private readonly contacts: Repository<ContactEntity>,
    @InjectRepository(ContactPropertyEntity) private readonly properties: Repository<ContactPropertyEntity>,
    private readonly dataSource: DataSource,
    private readonly clock: Clock,
    private readonly profiles: ProfileStore,
  ) {}

  createProperty(caller: Caller, dto: CreateContactPropertyDto): Promise<ContactPropertyEntity> {
    return this.dataSource.transaction(async (m) => {
      // One writer of a tenant's properties at a time, so the visible limit holds under concurrency.
      await lockForTransaction(m, `contact-properties|${caller.tenantId}`);
      const hidden = dto.hidden ?? false;
      if (!hidden) {
        const visible = await m.countBy(ContactPropertyEntity, { tenantId: caller.tenantId, hidden: false });
        if (visible >= MAX_VISIBLE_PROPERTIES)
          throw new ContactException(
            ContactErrorCode.VisiblePropertiesLimit,
            `at most ${MAX_VISIBLE_PROPERTIES} visible contact properties can exist; create this one with hidden=true`,
            [{ field: 'hidden', message: `the tenant already has ${visible} visible properties` }],
          );
      }
      const property = m.create(ContactPropertyEntity, {
        id: newId('CPR'),
        tenantId: caller.tenantId,
        name: dto.name,
        type: dto.type,
        enumValues: dto.type === 'enum' ? (dto.enum_values ?? []) : null,
        hidden,
        createdAt: this.clock.now(),
      });
      const inserted = await m
        .createQueryBuilder()
        .insert()
        .into(ContactPropertyEntity)
        .values(property)
        .orIgnore()
        .returning('id')
        .execute();
      if (!(inserted.raw as unknown[]).length)
        throw new ContactException(
          ContactErrorCode.PropertyAlreadyExists,
          `a contact property named ${dto.name} exists`,
          [{ field: 'name', message: 'already in use' }],
        );
      return property;
    });
  }

  listProperties(caller: Caller): Promise<ContactPropertyEntity[]> {
    return this.properties.find({ where: { tenantId: caller.tenantId }, order: { createdAt: 'ASC', id: 'ASC' } });
  }

  async hiddenPropertyIds(tenantId: string): Promise<Set<string>> {
    const rows = await this.properties.find({ where: { tenantId, hidden: true }, select: { id: true } });
    return new Set(rows.map((r) => r.id));
  }

  create(caller: Caller, dto: CreateContactDto): Promise<ContactEntity> {
    return this.dataSource.transaction(async (m) => {
      const { values, problems } = applyCustomValues(
        {},
        dto.custom_property_values,
        await this.propertyMap(m, caller.tenantId),
      );
      if (problems.length) throw new ValidationFailedException(problems);
      const now = this.clock.now();
      const phone = dto.phone_number ?? null;
      const contact = m.create(ContactEntity, {
        id: newId('CON'),
        tenantId: caller.tenantId,
        phoneNumber: phone,
        externalId: dto.external_id ?? null,
        name: dto.name ?? null,
        email: dto.email?.toLowerCase() ?? null,
        customPropertyValues: values,
        profileId: phone ? await this.profileOfPhone(m, caller.tenantId, phone) : null,
        createdAt: now,
        updatedAt: now,
      });
      const inserted = await m
        .createQueryBuilder()
        .insert()
        .into(ContactEntity)
        .values(contact)
        .orIgnore()
        .returning('id')
        .execute();
      if (!(inserted.raw as unknown[]).length)
        throw new ContactException(
          ContactErrorCode.ContactAlreadyExists,
          'a contact with this phone_number or external_id exists',
          [{ field: phone ? 'phone_number' : 'external_id', message: 'already in use' }],
        );
      return contact;
    });
  }

  /** A page of the tenant's contacts; the filters given (exact; e-mail case-insensitive) must all match. */
  list(caller: Caller, query: ListContactsQuery): Promise<Page<ContactEntity>> {
    const qb = this.contacts.createQueryBuilder('c').where('c.tenantId = :tenantId', { tenantId: caller.tenantId });
    if (query.phone_number !== undefined) qb.andWhere('c.phoneNumber = :phone', { phone: query.phone_number });
    if (query.email !== undefined) qb.andWhere('c.email = :email', { email: query.email.toLowerCase() });
    if (query.external_id !== undefined) qb.andWhere('c.externalId = :externalId', { externalId: query.external_id });
    return paginate(qb, { startKey: query.start_key, limit: query.limit ?? PAGE });
  }

  async get(
    caller: Caller,
    key: string,
    keyType: ContactKeyType = 'contact_id',
    m?: EntityManager,
  ): Promise<ContactEntity> {
    const repo = m ? m.getRepository(ContactEntity) : this.contacts;
    const where =
      keyType === 'phone_number'
        ? { phoneNumber: key.trim() }
        : keyType === 'external_id'
          ? { externalId: key }
          : { id: key };
    const contact = await repo.findOneBy({ ...where, tenantId: caller.tenantId });
    if (!contact) throw new ContactException(ContactErrorCode.ContactNotFound, `contact ${key} not found`);
    return contact;
  }

  update(
    caller: Caller,
    key: string,
    keyType: ContactKeyType | undefined,
    dto: UpdateContactDto,
  ): Promise<ContactEntity> {
    return this.dataSource.transaction(async (m) => {
      const contact = await this.get(caller, key, keyType, m);
      const { values, problems } = applyCustomValues(
        contact.customPropertyValues,
        dto.custom_property_values,
        await this.propertyMap(m, caller.tenantId),
      );
      if (problems.length) throw new ValidationFailedException(problems);
      if (dto.name !== undefined) contact.name = dto.name;
      // null clears it (the document's nullable), as for name
      if (dto.email !== undefined) contact.email = typeof dto.email === 'string' ? dto.email.toLowerCase() : null;
      contact.customPropertyValues = values;
      contact.updatedAt = this.clock.now();
      await m.update(
        ContactEntity,
        { id: contact.id, tenantId: caller.tenantId },
        { name: contact.name, email: contact.email, customPropertyValues: values, updatedAt: contact.updatedAt },
      );
      return contact;
    });
  }

  async delete(caller: Caller, key: string, keyType?: ContactKeyType): Promise<ContactEntity> {
    const contact = await this.get(caller, key, keyType);
    await this.contacts.delete({ id: contact.id, tenantId: caller.tenantId });
    return contact;
  }

  private async propertyMap(m: EntityManager, tenantId: string): Promise<Map<string, ContactPropertyEntity>> {
    const rows = await m.findBy(ContactPropertyEntity, { tenantId });
    return new Map(rows.map((p) => [p.id, p]));
  }

  private async profileOfPhone(m: EntityManager, tenantId: string, phone: string): Promise<string | null> {
    return this.profiles.profileOfIdentifier(m, tenantId, `phone:${normalizePhone(phone)}`);
  }
}
