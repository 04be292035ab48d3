import { Anchor, Button, Group, NativeSelect, Stack, Table, TextInput, Title } from '@mantine/core';
import { FormEvent, useState } from 'react';
import { Link } from 'react-router-dom';

import { useLoad } from '../api/client';
import { MessageKey } from '../i18n/en';
import { useI18n } from '../i18n/i18n';
import { EmptyState, ErrorState, Loading } from '../shared/states';
import { CONTACT_SEARCH_FIELDS, ContactSearch, ContactSearchField, customersQueries, startKeyOf } from './queries';

/** The tenant's contacts, newest first; a search by phone number, e-mail or external id (exact). */
export default function ContactsPage() {
  const { t } = useI18n();
  const [field, setField] = useState<ContactSearchField>('phone_number');
  const [value, setValue] = useState('');
  const [search, setSearch] = useState<ContactSearch>({});
  const loaded = useLoad(() => customersQueries.contacts(search), [search]);
  const apply = (e: FormEvent) => {
    e.preventDefault();
    setSearch(value.trim() ? { field, value: value.trim() } : {});
  };
  return (
    <Stack>
      <Group justify="space-between">
        <Title order={2}>{t('contacts.title')}</Title>
        <Button component={Link} to="/contacts/new" id="new-contact">
          {t('contacts.new')}
        </Button>
      </Group>
      <form onSubmit={apply} role="search">
        <Group align="end">
          <NativeSelect
            id="contact-search-field"
            label={t('contacts.searchBy')}
            data={CONTACT_SEARCH_FIELDS.map((f) => ({ value: f, label: t(`contacts.field.${f}` as MessageKey) }))}
            value={field}
            onChange={(e) => setField(e.currentTarget.value as ContactSearchField)}
          />
          <TextInput
            id="contact-search"
            label={t('contacts.searchValue')}
            placeholder={field === 'phone_number' ? '+573001234567' : field === 'email' ? 'ana@example.com' : ''}
            value={value}
            onChange={(e) => setValue(e.currentTarget.value)}
          />
          <Button type="submit" variant="light" id="contact-search-submit">
            {t('common.search')}
          </Button>
          {search.field && (
            <Button
              variant="subtle"
              onClick={() => {
                setValue('');
                setSearch({});
              }}
            >
              {t('contacts.clearSearch')}
            </Button>
          )}
        </Group>
      </form>
      {/* A refused search (a malformed phone or e-mail) is said next to the search, with its field. */}
      {loaded.error && loaded.error.status === 400 ? (
        <ErrorState error={loaded.error} />
      ) : (
        <Loading loaded={loaded}>
          {(page) =>
            page.contacts.length === 0 ? (
              <EmptyState>{search.field ? t('contacts.noMatch') : t('contacts.empty')}</EmptyState>
            ) : (
              <>
                <Table.ScrollContainer minWidth={720}>
                  <Table striped highlightOnHover data-testid="contacts-table">
                    <Table.Thead>
                      <Table.Tr>
                        <Table.Th>{t('contacts.field.name')}</Table.Th>
                        <Table.Th>{t('contacts.field.phone_number')}</Table.Th>
                        <Table.Th>{t('contacts.field.email')}</Table.Th>
                        <Table.Th>{t('contacts.field.external_id')}</Table.Th>
                        <Table.Th>{t('contacts.profile')}</Table.Th>
                        <Table.Th>{t('common.created')}</Table.Th>
                      </Table.Tr>
                    </Table.Thead>
                    <Table.Tbody>
                      {page.contacts.map((c) => (
                        <Table.Tr key={c.contact_id}>
                          <Table.Td>
                            <Anchor component={Link} to={`/contacts/${c.contact_id}`}>
                              {c.name || c.contact_id}
                            </Anchor>
                          </Table.Td>
                          <Table.Td>{c.phone_number ?? '—'}</Table.Td>
                          <Table.Td>{c.email ?? '—'}</Table.Td>
                          <Table.Td>{c.external_id ?? '—'}</Table.Td>
                          <Table.Td>
                            {c.customer_id ? (
                              <Anchor component={Link} to={`/customers/${c.customer_id}`}>
                                {t('contacts.openProfile')}
                              </Anchor>
                            ) : (
                              '—'
                            )}
                          </Table.Td>
                          <Table.Td>{new Date(c.creation_date).toLocaleString()}</Table.Td>
                        </Table.Tr>
                      ))}
                    </Table.Tbody>
                  </Table>
                </Table.ScrollContainer>
                <Group>
                  {search.start_key && (
                    <Button variant="default" onClick={() => setSearch({ ...search, start_key: undefined })}>
                      {t('common.first')}
                    </Button>
                  )}
                  {page.next && (
                    <Button
                      variant="default"
                      onClick={() => setSearch({ ...search, start_key: startKeyOf(page.next) })}
                    >
                      {t('common.next')}
                    </Button>
                  )}
                </Group>
              </>
            )
          }
        </Loading>
      )}
    </Stack>
  );
}
