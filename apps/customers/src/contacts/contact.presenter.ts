import { ContactEntity } from './contact.entity';
import { ContactPropertyEntity } from './contact-property.entity';

export const presentContactProperty = (p: ContactPropertyEntity) => ({
  property_id: p.id,
  name: p.name,
  type: p.type,
  enum_values: p.enumValues ?? undefined,
  hidden: p.hidden,
  creation_date: p.createdAt.toISOString(),
});

/** A contact; values of hidden properties are left out of its details. */
export const presentContact = (c: ContactEntity, hidden: ReadonlySet<string> = new Set()) => ({
  contact_id: c.id,
  phone_number: c.phoneNumber,
  external_id: c.externalId,
  name: c.name,
  email: c.email,
  custom_property_values: Object.fromEntries(
    Object.entries(c.customPropertyValues ?? {}).filter(([id]) => !hidden.has(id)),
  ),
  customer_id: c.profileId,
  creation_date: c.createdAt.toISOString(),
  update_date: c.updatedAt.toISOString(),
});

export const contactPath = (id: string) => `/v1/contacts/${id}`;
