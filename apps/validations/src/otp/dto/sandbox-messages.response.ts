import { ApiProperty } from '@nestjs/swagger';

class SandboxMessageResponse {
  @ApiProperty() message_id!: string;
  @ApiProperty() phone_number!: string;
  @ApiProperty({ enum: ['sms', 'call', 'msgapp'] }) channel!: string;
  @ApiProperty() text!: string;
  @ApiProperty() validation_id!: string;
  @ApiProperty({ format: 'date-time' }) creation_date!: string;
}

/** SANDBOX: what the sandbox phone provider delivered (latest 50). */
export class SandboxMessagesResponse {
  @ApiProperty({ type: [SandboxMessageResponse] }) messages!: SandboxMessageResponse[];
}

export const SANDBOX_MESSAGES_EXAMPLE = {
  messages: [
    {
      message_id: 'SMS019ab9f2c4e0a1b2c3d4e5f6a7',
      phone_number: '+573001234567',
      channel: 'sms',
      text: 'KYC: tu código de verificación es 482913',
      validation_id: 'VLD019ab9f2c4e0a1b2c3d4e5f6b1',
      creation_date: '2026-11-25T09:00:01.000Z',
    },
  ],
};
