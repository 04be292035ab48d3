import { Caller, CurrentCaller, RequirePermissions } from '@kyc/platform';
import { Controller, Delete, Get, Param, Post, Put } from '@nestjs/common';
import { ApiBody, ApiTags } from '@nestjs/swagger';

import { FormBody } from '../dto/form-body.decorator';
import { RULES_PERMISSION } from '../rules.permissions';
import { presentAction } from './action.presenter';
import { ActionsService } from './actions.service';
import { CreateActionDto } from './dto/create-action.dto';
import { UpdateActionDto } from './dto/update-action.dto';

@ApiTags('rules engine')
@RequirePermissions(RULES_PERMISSION)
@Controller('v1/bre/rules/:rule_id/actions')
export class ActionsController {
  constructor(private readonly actions: ActionsService) {}

  @Post()
  @ApiBody({ type: CreateActionDto })
  async create(
    @CurrentCaller() caller: Caller,
    @Param('rule_id') ruleId: string,
    @FormBody(CreateActionDto, ['config']) dto: CreateActionDto,
  ) {
    return { action: presentAction(await this.actions.create(caller, ruleId, dto)) };
  }

  @Get()
  async list(@CurrentCaller() caller: Caller, @Param('rule_id') ruleId: string) {
    return { actions: (await this.actions.list(caller, ruleId)).map(presentAction) };
  }

  @Get(':action_id')
  async get(@CurrentCaller() caller: Caller, @Param('rule_id') ruleId: string, @Param('action_id') actionId: string) {
    return { action: presentAction(await this.actions.get(caller, ruleId, actionId)) };
  }

  @Put(':action_id')
  @ApiBody({ type: UpdateActionDto })
  async update(
    @CurrentCaller() caller: Caller,
    @Param('rule_id') ruleId: string,
    @Param('action_id') actionId: string,
    @FormBody(UpdateActionDto, ['config']) dto: UpdateActionDto,
  ) {
    return { action: presentAction(await this.actions.update(caller, ruleId, actionId, dto)) };
  }

  @Delete(':action_id')
  async delete(
    @CurrentCaller() caller: Caller,
    @Param('rule_id') ruleId: string,
    @Param('action_id') actionId: string,
  ) {
    const action = await this.actions.delete(caller, ruleId, actionId);
    return { action_id: action.id, deleted: true };
  }
}
