import { Caller, CurrentCaller, RequirePermissions } from '@kyc/platform';
import { Body, Controller, Delete, Get, Param, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';

import { RULES_PERMISSION } from '../rules.permissions';
import { SetEnvDto } from './dto/set-env.dto';
import { EnvsService, presentEnv } from './envs.service';

@ApiTags('rules engine')
@RequirePermissions(RULES_PERMISSION)
@Controller('v1/bre/rules/:rule_id/actions/:action_id/envs')
export class EnvsController {
  constructor(private readonly envs: EnvsService) {}

  @Post()
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
  async list(@CurrentCaller() caller: Caller, @Param('rule_id') ruleId: string, @Param('action_id') actionId: string) {
    return { envs: (await this.envs.list(caller, ruleId, actionId)).map(presentEnv) };
  }

  @Delete(':var_name')
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
