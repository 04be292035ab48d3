import { ENGAGEMENT_AGENT, ENGAGEMENT_MANAGE } from '@kyc/contracts';
import { ApiEnvelopeErrors, ApiSuccess, BackendKeys, Caller, CurrentCaller, RequirePermissions } from '@kyc/platform';
import { Controller, Get } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';

import { CallingService } from './calling.service';

/** Calling from the workspace: the ICE servers (STUN/TURN) a browser uses. */
@ApiTags('agent workspace: calling')
@BackendKeys()
@Controller('v1/engagement/calling')
export class CallingController {
  constructor(private readonly calling: CallingService) {}

  @RequirePermissions(ENGAGEMENT_AGENT, ENGAGEMENT_MANAGE)
  @Get('ice-servers')
  @ApiSuccess({
    schema: {
      type: 'object',
      required: ['ice_servers'],
      properties: {
        ice_servers: {
          type: 'array',
          items: {
            type: 'object',
            properties: {
              urls: { type: 'array', items: { type: 'string' } },
              username: { type: 'string' },
              credential: { type: 'string' },
            },
          },
        },
        ttl: { type: 'integer', description: 'Seconds the TURN credential is valid' },
        expires_at: { type: 'string', format: 'date-time' },
      },
    },
    example: {
      ice_servers: [
        { urls: ['stun:stun.l.google.com:19302'] },
        {
          urls: ['turn:turn.example.com:3478?transport=udp', 'turns:turn.example.com:5349'],
          username: '1795000000:agent@acme.com',
          credential: 'd8soP47RbdIKLDUOpnJPVQyq5Ts=',
        },
      ],
      ttl: 3600,
      expires_at: '2026-11-25T11:00:00.000Z',
    },
  })
  @ApiEnvelopeErrors(403)
  iceServers(@CurrentCaller() caller: Caller) {
    return this.calling.iceServers(caller);
  }
}
