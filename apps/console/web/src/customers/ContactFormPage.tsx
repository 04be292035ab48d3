import { Alert, Anchor, Button, Group, NativeSelect, Paper, SimpleGrid, Stack, TextInput, Title } from '@mantine/core';
import { FormEvent, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router-dom';

import { api, ApiError, call, useLoad } from '../api/client';
import { useI18n } from '../i18n/i18n';
import { ErrorState, Loading } from '../shared/states';
import { Contact, ContactProperty, customersQueries } from './queries';

const BASE_FIELDS = ['phone_number', 'external_id', 'name', 'email'] as const;
/** A stored value as the form's text. */
const asText = (v: unknown) => (v === undefined || v === null ? '' : typeof v === 'string' ? v : JSON.stringify(v));
const valuesKey = (propertyId: string) => `custom_property_values.${propertyId}`;

/** A property's value as the API takes it (a number for int, a boolean for boolean); '' is no value. */
function typed(property: ContactProperty, text: string): unknown {
  if (text === '') return null;
  if (property.type === 'int' && /^-?\d+$/.test(text)) return Number(text);
  if (property.type === 'boolean') return text === 'true' ? true : text === 'false' ? false : text;
  return text;
}

/** `/contacts/new` creates a contact; `/contacts/:contactId` edits one (its phone and external id stay). */
export default function ContactFormPage() {
  const { contactId } = useParams();
  const loaded = useLoad(async () => {
    const [properties, contact] = await Promise.all([
      customersQueries.properties(),
      contactId ? customersQueries.contact(contactId) : Promise.resolve(undefined),
    ]);
    return { properties: properties.contact_properties.filter((p) => !p.hidden), contact: contact?.contact };
  }, [contactId]);
  return (
    <Loading loaded={loaded}>
      {({ properties, contact }) => (
        <ContactForm key={contact?.update_date ?? 'new'} properties={properties} contact={contact} />
      )}
    </Loading>
  );
}

function ContactForm({ properties, contact }: { properties: ContactProperty[]; contact?: Contact }) {
  const { t } = useI18n();
  const navigate = useNavigate();
  const [values, setValues] = useState<Record<string, string>>(() => ({
    phone_number: contact?.phone_number ?? '',
    external_id: contact?.external_id ?? '',
    name: contact?.name ?? '',
    email: contact?.email ?? '',
    ...Object.fromEntries(
      properties.map((p) => [valuesKey(p.property_id), asText(contact?.custom_property_values[p.property_id])]),
    ),
  }));
  const [busy, setBusy] = useState(false);
  const [saved, setSaved] = useState<Contact>();
  const [error, setError] = useState<ApiError>();
  const set = (name: string, value: string) => setValues((v) => ({ ...v, [name]: value }));
  const fieldError = (name: string) => error?.fields.find((f) => f.field === name)?.message;

  const submit = async (e?: FormEvent) => {
    e?.preventDefault();
    setBusy(true);
    setError(undefined);
    setSaved(undefined);
    const custom: Record<string, unknown> = {};
    for (const p of properties) {
      const value = typed(p, values[valuesKey(p.property_id)].trim());
      // A new contact leaves empty values out; an edit removes a value emptied (null).
      if (value !== null || (contact && contact.custom_property_values[p.property_id] !== undefined))
        custom[p.property_id] = value;
    }
    const text = (name: string) => values[name].trim() || undefined;
    try {
      if (contact) {
        const updated = await call(
          api.customers.PUT('/v1/contacts/{contact_id}', {
            params: { path: { contact_id: contact.contact_id } },
            body: { name: text('name'), email: text('email'), custom_property_values: custom },
          }),
        );
        setSaved(updated.contact);
      } else {
        const created = await call(
          api.customers.POST('/v1/contacts', {
            // One of the two is enough (the API says which is missing); the OpenAPI marks both required.
            body: {
              phone_number: text('phone_number') as string,
              external_id: text('external_id') as string,
              name: text('name'),
              email: text('email'),
              custom_property_values: custom,
            },
          }),
        );
        void navigate(`/contacts/${created.contact.contact_id}`);
      }
    } catch (err) {
      setError(err as ApiError);
    } finally {
      setBusy(false);
    }
  };

  const placed = new Set<string>([...BASE_FIELDS, ...properties.map((p) => valuesKey(p.property_id))]);
  const unplaced = error?.fields.filter((f) => !placed.has(f.field)) ?? [];
  const profileId = saved?.customer_id ?? contact?.customer_id;

  return (
    <Stack maw={760}>
      <Group justify="space-between">
        <Title order={2}>
          {contact ? t('contacts.edit.title', { name: contact.name || contact.contact_id }) : t('contacts.new')}
        </Title>
        {profileId && (
          <Anchor component={Link} to={`/customers/${profileId}`} id="open-profile">
            {t('contacts.openProfile')}
          </Anchor>
        )}
      </Group>
      {error && (!error.fields.length || unplaced.length) ? (
        <ErrorState
          error={unplaced.length ? new ApiError(error.status, error.message, error.errorCode, unplaced) : error}
          onRetry={() => void submit()}
        />
      ) : null}
      {saved && (
        <Alert color="green" role="status" data-testid="contact-saved">
          {t('contacts.saved')}
        </Alert>
      )}
      <Paper withBorder p="md">
        <form onSubmit={(e) => void submit(e)} noValidate>
          <Stack>
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              {BASE_FIELDS.map((name) => (
                <TextInput
                  key={name}
                  id={name}
                  label={t(`contacts.field.${name}`)}
                  description={
                    !contact && (name === 'phone_number' || name === 'external_id')
                      ? t('contacts.phoneOrExternal')
                      : undefined
                  }
                  placeholder={name === 'phone_number' ? '+573001234567' : undefined}
                  type={name === 'email' ? 'email' : 'text'}
                  readOnly={!!contact && (name === 'phone_number' || name === 'external_id')}
                  value={values[name]}
                  onChange={(e) => set(name, e.currentTarget.value)}
                  error={fieldError(name)}
                />
              ))}
              {properties.map((p) => {
                const name = valuesKey(p.property_id);
                const common = {
                  key: p.property_id,
                  id: `property-${p.property_id}`,
                  label: p.name,
                  description: t(`contacts.type.${p.type}` as 'contacts.type.string'),
                  value: values[name],
                  error: fieldError(name),
                };
                return p.type === 'enum' || p.type === 'boolean' ? (
                  <NativeSelect
                    {...common}
                    data={[
                      { value: '', label: t('contacts.noValue') },
                      ...(p.type === 'enum'
                        ? (p.enum_values ?? []).map((v) => ({ value: v, label: v }))
                        : [
                            { value: 'true', label: t('contacts.yes') },
                            { value: 'false', label: t('contacts.no') },
                          ]),
                    ]}
                    onChange={(e) => set(name, e.currentTarget.value)}
                  />
                ) : (
                  <TextInput
                    {...common}
                    type={p.type === 'date' ? 'date' : p.type === 'email' ? 'email' : 'text'}
                    inputMode={p.type === 'int' ? 'numeric' : undefined}
                    onChange={(e) => set(name, e.currentTarget.value)}
                  />
                );
              })}
            </SimpleGrid>
            <Group>
              <Button id="save-contact" type="submit" loading={busy}>
                {contact ? t('common.save') : t('common.create')}
              </Button>
              <Button variant="default" component={Link} to="/contacts">
                {t('contacts.back')}
              </Button>
            </Group>
          </Stack>
        </form>
      </Paper>
    </Stack>
  );
}
