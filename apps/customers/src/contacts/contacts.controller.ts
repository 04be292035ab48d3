import { Caller, CurrentCaller, CursorPageQuery, pageLinks, PlatformConfig } from '@kyc/platform';
import { Body, Controller, Delete, Get, Param, Post, Put, Query, Req } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';

import { FormBody } from '../shared/form-body';
import { contactPath, presentContact, presentContactProperty } from './contact.presenter';
import { ContactsService } from './contacts.service';
import { ContactKeyQuery } from './dto/contact-key.query';
import { CreateContactDto } from './dto/create-contact.dto';
import { CreateContactPropertyDto } from './dto/create-contact-property.dto';
import { UpdateContactDto } from './dto/update-contact.dto';

const VALUES = 'custom_property_values';

@ApiTags('contacts')
@Controller('v1/contact-properties')
export class ContactPropertiesController {
  constructor(private readonly contacts: ContactsService) {}

  @Post()
  async create(@CurrentCaller() caller: Caller, @Body() dto: CreateContactPropertyDto) {
    return { contact_property: presentContactProperty(await this.contacts.createProperty(caller, dto)) };
  }

  @Get()
  async list(@CurrentCaller() caller: Caller) {
    return { contact_properties: (await this.contacts.listProperties(caller)).map(presentContactProperty) };
  }
}

/** Contacts; `{contact_id}` is a contact id, a phone number or an external id as `key_type` says. */
@ApiTags('contacts')
@Controller('v1/contacts')
export class ContactsController {
  constructor(
    private readonly contacts: ContactsService,
    private readonly config: PlatformConfig,
  ) {}

  @Post()
  async create(@CurrentCaller() caller: Caller, @FormBody(CreateContactDto, VALUES) dto: CreateContactDto) {
    const contact = await this.contacts.create(caller, dto);
    const hidden = await this.contacts.hiddenPropertyIds(caller.tenantId);
    return { contact: presentContact(contact, hidden), self: contactPath(contact.id) };
  }

  @Get()
  async list(@CurrentCaller() caller: Caller, @Query() query: CursorPageQuery, @Req() req: FastifyRequest) {
    const page = await this.contacts.list(caller, query.start_key, query.limit);
    const hidden = await this.contacts.hiddenPropertyIds(caller.tenantId);
    return {
      contacts: page.items.map((c) => presentContact(c, hidden)),
      ...pageLinks(this.config.publicUrl, req.url, page.nextKey),
    };
  }

  @Get(':contact_id')
  async get(@CurrentCaller() caller: Caller, @Param('contact_id') key: string, @Query() query: ContactKeyQuery) {
    const contact = await this.contacts.get(caller, key, query.key_type);
    const hidden = await this.contacts.hiddenPropertyIds(caller.tenantId);
    return { contact: presentContact(contact, hidden), self: contactPath(contact.id) };
  }

  @Put(':contact_id')
  async update(
    @CurrentCaller() caller: Caller,
    @Param('contact_id') key: string,
    @Query() query: ContactKeyQuery,
    @FormBody(UpdateContactDto, VALUES) dto: UpdateContactDto,
  ) {
    const contact = await this.contacts.update(caller, key, query.key_type, dto);
    const hidden = await this.contacts.hiddenPropertyIds(caller.tenantId);
    return { contact: presentContact(contact, hidden), self: contactPath(contact.id) };
  }

  @Delete(':contact_id')
  async delete(@CurrentCaller() caller: Caller, @Param('contact_id') key: string, @Query() query: ContactKeyQuery) {
    const contact = await this.contacts.delete(caller, key, query.key_type);
    return { message: `contact ${contact.id} deleted`, contact: presentContact(contact) };
  }
}
