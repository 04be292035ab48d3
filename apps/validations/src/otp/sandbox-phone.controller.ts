import { ApiEnvelopeErrors, ApiSuccess, Caller, CurrentCaller } from '@kyc/platform';
import { Controller, Get, Query } from '@nestjs/common';
import { ApiPropertyOptional, ApiTags } from '@nestjs/swagger';
import { InjectRepository } from '@nestjs/typeorm';
import { IsOptional, IsString } from 'class-validator';
import { Repository } from 'typeorm';

import { SANDBOX_MESSAGES_EXAMPLE, SandboxMessagesResponse } from './dto/sandbox-messages.response';
import { SandboxPhoneMessageEntity } from './sandbox-phone-message.entity';

export class SandboxMessagesQuery {
  @ApiPropertyOptional()
  @IsOptional()
  @IsString()
  phone_number?: string;
}

/** SANDBOX only: what the sandbox phone provider delivered to the tenant's users (latest 50). */
@ApiTags('sandbox')
@Controller('v1/sandbox/phone-messages')
export class SandboxPhoneController {
  constructor(
    @InjectRepository(SandboxPhoneMessageEntity) private readonly messages: Repository<SandboxPhoneMessageEntity>,
  ) {}

  @Get()
  @ApiSuccess({ type: SandboxMessagesResponse, example: SANDBOX_MESSAGES_EXAMPLE })
  @ApiEnvelopeErrors(400)
  async list(@CurrentCaller() caller: Caller, @Query() query: SandboxMessagesQuery) {
    const rows = await this.messages.find({
      where: { tenantId: caller.tenantId, ...(query.phone_number ? { phoneNumber: query.phone_number } : {}) },
      order: { createdAt: 'DESC' },
      take: 50,
    });
    return {
      messages: rows.map((m) => ({
        message_id: m.id,
        phone_number: m.phoneNumber,
        channel: m.channel,
        text: m.text,
        validation_id: m.validationId,
        creation_date: m.createdAt.toISOString(),
      })),
    };
  }
}
