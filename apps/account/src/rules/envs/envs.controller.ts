import { ApiEnvelopeErrors, ApiSuccess, BackendKeys, Caller, CurrentCaller, RequirePermissions } from '@kyc/platform';
import { Body, Controller, Delete, Get, Param, Post } from '@nestjs/common';
import { ApiExtraModels, ApiTags, getSchemaPath } from '@nestjs/swagger';

import { RULES_PERMISSION } from '../rules.permissions';
import { ENV_EXAMPLE, EnvResponse } from './dto/env.response';
import { SetEnvDto } from './dto/set-env.dto';
import { EnvsService, presentEnv } from './envs.service';

@ApiTags('rules engine')
@RequirePermissions(RULES_PERMISSION)
@BackendKeys()
@Controller('v1/bre/rules/:rule_id/actions/:action_id/envs')
export class EnvsController {
  constructor(private readonly envs: EnvsService) {}

  @Post()
  @ApiSuccess({
    status: 201,
    wrap: 'env',
    type: EnvResponse,
    with: { created: { type: 'boolean', description: 'false: an existing variable got the new value' } },
    example: { env: ENV_EXAMPLE, created: true },
  })
  @ApiEnvelopeErrors(400, 403, { 404: ['Action ACT019ab9f2c4e0a1b2c3d4e5 not found', 'action_not_found'] }, 413)
  async set(
    @CurrentCaller() caller: Caller,
    @Param('rule_id') ruleId: string,
    @Param('action_id') actionId: string,
    @Body() dto: SetEnvDto,
  ) {
    const { env, created } = await this.envs.set(caller, ruleId, actionId, dto);
    return { env: presentEnv(env), created };
  }

  @Get()
  @ApiSuccess({
    schema: { type: 'object', properties: { envs: { type: 'array', items: { $ref: getSchemaPath(EnvResponse) } } } },
    example: { envs: [ENV_EXAMPLE, { ...ENV_EXAMPLE, name: 'REGION', is_secret: false, value: 'co' }] },
  })
  @ApiExtraModels(EnvResponse)
  @ApiEnvelopeErrors(403, { 404: ['Action ACT019ab9f2c4e0a1b2c3d4e5 not found', 'action_not_found'] })
  async list(@CurrentCaller() caller: Caller, @Param('rule_id') ruleId: string, @Param('action_id') actionId: string) {
    return { envs: (await this.envs.list(caller, ruleId, actionId)).map(presentEnv) };
  }

  @Delete(':var_name')
  @ApiSuccess({
    schema: { type: 'object', properties: { name: { type: 'string' }, deleted: { type: 'boolean' } } },
    example: { name: 'API_TOKEN', deleted: true },
  })
  @ApiEnvelopeErrors(403, { 404: ['Env var API_TOKEN not found', 'env_not_found'] })
  async delete(
    @CurrentCaller() caller: Caller,
    @Param('rule_id') ruleId: string,
    @Param('action_id') actionId: string,
    @Param('var_name') name: string,
  ) {
    await this.envs.delete(caller, ruleId, actionId, name);
    return { name, deleted: true };
  }
}
