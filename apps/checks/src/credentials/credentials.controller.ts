import {
  ApiEnvelopeErrors,
  ApiPage,
  ApiSuccess,
  BackendKeys,
  Caller,
  CurrentCaller,
  pageLinks,
  PlatformConfig,
} from '@kyc/platform';
import { Body, Controller, Delete, Get, HttpCode, Param, Post, Req } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';

import { CredentialsService } from './credentials.service';
import { CREDENTIAL_EXAMPLE, CredentialDeletedResponse, CredentialResponse } from './dto/credential.response';
import { SaveCredentialDto } from './dto/save-credential.dto';

/** Credentials of databases that need them (commercial sources). Passwords are write-only. */
@ApiTags('credentials')
@BackendKeys()
@Controller('v1/config/credentials')
export class CredentialsController {
  constructor(
    private readonly credentials: CredentialsService,
    private readonly config: PlatformConfig,
  ) {}

  @Post(':database_id')
  @ApiSuccess({ status: 201, type: CredentialResponse, example: CREDENTIAL_EXAMPLE })
  @ApiEnvelopeErrors(400, { 404: ['database sandbox-co-nope does not exist', 'unknown_database'] }, 413)
  save(@CurrentCaller() caller: Caller, @Param('database_id') databaseId: string, @Body() dto: SaveCredentialDto) {
    return this.credentials.save(caller, databaseId, dto);
  }

  @Get()
  @ApiPage({
    items: 'credentials',
    type: CredentialResponse,
    example: [CREDENTIAL_EXAMPLE],
    self: '/v1/config/credentials',
  })
  async list(@CurrentCaller() caller: Caller, @Req() req: FastifyRequest) {
    return { credentials: await this.credentials.list(caller), ...pageLinks(this.config.publicUrl, req.url) };
  }

  @Delete(':database_id')
  @ApiSuccess({ type: CredentialDeletedResponse, example: { database_id: 'sandbox-co-bureau', deleted: true } })
  @ApiEnvelopeErrors({ 404: ['No credentials stored for sandbox-co-bureau', 'credential_not_found'] })
  @HttpCode(200)
  async remove(@CurrentCaller() caller: Caller, @Param('database_id') databaseId: string) {
    await this.credentials.remove(caller, databaseId);
    return { database_id: databaseId, deleted: true };
  }
}
