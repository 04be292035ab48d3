import {
  ApiEnvelopeErrors,
  ApiPage,
  ApiSuccess,
  BackendKeys,
  Caller,
  CurrentCaller,
  FormBody,
  pageLinks,
  PlatformConfig,
} from '@kyc/platform';
import { Body, Controller, Delete, Get, Param, Post, Put, Query, Req } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';

import { contactPath, presentContact, presentContactProperty } from './contact.presenter';
import { ContactsService } from './contacts.service';
import {
  CONTACT_EXAMPLE,
  CONTACT_PROPERTY_EXAMPLE,
  ContactPropertyResponse,
  ContactResponse,
} from './dto/contact.response';
import { ContactKeyQuery } from './dto/contact-key.query';
import { CreateContactDto } from './dto/create-contact.dto';
import { CreateContactPropertyDto } from './dto/create-contact-property.dto';
import { ListContactsQuery } from './dto/list-contacts.query';
import { UpdateContactDto } from './dto/update-contact.dto';

const VALUES = 'custom_property_values';

@ApiTags('contacts')
@BackendKeys()
@Controller('v1/contact-properties')
export class ContactPropertiesController {
  constructor(private readonly contacts: ContactsService) {}

  @Post()
  @ApiSuccess({
    status: 201,
    type: ContactPropertyResponse,
    wrap: 'contact_property',
    example: { contact_property: CONTACT_PROPERTY_EXAMPLE },
  })
  @ApiEnvelopeErrors(
    400,
    { 409: ['contact property plan already exists', 'contact_property_already_exists'] },
    { 422: ['at most 25 visible contact properties', 'visible_properties_limit_reached'] },
    413,
  )
  async create(@CurrentCaller() caller: Caller, @Body() dto: CreateContactPropertyDto) {
    return { contact_property: presentContactProperty(await this.contacts.createProperty(caller, dto)) };
  }

  @Get()
  @ApiSuccess({
    schema: { type: 'array', items: { $ref: '#/components/schemas/ContactPropertyResponse' } },
    wrap: 'contact_properties',
    example: { contact_properties: [CONTACT_PROPERTY_EXAMPLE] },
  })
  async list(@CurrentCaller() caller: Caller) {
    return { contact_properties: (await this.contacts.listProperties(caller)).map(presentContactProperty) };
  }
}

/** Contacts; `{contact_id}` is a contact id, a phone number or an external id as `key_type` says. */
@ApiTags('contacts')
@BackendKeys()
@Controller('v1/contacts')
export class ContactsController {
  constructor(
    private readonly contacts: ContactsService,
    private readonly config: PlatformConfig,
  ) {}

  @Post()
  @ApiSuccess({
    status: 201,
    type: ContactResponse,
    wrap: 'contact',
    with: { self: { type: 'string' } },
    example: { contact: CONTACT_EXAMPLE, self: '/v1/contacts/CON019ab9f2c4e0a1b2c3d4e5f6a7' },
  })
  @ApiEnvelopeErrors(400, { 409: ['a contact with phone number +573001234567 exists', 'contact_already_exists'] }, 413)
  async create(@CurrentCaller() caller: Caller, @FormBody(CreateContactDto, [VALUES]) dto: CreateContactDto) {
    const contact = await this.contacts.create(caller, dto);
    const hidden = await this.contacts.hiddenPropertyIds(caller.tenantId);
    return { contact: presentContact(contact, hidden), self: contactPath(contact.id) };
  }

  @Get()
  @ApiPage({ items: 'contacts', type: ContactResponse, example: [CONTACT_EXAMPLE], self: '/v1/contacts' })
  @ApiEnvelopeErrors(400)
  async list(@CurrentCaller() caller: Caller, @Query() query: ListContactsQuery, @Req() req: FastifyRequest) {
    const page = await this.contacts.list(caller, query);
    const hidden = await this.contacts.hiddenPropertyIds(caller.tenantId);
    return {
      contacts: page.items.map((c) => presentContact(c, hidden)),
      ...pageLinks(this.config.publicUrl, req.url, page.nextKey),
    };
  }

  @Get(':contact_id')
  @ApiSuccess({
    type: ContactResponse,
    wrap: 'contact',
    with: { self: { type: 'string' } },
    example: { contact: CONTACT_EXAMPLE, self: '/v1/contacts/CON019ab9f2c4e0a1b2c3d4e5f6a7' },
  })
  @ApiEnvelopeErrors(400, { 404: ['contact +573001234567 not found', 'contact_not_found'] })
  async get(@CurrentCaller() caller: Caller, @Param('contact_id') key: string, @Query() query: ContactKeyQuery) {
    const contact = await this.contacts.get(caller, key, query.key_type);
    const hidden = await this.contacts.hiddenPropertyIds(caller.tenantId);
    return { contact: presentContact(contact, hidden), self: contactPath(contact.id) };
  }

  @Put(':contact_id')
  @ApiSuccess({
    type: ContactResponse,
    wrap: 'contact',
    with: { self: { type: 'string' } },
    example: { contact: CONTACT_EXAMPLE, self: '/v1/contacts/CON019ab9f2c4e0a1b2c3d4e5f6a7' },
  })
  @ApiEnvelopeErrors(
    400,
    { 404: ['contact +573001234567 not found', 'contact_not_found'] },
    { 409: ['a contact with phone number +573001234567 exists', 'contact_already_exists'] },
    413,
  )
  async update(
    @CurrentCaller() caller: Caller,
    @Param('contact_id') key: string,
    @Query() query: ContactKeyQuery,
    @FormBody(UpdateContactDto, [VALUES]) dto: UpdateContactDto,
  ) {
    const contact = await this.contacts.update(caller, key, query.key_type, dto);
    const hidden = await this.contacts.hiddenPropertyIds(caller.tenantId);
    return { contact: presentContact(contact, hidden), self: contactPath(contact.id) };
  }

  @Delete(':contact_id')
  @ApiSuccess({
    type: ContactResponse,
    wrap: 'contact',
    with: { message: { type: 'string' } },
    example: { message: 'contact CON019ab9f2c4e0a1b2c3d4e5f6a7 deleted', contact: CONTACT_EXAMPLE },
  })
  @ApiEnvelopeErrors(400, { 404: ['contact +573001234567 not found', 'contact_not_found'] })
  async delete(@CurrentCaller() caller: Caller, @Param('contact_id') key: string, @Query() query: ContactKeyQuery) {
    const contact = await this.contacts.delete(caller, key, query.key_type);
    return { message: `contact ${contact.id} deleted`, contact: presentContact(contact) };
  }
}
